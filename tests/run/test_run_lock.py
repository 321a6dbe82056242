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
"""Tests of RunLock: one owner, stale locks reclaimed once, foreign ones not."""

import json
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from absl.testing import absltest

from muzero_snt.run import run_lock

# Forked children start at once and need no re-import of TensorFlow.
_FORK = multiprocessing.get_context('fork')


def _dead_pid() -> int:
  """The PID of a process that has exited and been reaped."""
  process = subprocess.Popen([sys.executable, '-c', ''])
  process.wait()
  return process.pid


def _write(path: str, content) -> None:
  with open(path, 'w') as f:
    f.write(content if isinstance(content, str) else json.dumps(content))


def _record(pid: int, host: str = None, token: str = 'someone-else'):
  return {'host': host or socket.gethostname(), 'pid': pid,
          'started': '2026-01-05T10:00:00+00:00',
          'command': ['train.py', '--preset=atari'], 'token': token}


def _hold(directory, ready):
  """Child: takes the lock, says so, and keeps it until killed."""
  run_lock.RunLock(directory).acquire()
  ready.set()
  time.sleep(60)


def _race(directory, start, tried, wins):
  """Child: tries the lock once all are ready; holds it until all tried."""
  lock = run_lock.RunLock(directory)
  start.wait()
  try:
    lock.acquire()
  except run_lock.RunLockError:
    pass
  with wins.get_lock():
    wins.value += lock.held
  tried.wait()
  lock.release()


class RunLockTest(absltest.TestCase):

  def setUp(self):
    super().setUp()
    root = tempfile.mkdtemp()
    self.addCleanup(shutil.rmtree, root)
    self.directory = os.path.join(root, 'run')
    self.path = os.path.join(self.directory, run_lock.LOCK_FILE)

  def _read(self):
    with open(self.path) as f:
      return json.load(f)

  def test_acquire_creates_the_directory_and_records_the_owner(self):
    with run_lock.RunLock(self.directory) as lock:
      self.assertTrue(lock.held)
      owner = self._read()
      self.assertEqual(owner['pid'], os.getpid())
      self.assertEqual(owner['host'], socket.gethostname())
      self.assertEqual(owner['command'], sys.argv)
      self.assertRegex(owner['started'], r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d')
    self.assertFalse(lock.held)
    self.assertFalse(os.path.exists(self.path))
    # Released: the next run takes it at once, without a warning.
    run_lock.RunLock(self.directory).acquire().release()

  def test_second_lock_in_this_process_is_refused(self):
    with run_lock.RunLock(self.directory) as lock:
      with self.assertRaisesRegex(
          run_lock.RunLockError,
          rf'already locked by this process .*process {os.getpid()} on '):
        run_lock.RunLock(self.directory).acquire()
      with self.assertRaisesRegex(run_lock.RunLockError, 'already holds'):
        lock.acquire()
    self.assertFalse(os.path.exists(self.path))

  def test_live_owner_refuses_then_its_lock_is_reclaimed_after_sigkill(self):
    ready = _FORK.Event()
    child = _FORK.Process(target=_hold, args=(self.directory, ready))
    child.start()
    try:
      self.assertTrue(ready.wait(30))
      with self.assertRaises(run_lock.RunLockError) as error:
        run_lock.RunLock(self.directory).acquire()
      message = str(error.exception)
      self.assertIn(self.directory, message)
      self.assertIn(f'process {child.pid} on host '
                    f'{socket.gethostname()!r}, since ', message)
      self.assertIn('use another directory', message)
      os.kill(child.pid, signal.SIGKILL)
      # Wait for the exit but leave the child unreaped: a zombie, which
      # os.kill(pid, 0) still finds, must count as dead.
      os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
      self.assertEqual(self._read()['pid'], child.pid)  # Not cleaned up.
      with self.assertLogs(level='WARNING') as logs:
        lock = run_lock.RunLock(self.directory).acquire()
      self.assertIn(f'process {child.pid} is no longer running',
                    logs.output[0])
      self.assertEqual(self._read()['pid'], os.getpid())
      lock.release()
    finally:
      if child.exitcode is None:
        child.kill()
      child.join(30)
    self.assertEqual(child.exitcode, -signal.SIGKILL)

  def test_lock_of_a_dead_reaped_process_is_reclaimed(self):
    pid = _dead_pid()
    os.makedirs(self.directory)
    _write(self.path, _record(pid))
    with self.assertLogs(level='WARNING') as logs:
      with run_lock.RunLock(self.directory):
        self.assertEqual(self._read()['pid'], os.getpid())
    self.assertIn(f'process {pid} is no longer running', logs.output[0])
    # Neither the lock nor its reclaim guard is left behind.
    self.assertEqual(os.listdir(self.directory), [])

  def test_lock_of_an_earlier_process_with_our_pid_is_reclaimed(self):
    # As after a container restart: same host, same PID, another process.
    os.makedirs(self.directory)
    _write(self.path, _record(os.getpid()))
    with self.assertLogs(level='WARNING') as logs:
      with run_lock.RunLock(self.directory):
        self.assertNotEqual(self._read()['token'], 'someone-else')
    self.assertIn('this process has its PID now', logs.output[0])

  def test_lock_of_another_host_is_never_reclaimed(self):
    os.makedirs(self.directory)
    record = _record(_dead_pid(), host='other-node.example')
    _write(self.path, record)
    with self.assertRaises(run_lock.RunLockError) as error:
      run_lock.RunLock(self.directory).acquire()
    message = str(error.exception)
    self.assertIn("host 'other-node.example'", message)
    self.assertIn(f'process {record["pid"]}', message)
    self.assertIn('2026-01-05T10:00:00+00:00', message)
    self.assertIn(f'remove {self.path} by hand', message)
    self.assertEqual(self._read(), record)
    self.assertEqual(os.listdir(self.directory), [run_lock.LOCK_FILE])

  def test_garbled_lock_is_held_while_young_and_reclaimed_when_old(self):
    os.makedirs(self.directory)
    for content in ('', '{"host": "node-7", "pi', '[1, 2]',
                    json.dumps(_record(0))):  # pid 0: a process group.
      _write(self.path, content)
      with self.assertRaisesRegex(run_lock.RunLockError,
                                  'no complete owner record'):
        run_lock.RunLock(self.directory).acquire()
      self.assertTrue(os.path.exists(self.path))
      old = time.time() - run_lock.GARBLED_GRACE_SECONDS - 1
      os.utime(self.path, (old, old))
      with self.assertLogs(level='WARNING') as logs:
        run_lock.RunLock(self.directory).acquire().release()
      self.assertIn('died while writing it', logs.output[0])
      self.assertFalse(os.path.exists(self.path))

  def test_release_leaves_another_owners_lock_alone(self):
    lock = run_lock.RunLock(self.directory).acquire()
    # Ours was removed by hand and another run took the directory.
    other = _record(os.getppid())
    _write(self.path, other)
    with self.assertLogs(level='WARNING') as logs:
      lock.release()
    self.assertIn('no longer names this process', logs.output[0])
    self.assertEqual(self._read(), other)
    self.assertFalse(lock.held)

  def test_racing_for_a_stale_lock_exactly_one_wins(self):
    num_processes = 4
    for round_number in range(20):
      directory = os.path.join(self.directory, str(round_number))
      os.makedirs(directory)
      _write(os.path.join(directory, run_lock.LOCK_FILE),
             _record(_dead_pid()))
      start = _FORK.Barrier(num_processes)
      tried = _FORK.Barrier(num_processes)
      wins = _FORK.Value('i', 0)
      children = [
          _FORK.Process(target=_race, args=(directory, start, tried, wins))
          for _ in range(num_processes)
      ]
      for child in children:
        child.start()
      for child in children:
        child.join(60)
        self.assertEqual(child.exitcode, 0)
      self.assertEqual(wins.value, 1, f'round {round_number}')
      # The winner released it; nothing is left behind, guard included.
      self.assertEqual(os.listdir(directory), [])

  def test_bad_arguments(self):
    with self.assertRaisesRegex(ValueError, 'needs a directory'):
      run_lock.RunLock('')
    with self.assertRaisesRegex(ValueError, 'plain file name'):
      run_lock.RunLock(self.directory, lock_file='a/b')


if __name__ == '__main__':
  absltest.main()
