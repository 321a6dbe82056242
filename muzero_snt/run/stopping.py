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
"""Clean stops: SIGINT and SIGTERM ask a run to stop; a second one stops it.

Inside `StopOnSignals()` the first signal only sets `requested`: the
training loop finishes its learner step, saves a final checkpoint and
returns; during start-up (stages named by `begin`) `Stopped` is raised when
the stage ends, saving nothing. A second signal raises `KeyboardInterrupt`
at once. Outside the main thread, where Python cannot install handlers,
nothing changes.
"""

import contextlib
import os
import signal
import threading
from typing import Iterator, Optional

SIGNALS = (signal.SIGINT, signal.SIGTERM)

# The StopOnSignals whose handlers are installed (by the main thread).
_installed: Optional['StopOnSignals'] = None


class Stopped(Exception):
  """A signal (`signal_name`) stopped a run during start-up `stage`."""

  def __init__(self, signal_name: str, stage: str):
    super().__init__(f'Stopped by {signal_name} while {stage}, before the '
                     'first learner step: nothing was saved.')
    self.signal_name = signal_name
    self.stage = stage


class StopOnSignals:
  """Context manager turning the first SIGINT or SIGTERM into a request;
  blocks of one instance nest (the outermost installs and restores the
  handlers, and a request made in an outer block holds in the inner ones)."""

  def __init__(self):
    self._received: Optional[int] = None
    self._stage: Optional[str] = None
    self._received_in: Optional[str] = None
    self._previous = {}
    self._depth = 0
    # The instance installed before this one's outermost block, if any.
    self._outer: Optional['StopOnSignals'] = None

  @property
  def requested(self) -> bool:
    return self._received is not None

  @property
  def signal_name(self) -> Optional[str]:
    return None if self._received is None else signal.Signals(
        self._received).name

  @property
  def stage(self) -> Optional[str]:
    """The start-up stage in progress; None once training has begun."""
    return self._stage

  def __call__(self) -> bool:
    """`requested`, as a `should_stop` callback."""
    return self.requested

  def check(self) -> None:
    """Raises `Stopped` if a signal came during start-up."""
    if self._received is not None and self._received_in is not None:
      raise Stopped(self.signal_name, self._received_in)

  def begin(self, stage: Optional[str]) -> None:
    """Ends the start-up stage in progress (raising `Stopped` if a signal
    came during it) and begins `stage`, as in 'while <stage>' (None: the
    training loop)."""
    self.check()
    self._stage = stage

  def _handle(self, signum, frame) -> None:
    del frame  # Unused.
    if self._received is not None:
      raise KeyboardInterrupt(
          f'Second signal ({signal.Signals(signum).name}): stopping at once; '
          'the last complete checkpoint stays.')
    self._received = signum
    self._received_in = self._stage
    name = signal.Signals(signum).name
    if self._stage is None:
      notice = (f'{name} received: stopping after the current learner step '
                'with a final checkpoint')
    else:
      notice = (f'{name} received while {self._stage}: stopping before the '
                'first learner step, with nothing to save')
    # Straight to the file descriptor: a logging call here would re-enter
    # the buffered sys.stderr writer the main thread may be inside.
    os.write(2, f'{notice} (send it again to stop at once).\n'.encode())

  def _install(self) -> None:
    for signum in SIGNALS:
      previous = signal.signal(signum, self._handle)
      self._previous.setdefault(signum, previous)

  def __enter__(self) -> 'StopOnSignals':
    global _installed
    if threading.current_thread() is not threading.main_thread():
      return self
    if self._depth == 0:
      self._received = self._received_in = None
      self._stage = None
      self._previous = {}
      self._outer = _installed
    # Installed again by an inner block too: a library may have replaced
    # the handlers since the outer one (see `keep_handlers`).
    self._install()
    self._depth += 1
    _installed = self
    return self

  def __exit__(self, *unused_exc_info) -> None:
    global _installed
    if (threading.current_thread() is not threading.main_thread() or
        self._depth == 0):
      return  # As `__enter__` did nothing.
    self._depth -= 1
    if self._depth:
      return
    for signum, handler in self._previous.items():
      signal.signal(signum, handler)
    self._previous = {}
    _installed, self._outer = self._outer, None


@contextlib.contextmanager
def keep_handlers() -> Iterator[None]:
  """Keeps the installed `StopOnSignals`' handlers through the block.

  Ray's `init` installs SIGTERM handlers that exit the process and
  `ray.shutdown` resets SIGTERM: inside, `signal.signal` leaves SIGINT and
  SIGTERM alone, and at the end the handlers are installed again.
  """
  stop = _installed
  if stop is None or threading.current_thread() is not threading.main_thread():
    yield
    return
  original = signal.signal

  def signal_keeping_ours(signum, handler):
    if signum in SIGNALS:
      return signal.getsignal(signum)
    return original(signum, handler)

  signal.signal = signal_keeping_ours
  try:
    yield
  finally:
    signal.signal = original
    if _installed is stop:
      stop._install()  # pylint: disable=protected-access
