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
"""LightZero 0.2.0's MuZero learner step on our shapes, in its own venv.

Times `MuZeroPolicy._forward_learn`, what its learner calls once an update,
with our parameters where LightZero has them (docs/benchmarks.md), and
prints one JSON line (`benchmarks.learner --peers=lightzero`).
"""

import copy
from typing import Any, Tuple

from absl import app
from easydict import EasyDict
import lzero
from lzero.policy.muzero import MuZeroPolicy
import numpy as np
import torch

from benchmarks import reporting

MODELS = ('cartpole_mlp', 'tictactoe_residual')

FLAGS = reporting.define_peer_flags(MODELS)

_HEADS = dict(reward_head_hidden_channels=[32],
              value_head_hidden_channels=[32],
              policy_head_hidden_channels=[32])
_MODEL_CONFIGS = {
    'cartpole_mlp': dict(
        model_type='mlp', observation_shape=4, action_space_size=2,
        latent_state_dim=128, support_scale=300, reward_support_size=601,
        value_support_size=601, discrete_action_encoding_type='one_hot',
        **_HEADS),
    'tictactoe_residual': dict(
        model_type='conv', observation_shape=(3, 3, 3), image_channel=3,
        action_space_size=9, num_res_blocks=1, num_channels=16,
        support_scale=10, reward_support_size=21, value_support_size=21,
        discrete_action_encoding_type='not_one_hot', **_HEADS),
}


def make_policy_config(model: str, batch_size: int = 256) -> EasyDict:
  """`MuZeroPolicy`'s default config with the sizes of `model`, on the CPU."""
  config = EasyDict(copy.deepcopy(dict(MuZeroPolicy.default_config())))
  config.model.update(copy.deepcopy(_MODEL_CONFIGS[model]))
  config.model.update(self_supervised_learning_loss=False,
                      res_connection_in_dynamics=False, norm_type='BN')
  config.update(
      cuda=False, device='cpu', batch_size=batch_size, num_unroll_steps=5,
      optim_type='SGD', learning_rate=0.02,
      momentum=0.9, weight_decay=1e-4, piecewise_decay_lr_scheduler=False,
      ssl_loss_weight=0)
  if config.model.model_type == 'conv':
    config.env_type = 'board_games'
  return config


def make_batch(config: EasyDict, seed: int = 0) -> Tuple[Any, Any]:
  """`(current_batch, target_batch)` as LightZero's replay buffer gives
  them: values in [-3, 3], rewards in [-2, 2], Dirichlet policies, masked
  and 0 past a random game length; observations K + 1 stacked frames."""
  rng = np.random.default_rng(seed)
  b, k = config.batch_size, config.num_unroll_steps
  a = config.model.action_space_size
  shape = config.model.observation_shape
  shape = (shape,) if isinstance(shape, int) else tuple(shape)
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


def time_learner(model, batch_size, steps, repeats, warmup_steps, seed):
  torch.manual_seed(seed)
  config = make_policy_config(model, batch_size=batch_size)
  policy = MuZeroPolicy(config, enable_field=['learn', 'collect'])
  # Set by a collector's first call; `_forward_learn` reports them.
  policy._collect_mcts_temperature = 1.  # pylint: disable=protected-access
  policy.collect_epsilon = 0.
  data = make_batch(config, seed)
  rates = reporting.learner_rates(
      lambda: policy._forward_learn(data),  # pylint: disable=protected-access
      batch_size, steps, repeats, warmup_steps)
  return rates, {'lightzero': lzero.__version__, 'torch': torch.__version__,
                 'torch_threads': torch.get_num_threads(),
                 'model_type': config.model.model_type,
                 'batch_size': config.batch_size,
                 'num_unroll_steps': config.num_unroll_steps}


def main(argv):
  reporting.run_peer(argv, FLAGS, 'lightzero', torch.set_num_threads,
                     time_learner)


if __name__ == '__main__':
  app.run(main)
