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
"""Tests for muzero_snt.networks.residual against NumPy forward passes."""

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt.networks import residual
from tests import testing
from tests.networks import numpy_reference as npr

CHANNELS = 4
ACTIONS = 9  # Tic-tac-toe: one move per square of the 3x3 hidden state.


def _uniform(shape, seed=0) -> np.ndarray:
  return np.random.default_rng(seed).uniform(size=shape).astype(np.float32)


def _reward_or_value(head_output: np.ndarray, support_size: int):
  return head_output if support_size else head_output[:, 0]


class ResidualRepresentationTest(testing.TestCase):

  def test_rejects_non_positive_channels(self):
    with self.assertRaisesRegex(
        ValueError, r'channels must be a positive integer, got 0'):
      residual.ResidualRepresentation(0, 1)

  def test_rejects_observation_of_wrong_rank(self):
    module = residual.ResidualRepresentation(CHANNELS, 1)
    with self.assertRaisesRegex(
        ValueError, r'expects observations \[B, H, W, C\], got shape '
        r'\(2, 9\)'):
      module(tf.zeros([2, 9]))

  def test_without_batch_norm_matches_numpy(self):
    module = residual.ResidualRepresentation(
        CHANNELS, 1, batch_norm=False, name='representation')
    observation = _uniform((2, 3, 3, 3))
    state = module(tf.constant(observation)).numpy()
    params = npr.variables_of(module)
    features = npr.residual_tower(npr.conv_block(observation, params, 'stem'),
                                  params, 'tower', 1)
    self.assertAllClose(state, npr.scale_per_example(features), atol=1e-5)

  @parameterized.named_parameters(('inference', False), ('training', True))
  def test_hidden_state_spans_zero_to_one_per_example(self, is_training):
    module = residual.ResidualRepresentation(CHANNELS, 1, batch_norm=True)
    observation = tf.constant(_uniform((3, 3, 3, 3), seed=1))
    module(observation, is_training=True)  # Moving statistics from a batch.
    state = module(observation, is_training=is_training).numpy()
    self.assertAllClose(state.min(axis=(1, 2, 3)), np.zeros(3), atol=1e-6)
    self.assertAllClose(state.max(axis=(1, 2, 3)), np.ones(3), atol=1e-6)

  def test_downsampled_atari_observation_matches_numpy(self):
    module = residual.ResidualRepresentation(
        CHANNELS, 1, downsample=True, batch_norm=False, name='representation')
    observation = _uniform((2, 96, 96, 3), seed=2)
    state = module(tf.constant(observation)).numpy()
    self.assertEqual(state.shape, (2, 6, 6, CHANNELS))
    params = npr.variables_of(module)
    features = npr.residual_tower(
        npr.downsample_stem(observation, params, 'stem'), params, 'tower', 1)
    expected = npr.scale_per_example(features)
    self.assertAllClose(state, expected, atol=1e-4)
    self.assertAllClose(state.min(axis=(1, 2, 3)), [0., 0.], atol=1e-6)
    self.assertAllClose(state.max(axis=(1, 2, 3)), [1., 1.], atol=1e-6)


class ResidualDynamicsTest(testing.TestCase):

  def test_rejects_unknown_action_encoding(self):
    with self.assertRaisesRegex(
        ValueError, r"action_encoding must be one of "
        r"\('one_hot', 'board', 'column'\), got 'planes'"):
      residual.ResidualDynamics(ACTIONS, CHANNELS, 1, (8,),
                                action_encoding='planes')

  def test_rejects_bad_reward_support_size(self):
    with self.assertRaisesRegex(ValueError, r'support_size .*got 6\.'):
      residual.ResidualDynamics(ACTIONS, CHANNELS, 1, (8,),
                                reward_support_size=6)

  def test_rejects_non_positive_channels(self):
    with self.assertRaisesRegex(
        ValueError, r'channels must be a positive integer, got -1'):
      residual.ResidualDynamics(ACTIONS, -1, 1, (8,))

  def test_rejects_non_positive_num_actions(self):
    # As MLPDynamics does: with no actions the dynamics would ignore them.
    with self.assertRaisesRegex(
        ValueError, r'num_actions must be a positive integer, got 0'):
      residual.ResidualDynamics(0, CHANNELS, 1, (8,))

  @parameterized.named_parameters(
      # Board: ceil(9 / (3 * 3)) = 1 plane with the move's square set.
      ('board', 'board', CHANNELS + 1),
      # One-hot: one constant plane per action.
      ('one_hot', 'one_hot', CHANNELS + ACTIONS),
  )
  def test_action_planes_set_the_stem_input_channels(self, encoding,
                                                     in_channels):
    module = residual.ResidualDynamics(ACTIONS, CHANNELS, 1, (8,),
                                       action_encoding=encoding,
                                       name='dynamics')
    module(tf.constant(_uniform((1, 3, 3, CHANNELS))), tf.constant([4]))
    params = npr.variables_of(module)
    self.assertEqual(params['stem/conv/w'].shape,
                     (3, 3, in_channels, CHANNELS))

  @parameterized.named_parameters(
      ('board_scalar', 'board', 0),
      ('board_support', 'board', 5),
      ('one_hot_scalar', 'one_hot', 0),
  )
  def test_without_batch_norm_matches_numpy(self, encoding, support_size):
    module = residual.ResidualDynamics(
        ACTIONS, CHANNELS, 1, (8,), support_size, action_encoding=encoding,
        batch_norm=False, name='dynamics')
    state = _uniform((3, 3, 3, CHANNELS), seed=3)
    action = np.array([5, 0, 8], np.int32)
    next_state, reward = module(tf.constant(state), tf.constant(action))
    params = npr.variables_of(module)
    if encoding == 'board':
      # Action a marks square a: row a // 3, column a % 3, on one plane.
      planes = np.zeros((3, 3, 3, 1), np.float32)
      for i, a in enumerate(action):
        planes[i, a // 3, a % 3, 0] = 1.
    else:
      planes = np.broadcast_to(np.eye(ACTIONS)[action][:, None, None, :],
                               (3, 3, 3, ACTIONS))
    inputs = np.concatenate([state, planes], axis=-1)
    features = npr.residual_tower(npr.conv_block(inputs, params, 'stem'),
                                  params, 'tower', 1)
    self.assertAllClose(next_state, npr.scale_per_example(features),
                        atol=1e-5)
    # The reward reads the unscaled features: 1x1 conv to 1 plane, flatten
    # (9 values), then the head's MLP.
    reward_features = npr.conv_block(features, params, 'reward_features')
    self.assertEqual(reward_features.shape, (3, 3, 3, 1))
    expected = npr.mlp(reward_features.reshape(3, -1), params,
                       'reward_head/mlp', 2)
    self.assertAllClose(reward, _reward_or_value(expected, support_size),
                        atol=1e-5)

  def test_column_encoding_matches_numpy(self):
    # 3 actions on a 3-wide state, one per column: action a sets column a
    # of one plane in every row.
    module = residual.ResidualDynamics(
        3, CHANNELS, 1, (8,), action_encoding='column', batch_norm=False,
        name='dynamics')
    state = _uniform((2, 3, 3, CHANNELS), seed=5)
    next_state, _ = module(tf.constant(state), tf.constant([2, 0]))
    params = npr.variables_of(module)
    planes = np.zeros((2, 3, 3, 1), np.float32)
    planes[0, :, 2, 0] = 1.
    planes[1, :, 0, 0] = 1.
    inputs = np.concatenate([state, planes], axis=-1)
    features = npr.residual_tower(npr.conv_block(inputs, params, 'stem'),
                                  params, 'tower', 1)
    self.assertAllClose(next_state, npr.scale_per_example(features),
                        atol=1e-5)

  def test_variables_property_lists_all_variables(self):
    module = residual.ResidualDynamics(ACTIONS, CHANNELS, 1, (8,),
                                       batch_norm=False)
    module(tf.constant(_uniform((1, 3, 3, CHANNELS))), tf.constant([0]))
    # Stem, two block convolutions, reward conv: 4 x (w, b); head 2 x (w, b).
    self.assertLen(module.variables, 12)


class ResidualPredictionTest(testing.TestCase):

  def test_rejects_bad_value_support_size(self):
    with self.assertRaisesRegex(ValueError, r'support_size .*got 1\.'):
      residual.ResidualPrediction(ACTIONS, CHANNELS, 0, (8,),
                                  value_support_size=1)

  def test_rejects_non_positive_num_actions(self):
    # As MLPPrediction does: zero actions would give empty policy logits.
    with self.assertRaisesRegex(
        ValueError, r'num_actions must be a positive integer, got 0'):
      residual.ResidualPrediction(0, CHANNELS, 0, (8,))

  @parameterized.named_parameters(
      ('no_blocks_scalar', 0, 0),
      ('one_block_support', 1, 5),
  )
  def test_without_batch_norm_matches_numpy(self, num_blocks, support_size):
    module = residual.ResidualPrediction(
        ACTIONS, CHANNELS, num_blocks, (8,), support_size, batch_norm=False,
        name='prediction')
    state = _uniform((2, 3, 3, CHANNELS), seed=4)
    policy, value = module(tf.constant(state))
    params = npr.variables_of(module)
    features = npr.residual_tower(state, params, 'tower', num_blocks)
    # AlphaZero's heads: 1x1 convs to 2 (policy) and 1 (value) planes.
    policy_features = npr.conv_block(features, params, 'policy_features')
    value_features = npr.conv_block(features, params, 'value_features')
    self.assertEqual(params['policy_head/w'].shape, (3 * 3 * 2, ACTIONS))
    expected_policy = (policy_features.reshape(2, -1) @ params['policy_head/w']
                       + params['policy_head/b'])
    expected_value = npr.mlp(value_features.reshape(2, -1), params,
                             'value_head/mlp', 2)
    self.assertAllClose(policy, expected_policy, atol=1e-5)
    self.assertAllClose(value, _reward_or_value(expected_value, support_size),
                        atol=1e-5)

  def test_variables_property_lists_all_variables(self):
    module = residual.ResidualPrediction(ACTIONS, CHANNELS, 0, (8,),
                                         batch_norm=False)
    module(tf.constant(_uniform((1, 3, 3, CHANNELS))))
    # Two 1x1 convs, the policy linear and the value head's 2 layers.
    self.assertLen(module.variables, 10)


if __name__ == '__main__':
  tf.test.main()
