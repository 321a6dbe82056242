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
"""muzero-general's learner and search on the shapes of our benchmarks.

Runs in muzero-general's virtual environment (benchmarks/peers/
install_muzero_general.sh), never in the project's: it imports torch and
muzero-general's modules (`models`, `trainer`, `self_play`, found through
the `.pth` file the script writes), and nothing of muzero_snt.

muzero-general's `Trainer` and `SelfPlay` are Ray actors only through their
`@ray.remote` decorators; the methods timed here (`Trainer.update_weights`,
`MCTS.run`) call no Ray. `import_peer` puts a stand-in `ray` module whose
`remote` returns the class unchanged in front of the imports, so they run
in the timing process and the venv needs no Ray.

The shapes, with muzero-general's parameters set to ours where it has them:

  * `cartpole_mlp`: `network='fullyconnected'`, observation (1, 1, 4),
    2 actions, encoding 128, representation and dynamics of two layers of
    128, heads of one layer of 32 straight from the encoding (it has no
    prediction torso), 601-atom supports (`support_size=300`);
  * `tictactoe_residual`: `network='resnet'`, observation (3, 3, 3),
    9 actions, 1 block of 16 planes, heads of 16 planes then one layer of
    32, 21-atom supports (`support_size=10`), the action on one plane;
  * `search_mlp` (the search benchmark's model): `fullyconnected`,
    observation (1, 1, 8), 4 actions, encoding 32, heads of one layer of 32;
    muzero-general has no scalar heads, so value and reward use 21 atoms.

All with K = 5, momentum SGD (0.9, weight decay 1e-4), prioritised replay's
importance weights on, value loss weight 0.25 (its default), one player for
the search (Dirichlet alpha 0.25, fraction 0.25, the paper's pUCT
constants).
"""

import sys
import types
from typing import Any, Dict, Tuple

import numpy as np
import torch

# The learner's shapes; SEARCH_MODEL is the search benchmark's.
MODELS = ('cartpole_mlp', 'tictactoe_residual')
SEARCH_MODEL = 'search_mlp'

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
    SEARCH_MODEL: dict(
        network='fullyconnected', observation_shape=(1, 1, 8),
        action_space=list(range(4)), encoding_size=32,
        fc_representation_layers=[], fc_dynamics_layers=[32],
        fc_reward_layers=[32], fc_value_layers=[32], fc_policy_layers=[32],
        support_size=10),
}


def import_peer() -> Tuple[Any, Any, Any]:
  """muzero-general's `models`, `trainer` and `self_play` modules, with a
  stand-in `ray` (the decorators only) if Ray is not installed."""
  try:
    import ray  # pylint: disable=g-import-not-at-top,unused-import
  except ImportError:
    stand_in = types.ModuleType('ray')
    stand_in.remote = lambda cls: cls
    sys.modules['ray'] = stand_in
  # pylint: disable=g-import-not-at-top
  import models
  import self_play
  import trainer
  # pylint: enable=g-import-not-at-top
  for module in (trainer.Trainer, self_play.MCTS):
    if not isinstance(module, type):
      raise RuntimeError(
          f'{module!r} is a Ray actor class: uninstall Ray from the peer\'s '
          'venv, or time it through Ray.')
  return models, trainer, self_play


def make_config(model: str, batch_size: int = 256,
                num_simulations: int = 50) -> types.SimpleNamespace:
  """The attributes of muzero-general's `MuZeroConfig` that the timed code
  reads, for `model`."""
  if model not in _MODEL_CONFIGS:
    raise ValueError(f'Unknown model {model!r}; expected one of '
                     f'{sorted(_MODEL_CONFIGS)}.')
  fields = dict(_COMMON)
  fields.update(_MODEL_CONFIGS[model])
  fields.update(batch_size=batch_size, num_simulations=num_simulations)
  return types.SimpleNamespace(**fields)


def make_trainer(config: types.SimpleNamespace) -> Any:
  """A `Trainer` with fresh weights (its own constructor, in this process)."""
  models, trainer, _ = import_peer()
  torch.manual_seed(config.seed)
  weights = models.MuZeroNetwork(config).get_weights()
  return trainer.Trainer({'weights': weights, 'optimizer_state': None,
                          'training_step': 0}, config)


def make_batch(config: types.SimpleNamespace, seed: int = 0) -> Tuple[Any, ...]:
  """A random batch in the layout of muzero-general's `ReplayBuffer.get_batch`.

  The same distributions as `benchmarks.learner_models.make_batch`: values
  in [-3, 3], rewards in [-2, 2], Dirichlet policies, absorbing tails (past
  a random game length values and rewards 0 and policies uniform, as its
  buffer pads them); the gradient scale of a row is min(K, moves left).

  Returns:
    `(observation, action, value, reward, policy, weight, gradient_scale)`,
    `Trainer.update_weights`' batch.
  """
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


def describe(config: types.SimpleNamespace) -> Dict[str, Any]:
  """The settings a result depends on, for its JSON."""
  return {
      'torch': torch.__version__,
      'torch_threads': torch.get_num_threads(),
      'network': config.network,
      'batch_size': config.batch_size,
      'num_unroll_steps': config.num_unroll_steps,
      'support_size': config.support_size,
  }
