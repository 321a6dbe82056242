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
"""A network's size from its config: variables and kept activations,
counted layer by layer as muzero_snt/networks builds them, so a network far
too large to build is measured before anything allocates."""

import math
from typing import NamedTuple, Sequence

from muzero_snt import config as config_lib


class ParameterCount(NamedTuple):
  """Elements of a network's variables: `trainable` ones (with optimizer
  slots) and `non_trainable` batch-norm moving statistics and counters."""
  trainable: int
  non_trainable: int


class _Tally:
  """Adds up parameters and kept activations per example, layer by layer."""

  def __init__(self, batch_norm: bool):
    self.batch_norm = batch_norm
    self.trainable = 0
    self.non_trainable = 0
    self.activations = 0

  def keep(self, elements: int) -> None:
    self.activations += elements

  def linear(self, n_in: int, n_out: int, relu: bool) -> int:
    self.trainable += n_in * n_out + n_out
    self.keep(n_out * (2 if relu else 1))
    return n_out

  def mlp(self, n_in: int, sizes: Sequence[int],
          activate_final: bool = False) -> int:
    """`snt.nets.MLP`: ReLU after every layer but the last."""
    for i, size in enumerate(sizes):
      n_in = self.linear(n_in, size, activate_final or i < len(sizes) - 1)
    return n_in

  def _norm(self, channels: int) -> None:
    self.trainable += 2 * channels  # Scale and offset.
    # Moving mean and variance: a hidden and an average vector, a counter.
    self.non_trainable += 2 * (2 * channels + 1)

  def _conv(self, kernel: int, c_in: int, c_out: int) -> None:
    self.trainable += kernel * kernel * c_in * c_out
    if self.batch_norm:
      self._norm(c_out)
    else:
      self.trainable += c_out  # The bias batch norm's offset replaces.

  def conv_block(self, kernel: int, c_in: int, c_out: int, area: int) -> int:
    """`tower.ConvBlock`: convolution, batch norm, ReLU."""
    self._conv(kernel, c_in, c_out)
    self.keep(area * c_out * (3 if self.batch_norm else 2))
    return c_out

  def residual_blocks(self, channels: int, num_blocks: int,
                      area: int) -> None:
    """`tower.ResidualTower`: two 3x3 convolutions a block, a skip."""
    for _ in range(num_blocks):
      self._conv(3, channels, channels)
      self._conv(3, channels, channels)
      self.keep(area * channels * (7 if self.batch_norm else 5))


def _halve(size: int, times: int) -> int:
  """A 'SAME' stride-2 convolution or pooling `times` over: ceil(n / 2^t)."""
  return -(-size // 2**times)


def _hidden_area(config: config_lib.MuZeroConfig) -> int:
  height, width = config.observation_shape[:2]
  times = 4 if config.network.downsample else 0
  return _halve(height, times) * _halve(width, times)


def _mlp_tallies(config: config_lib.MuZeroConfig):
  """Tallies of representation, dynamics and prediction (`networks/mlp.py`)."""
  net, a = config.network, config.action_space_size
  size, torso = net.hidden_size, list(net.mlp_layers) + [net.hidden_size]
  heads = list(net.head_layers)
  representation, dynamics, prediction = (_Tally(False) for _ in range(3))
  representation.mlp(math.prod(config.observation_shape), torso)
  representation.keep(size)  # The scaled hidden state.
  dynamics.keep(size + a)  # The state with the one-hot action appended.
  dynamics.mlp(size + a, torso)
  dynamics.mlp(size, heads + [net.reward_support_size or 1])
  dynamics.keep(size)
  features = prediction.mlp(size, net.mlp_layers, activate_final=True)
  prediction.mlp(features, heads + [a])
  prediction.mlp(features, heads + [net.value_support_size or 1])
  return representation, dynamics, prediction


def _residual_tallies(config: config_lib.MuZeroConfig):
  """The same for `networks/residual.py` and `networks/tower.py`."""
  net, a = config.network, config.action_space_size
  height, width, planes = config.observation_shape
  c, area = net.channels, _hidden_area(config)
  heads = list(net.head_layers)
  representation, dynamics, prediction = (
      _Tally(net.batch_norm) for _ in range(3))
  if net.downsample:  # `tower.DownsampleStem`, 96x96 -> 6x6.
    half = max(c // 2, 1)
    areas = [_halve(height, t) * _halve(width, t) for t in range(1, 5)]
    representation.conv_block(3, planes, half, areas[0])
    representation.residual_blocks(half, 2, areas[0])
    representation.conv_block(3, half, c, areas[1])
    representation.residual_blocks(c, 3, areas[1])
    representation.keep(areas[2] * c)  # Average pooling.
    representation.residual_blocks(c, 3, areas[2])
    representation.keep(areas[3] * c)
  else:
    representation.conv_block(3, planes, c, area)
  representation.residual_blocks(c, net.num_blocks, area)
  representation.keep(area * c)  # The scaled hidden state.
  if net.action_encoding == 'one_hot':
    action_planes = a
  elif net.action_encoding == 'column':
    action_planes = 1
  else:
    action_planes = -(-a // area)
  dynamics.keep(area * (c + action_planes))  # State and action planes.
  dynamics.conv_block(3, c + action_planes, c, area)
  dynamics.residual_blocks(c, net.num_blocks, area)
  reward, policy, value = (net.reward_head_channels, net.policy_head_channels,
                           net.value_head_channels)
  dynamics.conv_block(1, c, reward, area)  # Reward features.
  dynamics.mlp(reward * area, heads + [net.reward_support_size or 1])
  dynamics.keep(area * c)
  prediction.residual_blocks(c, net.prediction_blocks, area)
  prediction.conv_block(1, c, policy, area)  # Policy features.
  prediction.conv_block(1, c, value, area)  # Value features.
  prediction.linear(policy * area, a, relu=False)
  prediction.mlp(value * area, heads + [net.value_support_size or 1])
  return representation, dynamics, prediction


def _tallies(config: config_lib.MuZeroConfig):
  if not isinstance(config, config_lib.MuZeroConfig):
    raise TypeError(f'config must be a MuZeroConfig, got {config!r}.')
  if config.network.kind == 'mlp':
    return _mlp_tallies(config)
  return _residual_tallies(config)


def parameter_count(config: config_lib.MuZeroConfig) -> ParameterCount:
  """Elements of the variables `networks.make_network(config)` creates."""
  tallies = _tallies(config)
  return ParameterCount(
      trainable=sum(t.trainable for t in tallies),
      non_trainable=sum(t.non_trainable for t in tallies))


def activation_count(config: config_lib.MuZeroConfig) -> int:
  """Activations per example kept for the backward pass of the unroll.

  Every output of a linear layer, convolution, batch norm, ReLU, residual
  sum and pooling is kept, as are the scaled hidden state and the dynamics'
  input, over one representation, K dynamics and K+1 predictions. An
  estimate: TensorFlow frees some early and keeps a few more (the losses').
  """
  representation, dynamics, prediction = _tallies(config)
  k = config.num_unroll_steps
  return (representation.activations + k * dynamics.activations +
          (k + 1) * prediction.activations)
