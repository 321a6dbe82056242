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

Inside `StopOnSignals()` the first SIGINT (Ctrl-C) or SIGTERM (what a job
scheduler or `kill` sends) only sets `requested`: the training loop
finishes the learner step it is in, saves a final checkpoint and returns.
A second signal raises `KeyboardInterrupt` at once (nothing is saved; the
last complete checkpoint stays). Outside the main thread, where Python
cannot install handlers, the block changes nothing.
"""

import os
import signal
import threading
from typing import Optional

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopOnSignals:
  """Context manager turning the first SIGINT or SIGTERM into a request."""

  def __init__(self):
    self._received: Optional[int] = None
    self._previous = {}

  @property
  def requested(self) -> bool:
    return self._received is not None

  @property
  def signal_name(self) -> Optional[str]:
    return None if self._received is None else signal.Signals(
        self._received).name

  def __call__(self) -> bool:
    """`requested`, as a `should_stop` callback."""
    return self.requested

  def _handle(self, signum, frame) -> None:
    del frame  # Unused.
    if self._received is not None:
      raise KeyboardInterrupt(
          f'Second signal ({signal.Signals(signum).name}): stopping at once; '
          'the last complete checkpoint stays.')
    self._received = signum
    # Straight to the file descriptor: the signal may arrive while the main
    # thread is inside a write to sys.stderr (a log line), and a logging
    # call here would re-enter that buffered writer ("reentrant call").
    os.write(2, (f'{signal.Signals(signum).name} received: stopping after '
                 'the current learner step with a final checkpoint (send it '
                 'again to stop at once).\n').encode())

  def __enter__(self) -> 'StopOnSignals':
    self._received = None
    if threading.current_thread() is threading.main_thread():
      for signum in SIGNALS:
        self._previous[signum] = signal.signal(signum, self._handle)
    return self

  def __exit__(self, *unused_exc_info) -> None:
    for signum, handler in self._previous.items():
      signal.signal(signum, handler)
    self._previous = {}
