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
"""A two-player game from scratch: Nim, with one pile.

Players take turns taking 1, 2 or 3 stones (actions 0, 1 and 2) from a
pile of `STONES`; whoever takes the last stone wins. The player to move
wins exactly when the pile is not a multiple of 4, by taking `pile % 4`
stones. A two-player game adds `legal_actions()`, `to_play()` and
`num_players = 2` to a plain `dm_env.Environment`; each reward is the
mover's. `python -m examples.nim` trains MuZero on it.
"""

import dm_env
from dm_env import specs
import numpy as np

import muzero_snt

STONES = 7


class Nim(dm_env.Environment):
  """The observation is the pile's size, one-hot."""

  num_players = 2
  max_moves = STONES

  def __init__(self, seed: int = 0):
    del seed  # Nim is deterministic.
    self._pile, self._player = None, 0

  def observation_spec(self):
    return specs.Array((STONES + 1,), np.float32, name='pile')

  def action_spec(self):
    return specs.DiscreteArray(3, name='take_one_two_or_three')

  def reset(self):
    self._pile, self._player = STONES, 0
    return dm_env.restart(self._observation())

  def step(self, action):
    if self._pile in (None, 0):
      return self.reset()  # dm_env: a step after the last starts anew.
    self._pile -= action + 1
    self._player = 1 - self._player
    if self._pile == 0:  # The mover took the last stone and wins.
      return dm_env.termination(1., self._observation())
    return dm_env.transition(0., self._observation())

  def legal_actions(self):
    return np.arange(min(3, self._pile), dtype=np.int32)

  def to_play(self):
    return self._player

  def _observation(self):
    return np.eye(STONES + 1, dtype=np.float32)[self._pile]


def train(**settings):
  """Trains MuZero on Nim; `settings` are `RunConfig` fields."""
  config = muzero_snt.config_for_environment(
      Nim(), known_bounds=muzero_snt.KnownBounds(-1, 1),
      training_steps=400, num_simulations=16)
  run = muzero_snt.RunConfig(environment=Nim, config=config, **settings)
  return muzero_snt.train(run)


if __name__ == '__main__':
  train()
