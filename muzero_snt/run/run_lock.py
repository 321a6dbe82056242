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
"""RunLock: one writing run per directory, through a lock file.

`LOCK` is created with `O_CREAT | O_EXCL` (of several runs starting at once
exactly one creates it) and names its owner. A lock whose owner died on this
host is reclaimed; one from another host never is. Reclaiming is race-free:
the stale file is judged again and removed under an `fcntl.flock` on
`LOCK.reclaim` (dropped by the kernel when its holder dies), and the next
lock is made by the same `O_EXCL` creation.
"""

import contextlib
import datetime
import fcntl
import json
import os
import socket
import sys
import time
from typing import Any, Dict, Optional, Set

from absl import logging

LOCK_FILE = 'LOCK'
GUARD_SUFFIX = '.reclaim'
# A lock file without a complete owner record is younger than this while its
# creator is still writing it; older, its creator died in between.
GARBLED_GRACE_SECONDS = 10.
# Create-or-judge rounds before giving up on a lock file that keeps changing.
_MAX_ATTEMPTS = 20

# Tokens of the locks this process holds: a lock naming our PID with another
# token was left by an earlier process of the same PID (a restarted container).
_HELD_TOKENS: Set[str] = set()


class RunLockError(RuntimeError):
  """The directory is locked by another run, or the lock cannot be taken."""


def _describe(owner: Dict[str, Any]) -> str:
  command = ' '.join(owner.get('command') or []) or 'unknown'
  return (f'process {owner["pid"]} on host {owner["host"]!r}, since '
          f'{owner.get("started", "an unknown time")} (command: {command})')


def _read_owner(path: str) -> Optional[Dict[str, Any]]:
  """The owner record in `path`, or None if it is empty or garbled."""
  with open(path, 'rb') as f:
    data = f.read()
  try:
    owner = json.loads(data.decode('utf-8'))
  except (UnicodeDecodeError, ValueError):
    return None
  if not isinstance(owner, dict):
    return None
  pid, host = owner.get('pid'), owner.get('host')
  # pid <= 0 would make os.kill signal a process group.
  if (not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0 or
      not isinstance(host, str) or not isinstance(owner.get('token'), str)):
    return None
  return owner


def _is_zombie(pid: int) -> bool:
  """Whether `pid` has exited and waits for its parent (Linux /proc)."""
  try:
    with open(f'/proc/{pid}/stat', 'rb') as f:
      stat = f.read()
  except OSError:
    return False
  # The state follows the command name, which is in parentheses and may
  # itself hold spaces or parentheses.
  return stat[stat.rfind(b')') + 2:].startswith(b'Z')


def is_alive(pid: int) -> bool:
  """Whether process `pid` of this host runs (not only as a zombie)."""
  try:
    os.kill(pid, 0)
  except ProcessLookupError:
    return False
  except PermissionError:
    return True  # It exists, under another user.
  return not _is_zombie(pid)


class RunLock:
  """An exclusive lock on a directory (`with`, or `acquire` and `release`)."""

  def __init__(self, directory: str, lock_file: str = LOCK_FILE):
    if not directory:
      raise ValueError(f'RunLock needs a directory, got {directory!r}.')
    if not lock_file or os.sep in lock_file:
      raise ValueError(f'lock_file must be a plain file name, got '
                       f'{lock_file!r}.')
    self._directory = directory
    self._path = os.path.join(directory, lock_file)
    self._token: Optional[str] = None

  @property
  def path(self) -> str:
    return self._path

  @property
  def held(self) -> bool:
    return self._token is not None

  def __enter__(self) -> 'RunLock':
    return self.acquire()

  def __exit__(self, *unused_exc_info) -> None:
    self.release()

  def _try_create(self, token: str) -> bool:
    """Creates the lock file with our record; False if it exists."""
    try:
      fd = os.open(self._path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
      return False
    try:
      with os.fdopen(fd, 'w') as f:
        json.dump({
            'host': socket.gethostname(),
            'pid': os.getpid(),
            'started': datetime.datetime.now().astimezone().isoformat(
                timespec='seconds'),
            'command': list(sys.argv),
            'token': token,
        }, f)
        f.flush()
        os.fsync(f.fileno())
    except BaseException:
      os.unlink(self._path)
      raise
    return True

  @contextlib.contextmanager
  def _reclaim_guard(self):
    """Holds the `flock` of the guard file the path names; removes it after."""
    guard = self._path + GUARD_SUFFIX
    while True:
      fd = os.open(guard, os.O_CREAT | os.O_RDWR, 0o644)
      fcntl.flock(fd, fcntl.LOCK_EX)
      try:
        if os.stat(guard).st_ino == os.fstat(fd).st_ino:
          break
      except FileNotFoundError:
        pass
      os.close(fd)  # Its holder removed it meanwhile: take the next one.
    try:
      yield
    finally:
      os.unlink(guard)  # Before the flock drops, so no one holds it then.
      os.close(fd)  # Closing drops the flock.

  def _reclaim_or_raise(self) -> None:
    """Removes the lock file if stale, else raises (under the guard)."""
    try:
      owner = _read_owner(self._path)
      age = time.time() - os.stat(self._path).st_mtime
    except FileNotFoundError:
      return  # Released meanwhile: try creating again.
    if owner is None:
      if age < GARBLED_GRACE_SECONDS:
        raise RunLockError(
            f'{self._directory} is locked by {self._path}, which holds no '
            f'complete owner record yet (written {age:.1f} s ago): another '
            f'run is probably starting there now. Wait for it, or use '
            f'another directory; if no run is starting, remove '
            f'{self._path} by hand.')
      logging.warning(
          'Removing the lock file %s: it holds no complete owner record and '
          'is %.0f s old, so the run that created it died while writing it.',
          self._path, age)
      os.unlink(self._path)
      return
    host = socket.gethostname()
    if owner['host'] != host:
      raise RunLockError(
          f'{self._directory} is locked by {_describe(owner)}, another host '
          f'than this one ({host!r}). Whether that process still runs '
          f'cannot be checked from here, so the lock is never reclaimed '
          f'automatically. Two runs writing one directory would overwrite '
          f'each other\'s checkpoints: use another directory, or, if that '
          f'run is gone, remove {self._path} by hand.')
    pid = owner['pid']
    ours = pid == os.getpid()
    if ours and owner['token'] in _HELD_TOKENS:
      raise RunLockError(
          f'{self._directory} is already locked by this process (another '
          f'RunLock, {_describe(owner)}): release that one first.')
    if not ours and is_alive(pid):
      raise RunLockError(
          f'{self._directory} is in use by another run: {_describe(owner)}. '
          f'Two runs writing one directory would overwrite each other\'s '
          f'checkpoints: stop that run or wait for it to end, or use '
          f'another directory. If process {pid} is not that run (its PID '
          f'was reused), remove {self._path} by hand.')
    logging.warning(
        'Reclaiming the stale lock %s of %s: process %d is no longer running '
        '(killed without releasing its lock?)%s.', self._path,
        _describe(owner), pid,
        '; this process has its PID now' if ours else '')
    os.unlink(self._path)

  def acquire(self) -> 'RunLock':
    """Takes the lock, reclaiming a stale one, and creates the directory; a
    `RunLockError` names the owner and what to do if another live run or
    host holds the lock, or is writing it now, or this object holds it."""
    if self.held:
      raise RunLockError(f'This RunLock already holds {self._path}.')
    os.makedirs(self._directory, exist_ok=True)
    token = os.urandom(16).hex()
    for _ in range(_MAX_ATTEMPTS):
      if self._try_create(token):
        self._token = token
        _HELD_TOKENS.add(token)
        return self
      with self._reclaim_guard():
        self._reclaim_or_raise()
    raise RunLockError(
        f'Could not take {self._path} in {_MAX_ATTEMPTS} attempts: it kept '
        f'appearing and disappearing. Is a script deleting it?')

  def release(self) -> None:
    """Removes the lock file if held and it still names us (else warns)."""
    if not self.held:
      return
    token, self._token = self._token, None
    _HELD_TOKENS.discard(token)
    try:
      owner = _read_owner(self._path)
    except FileNotFoundError:
      logging.warning('The lock file %s was removed while this run held it.',
                      self._path)
      return
    if owner is None or owner['token'] != token:
      logging.warning(
          'Not removing the lock file %s: it no longer names this process '
          '(it names %s).', self._path,
          _describe(owner) if owner else 'no complete owner')
      return
    os.unlink(self._path)
