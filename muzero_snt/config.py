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
"""MuZeroConfig and its network section, validated on construction."""

import dataclasses
from typing import Callable, NamedTuple, Optional, Tuple

from muzero_snt import symmetries

MAXIMUM_FLOAT_VALUE = float('inf')

NETWORK_KINDS = ('mlp', 'residual')
ACTION_ENCODINGS = ('one_hot', 'board', 'column')
OPTIMIZERS = ('momentum', 'adam')
UNVISITED_Q = ('zero', 'parent', 'minimum')  # See `MuZeroConfig`.
SEARCH_POLICIES = ('muzero', 'gumbel')


class KnownBounds(NamedTuple):
  """Known bounds of the value, used to normalise Q in the search."""
  min: float
  max: float


@dataclasses.dataclass(frozen=True)
class MoveCountTemperature:
  """The pseudocode's board-game temperature: 1 for the first `moves` moves
  of a game, then 0 (play the most visited action)."""
  moves: int = 30

  def __call__(self, num_moves: int, training_steps: int) -> float:
    del training_steps  # Unused.
    return 1.0 if num_moves < self.moves else 0.0


@dataclasses.dataclass(frozen=True)
class TrainingStepTemperature:
  """The pseudocode's Atari temperature, by training step: `values[i]`
  below `boundaries[i]` training steps, the last from the last boundary on."""
  boundaries: Tuple[float, ...] = (500e3, 750e3)
  values: Tuple[float, ...] = (1.0, 0.5, 0.25)

  def __post_init__(self):
    if len(self.values) != len(self.boundaries) + 1:
      raise ValueError(
          f'TrainingStepTemperature needs one more value than boundaries, '
          f'got boundaries={self.boundaries} and values={self.values}.')
    if list(self.boundaries) != sorted(self.boundaries):
      raise ValueError(f'TrainingStepTemperature boundaries must increase, '
                       f'got {self.boundaries}.')

  def __call__(self, num_moves: int, training_steps: int) -> float:
    del num_moves  # Unused.
    for boundary, value in zip(self.boundaries, self.values):
      if training_steps < boundary:
        return value
    return self.values[-1]


def _check(condition: bool, name: str, value, expected: str):
  if not condition:
    raise ValueError(f'{name} must be {expected}, got {value!r}.')


def _is_int(value) -> bool:
  return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
  return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_range(name: str, value, low: float, high: float = float('inf'),
                 expected: str = '>= 0', low_open: bool = False,
                 high_open: bool = False):
  ok = _is_number(value) and (value > low if low_open else value >= low) and (
      value < high if high_open else value <= high)
  _check(ok, name, value, expected)


def check_int(name: str, value, minimum: int):
  """Raises a `ValueError` unless `value` is an int >= `minimum` (0 or 1)."""
  _check(_is_int(value) and value >= minimum, name, value,
         'a positive integer' if minimum else 'a non-negative integer')


def _check_bool(name: str, value):
  _check(isinstance(value, bool), name, value, 'True or False')


def _check_choice(name: str, value, choices: Tuple[str, ...]):
  _check(value in choices, name, value, f'one of {choices}')


def _check_support_size(name: str, value: int):
  _check(_is_int(value) and (value == 0 or (value >= 3 and value % 2)),
         name, value, '0 (scalar head) or an odd integer >= 3')


def _check_sizes(name: str, value, allow_empty: bool = True):
  _check(isinstance(value, tuple) and (allow_empty or value) and
         all(_is_int(v) and v > 0 for v in value), name, value,
         'a tuple of positive integers')


@dataclasses.dataclass(frozen=True)
class NetworkConfig:
  """Sizes of the representation, dynamics and prediction networks."""
  kind: str = 'mlp'  # 'mlp' for vector observations, 'residual' for images.
  # The MLP hidden state and each MLP torso's hidden layers (kind 'mlp').
  hidden_size: int = 64
  mlp_layers: Tuple[int, ...] = (64, 64)
  head_layers: Tuple[int, ...] = (32,)  # Of the value, reward, policy heads.
  channels: int = 16  # Planes of the residual tower (paper: 256).
  num_blocks: int = 1  # In representation and dynamics (paper: 16).
  # Residual blocks of the prediction torso before its heads (the paper's
  # prediction is AlphaZero's heads only: 0).
  prediction_blocks: int = 1
  # The paper's Atari down-sampling stem (96x96 -> 6x6) first.
  downsample: bool = False
  # The action as planes for the dynamics: 'one_hot', one constant plane per
  # action (Atari); 'board', square a % (H*W) of plane a // (H*W) of
  # P = ceil(A / (H*W)) planes (Go's pass on a second plane, AlphaZero's
  # chess moves on 73); 'column', the whole column a on one plane, for games
  # whose A moves are the W columns (connect four).
  action_encoding: str = 'one_hot'
  # Atoms of the categorical heads (601 in the paper's Atari networks,
  # support -300..300); 0 for a scalar head.
  value_support_size: int = 0
  reward_support_size: int = 0
  batch_norm: bool = True  # In residual networks.
  # Each residual block's last batch-norm scale starts at 0, a fresh block
  # the identity (Goyal et al. 2017; docs/pseudocode.md deviation Q).
  zero_init_residual: bool = False
  # Planes of a residual head's 1x1 convolution before its linear layer
  # (AlphaZero's 2 for the policy, 1 for the others).
  policy_head_channels: int = 2
  value_head_channels: int = 1
  reward_head_channels: int = 1
  # 3x3 convolutions on boards of at most 3 x 3 cells as one matmul each
  # (`networks/board_conv.py`).
  conv_as_matmul: bool = False
  # Widths of the consistency loss's projection (`networks/projection.py`,
  # built only when `MuZeroConfig.consistency_loss_weight` > 0): its two
  # hidden layers, its output (the vector compared), its prediction head.
  projection_hidden: int = 256
  projection_size: int = 256
  projection_head_hidden: int = 128

  def __post_init__(self):
    _check_choice('network.kind', self.kind, NETWORK_KINDS)
    check_int('network.hidden_size', self.hidden_size, 1)
    _check_sizes('network.mlp_layers', self.mlp_layers)
    _check_sizes('network.head_layers', self.head_layers)
    check_int('network.channels', self.channels, 1)
    check_int('network.num_blocks', self.num_blocks, 0)
    for name in ('policy_head_channels', 'value_head_channels',
                 'reward_head_channels', 'projection_hidden',
                 'projection_size', 'projection_head_hidden'):
      check_int(f'network.{name}', getattr(self, name), 1)
    check_int('network.prediction_blocks', self.prediction_blocks, 0)
    _check_choice('network.action_encoding', self.action_encoding,
                  ACTION_ENCODINGS)
    for name in ('downsample', 'batch_norm', 'zero_init_residual',
                 'conv_as_matmul'):
      _check_bool(f'network.{name}', getattr(self, name))
    _check_support_size('network.value_support_size', self.value_support_size)
    _check_support_size('network.reward_support_size',
                        self.reward_support_size)


@dataclasses.dataclass(frozen=True)
class MuZeroConfig:
  """All hyperparameters of a MuZero run (the pseudocode's `MuZeroConfig`).

  The first eleven fields are the pseudocode constructor's arguments in its
  order (`dirichlet_alpha` stored as `root_dirichlet_alpha`, as there),
  without `num_actors` (`RunConfig.num_actors`); the rest carry its fixed
  values as defaults, then the appendix's fields. Construction raises
  a `ValueError` naming a bad field and its value.
  """
  action_space_size: int
  max_moves: int
  discount: float
  root_dirichlet_alpha: float
  num_simulations: int
  batch_size: int
  td_steps: int
  lr_init: float
  lr_decay_steps: float
  visit_softmax_temperature_fn: Callable[[int, int], float]
  known_bounds: Optional[KnownBounds] = None
  # Root prior exploration noise.
  root_exploration_fraction: float = 0.25
  # UCB formula.
  pb_c_base: float = 19652
  pb_c_init: float = 1.25
  # Q of an unvisited child in pUCT: 'zero' the pseudocode's
  # `normalize(child.value())` with value() = 0 (a draw with known bounds
  # [-1, 1]); 'parent' the parent's mean value (as EfficientZero); 'minimum'
  # the normalised minimum, 0 (as mctx's muzero_policy), which makes the
  # search follow the first child it visits until the prior part outgrows it.
  unvisited_q: str = 'zero'
  # The search: 'muzero' (pUCT, visit-count policy targets) or 'gumbel'
  # (Danihelka et al., ICLR 2022; docs/gumbel.md), with its m and the
  # constants of sigma(q) = (c_visit + max N) * c_scale * q (the paper's).
  # With m >= num_simulations each simulation visits another root action.
  search_policy: str = 'muzero'
  gumbel_max_considered_actions: int = 16
  gumbel_c_visit: float = 50.
  gumbel_c_scale: float = 1.
  # Training.
  training_steps: int = int(1e6)
  checkpoint_interval: int = int(1e3)
  window_size: int = int(1e6)
  num_unroll_steps: int = 5
  weight_decay: float = 1e-4
  momentum: float = 0.9
  lr_decay_rate: float = 0.1
  # Updates of linear warm-up (0: none): `learning.learning_rate_schedule`.
  lr_warmup_steps: int = 0
  # What the pseudocode leaves to the environment and the network.
  observation_shape: Tuple[int, ...] = (1,)
  num_players: int = 1
  network: NetworkConfig = NetworkConfig()
  optimizer: str = 'momentum'
  value_loss_weight: float = 1.0
  # Weight of each unrolled step's reward term (1 in the pseudocode), inside
  # the step's 1/K `scale_gradient`, as `value_loss_weight` for the value.
  reward_loss_weight: float = 1.0
  # Weight of EfficientZero's consistency loss (arXiv:2111.00210 weighs it
  # 2; 0 is MuZero's loss): `losses.consistency_loss`.
  consistency_loss_weight: float = 0.0
  # Prioritised replay (appendix G); alpha = beta = 1 for Atari.
  prioritized_replay: bool = False
  priority_alpha: float = 1.0
  priority_beta: float = 1.0
  # Reanalyse (appendix H): the fraction of each batch's rows given fresh
  # targets (MuZero Reanalyze: 0.8), values from a target network copied
  # every `target_update_interval` steps; `reanalyze_policy` False: values only.
  reanalyze_fraction: float = 0.0
  target_update_interval: int = 100
  reanalyze_policy: bool = True
  # Each sampled window moved by a random map of the board (`symmetries.py`):
  # 'none' (the paper's), 'dihedral' (AlphaGo Zero's 8) or 'left_right'.
  board_symmetries: str = 'none'
  # Self-play's first moves played uniformly among the legal ones (0 is the
  # paper's); their searches' visits stay the policy targets.
  random_opening_moves: int = 0
  # Each move held for this many of a one-player environment's steps, their
  # rewards summed (`environments/action_repeat.py`); `max_moves`, the
  # discount and the value targets count moves. 1: every step is a move.
  action_repeat: int = 1

  def __post_init__(self):
    for name in ('action_space_size', 'max_moves', 'num_simulations',
                 'gumbel_max_considered_actions',
                 'batch_size', 'td_steps', 'training_steps',
                 'checkpoint_interval', 'window_size', 'num_unroll_steps',
                 'target_update_interval', 'action_repeat'):
      check_int(name, getattr(self, name), 1)
    for name in ('lr_warmup_steps', 'random_opening_moves'):
      check_int(name, getattr(self, name), 0)
    for name in ('root_dirichlet_alpha', 'lr_init', 'lr_decay_steps',
                 'pb_c_base', 'value_loss_weight', 'reward_loss_weight'):
      value = getattr(self, name)
      _check(_is_number(value) and value > 0, name, value, 'a positive number')
    for name in ('pb_c_init', 'gumbel_c_visit', 'gumbel_c_scale',
                 'weight_decay', 'priority_alpha', 'priority_beta'):
      _check_range(name, getattr(self, name), 0)
    _check_range('discount', self.discount, 0, 1, 'in (0, 1]', low_open=True)
    _check(callable(self.visit_softmax_temperature_fn),
           'visit_softmax_temperature_fn', self.visit_softmax_temperature_fn,
           'a callable (num_moves, training_steps) -> temperature')
    if self.known_bounds is not None:
      _check(
          isinstance(self.known_bounds, KnownBounds) and
          self.known_bounds.min < self.known_bounds.max, 'known_bounds',
          self.known_bounds, 'None or KnownBounds(min, max) with min < max')
    _check_range('root_exploration_fraction', self.root_exploration_fraction,
                 0, 1, 'in [0, 1]')
    _check_choice('unvisited_q', self.unvisited_q, UNVISITED_Q)
    _check_choice('search_policy', self.search_policy, SEARCH_POLICIES)
    _check_range('consistency_loss_weight', self.consistency_loss_weight, 0,
                 expected='>= 0 (0: no consistency loss, the paper\'s loss)')
    _check_range('momentum', self.momentum, 0, 1, 'in [0, 1)', high_open=True)
    _check_range('lr_decay_rate', self.lr_decay_rate, 0, 1, 'in (0, 1]',
                 low_open=True)
    _check_sizes('observation_shape', self.observation_shape,
                 allow_empty=False)
    _check(self.num_players in (1, 2), 'num_players', self.num_players,
           '1 or 2')
    _check(self.action_repeat == 1 or self.num_players == 1, 'action_repeat',
           self.action_repeat, '1 in a two-player game')
    _check(isinstance(self.network, NetworkConfig), 'network', self.network,
           'a NetworkConfig')
    _check_choice('optimizer', self.optimizer, OPTIMIZERS)
    _check_bool('prioritized_replay', self.prioritized_replay)
    _check_range('reanalyze_fraction', self.reanalyze_fraction, 0, 1,
                 'a fraction of the batch in [0, 1]')
    _check_bool('reanalyze_policy', self.reanalyze_policy)
    _check(self.reanalyze_policy or not self.reanalyze_fraction or
           self.td_steps < self.max_moves, 'reanalyze_policy',
           self.reanalyze_policy,
           f'True when reanalyze_fraction is {self.reanalyze_fraction}: '
           f'with td_steps {self.td_steps} >= max_moves {self.max_moves} no '
           'value target bootstraps, so only policies could be reanalysed')
    problem = symmetries.check(self.board_symmetries,
                               self.observation_shape, self.action_space_size)
    if problem:
      raise ValueError(problem)
    if self.network.kind == 'residual':
      _check(len(self.observation_shape) == 3, 'observation_shape',
             self.observation_shape,
             '[height, width, planes] for a residual network')
      if self.network.action_encoding == 'column':
        _check(
            not self.network.downsample and
            self.action_space_size == self.observation_shape[1],
            'action_space_size', self.action_space_size,
            "one action per column of the observation's width "
            f'{self.observation_shape[1]} (network.action_encoding '
            "'column', no downsample)")

  def replace(self, **changes) -> 'MuZeroConfig':
    """Returns a copy with `changes` applied (and validated)."""
    return dataclasses.replace(self, **changes)
