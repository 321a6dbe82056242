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
"""AlphaZero's residual tower as MuZero's h, g and f (arXiv:1911.08265,
appendix "Network Architecture"): hidden states `[B, h, w, channels]`.
`zero_init` starts each residual block as the identity (`tower.py`)."""

from typing import Optional, Sequence, Tuple

import sonnet as snt
import tensorflow as tf

from muzero_snt.networks import mlp
from muzero_snt.networks import tower

# `ResidualDynamics`' action_encoding: the action as planes.
_ACTION_ENCODINGS = {
    'one_hot': mlp.one_hot_planes,
    'board': mlp.board_action_planes,
    'column': mlp.column_action_planes,
}


class ResidualRepresentation(snt.Module):
  """h: observation planes -> hidden state planes."""

  def __init__(self,
               channels: int,
               num_blocks: int,
               downsample: bool = False,
               batch_norm: bool = True,
               zero_init: bool = False,
               name: Optional[str] = None):
    """A tower of `num_blocks` residual blocks (16 in the paper) of
    `channels` planes (256) after a stem: the Atari `tower.DownsampleStem`
    if `downsample`, else one 3x3 convolution."""
    super().__init__(name=name)
    if downsample:
      self._stem = tower.DownsampleStem(channels, batch_norm, zero_init,
                                        name='stem')
    else:
      self._stem = tower.ConvBlock(channels, batch_norm, name='stem')
    self._tower = tower.ResidualTower(
        channels, num_blocks, batch_norm, zero_init, name='tower')

  def __call__(self, observation: tf.Tensor,
               is_training: bool = False) -> tf.Tensor:
    """`[B, H, W, C]` -> `[B, h, w, channels]` scaled to [0, 1]."""
    if observation.shape.rank != 4:
      raise ValueError('ResidualRepresentation expects observations '
                       f'[B, H, W, C], got shape {observation.shape}.')
    features = self._tower(self._stem(observation, is_training), is_training)
    return mlp.scale_hidden_state(features)


class ResidualDynamics(snt.Module):
  """g: (hidden state, action) -> (next hidden state, reward)."""

  def __init__(self,
               num_actions: int,
               channels: int,
               num_blocks: int,
               head_sizes: Sequence[int],
               reward_support_size: int = 0,
               action_encoding: str = 'one_hot',
               batch_norm: bool = True,
               reward_head_channels: int = 1,
               zero_init: bool = False,
               name: Optional[str] = None):
    """A tower of `num_blocks` residual blocks (16 in the paper) of
    `channels` planes, the hidden state's; `head_sizes` are the reward head's
    hidden layers after its 1x1 convolution to `reward_head_channels` planes;
    `action_encoding` is 'one_hot', 'board' or 'column' (`mlp`'s
    `one_hot_planes`, `board_action_planes`, `column_action_planes`).

    Raises:
      ValueError: if `action_encoding` is unknown.
    """
    super().__init__(name=name)
    tower.check_positive('num_actions', num_actions)
    if action_encoding not in _ACTION_ENCODINGS:
      raise ValueError(
          f'action_encoding must be one of {tuple(_ACTION_ENCODINGS)}, got '
          f'{action_encoding!r}.')
    self._num_actions = num_actions
    self._encode = _ACTION_ENCODINGS[action_encoding]
    self._stem = tower.ConvBlock(channels, batch_norm, name='stem')
    self._tower = tower.ResidualTower(
        channels, num_blocks, batch_norm, zero_init, name='tower')
    self._reward_features = tower.ConvBlock(
        reward_head_channels, batch_norm, kernel_shape=1,
        name='reward_features')
    self._to_vector = snt.Flatten()
    self._reward_head = mlp.ValueHead(
        head_sizes, reward_support_size, name='reward_head')

  def __call__(self,
               hidden_state: tf.Tensor,
               action: tf.Tensor,
               is_training: bool = False) -> Tuple[tf.Tensor, tf.Tensor]:
    """`[B, h, w, C]` states, `[B]` actions -> next states scaled to [0, 1]
    and `[B]` rewards or `[B, S]` reward logits."""
    _, height, width, _ = hidden_state.shape
    planes = self._encode(action, self._num_actions, height, width,
                          hidden_state.dtype)
    inputs = tf.concat([hidden_state, planes], axis=-1)  # [B, h, w, C + P]
    features = self._tower(self._stem(inputs, is_training), is_training)
    reward_features = self._reward_features(features, is_training)
    reward = self._reward_head(self._to_vector(reward_features))
    return mlp.scale_hidden_state(features), reward


class ResidualPrediction(snt.Module):
  """f: hidden state -> (policy logits, value), AlphaZero's heads."""

  def __init__(self,
               num_actions: int,
               channels: int,
               num_blocks: int,
               head_sizes: Sequence[int],
               value_support_size: int = 0,
               batch_norm: bool = True,
               policy_head_channels: int = 2,
               value_head_channels: int = 1,
               zero_init: bool = False,
               name: Optional[str] = None):
    """`num_blocks` residual blocks (0 in the paper) of `channels` planes
    before the heads' 1x1 convolutions to `policy_head_channels` and
    `value_head_channels` planes; `head_sizes` then are the value head's."""
    super().__init__(name=name)
    tower.check_positive('num_actions', num_actions)
    self._tower = tower.ResidualTower(
        channels, num_blocks, batch_norm, zero_init, name='tower')
    self._policy_features = tower.ConvBlock(
        policy_head_channels, batch_norm, kernel_shape=1,
        name='policy_features')
    self._value_features = tower.ConvBlock(
        value_head_channels, batch_norm, kernel_shape=1, name='value_features')
    self._to_vector = snt.Flatten()
    self._policy_head = snt.Linear(num_actions, name='policy_head')
    self._value_head = mlp.ValueHead(
        head_sizes, value_support_size, name='value_head')

  def __call__(self,
               hidden_state: tf.Tensor,
               is_training: bool = False) -> Tuple[tf.Tensor, tf.Tensor]:
    """`[B, h, w, C]` -> `[B, A]` policy logits, `[B]` or `[B, S]` values."""
    features = self._tower(hidden_state, is_training)
    policy = self._to_vector(self._policy_features(features, is_training))
    value = self._to_vector(self._value_features(features, is_training))
    return self._policy_head(policy), self._value_head(value)
