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
"""Tests for muzero_snt.networks.board_conv: the matmul equals the convolution.

Outputs against the NumPy cross-correlation of numpy_reference.py and
gradients against TensorFlow's convolution (`snt.Conv2D` with the same
weights), which share no code with the dense matrix.
"""

import dataclasses
import os
import tempfile

import numpy as np
import sonnet as snt
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import losses
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt.networks import board_conv
from muzero_snt.search import compiled_search
from tests import testing
from tests.networks import numpy_reference as npr


def _normal(shape, seed=0) -> np.ndarray:
  return np.random.default_rng(seed).normal(size=shape).astype(np.float32)


def _pair(out_channels, kernel, with_bias, input_shape, seed=0):
  """A BoardConv2D and an snt.Conv2D holding the same (random) weights."""
  board = board_conv.BoardConv2D(out_channels, kernel, with_bias=with_bias,
                                 use_matmul=True)
  conv = snt.Conv2D(out_channels, kernel, with_bias=with_bias)
  probe = tf.zeros([1] + list(input_shape[1:]))
  board(probe)
  conv(probe)
  board.w.assign(_normal(board.w.shape, seed))
  conv.w.assign(board.w)
  if with_bias:
    board.b.assign(_normal(board.b.shape, seed + 1))
    conv.b.assign(board.b)
  return board, conv


class TapTableTest(testing.TestCase):

  def test_three_by_three_by_hand(self):
    table = board_conv.tap_table(3, 3, 3, 3)
    none = 9
    # The centre output (q = 4) reads every cell p through tap p: the
    # window's top-left tap (0) reads the top-left cell (0), and so on.
    np.testing.assert_array_equal(table[:, 4], np.arange(9))
    # The top-left output (q = 0) reads cells 0, 1, 3, 4 through the
    # window's lower-right taps 4, 5, 7, 8; the rest are outside it.
    np.testing.assert_array_equal(
        table[:, 0], [4, 5, none, 7, 8, none, none, none, none])
    # The right-middle output (q = 5) reads columns 1 and 2 of rows 0-2.
    np.testing.assert_array_equal(
        table[:, 5], [none, 0, 1, none, 3, 4, none, 6, 7])

  def test_one_row_board(self):
    # On 1 x 4 with a 3 x 3 kernel only the kernel's middle row is used:
    # output 0 reads cells 0 and 1 through taps 4 and 5.
    table = board_conv.tap_table(1, 4, 3, 3)
    np.testing.assert_array_equal(table[:, 0], [4, 5, 9, 9])
    np.testing.assert_array_equal(table[:, 2], [9, 3, 4, 5])


class BoardConv2DTest(testing.TestCase):

  @parameterized.parameters(
      ((5, 3, 3, 4), 6, 3, False),
      ((5, 3, 3, 4), 6, 3, True),
      ((2, 1, 9, 3), 5, 3, True),
      ((2, 2, 2, 3), 4, 3, False),
      ((3, 2, 2, 3), 4, 2, True),  # Even kernel: SAME pads one after.
  )
  def test_matmul_equals_numpy_convolution(self, shape, out_channels, kernel,
                                           with_bias):
    board, _ = _pair(out_channels, kernel, with_bias, shape)
    self.assertTrue(board.runs_as_matmul(shape))
    x = _normal(shape, seed=3)
    expected = npr.conv2d(x.astype(np.float64), board.w.numpy(),
                          board.b.numpy() if with_bias else None)
    np.testing.assert_allclose(board(tf.constant(x)).numpy(), expected,
                               rtol=1e-5, atol=1e-5)

  def test_dense_weights_hold_the_taps(self):
    board, _ = _pair(2, 3, False, (1, 3, 3, 2))
    dense = board.dense_weights(3, 3).numpy()  # [9 * 2, 9 * 2]
    w = board.w.numpy()
    cell = lambda y, x: y * 3 + x
    # Input cell (0, 0) seen from output cell (1, 1): tap (0, 0).
    p, q = cell(0, 0), cell(1, 1)
    np.testing.assert_array_equal(dense[p * 2:p * 2 + 2, q * 2:q * 2 + 2],
                                  w[0, 0])
    # From output (0, 0), input (1, 1) is its window's tap (2, 2).
    p, q = cell(1, 1), cell(0, 0)
    np.testing.assert_array_equal(dense[p * 2:p * 2 + 2, q * 2:q * 2 + 2],
                                  w[2, 2])
    # Opposite corners are outside each other's 3 x 3 window.
    p, q = cell(0, 0), cell(2, 2)
    np.testing.assert_array_equal(dense[p * 2:p * 2 + 2, q * 2:q * 2 + 2], 0.)
    # 49 of the 81 (p, q) pairs are connected, each by a C_in x C_out block.
    self.assertEqual(np.count_nonzero(dense), 49 * 4)

  def test_gradients_equal_the_convolution(self):
    shape = (4, 3, 3, 3)
    board, conv = _pair(5, 3, True, shape)
    x = tf.constant(_normal(shape, seed=7))
    upstream = tf.constant(_normal((4, 3, 3, 5), seed=8))

    def grads(module):
      with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(module(x) * upstream)
      return tape.gradient(loss, [x, module.w, module.b])

    for got, want in zip(grads(board), grads(conv)):
      np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4,
                                 atol=1e-4)

  @parameterized.parameters(((2, 4, 4, 3), 3, 1), ((2, 3, 3, 3), 3, 2),
                            ((2, 3, 3, 3), 1, 1))
  def test_larger_boards_and_strides_run_the_convolution(self, shape, kernel,
                                                         stride):
    board = board_conv.BoardConv2D(4, kernel, stride=stride,
                                   use_matmul=True)
    self.assertFalse(board.runs_as_matmul(shape))
    self._assert_convolution(board, shape, stride)

  def test_matrices_over_the_limit_run_the_convolution(self):
    # 3 x 3 cells of 128 -> 128 planes: a 1,152 x 1,152 matrix, over 2^20.
    conv = lambda channels: board_conv.BoardConv2D(channels, 3,
                                                   use_matmul=True)
    # 1,017 x 1,017 = 1,034,289 <= 1,048,576 entries.
    self.assertTrue(conv(113).runs_as_matmul((1, 3, 3, 113)))
    self.assertFalse(conv(128).runs_as_matmul((1, 3, 3, 128)))

  def test_use_matmul_false_runs_the_convolution(self):
    board = board_conv.BoardConv2D(4, 3)
    self.assertFalse(board.runs_as_matmul((2, 3, 3, 3)))
    self._assert_convolution(board, (2, 3, 3, 3), 1)
    self.assertIn('Conv2D', self._op_types(board, [1, 3, 3, 3]))
    matmul = board_conv.BoardConv2D(4, 3, use_matmul=True)
    types = self._op_types(matmul, [1, 3, 3, 3])
    self.assertIn('MatMul', types)
    self.assertNotIn('Conv2D', types)

  def _op_types(self, module, shape):
    graph = tf.function(module, autograph=False).get_concrete_function(
        tf.TensorSpec(shape)).graph
    return [op.type for op in graph.get_operations()]

  def _assert_convolution(self, board, shape, stride):
    x = _normal(shape, seed=2)
    out = board(tf.constant(x)).numpy()
    expected = npr.conv2d(x.astype(np.float64), board.w.numpy(),
                          board.b.numpy(), stride=stride)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)

  def test_a_conv2d_checkpoint_restores_into_it(self):
    conv = snt.Conv2D(3, 3, name='conv')
    conv(tf.zeros([1, 3, 3, 2]))
    conv.w.assign(_normal(conv.w.shape))
    conv.b.assign(_normal(conv.b.shape, 1))
    board = board_conv.BoardConv2D(3, 3, use_matmul=True, name='conv')
    board(tf.zeros([1, 3, 3, 2]))
    self.assertEqual([v.name for v in board.variables],
                     [v.name for v in conv.variables])
    with tempfile.TemporaryDirectory() as directory:
      path = tf.train.Checkpoint(module=conv).write(
          os.path.join(directory, 'ckpt'))
      tf.train.Checkpoint(module=board).read(path).assert_consumed()
    x = tf.constant(_normal([2, 3, 3, 2], 4))
    np.testing.assert_allclose(board(x).numpy(), conv(x).numpy(), rtol=1e-5,
                               atol=1e-5)


class AssembledWeightsTest(testing.TestCase):

  def _tower(self):
    inner = board_conv.BoardConv2D(4, 3, use_matmul=True, name='inner')
    outer = snt.Sequential([board_conv.BoardConv2D(4, 3, use_matmul=True,
                                                   name='outer'),
                            tf.nn.relu, inner])
    outer(tf.zeros([1, 3, 3, 4]))
    return outer, inner

  def test_outputs_unchanged_and_matrices_released(self):
    module, inner = self._tower()
    x = tf.constant(_normal([3, 3, 3, 4], 5))
    plain = module(x).numpy()
    with board_conv.assembled_weights(module, [None, 3, 3, 4]):
      self.assertIsNotNone(inner._assembled)  # pylint: disable=protected-access
      np.testing.assert_array_equal(module(x).numpy(), plain)
      # Another board size inside the context assembles its own matrix.
      small = tf.constant(_normal([2, 2, 2, 4], 6))
      expected = npr.conv2d(small.numpy().astype(np.float64),
                            inner.w.numpy(), inner.b.numpy())
      np.testing.assert_allclose(inner(small).numpy(), expected, rtol=1e-5,
                                 atol=1e-5)
    self.assertIsNone(inner._assembled)  # pylint: disable=protected-access

  def test_matrices_made_once_in_a_function(self):
    module, _ = self._tower()
    x = tf.constant(_normal([3, 3, 3, 4], 5))

    def count_gathers(use_context):
      def body(x):
        if not use_context:
          return module(module(x))
        with board_conv.assembled_weights(module, x.shape):
          return module(module(x))
      graph = tf.function(body, autograph=False).get_concrete_function(x).graph
      return sum(op.type == 'GatherV2' for op in graph.get_operations())

    # Two convolutions called twice: four matrices, or two in the context.
    self.assertEqual(count_gathers(False), 4)
    self.assertEqual(count_gathers(True), 2)

  def test_nested_contexts_restore_the_outer_matrices(self):
    module, inner = self._tower()
    with board_conv.assembled_weights(module, [None, 3, 3, 4]):
      outer_matrix = inner._assembled  # pylint: disable=protected-access
      with board_conv.assembled_weights(module, [None, 3, 3, 4]):
        self.assertIsNot(inner._assembled, outer_matrix)  # pylint: disable=protected-access
      self.assertIs(inner._assembled, outer_matrix)  # pylint: disable=protected-access
    self.assertIsNone(inner._assembled)  # pylint: disable=protected-access

  def test_other_ranks_change_nothing(self):
    module, inner = self._tower()
    with board_conv.assembled_weights(module, [None, 32]):
      self.assertIsNone(inner._assembled)  # pylint: disable=protected-access
    with board_conv.assembled_weights(object(), [None, 3, 3, 4]):
      pass


class ConvAsMatmulNetworkTest(testing.TestCase):
  """`network.conv_as_matmul` on the tic-tac-toe preset, against the
  convolution (TensorFlow's `Conv2D`) on a copy with the same weights."""

  def _networks(self):
    config = presets.make_tictactoe_config()
    networks_ = {}
    for as_matmul in (False, True):
      network = networks.make_network(config.replace(
          network=dataclasses.replace(config.network,
                                      conv_as_matmul=as_matmul)))
      network.create_variables()
      networks_[as_matmul] = network
    for source, target in zip(networks_[False].variables,
                              networks_[True].variables):
      target.assign(_normal(source.shape, seed=len(source.name)) * 0.3
                    if source.trainable else source)
      source.assign(target)
    return config, networks_

  def test_three_by_three_convolutions_become_matmuls(self):
    config, networks_ = self._networks()
    observation = tf.TensorSpec((2,) + config.observation_shape)

    def conv_ops(network):
      graph = tf.function(network.initial_inference,
                          autograph=False).get_concrete_function(
                              observation).graph
      return sum(op.type == 'Conv2D' for op in graph.get_operations())

    # Representation: stem and one block (3 convolutions 3x3); prediction:
    # one block (2) and the heads' two 1x1 convolutions, which stay.
    self.assertEqual(conv_ops(networks_[False]), 7)
    self.assertEqual(conv_ops(networks_[True]), 2)

  def test_loss_and_gradients_equal_the_convolution(self):
    config, networks_ = self._networks()
    batch = testing.random_batch(config, 8, seed=1)
    results = {}
    for as_matmul, network in networks_.items():
      with tf.GradientTape() as tape:
        loss = losses.unrolled_loss(network, batch, weight_decay=1e-4).loss
      results[as_matmul] = (loss, tape.gradient(
          loss, network.trainable_variables))
    np.testing.assert_allclose(results[True][0], results[False][0],
                               rtol=1e-5)
    for got, want in zip(results[True][1], results[False][1]):
      np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-5)

  def test_search_equals_the_convolution(self):
    config, networks_ = self._networks()
    rng = np.random.default_rng(2)
    observation = rng.random((4,) + config.observation_shape).astype(
        np.float32)
    outputs = [
        compiled_search.CompiledSearch(config, network, dtype=tf.float64)
        .search_with_seed(observation, np.zeros(4, np.int32),
                          np.ones((4, 9), bool), seed=[0, 0],
                          add_noise=False)
        for network in networks_.values()]
    np.testing.assert_array_equal(outputs[1].visit_counts,
                                  outputs[0].visit_counts)
    np.testing.assert_allclose(outputs[1].root_value, outputs[0].root_value,
                               rtol=1e-5, atol=1e-6)


if __name__ == '__main__':
  tf.test.main()
