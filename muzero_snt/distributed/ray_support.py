# Copyright 2026 The muzero_snt Authors. All Rights Reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
# ============================================================================
"""Ray, imported on demand, and the connection to a local or remote cluster.

A private instance listens on the loopback interface only; `reaper.py`
kills what is left of it, even after a kill -9 of the driver. Ray's
`init` and `shutdown` run inside `stopping.keep_handlers()`, since they
replace the SIGTERM handler.
"""

import importlib.util
import os
import re
import socket
import subprocess
import sys
from typing import Any, Optional

from absl import logging

from muzero_snt.distributed import reaper
from muzero_snt.run import stopping

_PROBE_TIMEOUT = 5.  # Seconds to wait for a TCP answer from a cluster.
_ADDRESS = re.compile(r'^(?P<host>[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:]+\]):'
                      r'(?P<port>\d{1,5})$')
# Read by Ray when first imported (0: a node takes 127.0.0.1 as its
# address): `connect` sets it before it imports Ray.
_LOCAL_ONLY = 'RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'
_reaper: Optional[subprocess.Popen] = None  # Of the instance started here.


def _missing(reason: str) -> ImportError:
  return ImportError(
      f'The distributed mode (num_actors > 0) needs Ray, which is not '
      f"installed ({reason}). Install it with: pip install -e '.[distributed]'")


def check_installed() -> None:
  """Raises ImportError naming the extra if Ray is missing (unimported)."""
  if 'ray' in sys.modules and sys.modules['ray'] is None:
    raise _missing('import of ray is blocked')
  if 'ray' not in sys.modules and importlib.util.find_spec('ray') is None:
    raise _missing('no module named ray')


def require_ray() -> Any:
  """Returns the `ray` module; ImportError naming the extra if missing."""
  check_installed()
  try:
    import ray  # pylint: disable=g-import-not-at-top
  except ImportError as e:
    raise _missing(str(e)) from e
  return ray


def check_address(address: str) -> None:
  """Raises ValueError unless a TCP server answers at `address` (HOST:PORT)."""
  match = _ADDRESS.match(address or '')
  if not match or not 0 < int(match.group('port')) < 65536:
    raise ValueError(f'ray_address must be HOST:PORT (e.g. 10.0.0.5:6379, '
                     f'the address `ray start --head` prints), got '
                     f'{address!r}.')
  host = match.group('host').strip('[]')
  port = int(match.group('port'))
  try:
    with socket.create_connection((host, port), timeout=_PROBE_TIMEOUT):
      pass
  except OSError as e:
    raise ValueError(
        f'ray_address={address}: no Ray cluster answers there ({e}). Start '
        f'one with `ray start --head --port={port}` on {host}, or leave '
        'ray_address unset to run Ray on this machine.') from e


def connect(address: Optional[str] = None,
            num_cpus: Optional[int] = None) -> bool:
  """Joins the cluster at `address` (HOST:PORT) or, with none, starts a
  private instance of `num_cpus` CPUs (None: all); True if it started one.

  Raises:
    ImportError: if Ray is not installed (naming what to install).
    ValueError: if `address` is malformed or no cluster answers there.
  """
  if not address and 'ray' not in sys.modules:
    os.environ[_LOCAL_ONLY] = '0'  # Loopback only.
  ray = require_ray()
  if ray.is_initialized():
    return False
  if address:
    check_address(address)
    with stopping.keep_handlers():
      ray.init(address=address, log_to_driver=True)
    return False
  _start_reaper()
  before = reaper.children(os.getpid()) if _reaper is not None else set()
  try:
    with stopping.keep_handlers():
      ray.init(num_cpus=num_cpus, include_dashboard=False,
               _node_ip_address='127.0.0.1', log_to_driver=True)
  except BaseException:
    _stop_reaper()  # Whatever Ray had started goes too.
    raise
  if _reaper is not None:
    # Ray's: the children ray.init started (the reaper is one of `before`).
    _reaper.stdin.write(reaper.started_message(
        reaper.children(os.getpid()) - before))
    _reaper.stdin.flush()
  if ray.util.get_node_ip_address() != '127.0.0.1':
    logging.warning(
        'Ray was imported before muzero_snt started it, without %s=0: its '
        'servers listen on %s, not only on the loopback interface.',
        _LOCAL_ONLY, ray.util.get_node_ip_address())
  return True


def shutdown() -> None:
  """Disconnects from Ray, stopping the instance `connect` started, if any
  (its reaper kills whatever of it is left)."""
  ray = require_ray()
  with stopping.keep_handlers():
    ray.shutdown()
  _stop_reaper()


def _start_reaper() -> None:
  """Starts `reaper.py` for the processes Ray is about to start (Linux)."""
  global _reaper
  if not os.path.isdir('/proc/self'):
    return  # The reaper follows processes through /proc.
  _stop_reaper()
  # A session of its own, out of reach of signals to the driver's group.
  _reaper = subprocess.Popen(
      [sys.executable, '-I', reaper.__file__, str(os.getpid())],
      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
      stderr=subprocess.DEVNULL, start_new_session=True)
  # Once it has listed this process's children (none of them Ray's).
  if _reaper.stdout.read(len(reaper.READY)) != reaper.READY:
    logging.warning('The reaper of Ray\'s processes did not start; a kill '
                    '-9 of this process may leave some of them running.')
    _stop_reaper()
    return
  _reaper.stdout.close()


def _stop_reaper() -> None:
  """Closes the reaper's pipe: it kills what is left, and exits."""
  global _reaper
  process, _reaper = _reaper, None
  if process is None:
    return
  process.stdin.close()
  try:
    process.wait(timeout=30)
  except subprocess.TimeoutExpired:
    logging.warning('The reaper of Ray\'s processes (pid %d) has not ended '
                    'in 30 s; leaving it.', process.pid)
