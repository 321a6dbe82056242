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
"""LightZero 0.2.0's MuZero policy on the shapes of benchmarks/learner.py.

Runs in the peers' virtual environment (benchmarks/peers/
install_lightzero.sh), never in the project's: it imports torch and lzero,
and nothing of muzero_snt. Sizes follow our presets where LightZero has a
parameter for them (docs/benchmarks.md lists what differs):

  * `cartpole_mlp`: `MuZeroModelMLP`, observation 4, 2 actions, latent 128,
    two layers of 128 in the dynamics and prediction torsos, heads with one
    hidden layer of 32, 601-atom value and reward supports (-300..300);
  * `tictactoe_residual`: `MuZeroModel` (conv), 3 x 3 x 3 board, 9 actions,
    1 residual block of 16 planes, heads with one hidden layer of 32, the
    action on one plane ('not_one_hot'), 21-atom supports (-10..10).

and for the search (benchmarks/peers/lightzero_search.py), `search_mlp`, the
model of benchmarks/search.py: `MuZeroModelMLP`, observation 8, 4 actions,
latent 32, heads with one hidden layer of 32, scalar value and reward.

All with K = 5, momentum SGD (0.9, weight decay 1e-4), no self-supervised
consistency loss (the paper's MuZero has none), LightZero's defaults
otherwise.
"""

import copy
from typing import Any, Dict, Tuple

from easydict import EasyDict
import lzero
from lzero.policy.muzero import MuZeroPolicy
import numpy as np
import torch

# The learner's shapes; SEARCH_MODEL is the search benchmark's.
MODELS = ('cartpole_mlp', 'tictactoe_residual')
SEARCH_MODEL = 'search_mlp'

_MODEL_CONFIGS = {
    'cartpole_mlp': dict(
        model_type='mlp',
        observation_shape=4,
        action_space_size=2,
        latent_state_dim=128,
        reward_head_hidden_channels=[32],
        value_head_hidden_channels=[32],
        policy_head_hidden_channels=[32],
        support_scale=300,
        reward_support_size=601,
        value_support_size=601,
        discrete_action_encoding_type='one_hot',
    ),
    'tictactoe_residual': dict(
        model_type='conv',
        observation_shape=(3, 3, 3),
        image_channel=3,
        action_space_size=9,
        num_res_blocks=1,
        num_channels=16,
        reward_head_hidden_channels=[32],
        value_head_hidden_channels=[32],
        policy_head_hidden_channels=[32],
        support_scale=10,
        reward_support_size=21,
        value_support_size=21,
        discrete_action_encoding_type='not_one_hot',
    ),
    SEARCH_MODEL: dict(
        model_type='mlp',
        observation_shape=8,
        action_space_size=4,
        latent_state_dim=32,
        reward_head_hidden_channels=[32],
        value_head_hidden_channels=[32],
        policy_head_hidden_channels=[32],
        categorical_distribution=False,
        discrete_action_encoding_type='one_hot',
    ),
}


def make_policy_config(model: str, batch_size: int = 256,
                       num_unroll_steps: int = 5,
                       num_simulations: int = 50) -> EasyDict:
  """`MuZeroPolicy`'s default config with the sizes of `model`, on the CPU."""
  if model not in _MODEL_CONFIGS:
    raise ValueError(f'Unknown model {model!r}; expected one of '
                     f'{sorted(_MODEL_CONFIGS)}.')
  config = EasyDict(copy.deepcopy(dict(MuZeroPolicy.default_config())))
  config.model.update(copy.deepcopy(_MODEL_CONFIGS[model]))
  config.model.update(self_supervised_learning_loss=False,
                      res_connection_in_dynamics=False, norm_type='BN')
  config.update(
      cuda=False,
      device='cpu',
      batch_size=batch_size,
      num_unroll_steps=num_unroll_steps,
      num_simulations=num_simulations,
      optim_type='SGD',
      learning_rate=0.02,
      momentum=0.9,
      weight_decay=1e-4,
      piecewise_decay_lr_scheduler=False,
      ssl_loss_weight=0,
  )
  if config.model.model_type == 'conv':
    config.env_type = 'board_games'
  return config


def make_policy(config: EasyDict) -> MuZeroPolicy:
  """A `MuZeroPolicy` with its learn and collect modes (the tree search)."""
  policy = MuZeroPolicy(config, enable_field=['learn', 'collect'])
  # Set by a collector's first call; `_forward_learn` reports them.
  policy._collect_mcts_temperature = 1.  # pylint: disable=protected-access
  policy.collect_epsilon = 0.
  return policy


def observation_size(config: EasyDict) -> Tuple[int, ...]:
  """One observation's shape as LightZero's networks take it."""
  shape = config.model.observation_shape
  return (shape,) if isinstance(shape, int) else tuple(shape)


def make_batch(config: EasyDict, seed: int = 0) -> Tuple[Any, Any]:
  """A random batch in the layout of LightZero's replay buffer.

  The same distributions as `benchmarks.learner_models.make_batch`: values
  in [-3, 3], rewards in [-2, 2], Dirichlet policies, and absorbing tails
  (past a random game length the mask is 0 and the targets 0).
  Observations are the K + 1 stacked frames the buffer samples
  ([B, (K+1) * 4] for the MLP, [B, (K+1) * C, H, W] for the board).

  Returns:
    `(current_batch, target_batch)`, `MuZeroPolicy._forward_learn`'s input.
  """
  rng = np.random.default_rng(seed)
  b, k = config.batch_size, config.num_unroll_steps
  a = config.model.action_space_size
  shape = observation_size(config)
  observation = rng.uniform(0., 1., (b, (k + 1) * shape[0]) + shape[1:])
  action = rng.integers(0, a, (b, k))
  length = rng.integers(1, k + 2, b)  # [B]
  inside = (np.arange(k + 1)[None] < length[:, None]).astype(np.float32)
  target_value = rng.uniform(-3., 3., (b, k + 1)) * inside
  # LightZero's target_reward[:, i] is the reward of the i-th unrolled step.
  target_reward = rng.uniform(-2., 2., (b, k + 1)) * inside
  target_policy = rng.dirichlet(np.ones(a), (b, k + 1)) * inside[..., None]
  weight = rng.uniform(0.5, 1.5, b)
  current_batch = [observation.astype(np.float32), action, inside,
                   np.arange(b), weight.astype(np.float32), np.zeros(b)]
  target_batch = [target_reward.astype(np.float32),
                  target_value.astype(np.float32),
                  target_policy.astype(np.float32)]
  return current_batch, target_batch


def describe(config: EasyDict) -> Dict[str, Any]:
  """The settings a result depends on, for its JSON."""
  return {
      'lightzero': lzero.__version__,
      'torch': torch.__version__,
      'torch_threads': torch.get_num_threads(),
      'model_type': config.model.model_type,
      'batch_size': config.batch_size,
      'num_unroll_steps': config.num_unroll_steps,
  }
