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
"""The 'minatar' preset: MinAtar's five games on a 2-core CPU."""

from muzero_snt import config as config_lib

# MinAtar (arXiv:1903.03176): 10x10 grids, every game padded to Seaquest's
# 10 object planes (`environments.MinAtarEnvironment`), 6 actions.
MINATAR_OBSERVATION_SHAPE = (10, 10, 10)
MINATAR_ACTIONS = 6


def make_minatar_config() -> config_lib.MuZeroConfig:
  """A MinAtar game (the title 'breakout', 'asterix' etc.) on a CPU.

  The input is the current 10x10 state alone, as MinAtar's baselines use
  it (no frame stacking, no action planes); games are cut at 3,000 moves
  (one move is one frame; Freeway ends itself after 2,501). The discount is
  the baselines' 0.99. The network is a residual tower of 2 blocks of 16
  planes on the 10x10 grid (no down-sampling; the baselines' DQN has one
  convolution of 16 filters), an action as 6 one-hot planes, and 61-atom
  value and reward supports (the transformed range -30..30, values up to
  about 900). 16 planes, not 32: a learner step costs less than half as
  much (docs/minatar.md). Replay is prioritised with
  alpha = beta = 1, as for Atari. A stored position is a float32 state of
  4 KB, so the window of 100 games holds at most 100 x 3,000 x 4 KB, 1.2 GB
  (2.6 GB with its checkpoint copy and the 16 games being played, as
  `resources.estimate_memory` counts before a run starts), and far less
  while games are short.
  """
  return config_lib.MuZeroConfig(
      action_space_size=MINATAR_ACTIONS,
      max_moves=3_000,
      discount=0.99,
      root_dirichlet_alpha=0.25,
      num_simulations=16,
      batch_size=128,
      td_steps=10,
      lr_init=0.02,
      lr_decay_steps=50e3,
      visit_softmax_temperature_fn=config_lib.TrainingStepTemperature(
          boundaries=(25e3, 37.5e3), values=(1.0, 0.5, 0.25)),
      training_steps=50_000,
      checkpoint_interval=1_000,
      window_size=100,
      # Returns are positive and there are no known bounds: the pseudocode's
      # Q of 0 for an unvisited child normalises far below every visited
      # child, so each search follows its first child and self-play turns
      # deterministic. As for CartPole.
      unvisited_q='parent',
      observation_shape=MINATAR_OBSERVATION_SHAPE,
      network=config_lib.NetworkConfig(
          kind='residual',
          channels=16,
          num_blocks=2,
          prediction_blocks=0,
          head_layers=(32,),
          action_encoding='one_hot',
          value_support_size=61,
          reward_support_size=61,
      ),
      prioritized_replay=True,
      priority_alpha=1.0,
      priority_beta=1.0,
  )
