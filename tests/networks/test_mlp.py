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
"""Tests for muzero_snt.networks.mlp: hidden-state scaling and action
encodings with hand-worked numbers, networks against NumPy forward passes."""

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt.networks import mlp
from tests import testing
from tests.networks import numpy_reference

HIDDEN = 8
ACTIONS = 3


def _observation(seed: int = 0) -> np.ndarray:
  return np.random.default_rng(seed).normal(size=(4, 2, 2)).astype(np.float32)


def _state(seed: int = 0) -> np.ndarray:
  return np.random.default_rng(seed).uniform(
      size=(4, HIDDEN)).astype(np.float32)


class ValueHeadTest(testing.TestCase):

  @parameterized.named_parameters(
      ('one', 1),
      ('even', 4),
      ('negative', -3),
  )
  def test_rejects_bad_support_size(self, support_size):
    with self.assertRaisesRegex(ValueError,
                                rf'support_size .*got {support_size}\.'):
      mlp.ValueHead((8,), support_size)

  @parameterized.named_parameters(
      ('scalar', 0, (8, 6)),
      ('three_atoms', 3, (4,)),
      ('five_atoms', 5, (8,)),
  )
  def test_matches_numpy(self, support_size, hidden_sizes):
    head = mlp.ValueHead(hidden_sizes, support_size, name='value')
    x = np.random.default_rng(0).normal(size=(3, 5)).astype(np.float32)
    out = head(tf.constant(x)).numpy()
    params = numpy_reference.variables_of(head)
    expected = numpy_reference.mlp(x, params, 'mlp', len(hidden_sizes) + 1)
    if support_size:
      self.assertEqual(out.shape, (3, support_size))
      self.assertAllClose(out, expected, atol=1e-5)
    else:
      # A scalar head squeezes its one output unit: [B], not [B, 1].
      self.assertEqual(out.shape, (3,))
      self.assertAllClose(out, expected[:, 0], atol=1e-5)

  def test_no_hidden_layers_is_linear(self):
    head = mlp.ValueHead((), 0, name='value')
    x = np.array([[1., 2.], [-1., 0.5]], np.float32)
    head(tf.constant(x))
    params = numpy_reference.variables_of(head)
    w = params['mlp/linear_0/w'][:, 0]
    b = params['mlp/linear_0/b'][0]
    self.assertAllClose(head(tf.constant(x)),
                        [w[0] + 2. * w[1] + b, -w[0] + .5 * w[1] + b],
                        atol=1e-6)



class MLPRepresentationTest(testing.TestCase):

  @parameterized.named_parameters(('zero', 0), ('negative', -2),
                                  ('float', 8.))
  def test_rejects_bad_hidden_size(self, hidden_size):
    with self.assertRaisesRegex(
        ValueError,
        rf'hidden_size must be a positive integer, got {hidden_size!r}'):
      mlp.MLPRepresentation(hidden_size, (6,))

  def test_matches_numpy(self):
    module = mlp.MLPRepresentation(HIDDEN, (6,), name='representation')
    observation = _observation()
    state = module(tf.constant(observation)).numpy()
    params = numpy_reference.variables_of(module)
    # Flatten [B, 2, 2] -> [B, 4], ReLU MLP 4 -> 6 -> 8 (linear output).
    self.assertEqual(params['torso/linear_0/w'].shape, (4, 6))
    self.assertEqual(params['torso/linear_1/w'].shape, (6, HIDDEN))
    features = numpy_reference.mlp(observation.reshape(4, 4), params,
                                   'torso', 2)
    expected = numpy_reference.scale_per_example(features)
    self.assertAllClose(state, expected, atol=1e-5)
    self.assertAllClose(state.min(axis=1), np.zeros(4), atol=1e-6)
    self.assertAllClose(state.max(axis=1), np.ones(4), atol=1e-6)

  def test_is_training_changes_nothing(self):
    module = mlp.MLPRepresentation(HIDDEN, (6,))
    observation = tf.constant(_observation())
    self.assertAllEqual(module(observation, is_training=True),
                        module(observation, is_training=False))

  def test_variables_property_lists_all_variables(self):
    # tf.Module's `variables` walks the module with its `_flatten` method; an
    # attribute of that name must not shadow it.
    module = mlp.MLPRepresentation(HIDDEN, (6,))
    module(tf.constant(_observation()))
    self.assertLen(module.variables, 4)  # Two linear layers, w and b each.
    self.assertLen(module.trainable_variables, 4)


class MLPDynamicsTest(testing.TestCase):

  @parameterized.named_parameters(
      ('num_actions', dict(num_actions=0), 'num_actions', 0),
      ('hidden_size', dict(hidden_size=-1), 'hidden_size', -1),
  )
  def test_rejects_non_positive_sizes(self, changes, name, value):
    kwargs = dict(num_actions=ACTIONS, hidden_size=HIDDEN, hidden_sizes=(6,),
                  head_sizes=(5,))
    kwargs.update(changes)
    with self.assertRaisesRegex(
        ValueError, rf'{name} must be a positive integer, got {value}'):
      mlp.MLPDynamics(**kwargs)

  def test_rejects_bad_reward_support_size(self):
    with self.assertRaisesRegex(ValueError, r'support_size .*got 4\.'):
      mlp.MLPDynamics(ACTIONS, HIDDEN, (6,), (5,), reward_support_size=4)

  @parameterized.named_parameters(('scalar_reward', 0), ('support_reward', 5))
  def test_matches_numpy(self, support_size):
    module = mlp.MLPDynamics(ACTIONS, HIDDEN, (6,), (5,), support_size,
                             name='dynamics')
    state = _state()
    action = np.array([0, 2, 1, 2], np.int32)
    next_state, reward = module(tf.constant(state), tf.constant(action))
    params = numpy_reference.variables_of(module)
    # The torso sees [state, one_hot(action)]: H + A = 11 inputs.
    self.assertEqual(params['torso/linear_0/w'].shape, (HIDDEN + ACTIONS, 6))
    inputs = np.concatenate([state, np.eye(ACTIONS)[action]], axis=1)
    unscaled = numpy_reference.mlp(inputs, params, 'torso', 2)  # [B, H]
    self.assertAllClose(next_state, numpy_reference.scale_per_example(unscaled),
                        atol=1e-5)
    # The reward head reads the next state before min-max scaling.
    expected_reward = numpy_reference.mlp(unscaled, params, 'reward_head/mlp',
                                          2)
    from_scaled = numpy_reference.mlp(
        numpy_reference.scale_per_example(unscaled), params, 'reward_head/mlp',
        2)
    if not support_size:
      expected_reward = expected_reward[:, 0]
      from_scaled = from_scaled[:, 0]
    self.assertAllClose(reward, expected_reward, atol=1e-5)
    # The check above tells the two apart.
    self.assertGreater(np.abs(from_scaled - expected_reward).max(), 1e-3)

  def test_action_is_one_hot_not_an_index(self):
    # Zero every torso weight except the rows that read the action: then the
    # torso's output is the row of the chosen action.
    module = mlp.MLPDynamics(ACTIONS, HIDDEN, (), (5,), name='dynamics')
    state = tf.constant(_state()[:3])
    action = tf.constant([0, 1, 2])
    module(state, action)
    params = {v.name: v for v in module.trainable_variables}
    kernel = params['dynamics/torso/linear_0/w:0']
    bias = params['dynamics/torso/linear_0/b:0']
    rows = np.zeros((HIDDEN + ACTIONS, HIDDEN), np.float32)
    rows[HIDDEN + 0, 0] = 1.  # Action 0 -> unit 0.
    rows[HIDDEN + 1, 1] = 2.  # Action 1 -> unit 1.
    rows[HIDDEN + 2, 2] = 4.  # Action 2 -> unit 2.
    kernel.assign(rows)
    bias.assign(np.zeros(HIDDEN, np.float32))
    next_state, _ = module(state, action)
    # Each example's state is one spike: scaled to exactly one 1.
    expected = np.zeros((3, HIDDEN), np.float32)
    expected[0, 0] = expected[1, 1] = expected[2, 2] = 1.
    self.assertAllClose(next_state, expected)


class MLPPredictionTest(testing.TestCase):

  def test_rejects_non_positive_num_actions(self):
    with self.assertRaisesRegex(
        ValueError, r'num_actions must be a positive integer, got 0'):
      mlp.MLPPrediction(0, (6,), (5,))

  def test_rejects_bad_value_support_size(self):
    with self.assertRaisesRegex(ValueError, r'support_size .*got 2\.'):
      mlp.MLPPrediction(ACTIONS, (6,), (5,), value_support_size=2)

  @parameterized.named_parameters(('scalar_value', 0), ('support_value', 7))
  def test_matches_numpy(self, support_size):
    module = mlp.MLPPrediction(ACTIONS, (6,), (5,), support_size,
                               name='prediction')
    state = _state(1)
    policy, value = module(tf.constant(state))
    params = numpy_reference.variables_of(module)
    # The torso's last layer is followed by a ReLU (activate_final).
    features = numpy_reference.mlp(state, params, 'torso', 1,
                                   activate_final=True)
    expected_policy = numpy_reference.mlp(features, params, 'policy_head', 2)
    expected_value = numpy_reference.mlp(features, params, 'value_head/mlp', 2)
    self.assertEqual(policy.shape, (4, ACTIONS))
    self.assertAllClose(policy, expected_policy, atol=1e-5)
    if not support_size:
      expected_value = expected_value[:, 0]
    self.assertAllClose(value, expected_value, atol=1e-5)

  def test_empty_torso_feeds_the_state_to_the_heads(self):
    module = mlp.MLPPrediction(ACTIONS, (), (5,), name='prediction')
    state = _state(2)
    policy, value = module(tf.constant(state))
    params = numpy_reference.variables_of(module)
    self.assertAllClose(policy,
                        numpy_reference.mlp(state, params, 'policy_head', 2),
                        atol=1e-5)
    self.assertAllClose(
        value, numpy_reference.mlp(state, params, 'value_head/mlp', 2)[:, 0],
        atol=1e-5)

  def test_variables_property_lists_all_variables(self):
    module = mlp.MLPPrediction(ACTIONS, (6,), (5,))
    module(tf.constant(_state()))
    # Torso 1 layer, policy head 2, value head 2: 5 layers, w and b each.
    self.assertLen(module.variables, 10)


class ScaleHiddenStateTest(testing.TestCase):

  def test_hand_computed_rank_2(self):
    # Example 0: min 1, max 5, range 4; example 1: min -2, max 2, range 4.
    state = tf.constant([[1., 3., 5.], [-2., 0., 2.]])
    scaled = mlp.scale_hidden_state(state)
    self.assertAllClose(scaled, [[0., .5, 1.], [0., .5, 1.]])

  def test_each_example_has_its_own_range(self):
    # Example 0: (x - 0) / 10; example 1: (x - 4) / 2.
    state = tf.constant([[0., 10., 2.5], [5., 4., 6.]])
    scaled = mlp.scale_hidden_state(state)
    self.assertAllClose(scaled, [[0., 1., .25], [.5, 0., 1.]])

  def test_rank_2_matches_numpy(self):
    state = np.random.default_rng(0).normal(size=(4, 7)).astype(np.float32)
    scaled = mlp.scale_hidden_state(tf.constant(state))
    self.assertAllClose(scaled, numpy_reference.scale_per_example(state),
                        atol=1e-6)

  def test_rank_4_uses_all_non_batch_axes(self):
    state = np.random.default_rng(1).normal(size=(3, 2, 3, 4))
    state = state.astype(np.float32)
    scaled = mlp.scale_hidden_state(tf.constant(state)).numpy()
    expected = numpy_reference.scale_per_example(state)
    self.assertAllClose(scaled, expected, atol=1e-6)
    # One 0 and one 1 per example over height, width and channels together,
    # not per channel: each channel alone does not span [0, 1].
    self.assertAllClose(scaled.min(axis=(1, 2, 3)), [0., 0., 0.])
    self.assertAllClose(scaled.max(axis=(1, 2, 3)), [1., 1., 1.])
    per_channel_max = scaled.max(axis=(1, 2))  # [B, C]
    self.assertLess(per_channel_max.min(), 1.)

  def test_rank_4_hand_computed(self):
    # One example, 2x1 spatial, 2 channels: values 2, 6, 4, 10 -> min 2,
    # range 8.
    state = tf.constant([[[[2., 6.]], [[4., 10.]]]])
    scaled = mlp.scale_hidden_state(state)
    self.assertAllClose(scaled, [[[[0., .5]], [[.25, 1.]]]])

  def test_constant_state_maps_to_zeros(self):
    state = tf.constant([[3., 3., 3.], [1., 2., 3.]])
    scaled = mlp.scale_hidden_state(state).numpy()
    self.assertFalse(np.isnan(scaled).any())
    self.assertAllClose(scaled, [[0., 0., 0.], [0., .5, 1.]])

  def test_gradient_is_finite_for_constant_and_varied_states(self):
    state = tf.constant([[3., 3., 3.], [1., 2., 4.]])
    weights = tf.constant([[1., 2., 3.], [1., 2., 3.]])
    with tf.GradientTape() as tape:
      tape.watch(state)
      loss = tf.reduce_sum(mlp.scale_hidden_state(state) * weights)
    gradient = tape.gradient(loss, state).numpy()
    self.assertTrue(np.isfinite(gradient).all())
    # Example 1: s = [1, 2, 4], min s_0, max s_2, so the loss is
    # L = (w_1 (s_1 - s_0) + w_2 (s_2 - s_0)) / (s_2 - s_0) = N / r with
    # N = 2 + 9 = 11 and r = 3: dL/ds_0 = (-(w_1 + w_2) r + N) / r^2 = -4/9,
    # dL/ds_1 = w_1 / r = 2/3, dL/ds_2 = (w_2 r - N) / r^2 = -2/9.
    self.assertAllClose(gradient[1], [-4. / 9., 2. / 3., -2. / 9.],
                        atol=1e-5)


class OneHotVectorTest(testing.TestCase):

  def test_hand_computed(self):
    encoded = mlp.one_hot_vector(tf.constant([2, 0]), 3, tf.float32)
    self.assertEqual(encoded.dtype, tf.float32)
    self.assertAllEqual(encoded, [[0., 0., 1.], [1., 0., 0.]])


class OneHotPlanesTest(testing.TestCase):

  def test_plane_a_is_all_ones(self):
    planes = mlp.one_hot_planes(
        tf.constant([1, 3]), num_actions=4, height=2, width=3,
        dtype=tf.float32).numpy()
    self.assertEqual(planes.shape, (2, 2, 3, 4))
    expected = np.zeros((2, 2, 3, 4), np.float32)
    expected[0, :, :, 1] = 1.
    expected[1, :, :, 3] = 1.
    self.assertAllEqual(planes, expected)


class BoardActionPlanesTest(testing.TestCase):

  def _planes(self, action, num_actions, height, width):
    return mlp.board_action_planes(
        tf.constant([action]), num_actions, height, width, tf.float32).numpy()

  def _one_hot(self, planes, row, column, plane):
    """A batch of one `[2, 2, planes]` encoding with a 1 at the square."""
    expected = np.zeros((1, 2, 2, planes), np.float32)
    expected[0, row, column, plane] = 1.
    return expected

  def test_tictactoe_one_plane(self):
    # A = 9 on 3x3: one plane; action 5 is row 5 // 3 = 1, column 5 % 3 = 2.
    planes = self._planes(5, 9, 3, 3)
    expected = np.zeros((1, 3, 3, 1), np.float32)
    expected[0, 1, 2, 0] = 1.
    self.assertAllEqual(planes, expected)

  def test_tictactoe_every_action_marks_its_square(self):
    planes = mlp.board_action_planes(
        tf.range(9), 9, 3, 3, tf.float32).numpy()
    self.assertAllEqual(planes[..., 0].reshape(9, 9), np.eye(9))

  def test_go_like_pass_is_square_zero_of_a_second_plane(self):
    # A = H W + 1 = 5 on 2x2: ceil(5 / 4) = 2 planes; the pass (action 4)
    # marks plane 1 at square 0, action 3 plane 0 at row 1, column 1.
    self.assertAllEqual(self._planes(4, 5, 2, 2), self._one_hot(2, 0, 0, 1))
    self.assertAllEqual(self._planes(3, 5, 2, 2), self._one_hot(2, 1, 1, 0))

  def test_chess_like_move_planes(self):
    # A = H W 3 = 12 on 2x2 (chess's 8x8x73 shrunk): 3 planes; action 7 is
    # plane 7 // 4 = 1, square 7 % 4 = 3, i.e. row 1, column 1.
    self.assertAllEqual(self._planes(7, 12, 2, 2), self._one_hot(3, 1, 1, 1))
    # Action 10: plane 2, square 2 -> row 1, column 0.
    self.assertAllEqual(self._planes(10, 12, 2, 2), self._one_hot(3, 1, 0, 2))

  def test_batch_of_actions(self):
    planes = mlp.board_action_planes(
        tf.constant([0, 11]), 12, 2, 2, tf.float32).numpy()
    self.assertAllEqual(planes.sum(axis=(1, 2, 3)), [1., 1.])
    self.assertEqual(planes[0, 0, 0, 0], 1.)
    self.assertEqual(planes[1, 1, 1, 2], 1.)


class ColumnActionPlanesTest(testing.TestCase):

  def test_connect_four_column(self):
    # Connect four: 7 actions on a 6x7 board; action 2 sets every row of
    # column 2 and nothing else, in one plane.
    planes = mlp.column_action_planes(
        tf.constant([2]), 7, 6, 7, tf.float32).numpy()
    expected = np.zeros((1, 6, 7, 1), np.float32)
    expected[0, :, 2, 0] = 1.
    self.assertAllEqual(planes, expected)

  def test_batch_of_actions(self):
    planes = mlp.column_action_planes(
        tf.constant([0, 3, 3]), 4, 2, 4, tf.float32).numpy()
    # Each example: its column's 2 squares, 2 ones in all.
    self.assertAllEqual(planes.sum(axis=(1, 2, 3)), [2., 2., 2.])
    self.assertAllEqual(planes[0, :, 0, 0], [1., 1.])
    self.assertAllEqual(planes[1, :, 3, 0], [1., 1.])
    self.assertAllEqual(planes[2], planes[1])

  def test_rejects_actions_that_are_not_the_columns(self):
    with self.assertRaisesRegex(
        ValueError, r"'column' action encoding needs one action per column: "
        r'got 9 actions for a hidden state 3 squares wide'):
      mlp.column_action_planes(tf.constant([0]), 9, 3, 3,
                                        tf.float32)


if __name__ == '__main__':
  tf.test.main()
