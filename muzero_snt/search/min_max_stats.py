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
"""MinMaxStats: the tree-wide bounds that normalise Q in the search."""

from typing import Optional

from muzero_snt import config as config_lib


class MinMaxStats:
  """The minimum and maximum Q value seen in one search tree.

  The pseudocode's `MinMaxStats` (appendix B of arXiv:1911.08265): Q values
  are rescaled to [0, 1] with the bounds seen so far, so that pUCT works for
  rewards of any scale. With `known_bounds` (board games: [-1, 1]) the bounds
  start there and only widen.

  The search feeds it exactly the Q values that `ucb_score` normalises:
  `reward + discount * value` of a child, seen from its parent's player
  (see `mcts.q_value`).
  """

  __slots__ = ('maximum', 'minimum')

  def __init__(self, known_bounds: Optional[config_lib.KnownBounds] = None):
    """Creates the statistics.

    Args:
      known_bounds: bounds of Q known in advance, or None to learn them from
        the values seen.
    """
    if known_bounds is not None:
      self.maximum = float(known_bounds.max)
      self.minimum = float(known_bounds.min)
    else:
      self.maximum = -config_lib.MAXIMUM_FLOAT_VALUE
      self.minimum = config_lib.MAXIMUM_FLOAT_VALUE

  def update(self, value: float):
    """Widens the bounds to include `value`."""
    if value > self.maximum:
      self.maximum = value
    if value < self.minimum:
      self.minimum = value

  def normalize(self, value: float) -> float:
    """(value - min) / (max - min) once max > min; else `value` unchanged.

    The pseudocode returns the value unchanged while the bounds are empty or
    a single point (a fresh tree without known bounds).
    """
    if self.maximum > self.minimum:
      return (value - self.minimum) / (self.maximum - self.minimum)
    return value

  def __repr__(self) -> str:
    return f'MinMaxStats(minimum={self.minimum}, maximum={self.maximum})'
