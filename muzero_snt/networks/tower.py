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
"""Convolutional blocks: conv-BN-ReLU, AlphaZero's residual blocks and tower
(Silver et al. 2018), and the Atari down-sampling stem of MuZero's appendix
"Network Architecture"."""

import inspect
from typing import Optional

import sonnet as snt
import tensorflow as tf

from muzero_snt.networks import board_conv

# Batch-norm moving averages adapt quickly: self-play data drift.
_BATCH_NORM_DECAY = 0.99


class _MovingAverage(snt.ExponentialMovingAverage):
  """A debiased moving average that reads `initial_value` before any update
  (Sonnet's reads 0, so a fresh batch norm in inference mode, as in
  self-play before the first step, divides by sqrt(eps) and a deep tower
  overflows). The first call makes every variable, inside the `Learner`'s
  strategy scope: on its device, where its XLA step can read them."""

  def __init__(self, decay: float, initial_value: float, name: str):
    super().__init__(decay, name=name)
    self._initial_value = initial_value

  @snt.once
  def initialize(self, value: tf.Tensor):
    # Replaces the counter Sonnet's constructor made on the device current
    # then (same name, so the same checkpoint key).
    self._counter = tf.Variable(
        0, trainable=False, dtype=tf.int64, name='counter')
    self._hidden = tf.Variable(
        tf.zeros_like(value), trainable=False, name='hidden')
    self.average = tf.Variable(
        tf.fill(tf.shape(value), tf.cast(self._initial_value, value.dtype)),
        trainable=False, name='average')


def _batch_norm(name: str, zero_scale: bool = False) -> snt.BaseBatchNorm:
  return snt.BaseBatchNorm(
      create_scale=True,
      create_offset=True,
      scale_init=snt.initializers.Zeros() if zero_scale else None,
      moving_mean=_MovingAverage(_BATCH_NORM_DECAY, 0., name='moving_mean'),
      moving_variance=_MovingAverage(
          _BATCH_NORM_DECAY, 1., name='moving_variance'),
      name=name)


def normalize(norm: Optional[snt.BaseBatchNorm], inputs: tf.Tensor,
              is_training: bool) -> tf.Tensor:
  """Applies `norm` (if any) in float32, as bfloat16 batch statistics lose
  too many bits, to `[B*H*W, C]` rows (the same statistics) so that Sonnet
  avoids the fused kernel, whose gradient under XLA is NaN
  (tests/networks/test_tower.py); returns the inputs' dtype."""
  if norm is None:
    return inputs
  rows = tf.reshape(tf.cast(inputs, tf.float32), [-1, inputs.shape[-1]])
  with norm.name_scope:
    outputs = _UNCONVERTED_BATCH_NORM(norm, rows, is_training=is_training)
  return tf.cast(tf.reshape(outputs, tf.shape(inputs)), inputs.dtype)


# Sonnet AutoGraph-converts `BaseBatchNorm.__call__` in a graph (a fifth of
# the learner step's trace); with a Python bool `is_training` it has no tensor
# control flow, so unwrapped it builds the same graph (test_tower.py).
_UNCONVERTED_BATCH_NORM = inspect.unwrap(snt.BaseBatchNorm.__call__)


def check_positive(name: str, value: int):
  if not isinstance(value, int) or value <= 0:
    raise ValueError(f'{name} must be a positive integer, got {value!r}.')


class ConvBlock(snt.Module):
  """Convolution, batch normalisation (optional) and ReLU."""

  def __init__(self,
               channels: int,
               batch_norm: bool = True,
               kernel_shape: int = 3,
               stride: int = 1,
               name: Optional[str] = None):
    super().__init__(name=name)
    check_positive('channels', channels)
    # Batch norm's offset takes the bias's place.
    self._conv = board_conv.BoardConv2D(
        channels, kernel_shape, stride=stride, with_bias=not batch_norm,
        name='conv')
    self._norm = _batch_norm('batch_norm') if batch_norm else None

  def __call__(self, inputs: tf.Tensor, is_training: bool) -> tf.Tensor:
    return tf.nn.relu(normalize(self._norm, self._conv(inputs), is_training))


class ResidualBlock(snt.Module):
  """x -> relu(x + BN(conv(relu(BN(conv(x)))))), 3x3 convolutions; with
  `zero_init` the last batch-norm scale (or, without batch norm, the last
  convolution) starts at 0, so a fresh block is the identity on x >= 0: the
  "zero gamma" of Goyal et al. (2017) (docs/pseudocode.md, deviation Q)."""

  def __init__(self,
               channels: int,
               batch_norm: bool = True,
               zero_init: bool = False,
               name: Optional[str] = None):
    super().__init__(name=name)
    check_positive('channels', channels)
    self._conv_0 = board_conv.BoardConv2D(channels, 3,
                                          with_bias=not batch_norm,
                                          name='conv_0')
    self._conv_1 = board_conv.BoardConv2D(
        channels, 3, with_bias=not batch_norm,
        w_init=snt.initializers.Zeros() if zero_init and not batch_norm
        else None, name='conv_1')
    self._norm_0 = _batch_norm('batch_norm_0') if batch_norm else None
    self._norm_1 = (_batch_norm('batch_norm_1', zero_scale=zero_init)
                    if batch_norm else None)

  def __call__(self, inputs: tf.Tensor, is_training: bool) -> tf.Tensor:
    if inputs.shape[-1] != self._conv_0.output_channels:
      raise ValueError(
          f'ResidualBlock of {self._conv_0.output_channels} channels got '
          f'inputs with {inputs.shape[-1]} channels (shape {inputs.shape}).')
    outputs = tf.nn.relu(
        normalize(self._norm_0, self._conv_0(inputs), is_training))
    outputs = normalize(self._norm_1, self._conv_1(outputs), is_training)
    return tf.nn.relu(inputs + outputs)


class ResidualTower(snt.Module):
  """`num_blocks` `ResidualBlock`s in sequence (identity when 0)."""

  def __init__(self,
               channels: int,
               num_blocks: int,
               batch_norm: bool = True,
               zero_init: bool = False,
               name: Optional[str] = None):
    super().__init__(name=name)
    if not isinstance(num_blocks, int) or num_blocks < 0:
      raise ValueError(
          f'num_blocks must be a non-negative integer, got {num_blocks!r}.')
    self._blocks = [
        ResidualBlock(channels, batch_norm, zero_init, name=f'block_{i}')
        for i in range(num_blocks)
    ]

  def __call__(self, inputs: tf.Tensor, is_training: bool) -> tf.Tensor:
    for block in self._blocks:
      inputs = block(inputs, is_training)
    return inputs


class DownsampleStem(snt.Module):
  """The paper's Atari stem, 96x96 observations -> 6x6 planes: convolution
  stride 2 to channels/2 planes (48x48), 2 residual blocks, convolution
  stride 2 to `channels` planes (24x24), 3 residual blocks, average pooling
  stride 2 (12x12), 3 residual blocks, average pooling stride 2 (6x6)."""

  def __init__(self,
               channels: int,
               batch_norm: bool = True,
               zero_init: bool = False,
               name: Optional[str] = None):
    super().__init__(name=name)
    check_positive('channels', channels)
    half = max(channels // 2, 1)
    self._conv_0 = ConvBlock(half, batch_norm, stride=2, name='conv_0')
    self._tower_0 = ResidualTower(half, 2, batch_norm, zero_init,
                                  name='tower_0')
    self._conv_1 = ConvBlock(channels, batch_norm, stride=2, name='conv_1')
    self._tower_1 = ResidualTower(channels, 3, batch_norm, zero_init,
                                  name='tower_1')
    self._tower_2 = ResidualTower(channels, 3, batch_norm, zero_init,
                                  name='tower_2')

  def __call__(self, inputs: tf.Tensor, is_training: bool) -> tf.Tensor:
    outputs = self._tower_0(self._conv_0(inputs, is_training), is_training)
    outputs = self._tower_1(self._conv_1(outputs, is_training), is_training)
    outputs = tf.nn.avg_pool2d(outputs, 3, strides=2, padding='SAME')
    outputs = self._tower_2(outputs, is_training)
    return tf.nn.avg_pool2d(outputs, 3, strides=2, padding='SAME')
