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
"""Presets: the pseudocode's configurations and small ones for a laptop CPU.

Each preset is one function that returns a frozen `MuZeroConfig` with every
number in place. The paper-sized ones reproduce the pseudocode of
arXiv:1911.08265 and the network sizes of its appendix; the small ones
(tic-tac-toe, CartPole) train on a 2-core CPU.
"""

from typing import Callable, Dict, Tuple

from muzero_snt import config as config_lib

KnownBounds = config_lib.KnownBounds
MuZeroConfig = config_lib.MuZeroConfig
NetworkConfig = config_lib.NetworkConfig

# Appendix "Network Architecture": AlphaZero's tower with 16 instead of 20
# residual blocks of 256 planes for representation and dynamics; the
# prediction function is AlphaZero's heads (value head with a 256-unit layer).
PAPER_BOARD_NETWORK = NetworkConfig(
    kind='residual',
    channels=256,
    num_blocks=16,
    prediction_blocks=0,
    head_layers=(256,),
    action_encoding='board',
)

# Atari: the same tower after the down-sampling stem, and value and reward
# as 601 categorical atoms over the transformed support -300..300.
PAPER_ATARI_NETWORK = NetworkConfig(
    kind='residual',
    channels=256,
    num_blocks=16,
    prediction_blocks=0,
    head_layers=(256,),
    downsample=True,
    action_encoding='one_hot',
    value_support_size=601,
    reward_support_size=601,
)


def make_board_game_config(
    action_space_size: int,
    max_moves: int,
    dirichlet_alpha: float,
    lr_init: float,
    observation_shape: Tuple[int, ...],
    network: NetworkConfig = PAPER_BOARD_NETWORK) -> MuZeroConfig:
  """The pseudocode's `make_board_game_config` (two players, discount 1)."""
  return MuZeroConfig(
      action_space_size=action_space_size,
      max_moves=max_moves,
      discount=1.0,
      root_dirichlet_alpha=dirichlet_alpha,
      num_simulations=800,
      batch_size=2048,
      td_steps=max_moves,  # Always use Monte Carlo return.
      num_actors=3000,
      lr_init=lr_init,
      lr_decay_steps=400e3,
      visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=30),
      known_bounds=KnownBounds(-1, 1),
      observation_shape=observation_shape,
      num_players=2,
      network=network,
  )


def make_go_config() -> MuZeroConfig:
  """19x19 Go; AlphaZero's 17 input planes (8 history steps x 2 + colour)."""
  return make_board_game_config(
      action_space_size=362, max_moves=722, dirichlet_alpha=0.03, lr_init=0.01,
      observation_shape=(19, 19, 17))


def make_chess_config() -> MuZeroConfig:
  """Chess; AlphaZero's 8x8x119 input and 8x8x73 move planes (4672)."""
  return make_board_game_config(
      action_space_size=4672, max_moves=512, dirichlet_alpha=0.3, lr_init=0.1,
      observation_shape=(8, 8, 119))


def make_shogi_config() -> MuZeroConfig:
  """Shogi; AlphaZero's 9x9x362 input and 9x9x139 move planes (11259)."""
  return make_board_game_config(
      action_space_size=11259, max_moves=512, dirichlet_alpha=0.15,
      lr_init=0.1, observation_shape=(9, 9, 362))


def make_atari_config() -> MuZeroConfig:
  """Atari: the pseudocode's numbers plus the appendix's network and replay.

  Observations are 96x96 with 32 RGB frames and 32 action bias planes
  (128 planes); replay is prioritised with alpha = beta = 1.
  """
  return MuZeroConfig(
      action_space_size=18,
      max_moves=27000,  # Half an hour at action repeat 4.
      discount=0.997,
      root_dirichlet_alpha=0.25,
      num_simulations=50,
      batch_size=1024,
      td_steps=10,
      num_actors=350,
      lr_init=0.05,
      lr_decay_steps=350e3,
      visit_softmax_temperature_fn=config_lib.TrainingStepTemperature(
          boundaries=(500e3, 750e3), values=(1.0, 0.5, 0.25)),
      observation_shape=(96, 96, 128),
      network=PAPER_ATARI_NETWORK,
      prioritized_replay=True,
      priority_alpha=1.0,
      priority_beta=1.0,
  )


def make_tictactoe_config() -> MuZeroConfig:
  """Tic-tac-toe on a CPU: a one-block residual network of 16 planes.

  Observations are 3x3 with three planes (the mover's stones, the
  opponent's stones, a constant plane for the player to move); an action is a
  square, so the dynamics sees it on one 'board' plane. Value and reward use
  21-atom supports.
  """
  return MuZeroConfig(
      action_space_size=9,
      max_moves=9,
      discount=1.0,
      root_dirichlet_alpha=0.3,
      num_simulations=25,
      batch_size=128,
      td_steps=9,  # Monte Carlo return, as for the other board games.
      num_actors=1,
      lr_init=0.02,
      lr_decay_steps=10e3,
      visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=4),
      known_bounds=KnownBounds(-1, 1),
      training_steps=10_000,
      checkpoint_interval=500,
      window_size=2_000,
      observation_shape=(3, 3, 3),
      num_players=2,
      network=NetworkConfig(
          kind='residual',
          channels=16,
          num_blocks=1,
          prediction_blocks=1,
          head_layers=(32,),
          action_encoding='board',
          value_support_size=21,
          reward_support_size=21,
      ),
  )


def make_cartpole_config() -> MuZeroConfig:
  """CartPole-v1 on a CPU: MLPs with a 128-unit hidden state.

  Two hidden layers of 128 in each torso, heads with one layer of 32, and
  601-atom value and reward supports, as in the paper's Atari heads. An
  unvisited child's Q in the search is its parent's value.
  """
  return MuZeroConfig(
      action_space_size=2,
      max_moves=500,
      discount=0.997,
      root_dirichlet_alpha=0.25,
      num_simulations=50,
      batch_size=128,
      td_steps=50,
      num_actors=1,
      lr_init=0.02,
      lr_decay_steps=10e3,
      visit_softmax_temperature_fn=config_lib.TrainingStepTemperature(
          boundaries=(5e3, 7.5e3), values=(1.0, 0.5, 0.25)),
      training_steps=10_000,
      checkpoint_interval=500,
      window_size=500,
      # Returns are positive and there are no known bounds, so the
      # pseudocode's Q of 0 for an unvisited child would rank it below every
      # visited one; the parent's value keeps the search exploring (in 180 s
      # runs: mean return 497 over 100 episodes with 'parent', 444 on a
      # 10-episode screen with 'minimum', 83 with 'zero'; docs/results.md).
      unvisited_q='parent',
      observation_shape=(4,),
      network=NetworkConfig(
          kind='mlp',
          hidden_size=128,
          mlp_layers=(128, 128),
          head_layers=(32,),
          value_support_size=601,
          reward_support_size=601,
      ),
  )


PRESETS: Dict[str, Callable[[], MuZeroConfig]] = {
    'atari': make_atari_config,
    'cartpole': make_cartpole_config,
    'chess': make_chess_config,
    'go': make_go_config,
    'shogi': make_shogi_config,
    'tictactoe': make_tictactoe_config,
}


def get_preset(name: str) -> MuZeroConfig:
  """Returns the preset called `name`; a `ValueError` lists the known ones."""
  if name not in PRESETS:
    raise ValueError(
        f'Unknown preset {name!r}; expected one of {sorted(PRESETS)}.')
  return PRESETS[name]()
