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
"""Presets: the pseudocode's configurations (arXiv:1911.08265, with the
appendix's networks) and small ones that train on a 2-core CPU."""

import dataclasses
from typing import Any, Callable, Dict, Optional, Tuple

from muzero_snt import config as config_lib
from muzero_snt import presets_generic

config_for_environment = presets_generic.config_for_environment
FAMILIES = presets_generic.FAMILIES

KnownBounds = config_lib.KnownBounds
MuZeroConfig = config_lib.MuZeroConfig
NetworkConfig = config_lib.NetworkConfig

# Appendix "Network Architecture": AlphaZero's tower with 16 instead of 20
# residual blocks of 256 planes, and AlphaZero's heads. Each block's last
# batch-norm scale starts at 0 (docs/pseudocode.md, deviation Q): from the
# usual init the paper's learning rates overflow the towers within 3 steps.
PAPER_BOARD_NETWORK = NetworkConfig(
    kind='residual',
    channels=256,
    num_blocks=16,
    prediction_blocks=0,
    head_layers=(256,),
    action_encoding='board',
    zero_init_residual=True,
)

# Atari: the same tower after the down-sampling stem, and value and reward
# as 601 categorical atoms over the transformed support -300..300.
PAPER_ATARI_NETWORK = dataclasses.replace(
    PAPER_BOARD_NETWORK,
    downsample=True,
    action_encoding='one_hot',
    value_support_size=601,
    reward_support_size=601,
)

# Updates over which the paper presets' learning rate rises linearly to
# lr_init (not in the paper; deviation R): at lr_init from the first update
# the scalar heads overshoot and the loss overflows within 4 steps.
PAPER_LR_WARMUP_STEPS = 100


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
      lr_init=lr_init,
      lr_decay_steps=400e3,
      lr_warmup_steps=PAPER_LR_WARMUP_STEPS,
      visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=30),
      known_bounds=KnownBounds(-1, 1),
      observation_shape=observation_shape,
      num_players=2,
      network=network,
  )


# AlphaZero's inputs (Silver et al. 2018, table S1), reused by the appendix:
# planes per position, chess 14 (6 + 6 pieces, 2 repetition counts) and shogi
# 45 (14 + 14 pieces, 3 repetition counts, 7 + 7 prisoner counts); constant
# planes, chess 7 (colour, move count, 2 + 2 castling rights, no-progress
# count) and shogi 2 (colour, move count).
CHESS_POSITION_PLANES, CHESS_CONSTANT_PLANES = 14, 7
SHOGI_POSITION_PLANES, SHOGI_CONSTANT_PLANES = 45, 2
# Appendix "Network Input": shogi keeps AlphaZero's last 8 positions, chess
# the last 100 "to allow correct prediction of draws".
CHESS_HISTORY, SHOGI_HISTORY = 100, 8
# OpenSpiel games' inputs: the last 8 positions of OpenSpiel's planes plus
# one plane for the player to move (`environments.make_environment`).
OPENSPIEL_HISTORY = 8


def make_go_config() -> MuZeroConfig:
  """19x19 Go on OpenSpiel's `go` (komi 7.5), the pseudocode's numbers; 33
  input planes where AlphaZero has 17."""
  return make_board_game_config(
      action_space_size=362, max_moves=722, dirichlet_alpha=0.03, lr_init=0.01,
      observation_shape=(19, 19, OPENSPIEL_HISTORY * 4 + 1))


def make_chess_config() -> MuZeroConfig:
  """Chess, the pseudocode's numbers: 4,672 moves (AlphaZero's 8x8x73) and
  the paper's 1,407 input planes, which no environment here produces (the
  'chess' preset is `make_openspiel_chess_config`)."""
  return make_board_game_config(
      action_space_size=4672, max_moves=512, dirichlet_alpha=0.3, lr_init=0.1,
      observation_shape=(
          8, 8, CHESS_HISTORY * CHESS_POSITION_PLANES + CHESS_CONSTANT_PLANES))


def make_shogi_config() -> MuZeroConfig:
  """Shogi, the pseudocode's numbers: 11,259 moves (AlphaZero's 9x9x139) and
  the paper's 362 input planes, which no environment here produces (the
  'shogi' preset is `make_openspiel_shogi_config`)."""
  return make_board_game_config(
      action_space_size=11259, max_moves=512, dirichlet_alpha=0.15,
      lr_init=0.1, observation_shape=(
          9, 9, SHOGI_HISTORY * SHOGI_POSITION_PLANES + SHOGI_CONSTANT_PLANES))


def make_openspiel_chess_config() -> MuZeroConfig:
  """`make_chess_config` on OpenSpiel's `chess`: its 4,674 moves and 20
  planes a position (161 in all); games reaching 512 moves end as draws."""
  return dataclasses.replace(
      make_chess_config(), action_space_size=4674,
      observation_shape=(8, 8, OPENSPIEL_HISTORY * 20 + 1))


def make_openspiel_shogi_config() -> MuZeroConfig:
  """`make_shogi_config` on OpenSpiel's `shogi`: its 13,689 moves and 45
  planes a position (361 in all); games reaching 512 moves end as draws."""
  return dataclasses.replace(
      make_shogi_config(), action_space_size=13689,
      observation_shape=(9, 9, OPENSPIEL_HISTORY * 45 + 1))


def make_atari_config() -> MuZeroConfig:
  """Atari: the pseudocode's numbers plus the appendix's network and replay
  (96x96 observations of 32 RGB frames and 32 action planes; prioritised
  replay, alpha = beta = 1)."""
  return MuZeroConfig(
      action_space_size=18,
      max_moves=27000,  # Half an hour at action repeat 4.
      discount=0.997,
      root_dirichlet_alpha=0.25,
      num_simulations=50,
      batch_size=1024,
      td_steps=10,
      lr_init=0.05,
      lr_decay_steps=350e3,
      lr_warmup_steps=PAPER_LR_WARMUP_STEPS,
      visit_softmax_temperature_fn=config_lib.TrainingStepTemperature(
          boundaries=(500e3, 750e3), values=(1.0, 0.5, 0.25)),
      observation_shape=(96, 96, 128),
      network=PAPER_ATARI_NETWORK,
      prioritized_replay=True,
      priority_alpha=1.0,
      priority_beta=1.0,
  )


def make_tictactoe_config() -> MuZeroConfig:
  """Tic-tac-toe on a CPU: a one-block residual network of 16 planes on 3x3x3
  observations (the mover's stones, the opponent's, the player to move)."""
  return MuZeroConfig(
      action_space_size=9,
      max_moves=9,
      discount=1.0,
      root_dirichlet_alpha=0.3,
      num_simulations=50,  # Perfect play in fewer learner steps than 25.
      batch_size=64,  # Cheaper steps reach perfect play sooner.
      td_steps=9,  # Monte Carlo return, as for the other board games.
      lr_init=0.2,  # At 0.02 the value stalls; at 0.3 its head collapses.
      lr_decay_steps=10e3,
      visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=4),
      known_bounds=KnownBounds(-1, 1),
      training_steps=18_000,  # Until the rate has decayed to 0.003.
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
          # Not AlphaZero's 2 and 1: an early update can push a head's
          # batch-norm offset below its activations; of 16 planes some live.
          policy_head_channels=16,
          value_head_channels=16,
          reward_head_channels=16,
      ),
      # AlphaGo Zero's: a bad reply to a rare opening is learnt in all its
      # orientations.
      board_symmetries='dihedral',
      # Every opening draws, so self-play settles on a few and rarely meets
      # those the evaluation's perfect player plays.
      random_opening_moves=1,
  )


def make_cartpole_config() -> MuZeroConfig:
  """CartPole-v1 on a CPU: MLPs with a 128-unit hidden state and the
  paper's 601-atom Atari supports."""
  return MuZeroConfig(
      action_space_size=2,
      max_moves=500,
      discount=0.997,
      root_dirichlet_alpha=0.25,
      # Early on nearly all visits go to the child with the larger noised
      # prior, which learns from them: at the pseudocode's 0.25 that loop
      # drives any prior above 1/2 towards 1; at 0.5 it pulls it back.
      root_exploration_fraction=0.5,
      num_simulations=50,
      batch_size=128,
      td_steps=50,
      lr_init=0.02,
      lr_decay_steps=10e3,
      visit_softmax_temperature_fn=config_lib.TrainingStepTemperature(
          boundaries=(5e3, 7.5e3), values=(1.0, 0.5, 0.25)),
      training_steps=10_000,
      checkpoint_interval=500,
      window_size=500,
      # Returns are positive and unbounded: the pseudocode's Q of 0 would
      # rank an unvisited child below every visited one.
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


def make_connect4_config() -> MuZeroConfig:
  """Connect four (OpenSpiel's `connect_four`) on a CPU: OpenSpiel's 6x7
  planes plus the player to move; two residual blocks of 32 planes."""
  return MuZeroConfig(
      action_space_size=7,
      max_moves=42,
      discount=1.0,
      # AlphaZero's alpha is about 10 / (typical number of legal moves).
      root_dirichlet_alpha=1.0,
      num_simulations=50,
      batch_size=128,
      td_steps=10,  # The paper's Atari n: it rated ahead of the result.
      lr_init=0.02,
      lr_decay_steps=20e3,
      visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=8),
      known_bounds=KnownBounds(-1, 1),
      # A win is a game's one non-zero reward: at weight 1 the dynamics
      # barely told a winning move from another.
      reward_loss_weight=5.0,
      training_steps=20_000,
      checkpoint_interval=500,
      window_size=2_000,
      observation_shape=(6, 7, 3 + 1),
      num_players=2,
      network=NetworkConfig(
          kind='residual',
          channels=32,
          num_blocks=2,
          prediction_blocks=1,
          head_layers=(32,),
          # A move as its whole column: where the disc lands depends on the
          # column's height, and a fresh network learns sooner which wins.
          action_encoding='column',
          value_support_size=21,
          reward_support_size=21,
      ),
  )


def make_go9_config() -> MuZeroConfig:
  """9x9 Go (OpenSpiel's `go`, komi 7.5) on a CPU: the current position only
  (OpenSpiel's 4 planes plus the player to move); games end at OpenSpiel's
  limit of 162 moves, scored."""
  return MuZeroConfig(
      action_space_size=82,
      max_moves=162,
      discount=1.0,
      root_dirichlet_alpha=0.15,
      num_simulations=50,
      batch_size=128,
      td_steps=162,  # Monte Carlo return.
      lr_init=0.02,
      lr_decay_steps=50e3,
      visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=20),
      known_bounds=KnownBounds(-1, 1),
      training_steps=50_000,
      checkpoint_interval=500,
      window_size=1_000,
      observation_shape=(9, 9, 4 + 1),
      num_players=2,
      network=NetworkConfig(
          kind='residual',
          channels=32,
          num_blocks=3,
          prediction_blocks=1,
          head_layers=(64,),
          action_encoding='board',
          value_support_size=21,
          reward_support_size=21,
      ),
  )


def make_atari_small_config() -> MuZeroConfig:
  """An Atari game on a CPU: the paper's protocol with 4 stacked frames and 4
  action planes, the paper's stem and heads on 2 blocks of 32 planes; the
  window of 150 games of at most 1,000 moves (twice over while a checkpoint
  is written) takes at most about 8.4 GB."""
  return MuZeroConfig(
      action_space_size=18,
      max_moves=1000,
      discount=0.997,
      root_dirichlet_alpha=0.25,
      num_simulations=16,
      batch_size=32,
      td_steps=10,
      lr_init=0.02,
      lr_decay_steps=50e3,
      visit_softmax_temperature_fn=config_lib.TrainingStepTemperature(
          boundaries=(25e3, 37.5e3), values=(1.0, 0.5, 0.25)),
      training_steps=50_000,
      checkpoint_interval=1_000,
      window_size=150,
      # With a Q of 0 for an unvisited child, 16 simulations of this network
      # visit one child per root and self-play plays the no-op every move
      # (the paper's 'atari' preset visits all 18 children either way).
      unvisited_q='parent',
      observation_shape=(96, 96, 4 * 3 + 4),
      network=NetworkConfig(
          kind='residual',
          channels=32,
          num_blocks=2,
          prediction_blocks=0,
          head_layers=(32,),
          downsample=True,
          action_encoding='one_hot',
          value_support_size=601,
          reward_support_size=601,
      ),
      prioritized_replay=True,  # alpha = beta = 1, as for Atari.
  )


def make_minatar_config() -> MuZeroConfig:
  """A MinAtar game (arXiv:1903.03176; the title 'breakout' etc.) on a CPU,
  as MinAtar's baselines: the current 10x10 state alone (padded to
  Seaquest's 10 planes), 6 actions, discount 0.99. Games are cut at 3,000
  moves; 61-atom supports hold values up to about 900."""
  return MuZeroConfig(
      action_space_size=6,
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
      # Positive, unbounded returns, as for CartPole: with a Q of 0 each
      # search follows its first child and self-play turns deterministic.
      unvisited_q='parent',
      observation_shape=(10, 10, 10),
      network=NetworkConfig(
          kind='residual',
          channels=16,
          num_blocks=2,
          prediction_blocks=0,
          head_layers=(32,),
          action_encoding='one_hot',
          value_support_size=61,
          reward_support_size=61,
      ),
      prioritized_replay=True,  # alpha = beta = 1, as for Atari.
  )


PRESETS: Dict[str, Callable[[], MuZeroConfig]] = {
    'atari': make_atari_config,
    'atari_small': make_atari_small_config,
    'cartpole': make_cartpole_config,
    'chess': make_openspiel_chess_config,
    'connect4': make_connect4_config,
    'go': make_go_config,
    'go9': make_go9_config,
    'minatar': make_minatar_config,
    'shogi': make_openspiel_shogi_config,
    'tictactoe': make_tictactoe_config,
}


# How each preset's self-play runs in one process, by `RunConfig` field
# (`run.run_config` resolves a run's unset fields from these).
RUN_DEFAULTS: Dict[str, Dict[str, Any]] = {
    # Games of 5 to 9 moves: a round padded to its 32 games compiles one
    # program, not six.
    'tictactoe': dict(num_envs=32, train_ratio=0.1, overlap_learning=True,
                      pad_rounds=True),
    # Episodes of 10 to 500 moves: rounds would wait for the longest.
    'cartpole': dict(num_envs=32, train_ratio=0.05, continuous_selfplay=True,
                     overlap_learning=True),
    'connect4': dict(num_envs=32, train_ratio=0.05),
    'go9': dict(num_envs=16, train_ratio=0.02),
    'atari_small': dict(num_envs=4, train_ratio=0.05),
    # 25.6 samples learnt per frame (DQN's MinAtar baseline 32).
    'minatar': dict(num_envs=16, train_ratio=0.2),
    # Paper-sized: real runs need accelerators and many actors.
    'atari': dict(num_envs=2, train_ratio=0.05),
    'go': dict(num_envs=2, train_ratio=0.01),
    'chess': dict(num_envs=2, train_ratio=0.01),
    'shogi': dict(num_envs=2, train_ratio=0.01),
    'gymnasium': dict(num_envs=16, train_ratio=0.1),
    'openspiel': dict(num_envs=16, train_ratio=0.1),
}
# A user's own environment (`RunConfig.environment`, no preset).
ENVIRONMENT_RUN_DEFAULTS: Dict[str, Any] = dict(num_envs=16, train_ratio=0.1)


def preset_names() -> Tuple[str, ...]:
  """Every preset a run may name: `PRESETS` and `FAMILIES`, sorted."""
  return tuple(sorted((*PRESETS, *FAMILIES)))


def get_preset(name: str, title: Optional[str] = None,
               training_steps: Optional[int] = None) -> MuZeroConfig:
  """The configuration of preset `name` (one of `preset_names()`); a
  family's (`FAMILIES`) is derived from its task or game `title` (None: its
  default) and its schedules from `training_steps` (None: the preset's);
  `PRESETS` ignore `title` and keep their tuned schedules.

  Raises:
    ValueError: listing the known names if `name` is unknown, or as
      `presets_generic.family_config`.
    ImportError: if a family's optional package is missing.
  """
  if name in FAMILIES:
    return presets_generic.family_config(name, title, training_steps)
  if name not in PRESETS:
    raise ValueError(
        f'Unknown preset {name!r}; expected one of {list(preset_names())}.')
  config = PRESETS[name]()
  if training_steps is None:
    return config
  return config.replace(training_steps=training_steps)


def run_defaults(name: Optional[str]) -> Dict[str, Any]:
  """Preset `name`'s self-play defaults (`RUN_DEFAULTS`), the unnamed off;
  None names a user's own environment (`ENVIRONMENT_RUN_DEFAULTS`)."""
  if name is not None and name not in RUN_DEFAULTS:
    raise ValueError(
        f'Unknown preset {name!r}; expected one of {sorted(RUN_DEFAULTS)}.')
  return dict(dict(continuous_selfplay=False, overlap_learning=False,
                   pad_rounds=False),
              **(ENVIRONMENT_RUN_DEFAULTS if name is None else
                 RUN_DEFAULTS[name]))
