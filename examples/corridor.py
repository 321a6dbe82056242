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
"""A one-player game from scratch: walk a corridor to its end.

The agent starts in cell 0 of `LENGTH` cells and moves left (0) or right
(1). The last cell pays 1 and ends the episode; a step left from cell 0
falls into a pit, which costs 1 and ends it too; after `max_moves` steps
the episode is cut short. With discount 0.997 the best return comes from
moving right `LENGTH - 1` times. A plain `dm_env.Environment` is enough:
`python -m examples.corridor` trains MuZero on it.
"""

import dm_env
from dm_env import specs
import numpy as np

import muzero_snt

LENGTH = 5


class Corridor(dm_env.Environment):
  """Cells 0..LENGTH-1; the observation is the agent's cell, one-hot."""

  max_moves = 10 * LENGTH  # Read by muzero_snt.config_for_environment.

  def __init__(self, seed: int = 0):
    del seed  # The corridor is deterministic.
    self._cell, self._moves = None, 0

  def observation_spec(self):
    return specs.Array((LENGTH,), np.float32, name='cell')

  def action_spec(self):
    return specs.DiscreteArray(2, name='left_or_right')

  def reset(self):
    self._cell, self._moves = 0, 0
    return dm_env.restart(self._observation())

  def step(self, action):
    if self._cell is None:
      return self.reset()  # dm_env: a step after the last starts anew.
    self._cell += 1 if action == 1 else -1
    self._moves += 1
    observation = self._observation()
    if self._cell in (-1, LENGTH - 1):  # The pit or the end.
      reward = -1. if self._cell == -1 else 1.
      self._cell = None
      return dm_env.termination(reward, observation)
    if self._moves == self.max_moves:
      self._cell = None
      return dm_env.truncation(0., observation)
    return dm_env.transition(0., observation)

  def _observation(self):
    # In the pit (cell -1) the agent is in no cell.
    return np.eye(LENGTH + 1, dtype=np.float32)[self._cell][:LENGTH]


def train(**settings):
  """Trains MuZero on the corridor; `settings` are `RunConfig` fields."""
  config = muzero_snt.config_for_environment(
      Corridor(), training_steps=400, num_simulations=16)
  run = muzero_snt.RunConfig(environment=Corridor, config=config,
                             **settings)
  return muzero_snt.train(run)


if __name__ == '__main__':
  train()
