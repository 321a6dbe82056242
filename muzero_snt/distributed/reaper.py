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
"""Kills what is left of a private Ray instance once its driver is gone.

`ray_support.connect` starts it (`python -I reaper.py DRIVER_PID`) before
Ray, reading a pipe from the driver, and waits for `READY`; the driver then
names the processes `ray.init` started (`started_message`). The script
follows them and their descendants through /proc (a pid with its start
time, so a reused pid is never killed) and, when the pipe closes however
the driver ended, kills those still running. Linux; standard library only.
"""

import os
import select
import signal
import sys
import time
from typing import Dict, Iterable, List, NamedTuple, Set

# Seconds between looks at the processes while Ray starts, and after.
_POLL_SECONDS = 0.5
_POLL_SECONDS_STARTED = 2.
_KILL_SECONDS = 10.  # Seconds of killing: a process may start meanwhile.
READY = b'ready\n'  # Sent once the driver's children before Ray are known.
STARTED = b'started'  # Begins the driver's message once `ray.init` returned.


class Process(NamedTuple):
  parent: int
  start: int  # Clock ticks after boot: with the pid, names one process.
  zombie: bool


def processes() -> Dict[int, Process]:
  """Every process of the machine (of this pid namespace), by pid."""
  table = {}
  for name in os.listdir('/proc'):
    if not name.isdigit():
      continue
    try:
      with open(f'/proc/{name}/stat', 'rb') as f:
        stat = f.read()
    except OSError:
      continue  # Ended meanwhile.
    # After the command name (in parentheses, which it may hold too):
    # state, parent, ..., start time (22nd).
    fields = stat[stat.rfind(b')') + 2:].split()
    table[int(name)] = Process(parent=int(fields[1]), start=int(fields[19]),
                               zombie=fields[0] == b'Z')
  return table


class Followed:
  """The processes the driver started for Ray, and theirs: until the
  driver names them, its new children."""

  def __init__(self, driver: int, table: Dict[int, Process]):
    self._driver = driver
    # The driver's children before Ray: not Ray's (this one among them).
    self._before = {pid for pid, p in table.items() if p.parent == driver}
    self._before.add(os.getpid())
    self._starts: Dict[int, int] = {}

  def update(self, table: Dict[int, Process], new_roots: bool) -> None:
    """Follows the children of followed processes; with `new_roots`, the
    driver's new children too (while Ray starts)."""
    children: Dict[int, List[int]] = {}
    for pid, process in table.items():
      children.setdefault(process.parent, []).append(pid)
    if new_roots:
      for pid in children.get(self._driver, ()):
        if pid not in self._before:
          self._starts.setdefault(pid, table[pid].start)
    frontier = list(self.running(table))
    while frontier:
      for pid in children.get(frontier.pop(), ()):
        if self._starts.get(pid) != table[pid].start:
          self._starts[pid] = table[pid].start
          frontier.append(pid)

  def set_roots(self, roots: Iterable[int],
                table: Dict[int, Process]) -> None:
    """Follows `roots`, the driver's word for what Ray started, and theirs
    only (not a child the driver started after `ray.init`)."""
    self._starts = {pid: table[pid].start for pid in roots if pid in table}
    self.update(table, new_roots=False)

  def running(self, table: Dict[int, Process]) -> Set[int]:
    """The followed processes still running (not reused pids, not zombies)."""
    return {pid for pid, start in self._starts.items()
            if pid in table and table[pid].start == start and
            not table[pid].zombie}


def children(pid: int) -> Set[int]:
  return {child for child, p in processes().items() if p.parent == pid}


def started_message(roots: Iterable[int]) -> bytes:
  """What the driver writes once `ray.init` has started `roots`."""
  return b' '.join([STARTED, *(str(pid).encode() for pid in roots)]) + b'\n'


def main(argv: List[str]) -> int:
  driver = int(argv[1])
  followed = Followed(driver, processes())
  os.write(1, READY)
  started = False
  while True:
    ready, _, _ = select.select(
        [0], [], [], _POLL_SECONDS_STARTED if started else _POLL_SECONDS)
    data = os.read(0, 4096) if ready else b''
    if ready and not data:
      break  # The driver's end is closed.
    table = processes()
    if data.startswith(STARTED):
      followed.set_roots(map(int, data.split()[1:]), table)
      started = True
    followed.update(table, new_roots=not started)
  deadline = time.monotonic() + _KILL_SECONDS
  while time.monotonic() < deadline:
    table = processes()
    followed.update(table, new_roots=False)
    running = followed.running(table)
    if not running:
      break
    for pid in running:
      try:
        os.kill(pid, signal.SIGKILL)
      except OSError:
        pass  # Ended meanwhile.
    time.sleep(0.05)
  return 0


if __name__ == '__main__':
  sys.exit(main(sys.argv))
