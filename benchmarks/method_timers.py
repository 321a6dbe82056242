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
"""Wall-clock accumulators around methods: where a run's time goes.

Unlike a sampling profiler, which counts a thread waiting in native code
without the interpreter lock as idle, timing the methods counts the wait
for a TensorFlow program. Inside `with timers:` every call of a wrapped
method adds its wall time and one call to its label (a caller's time
includes its callees'); the methods are put back when the block ends.
"""

import collections
import functools
import time
from typing import Callable, Dict, List, Sequence, Tuple


class MethodTimers:
  """Accumulates the wall time and calls of wrapped methods, by label."""

  def __init__(self, clock: Callable[[], float] = time.perf_counter):
    self._clock = clock
    self._wrapped: List[Tuple[type, str, object]] = []
    self._pending: List[Tuple[type, str, str]] = []
    self.seconds: Dict[str, float] = collections.defaultdict(float)
    self.calls: Dict[str, int] = collections.defaultdict(int)

  def wrap(self, cls: type, name: str, label: str) -> None:
    """Times `cls.name` under `label` while the timers are entered."""
    if not callable(getattr(cls, name, None)):
      raise AttributeError(f'{cls.__name__} has no method {name!r} to time.')
    if any(c is cls and n == name for c, n, _ in self._pending):
      raise ValueError(f'{cls.__name__}.{name} is already timed.')
    self._pending.append((cls, name, label))

  def __enter__(self) -> 'MethodTimers':
    for cls, name, label in self._pending:
      original = cls.__dict__.get(name)
      method = getattr(cls, name)
      self._wrapped.append((cls, name, original))
      setattr(cls, name, self._timed(method, label))
    return self

  def __exit__(self, *exc_info) -> None:
    for cls, name, original in reversed(self._wrapped):
      if original is None:  # Inherited: remove the override.
        delattr(cls, name)
      else:
        setattr(cls, name, original)
    self._wrapped = []

  def _timed(self, method, label: str):
    clock = self._clock

    @functools.wraps(method)
    def timed(*args, **kwargs):
      start = clock()
      try:
        return method(*args, **kwargs)
      finally:
        self.seconds[label] += clock() - start
        self.calls[label] += 1
    return timed


def per_step(timers: MethodTimers, labels: Sequence[str],
             disjoint: Sequence[str], paid_once: str, total: float,
             steps: int) -> Dict[str, Dict[str, float]]:
  """label -> {'seconds', 'calls', 'ms_per_step'} for `labels`, then 'the
  rest' (`total` less the `disjoint` labels' seconds) and 'total'; the
  `paid_once` label (compilation) has no per-step time and the total's
  leaves it out.
  """
  rows = {label: {'seconds': timers.seconds.get(label, 0.),
                  'calls': timers.calls.get(label, 0)} for label in labels}
  rows['the rest'] = {
      'seconds': total - sum(timers.seconds.get(label, 0.)
                             for label in disjoint), 'calls': 0}
  rows['total'] = {'seconds': total, 'calls': 0}
  once = timers.seconds.get(paid_once, 0.)
  for label, row in rows.items():
    seconds = row['seconds'] - once if label == 'total' else row['seconds']
    row['ms_per_step'] = 0. if label == paid_once else 1000 * seconds / steps
  return rows
