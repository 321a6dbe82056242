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
"""muzero-general's learner step on our shapes, in its own venv.

Times `Trainer.update_lr()` and `update_weights(batch)` with our parameters
where it has them (docs/benchmarks.md), and prints one JSON line
(`benchmarks.learner --peers=muzero_general`).
"""

import sys
import types
from typing import Any, Tuple

from absl import app
import numpy as np
import torch

from benchmarks import reporting

MODELS = ('cartpole_mlp', 'tictactoe_residual')

FLAGS = reporting.define_peer_flags(MODELS)

_COMMON = dict(
    seed=0, stacked_observations=0, players=[0], train_on_gpu=False,
    selfplay_on_gpu=False, optimizer='SGD', lr_init=0.02, lr_decay_rate=1.,
    lr_decay_steps=10000, momentum=0.9, weight_decay=1e-4, PER=True,
    PER_alpha=1., value_loss_weight=0.25, num_unroll_steps=5,
    num_simulations=50, discount=0.997, root_dirichlet_alpha=0.25,
    root_exploration_fraction=0.25, pb_c_base=19652, pb_c_init=1.25,
    downsample=False)

_MODEL_CONFIGS = {
    'cartpole_mlp': dict(
        network='fullyconnected', observation_shape=(1, 1, 4),
        action_space=list(range(2)), encoding_size=128,
        fc_representation_layers=[128, 128], fc_dynamics_layers=[128, 128],
        fc_reward_layers=[32], fc_value_layers=[32], fc_policy_layers=[32],
        support_size=300),
    'tictactoe_residual': dict(
        network='resnet', observation_shape=(3, 3, 3),
        action_space=list(range(9)), players=[0, 1], blocks=1, channels=16,
        reduced_channels_reward=16, reduced_channels_value=16,
        reduced_channels_policy=16, resnet_fc_reward_layers=[32],
        resnet_fc_value_layers=[32], resnet_fc_policy_layers=[32],
        support_size=10, discount=1.),
}


def import_peer() -> Tuple[Any, Any]:
  """muzero-general's `models` and `trainer` modules, with a stand-in `ray`
  (the decorators only) if Ray is not installed."""
  try:
    import ray  # pylint: disable=g-import-not-at-top,unused-import
  except ImportError:
    stand_in = types.ModuleType('ray')
    stand_in.remote = lambda cls: cls
    sys.modules['ray'] = stand_in
  # pylint: disable=g-import-not-at-top
  import models
  import trainer
  # pylint: enable=g-import-not-at-top
  if not isinstance(trainer.Trainer, type):
    raise RuntimeError(
        f'{trainer.Trainer!r} is a Ray actor class: uninstall Ray from the '
        'peer\'s venv, or time it through Ray.')
  return models, trainer


def make_batch(config: types.SimpleNamespace, seed: int = 0) -> Tuple[Any, ...]:
  """A random batch as its `ReplayBuffer.get_batch` lays it out: values in
  [-3, 3], rewards in [-2, 2], Dirichlet policies, padded as it pads past a
  random game length; a row's gradient scale min(K, moves left)."""
  rng = np.random.default_rng(seed)
  b, k = config.batch_size, config.num_unroll_steps
  a = len(config.action_space)
  observation = rng.uniform(0., 1., (b,) + tuple(config.observation_shape))
  action = rng.integers(0, a, (b, k + 1))
  length = rng.integers(1, k + 2, b)  # [B]
  inside = np.arange(k + 1)[None] < length[:, None]
  value = rng.uniform(-3., 3., (b, k + 1)) * inside
  reward = rng.uniform(-2., 2., (b, k + 1)) * inside
  policy = np.where(inside[..., None],
                    rng.dirichlet(np.ones(a), (b, k + 1)), 1. / a)
  weight = rng.uniform(0.5, 1.5, b)
  gradient_scale = np.repeat(np.minimum(k, length - 1)[:, None], k + 1, 1)
  return (observation.astype(np.float32), action.tolist(), value.tolist(),
          reward.tolist(), policy.tolist(), weight.astype(np.float32),
          np.maximum(gradient_scale, 1).tolist())


def time_learner(model, batch_size, steps, repeats, warmup_steps, seed):
  models, trainer = import_peer()
  # The attributes of its `MuZeroConfig` that the timed code reads.
  config = types.SimpleNamespace(**dict(
      _COMMON, **_MODEL_CONFIGS[model], batch_size=batch_size, seed=seed))
  torch.manual_seed(seed)
  learner = trainer.Trainer(
      {'weights': models.MuZeroNetwork(config).get_weights(),
       'optimizer_state': None, 'training_step': 0}, config)
  data = make_batch(config, seed)

  def step():
    learner.update_lr()
    learner.update_weights(data)

  rates = reporting.learner_rates(step, batch_size, steps, repeats,
                                  warmup_steps)
  return rates, {'torch': torch.__version__,
                 'torch_threads': torch.get_num_threads(),
                 'network': config.network, 'batch_size': config.batch_size,
                 'num_unroll_steps': config.num_unroll_steps,
                 'support_size': config.support_size}


def main(argv):
  reporting.run_peer(argv, FLAGS, 'muzero_general', torch.set_num_threads,
                     time_learner)


if __name__ == '__main__':
  app.run(main)
