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
"""Small configs and replay buffers for the checkpoint directory tests."""

import numpy as np

from muzero_snt import presets
from muzero_snt import replay as replay_lib
from muzero_snt import trajectory as trajectory_lib


def tiny_config():
  return presets.make_tictactoe_config().replace(
      batch_size=4, num_unroll_steps=2, window_size=10)


def replay(config, num_games):
  """A buffer of `num_games` two-move games (the count identifies it)."""
  buffer = replay_lib.ReplayBuffer(config, seed=0)
  for i in range(num_games):
    trajectory = trajectory_lib.Trajectory(9, num_players=2, discount=1.)
    for move, player in ((i % 9, 0), ((i + 1) % 9, 1)):
      trajectory.append(np.zeros((3, 3, 3), np.float32), player, move, 0.,
                        np.full(9, 1 / 9, np.float32), 0.)
    trajectory.finish(terminal=False, bootstrap_value=0.)
    buffer.save_game(trajectory)
  return buffer
