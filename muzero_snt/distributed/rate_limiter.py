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
"""Learner steps per environment step, held between separate processes.

As Reverb's `SampleToInsertRatio`: with E the environment steps admitted
since the buffer first held a batch, L the learner steps granted and r the
train ratio, the limiter keeps 0 <= floor(r E) - L <= max_ahead before
every grant, but admits a game whenever the learner has taken every step
it is owed (so a game worth more than `max_ahead` steps fits). Over any W
learner steps the admitted environment steps are then W / r to within
max_ahead / r, whatever the learner's and actors' speeds, while no game is
worth more than max_ahead steps (r times its length).
"""

import collections
import fractions
from typing import Deque, Dict, Optional

DEFAULT_MAX_AHEAD = 40  # Learner steps admitted games may run ahead by.
WINDOW = 1000  # Learner steps over which the observed ratio is reported.


def check_positive_int(name: str, value: int) -> None:
  """Raises ValueError naming `name` unless `value` is an int >= 1."""
  if isinstance(value, bool) or not isinstance(value, int) or value < 1:
    raise ValueError(f'{name} must be a positive integer, got {value!r}.')


class RateLimiter:
  """When the learner may sample, and when a game may be admitted.

  Attributes:
    env_steps: environment steps of every admitted game.
    counted_env_steps: E, those admitted once the buffer held a batch.
    learner_steps: L, learner steps granted.
    worst_deviation: the largest |observed / r - 1| over full windows.
  """

  def __init__(self, train_ratio: float, max_ahead: int = DEFAULT_MAX_AHEAD,
               window: int = WINDOW):
    """The limiter of train ratio r; `window` steps measure `observed_ratio`."""
    if isinstance(train_ratio, bool) or not (
        isinstance(train_ratio, (int, float)) and
        0 < train_ratio < float('inf')):
      raise ValueError(f'train_ratio must be a positive finite number, got '
                       f'{train_ratio!r}.')
    check_positive_int('max_ahead', max_ahead)
    check_positive_int('window', window)
    # Exact: floor(r * E) with a float r can be off by one.
    self._ratio = fractions.Fraction(str(train_ratio))
    self._max_ahead = max_ahead
    self.env_steps = self.counted_env_steps = self.learner_steps = 0
    self.worst_deviation: Optional[float] = None
    # E at each of the last window + 1 grants, for the observed ratio.
    self._history: Deque[int] = collections.deque(maxlen=window + 1)

  def owed(self) -> int:
    """floor(r E) - L: learner steps the admitted data allows now."""
    return int(self._ratio * self.counted_env_steps) - self.learner_steps

  def can_sample(self) -> bool:
    return self.owed() >= 1

  def sample(self) -> None:
    """Counts one learner step; call only when `can_sample()`."""
    if not self.can_sample():
      raise RuntimeError(
          f'sample() with no learner step owed: floor({self._ratio} * '
          f'{self.counted_env_steps}) - {self.learner_steps} < 1.')
    self.learner_steps += 1
    self._history.append(self.counted_env_steps)
    if len(self._history) == self._history.maxlen:
      observed = self.observed_ratio()
      # No environment step over a whole window: an infinite ratio.
      deviation = (float('inf') if observed is None else
                   abs(observed / float(self._ratio) - 1.))
      self.worst_deviation = max(self.worst_deviation or 0., deviation)

  def can_admit(self, length: int) -> bool:
    """Whether a game of `length` moves may enter the buffer now."""
    after = int(self._ratio * (self.counted_env_steps + length))
    return self.owed() <= 0 or after - self.learner_steps <= self._max_ahead

  def admit(self, length: int, counted: bool = True) -> None:
    """Counts an admitted game of `length` moves, in E only if `counted`
    (not before the buffer holds a batch, as in `data_sources.SelfPlay`)."""
    self.env_steps += length
    if counted:
      self.counted_env_steps += length

  def observed_ratio(self) -> Optional[float]:
    """Learner steps per admitted environment step over the last `window`
    grants (fewer at the start); None before two grants."""
    if len(self._history) < 2:
      return None
    env_steps = self._history[-1] - self._history[0]
    return (len(self._history) - 1) / env_steps if env_steps else None

  @property
  def ratio_window(self) -> int:
    """The learner steps `observed_ratio` is measured over (<= window)."""
    return max(len(self._history) - 1, 0)

  def state(self) -> Dict[str, int]:
    return {'env_steps': self.env_steps,
            'counted_env_steps': self.counted_env_steps,
            'learner_steps': self.learner_steps}

  def restore(self, env_steps: int, counted_env_steps: int,
              learner_steps: int) -> None:
    """Continues from checkpointed counters (the ratio's history restarts)."""
    self.env_steps = int(env_steps)
    self.counted_env_steps = int(counted_env_steps)
    self.learner_steps = int(learner_steps)
    self._history.clear()
