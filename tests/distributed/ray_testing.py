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
"""What the tests of runs on a local Ray share: starting Ray (one node, or
a cluster of several on this machine), finding, killing and asking the
run's worker processes.

A test module imports this one after setting RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER
(which must be set before Ray is imported).
"""

import os
import signal
import tempfile
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from absl import flags
import pytest

ray = pytest.importorskip('ray')

# Where RAY_TMPDIR of a process that starts clusters is, and how its name
# starts (short: Ray's socket paths live under it).
_TMPDIR = ('/tmp', 'ray-tests-')


def start_ray(num_cpus: int = 2) -> Any:
  """Starts a Ray instance of this process for one test or test class.

  `num_cpus` CPUs (Ray's, for placing processes), no dashboard, on the loopback interface. The caller stops it
  with `ray.shutdown()` when its test (class) ends, so that every Ray test
  of a process starts its own, whichever runs first. Marks absl's flags
  parsed too (nothing parses them under pytest): the runs and
  `create_tempdir` read them.

  Returns:
    The context `ray.init` returns.
  """
  if not flags.FLAGS.is_parsed():
    flags.FLAGS.mark_as_parsed()
  return ray.init(num_cpus=num_cpus, include_dashboard=False,
                  _node_ip_address='127.0.0.1')


def start_cluster(cpus: Mapping[str, int], **head_args: Any
                 ) -> Tuple[Any, Dict[str, Any]]:
  """Starts a Ray cluster of several nodes on this machine, and marks
  absl's flags parsed (as `start_ray`).

  Each node is a raylet of its own (`ray.cluster_utils.Cluster`) with
  `cpus[name]` CPUs and one unit of a custom resource `name` naming it,
  every server on the loopback interface, no dashboard; the first is the
  head. This process does not join it: a run joins by its address. The
  caller stops it with `ray.shutdown()` and the cluster's `shutdown()`.

  Args:
    cpus: CPUs of each node by name, the head's first.
    **head_args: more of the head's arguments (e.g. `_system_config`).

  Returns:
    The `Cluster` (its `address` is the head's) and its nodes by name
    (`remove_node` takes one; their `node_id` is Ray's id of the node).
  """
  from ray import cluster_utils  # pylint: disable=g-import-not-at-top
  if not flags.FLAGS.is_parsed():
    flags.FLAGS.mark_as_parsed()
  # A `Cluster` writes its address where `ray.init()` without one looks
  # for a cluster to join (RAY_TMPDIR/ray/ray_current_cluster): here a
  # directory of this process's, so that no other process on this machine
  # (another test's Ray) joins this one.
  if not os.environ.get('RAY_TMPDIR', '').startswith(
      os.path.join(_TMPDIR[0], _TMPDIR[1])):
    os.environ['RAY_TMPDIR'] = tempfile.mkdtemp(dir=_TMPDIR[0],
                                                prefix=_TMPDIR[1])
  names = list(cpus)
  loopback = dict(node_ip_address='127.0.0.1', include_dashboard=False)
  cluster = cluster_utils.Cluster(
      initialize_head=True, head_node_args=dict(
          loopback, num_cpus=cpus[names[0]], resources={names[0]: 1},
          **head_args))
  nodes = {names[0]: cluster.head_node}
  for name in names[1:]:
    nodes[name] = cluster.add_node(num_cpus=cpus[name], resources={name: 1},
                                   **loopback)
  cluster.wait_for_nodes()
  return cluster, nodes


def _listening_sockets() -> Dict[int, str]:
  """inode -> local address of every listening TCP socket (Linux)."""
  found = {}
  for table, width in (('/proc/net/tcp', 8), ('/proc/net/tcp6', 32)):
    try:
      with open(table) as f:
        lines = f.read().splitlines()[1:]
    except OSError:
      continue
    for line in lines:
      fields = line.split()
      if fields[3] != '0A':  # LISTEN
        continue
      host, port = fields[1].split(':')
      any_host = int(host, 16) == 0
      found[int(fields[9])] = (
          ('0.0.0.0' if width == 8 else '[::]') if any_host else host
      ) + f':{int(port, 16)}'
  return found


def wildcard_listeners(pids: Sequence[int]) -> Dict[int, List[str]]:
  """The TCP sockets processes `pids` listen on at every interface
  (0.0.0.0 or ::), by pid: none for a cluster kept to the loopback."""
  sockets = _listening_sockets()
  found: Dict[int, List[str]] = {}
  for pid in pids:
    try:
      descriptors = os.listdir(f'/proc/{pid}/fd')
    except OSError:
      continue  # Ended meanwhile.
    for descriptor in descriptors:
      try:
        link = os.readlink(f'/proc/{pid}/fd/{descriptor}')
      except OSError:
        continue  # Closed meanwhile.
      if link.startswith('socket:['):
        address = sockets.get(int(link[8:-1]), '')
        if address.startswith(('0.0.0.0:', '[::]:')):
          found.setdefault(pid, []).append(address)
  return found


def kill(worker: Any) -> int:
  """Kills a worker actor's process with kill -9; returns its pid."""
  pid = ray.get(worker.pid.remote())
  os.kill(pid, signal.SIGKILL)
  return pid


def processes(title: str) -> List[int]:
  """The ids of this process's descendants whose title starts with `title`.

  Ray names an actor's process after its class (`ps` shows
  `ray::ReplayService`), and the actors of this process's Ray instance
  descend from it (through its raylet). Linux only (reads /proc).
  """
  children: Dict[int, List[int]] = {}
  for entry in os.listdir('/proc'):
    if not entry.isdigit():
      continue
    try:
      with open(f'/proc/{entry}/stat') as f:
        # The parent's id follows the name, which may hold spaces.
        parent = int(f.read().rsplit(')', 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
      continue  # Ended meanwhile.
    children.setdefault(parent, []).append(int(entry))
  found, queue = [], list(children.get(os.getpid(), []))
  while queue:
    pid = queue.pop()
    queue += children.get(pid, [])
    try:
      with open(f'/proc/{pid}/cmdline', 'rb') as f:
        if f.read().startswith(title.encode()):
          found.append(pid)
    except OSError:
      continue
  return found


def _processes() -> Dict[int, Tuple[int, int, bool, str]]:
  """pid -> (parent, start time, zombie, command line) of every process."""
  table = {}
  for name in os.listdir('/proc'):
    if not name.isdigit():
      continue
    try:
      with open(f'/proc/{name}/stat', 'rb') as f:
        stat = f.read()
      with open(f'/proc/{name}/cmdline', 'rb') as f:
        command = f.read().replace(b'\0', b' ').decode(errors='replace')
    except OSError:
      continue  # Ended meanwhile.
    fields = stat[stat.rfind(b')') + 2:].split()
    table[int(name)] = (int(fields[1]), int(fields[19]), fields[0] == b'Z',
                        command.strip())
  return table


def descendants(pid: int) -> Dict[Tuple[int, int], str]:
  """The processes descended from process `pid` (Linux /proc).

  Returns:
    Their command lines by (pid, start time): a pair names one process
    even after its pid is reused.
  """
  table = _processes()
  found, frontier = {}, [pid]
  while frontier:
    parent = frontier.pop()
    for child, (ppid, start, _, command) in table.items():
      if ppid == parent and (child, start) not in found:
        found[(child, start)] = command
        frontier.append(child)
  return found


def running(started: Dict[Tuple[int, int], str]) -> Dict[int, str]:
  """Those of `started` (from `descendants`) still running (zombies have
  ended): their command lines by pid."""
  table = _processes()
  return {pid: command for (pid, start), command in started.items()
          if pid in table and table[pid][1] == start and not table[pid][2]}


def statuses(workers: Sequence[Any]) -> Optional[List[Dict[str, Any]]]:
  """Every worker's `status()`, or None if one has not answered within
  0.5 s (a killed worker that Ray is restarting)."""
  calls = [worker.status.remote() for worker in workers]
  ready, _ = ray.wait(calls, num_returns=len(calls), timeout=0.5)
  if len(ready) < len(calls):
    return None
  return ray.get(calls)
