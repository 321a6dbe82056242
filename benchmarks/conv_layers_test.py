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
"""Tests of benchmarks/conv_layers.py: one convolution layer, three ways."""

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np
import tensorflow as tf

from benchmarks import conv_layers
from muzero_snt.networks import board_conv


def _numpy_same_conv(inputs: np.ndarray, kernel: np.ndarray) -> np.ndarray:
  """Stride-1 'SAME' NHWC convolution (cross-correlation), loop by loop."""
  batch, height, width, _ = inputs.shape
  kernel_height, kernel_width, _, out_channels = kernel.shape
  top, left = (kernel_height - 1) // 2, (kernel_width - 1) // 2
  out = np.zeros((batch, height, width, out_channels))
  for y in range(height):
    for x in range(width):
      for ty in range(kernel_height):
        for tx in range(kernel_width):
          iy, ix = y + ty - top, x + tx - left
          if 0 <= iy < height and 0 <= ix < width:
            out[:, y, x] += inputs[:, iy, ix] @ kernel[ty, tx]
  return out


class Im2colTest(parameterized.TestCase):

  @parameterized.parameters((3, 3), (2, 3), (1, 1), (3, 1))
  def test_equals_a_numpy_convolution(self, height, width):
    rng = np.random.default_rng(height * 10 + width)
    inputs = rng.standard_normal((4, height, width, 2))
    kernel = rng.standard_normal((3, 3, 2, 5))
    got = conv_layers.im2col_conv2d(tf.constant(inputs, tf.float32),
                                    tf.constant(kernel, tf.float32))
    np.testing.assert_allclose(got.numpy(), _numpy_same_conv(inputs, kernel),
                               rtol=1e-5, atol=1e-5)


class LayerStepTest(absltest.TestCase):

  def test_forms_give_one_gradient(self):
    # Two calls sharing the kernel, forward and backward: the three forms
    # return the same sum of gradients; by hand, with a zero kernel every
    # output is 0, so the loss is 0 and so are both gradients.
    rng = np.random.default_rng(0)
    inputs = tf.constant(rng.standard_normal((3, 3, 3, 4)), tf.float32)
    conv = board_conv.BoardConv2D(4, 3, with_bias=False, use_matmul=True)
    conv(inputs)
    results = {form: conv_layers.make_layer_step(form, 2, inputs, conv,
                                                 tf.float32)()
               for form in conv_layers.FORMS}
    self.assertNotEqual(results['native'], 0.)
    for form in ('dense', 'im2col'):
      self.assertAlmostEqual(results[form], results['native'], delta=1e-3 *
                             abs(results['native']))
    conv.w.assign(tf.zeros_like(conv.w))
    for form in conv_layers.FORMS:
      self.assertEqual(
          conv_layers.make_layer_step(form, 2, inputs, conv, tf.float32)(),
          0.)

  def test_unknown_form(self):
    conv = board_conv.BoardConv2D(4, 3)
    with self.assertRaisesRegex(ValueError, "'winograd'"):
      conv_layers.make_layer_step('winograd', 1, tf.zeros([1, 3, 3, 4]),
                                  conv, tf.float32)

  def test_layer_flops_by_hand(self):
    # 3 x (2 x batch 2 x 9 cells x 9 taps x 4 x 4 channels) = 15,552.
    self.assertEqual(conv_layers.layer_flops(2, 3, 4), 15_552)


if __name__ == '__main__':
  absltest.main()
