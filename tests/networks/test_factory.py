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
"""Tests for muzero_snt.networks.factory: the preset sizes reach the layers."""

import collections
import dataclasses
import re
from typing import Dict, Set

import numpy as np
import sonnet as snt
import tensorflow as tf

from muzero_snt import presets
from muzero_snt.networks import factory
from muzero_snt.networks import mlp
from muzero_snt.networks import residual
from muzero_snt.networks import tower
from tests import testing
from tests.networks import numpy_reference as npr


def _blocks(params: Dict[str, np.ndarray], prefix: str) -> int:
  pattern = re.compile(re.escape(prefix) + r'/block_(\d+)/')
  return len({m.group(1) for m in map(pattern.match, params) if m})


def _block_counts(network: snt.Module) -> Dict[str, int]:
  """Residual blocks per tower, by the tower's name scope."""
  return dict(collections.Counter(
      m.name_scope.name.rsplit('/', 2)[0] for m in network.submodules
      if isinstance(m, tower.ResidualBlock)))


def _conv_channels(network: snt.Module, scope: str) -> Set[int]:
  """Output channels of the convolutions whose name scope contains `scope`."""
  return {m.output_channels for m in network.submodules
          if isinstance(m, snt.Conv2D) and scope in m.name_scope.name}


class MakeNetworkTest(testing.TestCase):

  def test_cartpole_builds_the_mlp_family_with_preset_sizes(self):
    config = presets.make_cartpole_config()
    network = factory.make_network(config)
    self.assertIsInstance(network.representation, mlp.MLPRepresentation)
    self.assertIsInstance(network.dynamics, mlp.MLPDynamics)
    self.assertIsInstance(network.prediction, mlp.MLPPrediction)
    self.assertEqual(network.observation_shape, (4,))
    self.assertEqual(network.num_actions, 2)
    self.assertEqual(network.value_support_size, 601)
    self.assertEqual(network.reward_support_size, 601)
    network.create_variables()
    shapes = {k: v.shape for k, v in npr.variables_of(network).items()}
    # Torsos (128, 128) then the 128-unit hidden state.
    self.assertEqual(shapes['representation/torso/linear_0/w'], (4, 128))
    self.assertEqual(shapes['representation/torso/linear_2/w'], (128, 128))
    # The dynamics reads the state and a one-hot of the 2 actions.
    self.assertEqual(shapes['dynamics/torso/linear_0/w'], (128 + 2, 128))
    # Heads: one hidden layer of 32, then 601 atoms or 2 policy logits.
    self.assertEqual(shapes['dynamics/reward_head/mlp/linear_0/w'], (128, 32))
    self.assertEqual(shapes['dynamics/reward_head/mlp/linear_1/w'], (32, 601))
    self.assertEqual(shapes['prediction/value_head/mlp/linear_1/w'],
                     (32, 601))
    self.assertEqual(shapes['prediction/policy_head/linear_1/w'], (32, 2))

  def test_paper_board_network_layout(self):
    # The paper's board network (16 blocks, prediction heads only, 256
    # planes) on tic-tac-toe's board; counted without running it.
    config = presets.make_board_game_config(
        action_space_size=9, max_moves=9, dirichlet_alpha=0.3, lr_init=0.01,
        observation_shape=(3, 3, 3))
    network = factory.make_network(config)
    self.assertIsInstance(network.representation,
                          residual.ResidualRepresentation)
    self.assertIsInstance(network.dynamics, residual.ResidualDynamics)
    self.assertIsInstance(network.prediction, residual.ResidualPrediction)
    self.assertEqual(_block_counts(network),
                     {'representation/tower': 16, 'dynamics/tower': 16})
    self.assertEqual(_conv_channels(network, 'tower/block'), {256})
    self.assertEqual(_conv_channels(network, 'representation/stem'), {256})
    self.assertEqual(_conv_channels(network, 'dynamics/stem'), {256})
    # AlphaZero's heads: 2 policy planes, 1 value plane, 1 reward plane.
    self.assertEqual(_conv_channels(network, 'policy_features'), {2})
    self.assertEqual(_conv_channels(network, 'value_features'), {1})
    self.assertEqual(_conv_channels(network, 'reward_features'), {1})

  def test_paper_board_network_shapes_with_four_channels(self):
    # Variables of the same network with 4 channels and no tower blocks, to
    # keep it cheap: the stem and head shapes do not depend on the blocks.
    config = presets.make_board_game_config(
        action_space_size=9, max_moves=9, dirichlet_alpha=0.3, lr_init=0.01,
        observation_shape=(3, 3, 3),
        network=dataclasses.replace(presets.PAPER_BOARD_NETWORK, channels=4,
                                    num_blocks=0))
    network = factory.make_network(config)
    network.create_variables()
    params = npr.variables_of(network)
    self.assertEqual(params['representation/stem/conv/w'].shape, (3, 3, 3, 4))
    # Board encoding: ceil(9 / 9) = 1 action plane on top of 4 channels.
    self.assertEqual(params['dynamics/stem/conv/w'].shape, (3, 3, 4 + 1, 4))
    # Scalar value and reward heads with a 256-unit hidden layer.
    self.assertEqual(params['prediction/value_head/mlp/linear_0/w'].shape,
                     (3 * 3 * 1, 256))
    self.assertEqual(params['prediction/value_head/mlp/linear_1/w'].shape,
                     (256, 1))
    self.assertEqual(params['dynamics/reward_head/mlp/linear_1/w'].shape,
                     (256, 1))
    self.assertEqual(params['prediction/policy_head/w'].shape, (3 * 3 * 2, 9))
    self.assertEqual(network.value_support_size, 0)
    self.assertEqual(network.reward_support_size, 0)

  def test_paper_atari_network_layout(self):
    network = factory.make_network(presets.make_atari_config())
    # The stem's 2 + 3 + 3 blocks, then 16 in each tower.
    self.assertEqual(
        _block_counts(network), {
            'representation/stem/tower_0': 2,
            'representation/stem/tower_1': 3,
            'representation/stem/tower_2': 3,
            'representation/tower': 16,
            'dynamics/tower': 16,
        })
    # 128 planes at 48x48, then 256.
    self.assertEqual(_conv_channels(network, 'stem/tower_0'), {128})
    self.assertEqual(_conv_channels(network, 'stem/tower_1'), {256})
    self.assertEqual(_conv_channels(network, 'representation/tower'), {256})

  def test_paper_atari_network_shapes_with_four_channels(self):
    config = presets.make_atari_config()
    config = config.replace(network=dataclasses.replace(
        config.network, channels=4, num_blocks=0))
    network = factory.make_network(config)
    network.create_variables()
    params = npr.variables_of(network)
    # 128 input planes (32 RGB frames and 32 action planes).
    self.assertEqual(params['representation/stem/conv_0/conv/w'].shape,
                     (3, 3, 128, 2))
    # One-hot action planes: 4 channels + 18 actions.
    self.assertEqual(params['dynamics/stem/conv/w'].shape, (3, 3, 4 + 18, 4))
    # 601-atom value and reward heads on the 6x6 hidden state.
    self.assertEqual(params['prediction/value_head/mlp/linear_1/w'].shape,
                     (256, 601))
    self.assertEqual(params['dynamics/reward_head/mlp/linear_0/w'].shape,
                     (6 * 6 * 1, 256))
    self.assertEqual(params['dynamics/reward_head/mlp/linear_1/w'].shape,
                     (256, 601))

  def test_tictactoe_preset_runs_with_its_supports(self):
    config = presets.make_tictactoe_config()
    network = factory.make_network(config)
    observation = np.random.default_rng(0).uniform(size=(2, 3, 3, 3))
    network.initial_inference(observation.astype(np.float32),
                              is_training=True)
    output = network.initial_inference(observation.astype(np.float32))
    params = npr.variables_of(network)
    self.assertEqual(_blocks(params, 'representation/tower'), 1)
    self.assertEqual(_blocks(params, 'prediction/tower'), 1)
    self.assertEqual(params['representation/stem/conv/w'].shape,
                     (3, 3, 3, 16))
    self.assertEqual(output.value_logits.shape, (2, 21))
    # The value is decoded from the 21 atoms: h(value) = E[atom].
    atoms = np.arange(21) - 10
    expectation = (npr.softmax(output.value_logits.numpy().astype(
        np.float64)) * atoms).sum(axis=-1)
    self.assertAllClose(npr.signed_hyperbolic(output.value.numpy()),
                        expectation, atol=1e-4)


if __name__ == '__main__':
  tf.test.main()
