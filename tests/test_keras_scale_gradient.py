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
"""The pseudocode's `tf.scale_gradient` in Keras, as the README shows it.

For tf.keras (the `tf_keras` package) and Keras 3 on TensorFlow: a layer
that calls `snt.scale_gradient` and one that writes
`y * s + tf.stop_gradient(y) * (1 - s)` give the same values and the same
gradients, the gradients are s times the unscaled ones worked out by hand,
and one SGD step of `train_on_batch` moves the weights by exactly that.

The layer is y = x W with
  x = [[1, 2], [3, -1]],  W = [[1, 0, 2], [0, 1, -1]],
so y = [[1, 2, 0], [3, -1, 7]]. The loss is sum(g * y) with
  g = [[1, -1, 0.5], [2, 0, -1]],
whose unscaled gradients are dL/dW = x^T g = [[7, -1, -2.5], [0, -2, 2]]
and dL/dx = g W^T = [[2, -1.5], [0, 1]]; L = (1 - 2 + 0) + (6 + 0 - 7) = -2.
"""

import numpy as np
import sonnet as snt
import tensorflow as tf
from absl.testing import parameterized

from tests import testing

try:
  import tf_keras  # pylint: disable=g-import-not-at-top
except ImportError:
  tf_keras = None
try:
  import keras  # pylint: disable=g-import-not-at-top
except ImportError:
  keras = None

X = np.array([[1., 2.], [3., -1.]], np.float32)
W = np.array([[1., 0., 2.], [0., 1., -1.]], np.float32)
G = np.array([[1., -1., .5], [2., 0., -1.]], np.float32)
Y = np.array([[1., 2., 0.], [3., -1., 7.]], np.float32)  # X W by hand.
DL_DW = np.array([[7., -1., -2.5], [0., -2., 2.]], np.float32)  # X^T G.
DL_DX = np.array([[2., -1.5], [0., 1.]], np.float32)  # G W^T.

K = 5  # Unroll steps: the pseudocode's recurrent losses are scaled by 1/K.
SCALES = (('half', .5), ('one_over_k', 1. / K), ('zero', 0.))
FLAVOURS = ('tf_keras', 'keras3')


def stop_gradient_scale(y, scale):
  """The pseudocode's `tf.scale_gradient(y, scale)` with `tf.stop_gradient`."""
  return y * scale + tf.stop_gradient(y) * (1 - scale)


def _keras(flavour):
  """The Keras module of `flavour`, or None if it cannot run here."""
  if flavour == 'tf_keras':
    return tf_keras
  if keras is None or keras.backend.backend() != 'tensorflow':
    return None
  return keras


def _make_layer(api, scale, how):
  """A layer `y = scale_gradient(x W, scale)`, W = `W`, of Keras `api`."""

  class ScaledLinear(api.layers.Layer):
    """x W, then the gradient scaled by `snt` or by the formula."""

    def build(self, input_shape):
      del input_shape
      self.kernel = self.add_weight(
          name='kernel', shape=W.shape,
          initializer=api.initializers.Constant(W))

    def call(self, x):
      y = tf.matmul(x, self.kernel)
      if how == 'snt':
        return snt.scale_gradient(y, scale)
      return stop_gradient_scale(y, scale)

  return ScaledLinear()


class KerasScaleGradientTest(testing.TestCase):

  def _api(self, flavour):
    api = _keras(flavour)
    if api is None:
      self.skipTest(f'{flavour} is not installed or not on TensorFlow.')
    return api

  def _tape_gradients(self, api, scale, how):
    layer = _make_layer(api, scale, how)
    x = tf.constant(X)
    with tf.GradientTape() as tape:
      tape.watch(x)
      y = layer(x)
      loss = tf.reduce_sum(G * y)
    dl_dw, dl_dx = tape.gradient(loss, [layer.trainable_weights[0], x])
    return y.numpy(), loss.numpy(), dl_dw.numpy(), dl_dx.numpy()

  @parameterized.product(flavour=FLAVOURS, scale=SCALES)
  def test_tape_gradients_are_scaled_and_values_unchanged(self, flavour,
                                                          scale):
    api = self._api(flavour)
    _, s = scale
    by_snt = self._tape_gradients(api, s, 'snt')
    by_formula = self._tape_gradients(api, s, 'stop_gradient')
    for name, a, b in zip(('y', 'loss', 'dL/dW', 'dL/dx'), by_snt,
                          by_formula):
      self.assertAllEqual(a, b, msg=name)
    y, loss, dl_dw, dl_dx = by_snt
    # Forward: the identity, whatever the scale (0 included).
    self.assertAllEqual(y, Y)
    self.assertEqual(loss, -2.)
    # Backward: s times the unscaled gradients (all zero for s = 0).
    self.assertAllClose(dl_dw, s * DL_DW, atol=0., rtol=1e-7)
    self.assertAllClose(dl_dx, s * DL_DX, atol=0., rtol=1e-7)

  @parameterized.product(flavour=FLAVOURS, scale=SCALES)
  def test_one_sgd_step_of_a_model(self, flavour, scale):
    api = self._api(flavour)
    _, s = scale
    learning_rate = .1
    # The batch's mean of sum(g * y) per example (Keras averages a loss
    # function's per-example values over the batch).
    loss = lambda g, y: tf.reduce_sum(g * y, axis=-1)
    weights = {}
    for how in ('snt', 'stop_gradient'):
      model = api.Sequential(
          [api.Input(shape=(2,)), _make_layer(api, s, how)])
      model.compile(optimizer=api.optimizers.SGD(learning_rate=learning_rate),
                    loss=loss)
      value = model.train_on_batch(X, G)
      self.assertAllClose(value, -2. / 2, atol=0., rtol=1e-7)
      weights[how] = model.get_weights()[0]
    self.assertAllEqual(weights['snt'], weights['stop_gradient'])
    # W - lr * s * X^T G / batch size. For s = 0.5, the first row is
    # [1, 0, 2] - 0.025 * [7, -1, -2.5] = [0.825, 0.025, 2.0625].
    expected = W - learning_rate * s * DL_DW / len(X)
    self.assertAllClose(weights['snt'], expected, atol=1e-7, rtol=1e-6)
    if s == .5:
      self.assertAllClose(weights['snt'][0], [.825, .025, 2.0625],
                          atol=1e-7, rtol=1e-6)
    if s == 0.:
      self.assertAllEqual(weights['snt'], W)

  def test_formula_matches_snt_up_to_one_rounding(self):
    # snt.scale_gradient returns its input; y * s + y * (1 - s) is rounded
    # twice, so it can miss y by one unit in the last place (s = 1/5).
    y = tf.constant(
        np.random.default_rng(0).normal(size=10_000).astype(np.float32))
    self.assertAllEqual(snt.scale_gradient(y, 1. / K), y)
    self.assertAllClose(stop_gradient_scale(y, 1. / K), y, atol=0.,
                        rtol=2.4e-7)


if __name__ == '__main__':
  tf.test.main()
