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
"""Tests of bfloat16 compute with float32 variables."""

import dataclasses

from absl.testing import parameterized
import numpy as np
import sonnet as snt
import tensorflow as tf

from muzero_snt import learning
from muzero_snt import losses
from muzero_snt import mixed_precision
from muzero_snt import networks
from muzero_snt import presets
from tests import testing

# bfloat16 keeps 8 significant bits: one rounding is off by at most 2^-9
# (0.2%) relatively. The loss sums a few dozen such products over a batch,
# whose errors partly cancel; 1% leaves room for the accumulation in the
# matmuls and the 21-atom softmaxes without hiding a float16-sized bug.
_LOSS_RTOL = 1e-2


def _configs():
  return (
      ('mlp', testing.tiny_mlp_config(21, batch_size=16)),
      ('residual', presets.make_tictactoe_config().replace(batch_size=16)),
  )


class ComputeDtypeScopeTest(testing.TestCase):

  def test_linear_weights_are_read_in_bfloat16(self):
    linear = snt.Linear(3)
    x = tf.constant([[1., 2.]])
    linear(x)
    with mixed_precision.compute_dtype_scope(tf.bfloat16):
      y = linear(tf.cast(x, tf.bfloat16))
    self.assertEqual(y.dtype, tf.bfloat16)
    self.assertEqual(linear.w.dtype, tf.float32)
    expected = x.numpy() @ linear.w.numpy() + linear.b.numpy()
    self.assertAllClose(tf.cast(y, tf.float32), expected, rtol=2e-2)

  def test_float32_scope_changes_nothing(self):
    linear = snt.Linear(3)
    x = tf.constant([[1., 2.]])
    expected = linear(x)
    with mixed_precision.compute_dtype_scope(tf.float32):
      self.assertAllEqual(linear(x), expected)

  def test_gradients_reach_the_float32_variables(self):
    linear = snt.Linear(1)
    x = tf.constant([[1., 2.]])
    linear(x)
    with tf.GradientTape() as tape:
      with mixed_precision.compute_dtype_scope(tf.bfloat16):
        y = tf.cast(linear(tf.cast(x, tf.bfloat16)), tf.float32)
    grad_w, grad_b = tape.gradient(y, [linear.w, linear.b])
    # d(xw + b)/dw = x^T, exact in bfloat16 for these small integers.
    self.assertEqual(grad_w.dtype, tf.float32)
    self.assertAllEqual(grad_w, [[1.], [2.]])
    self.assertAllEqual(grad_b, [1.])

  def test_unknown_dtype_is_named(self):
    with self.assertRaisesRegex(ValueError, "'float16'"):
      mixed_precision.get_compute_dtype('float16')


class ComputeDtypeNetworkTest(testing.TestCase, parameterized.TestCase):

  @parameterized.named_parameters(*_configs())
  def test_outputs_are_float32_and_close(self, config):
    network = networks.make_network(config)
    network.create_variables()
    wrapped = mixed_precision.ComputeDtypeNetwork(network, tf.bfloat16)
    observation = np.random.default_rng(0).uniform(
        0., 1., (4,) + config.observation_shape).astype(np.float32)
    expected = network.initial_inference(observation)
    actual = wrapped.initial_inference(observation)
    for field in ('value', 'policy_logits', 'hidden_state', 'value_logits'):
      self.assertEqual(getattr(actual, field).dtype, tf.float32, field)
    self.assertAllClose(actual.policy_logits, expected.policy_logits,
                        atol=0.05, rtol=0.05)
    # bfloat16 rounds: the outputs are close to float32's but not equal.
    self.assertNotAllEqual(actual.policy_logits, expected.policy_logits)
    step = wrapped.recurrent_inference(actual.hidden_state,
                                       tf.constant([0, 1, 0, 1]))
    self.assertEqual(step.reward.dtype, tf.float32)


class Bfloat16BoardMatmulTest(testing.TestCase):
  """`network.conv_as_matmul` under the bfloat16 wrapper: the unrolled loss
  makes each convolution's matrix once, in bfloat16, for its K steps."""

  def _gathers(self, compute_dtype):
    config = presets.make_tictactoe_config().replace(batch_size=4)
    config = config.replace(
        network=dataclasses.replace(config.network, conv_as_matmul=True))
    network = networks.make_network(config)
    network.create_variables()
    if compute_dtype != tf.float32:
      network = mixed_precision.ComputeDtypeNetwork(network, compute_dtype)
    batch = tf.nest.map_structure(
        lambda x: None if x is None else tf.constant(x),
        testing.random_batch(config, 4, seed=0))
    # As the learner traces its step: without autograph (nothing to convert).
    loss_fn = tf.function(
        lambda b: losses.unrolled_loss(network, b, 1e-4).loss, autograph=False)
    graph = loss_fn.get_concrete_function(batch).graph
    return [op for op in graph.get_operations() if op.type == 'GatherV2']

  def test_matrices_made_once(self):
    # The preset's 3x3 convolutions on the 3x3 board: representation 3 (a
    # stem, a block of two), dynamics 3, prediction 2 (a block). The
    # initial inference, before the K steps' context, makes its own 3 + 2;
    # the context makes all 8 once (the representation's go unused): 13
    # gathers of a kernel, in float32 or bfloat16 alike. A matrix per call
    # would be 5 + K x (3 + 2) = 30.
    float32_gathers = self._gathers(tf.float32)
    bfloat16_gathers = self._gathers(tf.bfloat16)
    self.assertLen(bfloat16_gathers, len(float32_gathers))
    kernels = [op for op in bfloat16_gathers
               if op.outputs[0].shape.rank == 4]  # [H*W, H*W, C_in, C_out]
    self.assertLen(kernels, 5 + 8)


class LearnerBfloat16Test(testing.TestCase, parameterized.TestCase):

  def _losses(self, config, compute_dtype, jit_compile=False, steps=3):
    tf.random.set_seed(0)
    network = networks.make_network(config)
    learner = learning.Learner(network, config, jit_compile=jit_compile,
                               compute_dtype=compute_dtype)
    batch = testing.random_batch(config, config.batch_size, seed=1)
    losses = [learner.step(batch)['loss'] for _ in range(steps)]
    return np.array(losses), learner

  @parameterized.named_parameters(*_configs())
  def test_loss_within_tolerance_of_float32(self, config):
    expected, _ = self._losses(config, 'float32')
    actual, learner = self._losses(config, 'bfloat16')
    self.assertAllClose(actual, expected, rtol=_LOSS_RTOL)
    self.assertNotAllEqual(actual, expected)
    # The loss falls in both: bfloat16 trains, not only evaluates.
    self.assertLess(actual[-1], actual[0])
    for variable in learner.network.trainable_variables:
      self.assertEqual(variable.dtype, tf.float32, variable.name)
    for variable in learner.optimizer.variables:
      if variable.dtype.is_floating:
        self.assertEqual(variable.dtype, tf.float32, variable.name)

  def test_xla_bfloat16_matches_graph_bfloat16(self):
    config = testing.tiny_mlp_config(21, batch_size=16)
    graph, _ = self._losses(config, 'bfloat16', steps=2)
    xla, _ = self._losses(config, 'bfloat16', jit_compile=True, steps=2)
    self.assertAllClose(xla, graph, rtol=_LOSS_RTOL)

  def test_unknown_compute_dtype_is_refused(self):
    config = testing.tiny_mlp_config()
    with self.assertRaisesRegex(ValueError, "'float8'"):
      learning.Learner(networks.make_network(config), config,
                       compute_dtype='float8')


if __name__ == '__main__':
  tf.test.main()
