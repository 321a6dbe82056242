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
"""Tests for muzero_snt.networks.muzero_network: wiring, decoding, checks,
and the preset sizes `make_network` gives the layers."""

import collections
import dataclasses
import re
from typing import Dict, Set

import numpy as np
import sonnet as snt
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import presets
from muzero_snt.networks import mlp
from muzero_snt.networks import muzero_network
from muzero_snt.networks import residual
from muzero_snt.networks import tower
from tests import testing
from tests.networks import numpy_reference as npr

OBSERVATION_SIZE = 4
HIDDEN = 8
ACTIONS = 3


def _mlp_network(support_size: int) -> muzero_network.MuZeroNetwork:
  """Observation [4] -> hidden 8; every MLP has one hidden layer of 8."""
  return muzero_network.MuZeroNetwork(
      mlp.MLPRepresentation(HIDDEN, (8,), name='representation'),
      mlp.MLPDynamics(ACTIONS, HIDDEN, (8,), (8,), support_size,
                      name='dynamics'),
      mlp.MLPPrediction(ACTIONS, (8,), (8,), support_size, name='prediction'),
      observation_shape=(OBSERVATION_SIZE,),
      num_actions=ACTIONS,
      value_support_size=support_size,
      reward_support_size=support_size)


def _residual_network() -> muzero_network.MuZeroNetwork:
  """3x3x3 observations, 4 channels, 1 block everywhere, batch norm."""
  return muzero_network.MuZeroNetwork(
      residual.ResidualRepresentation(4, 1, name='representation'),
      residual.ResidualDynamics(9, 4, 1, (8,), action_encoding='board',
                                name='dynamics'),
      residual.ResidualPrediction(9, 4, 1, (8,), name='prediction'),
      observation_shape=(3, 3, 3),
      num_actions=9)


def _observation(batch_size: int = 3, seed: int = 0) -> np.ndarray:
  return np.random.default_rng(seed).normal(
      size=(batch_size, OBSERVATION_SIZE)).astype(np.float32)


def _numpy_initial(params, observation):
  """h then f of `_mlp_network` in NumPy: (state, policy, value head)."""
  state = npr.scale_per_example(
      npr.mlp(observation, params, 'representation/torso', 2))
  features = npr.mlp(state, params, 'prediction/torso', 1,
                     activate_final=True)
  return (state, npr.mlp(features, params, 'prediction/policy_head', 2),
          npr.mlp(features, params, 'prediction/value_head/mlp', 2))


def _expected_scalar(logits: np.ndarray, support_size: int) -> np.ndarray:
  """E[atom] under softmax(logits): h(value) must equal it."""
  atoms = np.arange(support_size) - (support_size - 1) // 2
  return (npr.softmax(logits.astype(np.float64)) * atoms).sum(axis=-1)


def _set(network, suffix, value):
  variable = next(v for v in network.variables if v.name.endswith(suffix))
  variable.assign(np.asarray(value, np.float32))


class InitialInferenceTest(testing.TestCase):

  def test_support_heads_match_numpy_and_decode_the_value(self):
    network = _mlp_network(support_size=5)
    network.create_variables()
    # Larger final weights spread the expectation over the support.
    _set(network, 'prediction/value_head/mlp/linear_1/w:0',
         5. * np.random.default_rng(1).normal(size=(8, 5)))
    observation = _observation()
    output = network.initial_inference(observation)
    params = npr.variables_of(network)
    state, policy, value_logits = _numpy_initial(params, observation)
    self.assertAllClose(output.hidden_state, state, atol=1e-5)
    self.assertAllClose(output.policy_logits, policy, atol=1e-5)
    self.assertAllClose(output.value_logits, value_logits, atol=1e-5)
    # value = h^-1(E[atom]), checked through the forward transform h.
    expectation = _expected_scalar(value_logits, 5)
    self.assertGreater(np.abs(expectation).max(), .3)
    self.assertAllClose(npr.signed_hyperbolic(output.value.numpy()),
                        expectation, atol=1e-4)
    # No transition yet: reward zero, and no reward logits.
    self.assertAllEqual(output.reward, np.zeros(3))
    self.assertIsNone(output.reward_logits)

  def test_value_decoded_from_a_one_hot_support_by_hand(self):
    # Logits (0, 0, 0, 0, 40): all mass on atom +2, so h(value) = 2:
    # with s = sqrt(value + 1), 0.001 s^2 + s - 3.001 = 0, s = 2.99205...,
    # value = s^2 - 1 = 7.95236.
    network = _mlp_network(support_size=5)
    network.create_variables()
    _set(network, 'prediction/value_head/mlp/linear_1/w:0', np.zeros((8, 5)))
    _set(network, 'prediction/value_head/mlp/linear_1/b:0',
         [0., 0., 0., 0., 40.])
    output = network.initial_inference(_observation(2))
    self.assertAllClose(output.value, [7.95236, 7.95236], atol=1e-3)

  def test_scalar_heads_return_the_raw_value(self):
    network = _mlp_network(support_size=0)
    observation = _observation()
    output = network.initial_inference(observation)
    _, policy, value = _numpy_initial(npr.variables_of(network), observation)
    self.assertAllClose(output.policy_logits, policy, atol=1e-5)
    self.assertAllClose(output.value, value[:, 0], atol=1e-5)
    self.assertIsNone(output.value_logits)
    self.assertIsNone(output.reward_logits)
    self.assertAllEqual(output.reward, np.zeros(3))

  @parameterized.named_parameters(
      ('missing_axis', (2,), '[2]'),
      ('extra_axis', (2, 4, 1), '[2, 4, 1]'),
      ('wrong_size', (2, 5), '[2, 5]'),
  )
  def test_rejects_observation_of_wrong_shape(self, shape, actual):
    network = _mlp_network(support_size=0)
    with self.assertRaisesRegex(
        ValueError, r'Expected observations of shape \[B, 4\], got shape ' +
        actual.replace('[', r'\[').replace(']', r'\]')):
      network.initial_inference(np.zeros(shape, np.float32))

  def test_rejects_image_observation_of_wrong_shape(self):
    network = _residual_network()
    with self.assertRaisesRegex(
        ValueError, r'Expected observations of shape \[B, 3, 3, 3\], got '
        r'shape \[2, 3, 3\]'):
      network.initial_inference(np.zeros((2, 3, 3), np.float32))

  def test_is_training_reaches_batch_norm(self):
    network = _residual_network()
    network.create_variables()

    def counters():
      return [int(v.numpy()) for v in network.variables
              if v.name.endswith('moving_mean/counter:0')]

    self.assertEqual(set(counters()), {0})  # Inference only so far.
    observation = np.random.default_rng(0).uniform(size=(2, 3, 3, 3))
    network.initial_inference(observation.astype(np.float32),
                              is_training=True)
    # Representation (stem, 2 in the block) and prediction (2 in the block,
    # 2 head convs) batch norms updated; the dynamics' 4 are not.
    self.assertEqual(sorted(counters()), [0] * 4 + [1] * 7)


class RecurrentInferenceTest(testing.TestCase):

  def test_support_heads_match_numpy_and_decode(self):
    network = _mlp_network(support_size=5)
    network.create_variables()
    rng = np.random.default_rng(2)
    _set(network, 'dynamics/reward_head/mlp/linear_1/w:0',
         5. * rng.normal(size=(8, 5)))
    _set(network, 'prediction/value_head/mlp/linear_1/w:0',
         5. * rng.normal(size=(8, 5)))
    state = rng.uniform(size=(3, HIDDEN)).astype(np.float32)
    action = np.array([2, 0, 1], np.int32)
    output = network.recurrent_inference(state, action)
    params = npr.variables_of(network)
    inputs = np.concatenate([state, np.eye(ACTIONS)[action]], axis=1)
    unscaled = npr.mlp(inputs, params, 'dynamics/torso', 2)
    reward_logits = npr.mlp(unscaled, params, 'dynamics/reward_head/mlp', 2)
    next_state = npr.scale_per_example(unscaled)
    features = npr.mlp(next_state, params, 'prediction/torso', 1,
                       activate_final=True)
    value_logits = npr.mlp(features, params, 'prediction/value_head/mlp', 2)
    self.assertAllClose(output.hidden_state, next_state, atol=1e-5)
    self.assertAllClose(
        output.policy_logits,
        npr.mlp(features, params, 'prediction/policy_head', 2), atol=1e-5)
    self.assertAllClose(output.reward_logits, reward_logits, atol=1e-5)
    self.assertAllClose(output.value_logits, value_logits, atol=1e-5)
    self.assertAllClose(npr.signed_hyperbolic(output.reward.numpy()),
                        _expected_scalar(reward_logits, 5), atol=1e-4)
    self.assertAllClose(npr.signed_hyperbolic(output.value.numpy()),
                        _expected_scalar(value_logits, 5), atol=1e-4)

  def test_scalar_heads_return_raw_reward_and_value(self):
    network = _mlp_network(support_size=0)
    state = np.random.default_rng(3).uniform(size=(2, HIDDEN))
    state = state.astype(np.float32)
    action = np.array([1, 1], np.int32)
    output = network.recurrent_inference(state, action)
    params = npr.variables_of(network)
    inputs = np.concatenate([state, np.eye(ACTIONS)[action]], axis=1)
    unscaled = npr.mlp(inputs, params, 'dynamics/torso', 2)
    features = npr.mlp(npr.scale_per_example(unscaled), params,
                       'prediction/torso', 1, activate_final=True)
    self.assertAllClose(
        output.reward,
        npr.mlp(unscaled, params, 'dynamics/reward_head/mlp', 2)[:, 0],
        atol=1e-5)
    self.assertAllClose(
        output.value,
        npr.mlp(features, params, 'prediction/value_head/mlp', 2)[:, 0],
        atol=1e-5)
    self.assertIsNone(output.value_logits)
    self.assertIsNone(output.reward_logits)

  def test_rejects_float_actions(self):
    network = _mlp_network(support_size=0)
    with self.assertRaisesRegex(
        ValueError, r'Expected integer actions, got dtype float32'):
      network.recurrent_inference(tf.zeros([2, HIDDEN]),
                                  tf.constant([0., 1.]))

  def test_rejects_actions_of_shape_b_by_1(self):
    network = _mlp_network(support_size=0)
    with self.assertRaisesRegex(
        ValueError, r'Expected actions of shape \[B\], got shape \[2, 1\]'):
      network.recurrent_inference(tf.zeros([2, HIDDEN]),
                                  tf.constant([[0], [1]]))

  @parameterized.named_parameters(('too_large', 3), ('negative', -1))
  def test_rejects_out_of_range_actions_eagerly(self, bad):
    network = _mlp_network(support_size=0)
    with self.assertRaisesRegex(
        ValueError, rf'Action {bad} is outside the action space \[0, 3\)'):
      network.recurrent_inference(tf.zeros([2, HIDDEN]),
                                  tf.constant([0, bad]))

  def test_shape_checks_also_run_when_traced(self):
    network = _mlp_network(support_size=0)
    network.create_variables()
    traced = tf.function(network.recurrent_inference)
    with self.assertRaisesRegex(ValueError, r'got shape \[2, 1\]'):
      traced(tf.zeros([2, HIDDEN]), tf.constant([[0], [1]]))


class VariablesTest(testing.TestCase):

  def test_create_variables_builds_every_variable(self):
    network = _mlp_network(support_size=5)
    self.assertEmpty(npr.variables_of(network))
    network.create_variables()
    # Representation 2 layers, dynamics 2 + reward head 2, prediction
    # 1 + policy 2 + value 2: 11 layers, w and b each.
    self.assertLen(network.variables, 22)
    self.assertLen(npr.variables_of(network), 22)

  def test_get_weights_are_the_trainable_variables(self):
    network = _residual_network()
    network.create_variables()
    weights = network.get_weights()
    # Trainable, by hand: representation stem (w, scale, offset) + block
    # (2 w, 2 scales, 2 offsets) = 9; dynamics 9 + reward conv 3 + head 4 =
    # 16; prediction block 6 + 2 head convs 6 + policy linear 2 + value head
    # 4 = 18.
    self.assertLen(weights, 9 + 16 + 18)
    self.assertTrue(all(v.trainable for v in weights))
    self.assertEqual({v.ref() for v in weights},
                     {v.ref() for v in network.trainable_variables})
    # Batch norm's moving statistics are state, not weights: 11 batch norms,
    # each with counter, hidden and average for the mean and the variance.
    names = {v.name for v in weights}
    moving = [v for v in network.variables if 'moving_' in v.name]
    self.assertLen(moving, 11 * 6)
    self.assertFalse(names & {v.name for v in moving})


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
    network = muzero_network.make_network(config)
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
    network = muzero_network.make_network(config)
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
    network = muzero_network.make_network(config)
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
    network = muzero_network.make_network(presets.make_atari_config())
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
    network = muzero_network.make_network(config)
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
    network = muzero_network.make_network(config)
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
