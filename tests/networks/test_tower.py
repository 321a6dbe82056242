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
"""Tests for muzero_snt.networks.tower against NumPy convolutions."""

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt.networks import tower
from tests import testing
from tests.networks import numpy_reference as npr

CHANNELS = 4
# tower.py's batch-norm decay.
DECAY = 0.99


def _planes(shape, seed=0) -> np.ndarray:
  return np.random.default_rng(seed).normal(size=shape).astype(np.float32)


def _variable(module: tf.Module, suffix: str) -> tf.Variable:
  matches = [v for v in tf.Module._flatten(  # pylint: disable=protected-access
      module, predicate=lambda v: isinstance(v, tf.Variable))
             if v.name.endswith(suffix + ':0')]
  assert len(matches) == 1, (suffix, [v.name for v in matches])
  return matches[0]


class NormalizeTest(testing.TestCase):
  """`tower.normalize` calls Sonnet's batch norm without its AutoGraph
  conversion: in a graph, the same outputs and moving statistics, bit for
  bit, as Sonnet's own call on `[B*H*W, C]` rows."""

  def test_in_a_graph_it_is_sonnets_batch_norm(self):
    x = tf.constant(_planes((4, 3, 3, CHANNELS), seed=4))
    ours, sonnets = (tower._batch_norm('batch_norm') for _ in range(2))

    @tf.function(autograph=False)
    def normalize(is_training):
      return tower.normalize(ours, x, is_training)

    @tf.function(autograph=False)
    def sonnet_call(is_training):
      rows = sonnets(tf.reshape(x, [-1, CHANNELS]), is_training=is_training)
      return tf.reshape(rows, x.shape)

    for is_training in (True, True, False):
      np.testing.assert_array_equal(normalize(is_training).numpy(),
                                    sonnet_call(is_training).numpy())
    self.assertEqual([v.name for v in ours.variables],
                     [v.name for v in sonnets.variables])
    for mine, theirs in zip(ours.variables, sonnets.variables):
      np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
    # Two training calls moved the statistics off their start.
    self.assertGreater(
        np.abs(ours.moving_mean.value.numpy()).max(), 0.)


class ConvBlockTest(testing.TestCase):

  @parameterized.named_parameters(('zero', 0), ('negative', -4))
  def test_rejects_non_positive_channels(self, channels):
    with self.assertRaisesRegex(
        ValueError, rf'channels must be a positive integer, got {channels}'):
      tower.ConvBlock(channels)

  @parameterized.named_parameters(
      ('3x3', 3, 1, (2, 3, 3, 2)),
      ('1x1', 1, 1, (2, 3, 3, 2)),
      # TensorFlow's SAME padding with stride 2 on an even size pads one
      # row and column after, none before.
      ('3x3_stride_2', 3, 2, (2, 6, 6, 2)),
  )
  def test_without_batch_norm_matches_numpy(self, kernel, stride, shape):
    block = tower.ConvBlock(CHANNELS, batch_norm=False, kernel_shape=kernel,
                            stride=stride, name='block')
    x = _planes(shape)
    out = block(tf.constant(x), is_training=False).numpy()
    params = npr.variables_of(block)
    self.assertEqual(params['conv/w'].shape, (kernel, kernel, 2, CHANNELS))
    expected = npr.relu(
        npr.conv2d(x, params['conv/w'], params['conv/b'], stride))
    self.assertEqual(out.shape, expected.shape)
    self.assertAllClose(out, expected, atol=1e-5, rtol=1e-5)

  def test_batch_norm_has_no_conv_bias(self):
    block = tower.ConvBlock(CHANNELS, batch_norm=True, name='block')
    block(tf.constant(_planes((2, 3, 3, 2))), is_training=True)
    names = sorted(npr.variables_of(block))
    self.assertNotIn('conv/b', names)
    self.assertIn('batch_norm/offset', names)
    self.assertIn('batch_norm/scale', names)

  def test_training_normalises_over_batch_and_space(self):
    block = tower.ConvBlock(CHANNELS, batch_norm=True, name='block')
    x = _planes((4, 3, 3, 2))
    block(tf.constant(x), is_training=True)
    # An offset of 10 keeps every normalised value above the ReLU's kink
    # (36 samples per channel: |z| <= sqrt(35)), so output - 10 is BN's
    # normalised value itself.
    _variable(block, 'batch_norm/offset').assign(10. * np.ones(CHANNELS))
    out = block(tf.constant(x), is_training=True).numpy() - 10.
    self.assertAllClose(out.mean(axis=(0, 1, 2)), np.zeros(CHANNELS),
                        atol=1e-5)
    self.assertAllClose(out.var(axis=(0, 1, 2)), np.ones(CHANNELS), atol=1e-3)
    # And the same values from NumPy: (conv(x) - mean) / sqrt(var + eps).
    conv = npr.conv2d(x, npr.variables_of(block)['conv/w'])
    mean = conv.mean(axis=(0, 1, 2))
    var = conv.var(axis=(0, 1, 2))
    self.assertAllClose(out, (conv - mean) / np.sqrt(var + npr.BATCH_NORM_EPS),
                        atol=1e-4)

  def test_moving_statistics_follow_training_batches(self):
    block = tower.ConvBlock(CHANNELS, batch_norm=True, name='block')
    x_0 = _planes((3, 3, 3, 2), seed=1)
    x_1 = _planes((3, 3, 3, 2), seed=2) + 1.
    block(tf.constant(x_0), is_training=True)
    w = npr.variables_of(block)['conv/w']
    conv_0 = npr.conv2d(x_0, w).reshape(-1, CHANNELS)
    conv_1 = npr.conv2d(x_1, w).reshape(-1, CHANNELS)
    moving_mean = _variable(block, 'moving_mean/average')
    moving_variance = _variable(block, 'moving_variance/average')
    # Sonnet's moving averages are debiased: after one update they hold the
    # batch's statistics; the variance is tf.nn.moments' (no Bessel
    # correction: tower.normalize avoids the fused kernel, which applies it).
    self.assertAllClose(moving_mean.numpy().ravel(), conv_0.mean(axis=0),
                        atol=1e-5)
    self.assertAllClose(moving_variance.numpy().ravel(),
                        conv_0.var(axis=0), atol=1e-4)
    # A second update: (decay m_0 + m_1) / (1 + decay), the debiased average
    # with decay 0.99.
    block(tf.constant(x_1), is_training=True)
    self.assertAllClose(
        moving_mean.numpy().ravel(),
        (DECAY * conv_0.mean(axis=0) + conv_1.mean(axis=0)) / (1. + DECAY),
        atol=1e-5)

  def test_first_call_makes_every_variable(self):
    # The Learner makes a network's variables by its first call inside a
    # strategy's scope (a variable creator scope): any variable the
    # constructor made would lie outside it, on another device.
    block = tower.ConvBlock(CHANNELS, batch_norm=True, name='block')
    made = []

    def record(next_creator, **kwargs):
      variable = next_creator(**kwargs)
      made.append(variable.ref())
      return variable

    with tf.variable_creator_scope(record):
      block(tf.constant(_planes((2, 3, 3, 2))), is_training=False)
    names = sorted(v.name for v in block.variables)
    self.assertIn('block/moving_mean/counter:0', names)
    self.assertCountEqual([v.ref() for v in block.variables], made)

  def test_inference_uses_moving_statistics(self):
    block = tower.ConvBlock(CHANNELS, batch_norm=True, name='block')
    x = _planes((4, 3, 3, 2), seed=3)
    y = _planes((3, 3, 3, 2), seed=4) * 2.
    block(tf.constant(x), is_training=True)
    moving_mean = _variable(block, 'moving_mean/average').numpy()
    out = block(tf.constant(y), is_training=False).numpy()
    # Inference does not update the statistics.
    self.assertAllEqual(_variable(block, 'moving_mean/average'), moving_mean)
    params = npr.variables_of(block)
    conv_x = npr.conv2d(x, params['conv/w']).reshape(-1, CHANNELS)
    mean = conv_x.mean(axis=0)
    # The batch variance without Bessel's correction, as tf.nn.moments.
    var = conv_x.var(axis=0)
    expected = npr.relu(
        params['batch_norm/scale'] *
        (npr.conv2d(y, params['conv/w']) - mean) /
        np.sqrt(var + npr.BATCH_NORM_EPS) + params['batch_norm/offset'])
    self.assertAllClose(out, expected, atol=1e-4)

  def test_inference_does_not_depend_on_batch_composition(self):
    block = tower.ConvBlock(CHANNELS, batch_norm=True)
    x = _planes((4, 3, 3, 2), seed=5)
    block(tf.constant(x), is_training=True)
    y = _planes((3, 3, 3, 2), seed=6)
    with_1 = tf.constant(y[[0, 1]])
    with_2 = tf.constant(y[[0, 2]])
    self.assertAllClose(block(with_1, is_training=False)[0],
                        block(with_2, is_training=False)[0], atol=1e-6)
    # Training mode normalises with the batch's statistics: example 0's
    # output depends on its companion.
    diff = (block(with_1, is_training=True)[0] -
            block(with_2, is_training=True)[0])
    self.assertGreater(np.abs(diff.numpy()).max(), 1e-2)


class ResidualBlockTest(testing.TestCase):

  def test_rejects_non_positive_channels(self):
    with self.assertRaisesRegex(
        ValueError, r'channels must be a positive integer, got 0'):
      tower.ResidualBlock(0)

  def test_rejects_channel_mismatch(self):
    block = tower.ResidualBlock(CHANNELS)
    with self.assertRaisesRegex(
        ValueError,
        r'ResidualBlock of 4 channels got inputs with 3 channels'):
      block(tf.zeros([1, 3, 3, 3]), is_training=False)

  def test_without_batch_norm_matches_numpy(self):
    block = tower.ResidualBlock(CHANNELS, batch_norm=False, name='block')
    x = _planes((2, 3, 3, CHANNELS))
    out = block(tf.constant(x), is_training=False).numpy()
    params = npr.variables_of(block)
    hidden = npr.relu(npr.conv2d(x, params['conv_0/w'], params['conv_0/b']))
    expected = npr.relu(
        x + npr.conv2d(hidden, params['conv_1/w'], params['conv_1/b']))
    self.assertAllClose(out, expected, atol=1e-5, rtol=1e-5)

  def test_with_batch_norm_in_training_matches_numpy(self):
    block = tower.ResidualBlock(CHANNELS, batch_norm=True, name='block')
    x = _planes((3, 3, 3, CHANNELS), seed=1)
    out = block(tf.constant(x), is_training=True).numpy()
    params = npr.variables_of(block)

    def normalise(h, i):
      mean = h.mean(axis=(0, 1, 2))
      var = h.var(axis=(0, 1, 2))
      return (params[f'batch_norm_{i}/scale'] * (h - mean) /
              np.sqrt(var + npr.BATCH_NORM_EPS) +
              params[f'batch_norm_{i}/offset'])

    hidden = npr.relu(normalise(npr.conv2d(x, params['conv_0/w']), 0))
    expected = npr.relu(x + normalise(npr.conv2d(hidden, params['conv_1/w']),
                                      1))
    self.assertAllClose(out, expected, atol=1e-4)


  def test_xla_training_gradients_are_finite_and_match_finite_differences(
      self):
    # Under XLA, Sonnet's fused batch-norm kernel gave NaN gradients in
    # training mode; tower.normalize keeps it off that kernel.
    block = tower.ResidualBlock(CHANNELS, batch_norm=True, name='block')
    x = tf.constant(_planes((4, 3, 3, CHANNELS), seed=2))
    weights = tf.constant(_planes((4, 3, 3, CHANNELS), seed=3))
    block(x, is_training=False)
    offset = _variable(block, 'batch_norm_0/offset')

    def loss():
      return tf.reduce_sum(block(x, is_training=True) * weights)

    @tf.function(jit_compile=True)
    def xla_gradients():
      with tf.GradientTape() as tape:
        value = loss()
      return tape.gradient(value, block.trainable_variables)

    gradients = xla_gradients()
    for variable, gradient in zip(block.trainable_variables, gradients):
      self.assertTrue(np.all(np.isfinite(gradient.numpy())), variable.name)
    # Central differences of the first offset. The loss has ReLU kinks, so
    # the step must be small (1e-2 crossed a kink here); float32 rounding of
    # a loss of ~10 then limits the difference quotient to ~1e-2.
    index = [v.name for v in block.trainable_variables].index(offset.name)
    eps = 1e-3
    original = offset.numpy()
    numeric = []
    for c in range(CHANNELS):
      step = np.zeros_like(original)
      step[c] = eps
      offset.assign(original + step)
      plus = float(loss())
      offset.assign(original - step)
      minus = float(loss())
      numeric.append((plus - minus) / (2 * eps))
    offset.assign(original)
    self.assertAllClose(gradients[index], numeric, atol=1e-2, rtol=1e-2)


  @parameterized.named_parameters(('batch_norm', True),
                                  ('no_batch_norm', False))
  def test_zero_init_block_is_identity_on_non_negative_inputs(
      self, batch_norm):
    # The block's input is a ReLU's output (or a hidden state in [0, 1]):
    # relu(x + 0) = x, in training and in inference mode.
    block = tower.ResidualBlock(CHANNELS, batch_norm, zero_init=True)
    x = tf.constant(np.abs(_planes((3, 3, 3, CHANNELS), seed=4)))
    for is_training in (True, False):
      self.assertAllEqual(block(x, is_training=is_training), x)
    self.assertAllEqual(
        _variable(block, 'batch_norm_1/scale' if batch_norm else 'conv_1/w'),
        np.zeros((CHANNELS,) if batch_norm else (3, 3, CHANNELS, CHANNELS)))
    if batch_norm:
      # Only the last scale starts at 0; the first is the usual 1.
      self.assertAllEqual(_variable(block, 'batch_norm_0/scale'),
                          np.ones(CHANNELS))

  def test_default_block_is_not_identity(self):
    block = tower.ResidualBlock(CHANNELS, batch_norm=True)
    x = tf.constant(np.abs(_planes((3, 3, 3, CHANNELS), seed=4)))
    self.assertGreater(
        np.abs(block(x, is_training=True).numpy() - x.numpy()).max(), 0.1)

  def test_zero_init_block_learns_from_its_last_scale(self):
    # With the last scale at 0, only that scale (and the offset after it)
    # gets a gradient at first: d out / d scale_1 = normalised conv_1 output
    # where the ReLU passes, which is not 0.
    block = tower.ResidualBlock(CHANNELS, batch_norm=True, zero_init=True)
    x = tf.constant(np.abs(_planes((3, 3, 3, CHANNELS), seed=5)))
    block(x, is_training=False)
    with tf.GradientTape() as tape:
      loss = tf.reduce_sum(block(x, is_training=True) * tf.constant(
          _planes((3, 3, 3, CHANNELS), seed=6)))
    variables = block.trainable_variables
    gradients = dict(zip([v.name.split('/', 1)[1] for v in variables],
                         tape.gradient(loss, variables)))
    self.assertAllEqual(gradients['conv_0/w:0'],
                        np.zeros((3, 3, CHANNELS, CHANNELS)))
    self.assertAllEqual(gradients['conv_1/w:0'],
                        np.zeros((3, 3, CHANNELS, CHANNELS)))
    self.assertGreater(np.abs(gradients['batch_norm_1/scale:0']).max(), 0.1)


class ResidualTowerTest(testing.TestCase):

  @parameterized.named_parameters(('negative', -1), ('float', 1.5))
  def test_rejects_bad_num_blocks(self, num_blocks):
    with self.assertRaisesRegex(
        ValueError,
        rf'num_blocks must be a non-negative integer, got {num_blocks}'):
      tower.ResidualTower(CHANNELS, num_blocks)

  def test_zero_blocks_is_identity(self):
    x = tf.constant(_planes((2, 3, 3, CHANNELS)) - 5.)
    self.assertAllEqual(tower.ResidualTower(CHANNELS, 0)(x, True), x)

  def test_without_batch_norm_matches_numpy(self):
    stack = tower.ResidualTower(CHANNELS, 2, batch_norm=False, name='tower')
    x = _planes((2, 3, 3, CHANNELS), seed=2)
    out = stack(tf.constant(x), is_training=False).numpy()
    params = npr.variables_of(stack)
    self.assertEqual(
        sorted({k.split('/')[0] for k in params}), ['block_0', 'block_1'])
    expected = npr.residual_block(
        npr.residual_block(x, params, 'block_0'), params, 'block_1')
    self.assertAllClose(out, expected, atol=1e-4, rtol=1e-4)

  def test_fresh_paper_depth_tower_is_finite_in_inference_mode(self):
    # Before any training step a network already plays (self-play starts
    # with it): inference mode must give finite outputs at the paper's
    # depth of 16 blocks.
    stack = tower.ResidualTower(CHANNELS, 16, batch_norm=True)
    x = tf.random.uniform([2, 3, 3, CHANNELS])
    out = stack(x, is_training=False).numpy()
    self.assertTrue(
        np.isfinite(out).all(), f'{np.isnan(out).sum()} NaN and '
        f'{np.isinf(out).sum()} infinite values of {out.size} outputs')


  def test_zero_init_tower_and_stem_towers_are_identity(self):
    x = tf.constant(np.abs(_planes((2, 3, 3, CHANNELS), seed=7)))
    stack = tower.ResidualTower(CHANNELS, 16, zero_init=True)
    for is_training in (True, False):
      self.assertAllEqual(stack(x, is_training=is_training), x)
    # The Atari stem's five towers too: its output is then the average
    # pools of its two strided convolutions' outputs.
    stem = tower.DownsampleStem(CHANNELS, zero_init=True)
    planes = tf.constant(_planes((2, 16, 16, 3), seed=8))
    stem(planes, is_training=False)
    # pylint: disable=protected-access
    expected = stem._conv_1(stem._conv_0(planes, False), False)
    for _ in range(2):
      expected = tf.nn.avg_pool2d(expected, 3, strides=2, padding='SAME')
    self.assertAllClose(stem(planes, is_training=False), expected,
                        atol=0., rtol=1e-6)


class MovingAverageTest(testing.TestCase):
  """Batch norm's moving statistics: initial value, then debiased EMA."""

  def test_reads_initial_value_before_any_update(self):
    average = tower._MovingAverage(0.9, 1., name='variance')  # pylint: disable=protected-access
    average.initialize(tf.constant([[5., 7.]]))
    self.assertAllEqual(average.value, [[1., 1.]])

  def test_debiased_average_after_updates(self):
    decay = 0.9
    average = tower._MovingAverage(decay, 1., name='variance')  # pylint: disable=protected-access
    average.update(tf.constant([2.]))
    # One update: (1 - d) v1 / (1 - d) = v1, whatever the initial value.
    self.assertAllClose(average.value, [2.])
    average.update(tf.constant([4.]))
    # Two: (d (1 - d) v1 + (1 - d) v2) / (1 - d^2) = (0.18 + 0.4) / 0.19.
    self.assertAllClose(average.value, [(0.18 + 0.4) / 0.19])


class DownsampleStemTest(testing.TestCase):

  def test_rejects_non_positive_channels(self):
    with self.assertRaisesRegex(
        ValueError, r'channels must be a positive integer, got 0'):
      tower.DownsampleStem(0)

  def test_paper_input_size_matches_numpy(self):
    # 96x96 -> conv stride 2 (48x48, C/2 planes) -> 2 blocks -> conv stride 2
    # (24x24, C planes) -> 3 blocks -> avg pool (12x12) -> 3 blocks -> avg
    # pool (6x6), with C = 4 instead of 256.
    stem = tower.DownsampleStem(CHANNELS, batch_norm=False, name='stem')
    x = np.random.default_rng(0).uniform(size=(1, 96, 96, 3))
    x = x.astype(np.float32)
    out = stem(tf.constant(x), is_training=False).numpy()
    self.assertEqual(out.shape, (1, 6, 6, CHANNELS))
    params = npr.variables_of(stem)
    self.assertEqual(params['conv_0/conv/w'].shape, (3, 3, 3, CHANNELS // 2))
    self.assertEqual(params['conv_1/conv/w'].shape,
                     (3, 3, CHANNELS // 2, CHANNELS))
    self.assertAllClose(out, npr.downsample_stem(x, params, ''), atol=1e-4,
                        rtol=1e-4)


if __name__ == '__main__':
  tf.test.main()
