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
"""Tests for muzero_snt.networks.hidden_state with hand-worked numbers."""

import numpy as np
import tensorflow as tf

from muzero_snt.networks import hidden_state
from tests import testing
from tests.networks import numpy_reference


class ScaleHiddenStateTest(testing.TestCase):

  def test_hand_computed_rank_2(self):
    # Example 0: min 1, max 5, range 4; example 1: min -2, max 2, range 4.
    state = tf.constant([[1., 3., 5.], [-2., 0., 2.]])
    scaled = hidden_state.scale_hidden_state(state)
    self.assertAllClose(scaled, [[0., .5, 1.], [0., .5, 1.]])

  def test_each_example_has_its_own_range(self):
    # Example 0: (x - 0) / 10; example 1: (x - 4) / 2.
    state = tf.constant([[0., 10., 2.5], [5., 4., 6.]])
    scaled = hidden_state.scale_hidden_state(state)
    self.assertAllClose(scaled, [[0., 1., .25], [.5, 0., 1.]])

  def test_rank_2_matches_numpy(self):
    state = np.random.default_rng(0).normal(size=(4, 7)).astype(np.float32)
    scaled = hidden_state.scale_hidden_state(tf.constant(state))
    self.assertAllClose(scaled, numpy_reference.scale_per_example(state),
                        atol=1e-6)

  def test_rank_4_uses_all_non_batch_axes(self):
    state = np.random.default_rng(1).normal(size=(3, 2, 3, 4))
    state = state.astype(np.float32)
    scaled = hidden_state.scale_hidden_state(tf.constant(state)).numpy()
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
    scaled = hidden_state.scale_hidden_state(state)
    self.assertAllClose(scaled, [[[[0., .5]], [[.25, 1.]]]])

  def test_constant_state_maps_to_zeros(self):
    state = tf.constant([[3., 3., 3.], [1., 2., 3.]])
    scaled = hidden_state.scale_hidden_state(state).numpy()
    self.assertFalse(np.isnan(scaled).any())
    self.assertAllClose(scaled, [[0., 0., 0.], [0., .5, 1.]])

  def test_gradient_is_finite_for_constant_and_varied_states(self):
    state = tf.constant([[3., 3., 3.], [1., 2., 4.]])
    weights = tf.constant([[1., 2., 3.], [1., 2., 3.]])
    with tf.GradientTape() as tape:
      tape.watch(state)
      loss = tf.reduce_sum(hidden_state.scale_hidden_state(state) * weights)
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
    encoded = hidden_state.one_hot_vector(tf.constant([2, 0]), 3, tf.float32)
    self.assertEqual(encoded.dtype, tf.float32)
    self.assertAllEqual(encoded, [[0., 0., 1.], [1., 0., 0.]])


class OneHotPlanesTest(testing.TestCase):

  def test_plane_a_is_all_ones(self):
    planes = hidden_state.one_hot_planes(
        tf.constant([1, 3]), num_actions=4, height=2, width=3,
        dtype=tf.float32).numpy()
    self.assertEqual(planes.shape, (2, 2, 3, 4))
    expected = np.zeros((2, 2, 3, 4), np.float32)
    expected[0, :, :, 1] = 1.
    expected[1, :, :, 3] = 1.
    self.assertAllEqual(planes, expected)


class BoardActionPlanesTest(testing.TestCase):

  def _planes(self, action, num_actions, height, width):
    return hidden_state.board_action_planes(
        tf.constant([action]), num_actions, height, width, tf.float32).numpy()

  def test_tictactoe_one_plane(self):
    # A = 9 on 3x3: one plane; action 5 is row 5 // 3 = 1, column 5 % 3 = 2.
    planes = self._planes(5, 9, 3, 3)
    expected = np.zeros((1, 3, 3, 1), np.float32)
    expected[0, 1, 2, 0] = 1.
    self.assertAllEqual(planes, expected)

  def test_tictactoe_every_action_marks_its_square(self):
    planes = hidden_state.board_action_planes(
        tf.range(9), 9, 3, 3, tf.float32).numpy()
    self.assertAllEqual(planes[..., 0].reshape(9, 9), np.eye(9))

  def test_go_like_pass_is_square_zero_of_a_second_plane(self):
    # A = H W + 1 = 5 on 2x2: ceil(5 / 4) = 2 planes; the pass (action 4)
    # marks plane 1 at square 0, action 3 plane 0 at row 1, column 1.
    passed = self._planes(4, 5, 2, 2)
    expected = np.zeros((1, 2, 2, 2), np.float32)
    expected[0, 0, 0, 1] = 1.
    self.assertAllEqual(passed, expected)
    move = self._planes(3, 5, 2, 2)
    expected = np.zeros((1, 2, 2, 2), np.float32)
    expected[0, 1, 1, 0] = 1.
    self.assertAllEqual(move, expected)

  def test_chess_like_move_planes(self):
    # A = H W 3 = 12 on 2x2 (chess's 8x8x73 shrunk): 3 planes; action 7 is
    # plane 7 // 4 = 1, square 7 % 4 = 3, i.e. row 1, column 1.
    planes = self._planes(7, 12, 2, 2)
    expected = np.zeros((1, 2, 2, 3), np.float32)
    expected[0, 1, 1, 1] = 1.
    self.assertAllEqual(planes, expected)
    # Action 10: plane 2, square 2 -> row 1, column 0.
    planes = self._planes(10, 12, 2, 2)
    expected = np.zeros((1, 2, 2, 3), np.float32)
    expected[0, 1, 0, 2] = 1.
    self.assertAllEqual(planes, expected)

  def test_batch_of_actions(self):
    planes = hidden_state.board_action_planes(
        tf.constant([0, 11]), 12, 2, 2, tf.float32).numpy()
    self.assertAllEqual(planes.sum(axis=(1, 2, 3)), [1., 1.])
    self.assertEqual(planes[0, 0, 0, 0], 1.)
    self.assertEqual(planes[1, 1, 1, 2], 1.)


class ColumnActionPlanesTest(testing.TestCase):

  def test_connect_four_column(self):
    # Connect four: 7 actions on a 6x7 board; action 2 sets every row of
    # column 2 and nothing else, in one plane.
    planes = hidden_state.column_action_planes(
        tf.constant([2]), 7, 6, 7, tf.float32).numpy()
    expected = np.zeros((1, 6, 7, 1), np.float32)
    expected[0, :, 2, 0] = 1.
    self.assertAllEqual(planes, expected)

  def test_batch_of_actions(self):
    planes = hidden_state.column_action_planes(
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
      hidden_state.column_action_planes(tf.constant([0]), 9, 3, 3,
                                        tf.float32)


if __name__ == '__main__':
  tf.test.main()
