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
"""reaper.py without Ray: a killed driver's processes started for Ray go,
the others stay."""

import importlib.util
import os
import signal
import subprocess
import sys
import time

from absl.testing import absltest

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# By path: importing the package would import TensorFlow, for seconds.
_SCRIPT = os.path.join(_REPO, 'muzero_snt', 'distributed', 'reaper.py')
_SPEC = importlib.util.spec_from_file_location('reaper', _SCRIPT)
reaper = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(reaper)

# A driver as `ray_support.connect` makes one: its reaper, then "Ray's"
# processes (a server that starts a worker of its own, as the raylet does),
# then STARTED, then a process of its own.
_DRIVER = f"""
import os, subprocess, sys, time
process = subprocess.Popen(
    [sys.executable, '-I', {_SCRIPT!r}, str(os.getpid())],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
assert process.stdout.read({len(reaper.READY)}) == {reaper.READY!r}
server = subprocess.Popen([sys.executable, '-c', '''
import subprocess, sys, time
worker = subprocess.Popen(['sleep', '600'])
print(worker.pid, flush=True)
time.sleep(600)
'''], stdout=subprocess.PIPE, text=True)
worker = int(server.stdout.readline())
process.stdin.write({reaper.STARTED!r} + b' %d\\n' % server.pid)
process.stdin.flush()
own = subprocess.Popen(['sleep', '600'])
print(process.pid, server.pid, worker, own.pid, flush=True)
time.sleep(600)
"""


def _running(pid: int) -> bool:
  """Whether `pid` runs (a zombie has ended)."""
  try:
    with open(f'/proc/{pid}/stat', 'rb') as f:
      stat = f.read()
  except OSError:
    return False
  return stat[stat.rfind(b')') + 2:][:1] != b'Z'


class ReaperTest(absltest.TestCase):

  def test_a_killed_drivers_ray_processes_go_and_its_own_stay(self):
    driver = subprocess.Popen(
        [sys.executable, '-c', _DRIVER], stdout=subprocess.PIPE, text=True)
    reaper, server, worker, own = map(int, driver.stdout.readline().split())
    try:
      self.assertTrue(all(map(_running, (reaper, server, worker, own))))
      # The reaper reads the driver's message, if it has not yet, before
      # the end of the pipe.
      driver.kill()
      driver.wait()
      deadline = time.time() + 10
      while time.time() < deadline and any(
          map(_running, (reaper, server, worker))):
        time.sleep(0.05)
      self.assertEqual([_running(p) for p in (reaper, server, worker, own)],
                       [False, False, False, True])
    finally:
      for pid in (server, worker, own):
        try:
          os.kill(pid, signal.SIGKILL)
        except OSError:
          pass


if __name__ == '__main__':
  absltest.main()
