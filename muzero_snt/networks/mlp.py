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
"""Hidden-state scaling, action encodings, and MLP networks for vector
observations (CartPole and the like) with hidden states `[B, H]`."""

from typing import Optional, Sequence, Tuple

import sonnet as snt
import tensorflow as tf

from muzero_snt.networks import tower

# Floor on (max - min) so that a constant hidden state does not divide by 0.
_MIN_RANGE = 1e-5


def scale_hidden_state(hidden_state: tf.Tensor) -> tf.Tensor:
  """Min-max scales each example of `[B, ...]` hidden states to [0, 1]
  (appendix "Network Architecture" of arXiv:1911.08265)."""
  axes = list(range(1, hidden_state.shape.rank))
  low = tf.reduce_min(hidden_state, axis=axes, keepdims=True)
  high = tf.reduce_max(hidden_state, axis=axes, keepdims=True)
  scale = tf.maximum(high - low, tf.cast(_MIN_RANGE, hidden_state.dtype))
  return (hidden_state - low) / scale


def one_hot_vector(action: tf.Tensor, num_actions: int,
                   dtype: tf.DType) -> tf.Tensor:
  """`[B]` actions -> `[B, A]` one-hot vectors, for vector hidden states."""
  return tf.one_hot(action, num_actions, dtype=dtype)


def one_hot_planes(action: tf.Tensor, num_actions: int, height: int,
                   width: int, dtype: tf.DType) -> tf.Tensor:
  """`[B]` actions -> `[B, H, W, A]` tiled one-hot planes (the Atari one)."""
  planes = tf.one_hot(action, num_actions, dtype=dtype)[:, None, None, :]
  return tf.tile(planes, [1, height, width, 1])


def board_action_planes(action: tf.Tensor, num_actions: int, height: int,
                        width: int, dtype: tf.DType) -> tf.Tensor:
  """`[B]` actions -> `[B, H, W, P]`, P = ceil(A / (H W)) planes (a second
  for Go's pass, 73 for chess): action a sets a single one, on plane
  a // (H W) at square a % (H W), row-major."""
  squares = height * width
  num_planes = -(-num_actions // squares)
  flat = tf.one_hot(action, num_planes * squares, dtype=dtype)  # [B, P*H*W]
  planes = tf.reshape(flat, [-1, num_planes, height, width])
  return tf.transpose(planes, [0, 2, 3, 1])


def column_action_planes(action: tf.Tensor, num_actions: int, height: int,
                         width: int, dtype: tf.DType) -> tf.Tensor:
  """`[B]` actions -> `[B, H, W, 1]` with column a all ones, for drop games:
  in connect four every square of the column then sees the move in its 3x3
  neighbourhood, wherever the piece lands.

  Raises:
    ValueError: if `num_actions` is not `width`.
  """
  if num_actions != width:
    raise ValueError(
        f"The 'column' action encoding needs one action per column: got "
        f'{num_actions} actions for a hidden state {width} squares wide.')
  columns = tf.one_hot(action, width, dtype=dtype)  # [B, W]
  return tf.tile(columns[:, None, :, None], [1, height, 1, 1])


class ValueHead(snt.Module):
  """The value or reward head: an MLP that ends in a scalar or in logits."""

  def __init__(self,
               hidden_sizes: Sequence[int],
               support_size: int,
               name: Optional[str] = None):
    """`hidden_sizes` are ReLU layers; `support_size` is 0 for a scalar
    output, else the number of atoms S.

    Raises:
      ValueError: if `support_size` is neither 0 nor an odd integer >= 3.
    """
    super().__init__(name=name)
    if support_size != 0 and (support_size < 3 or support_size % 2 == 0):
      raise ValueError('support_size must be 0 or an odd integer >= 3, got '
                       f'{support_size!r}.')
    self._support_size = support_size
    self._mlp = snt.nets.MLP(
        list(hidden_sizes) + [support_size or 1], name='mlp')

  def __call__(self, inputs: tf.Tensor) -> tf.Tensor:
    """`[B, D]` features -> `[B]` scalars, or `[B, S]` logits."""
    outputs = self._mlp(inputs)
    return outputs if self._support_size else tf.squeeze(outputs, axis=-1)


class MLPRepresentation(snt.Module):
  """h: observation -> hidden state, an MLP on the flattened observation."""

  def __init__(self,
               hidden_size: int,
               hidden_sizes: Sequence[int],
               name: Optional[str] = None):
    super().__init__(name=name)
    tower.check_positive('hidden_size', hidden_size)
    self._to_vector = snt.Flatten()
    self._torso = snt.nets.MLP(
        list(hidden_sizes) + [hidden_size], name='torso')

  def __call__(self, observation: tf.Tensor,
               is_training: bool = False) -> tf.Tensor:
    """`[B, ...]` observations -> `[B, H]` hidden states scaled to [0, 1]."""
    del is_training  # No batch statistics.
    return scale_hidden_state(self._torso(self._to_vector(observation)))


class MLPDynamics(snt.Module):
  """g: (hidden state, action) -> (next hidden state, reward)."""

  def __init__(self,
               num_actions: int,
               hidden_size: int,
               hidden_sizes: Sequence[int],
               head_sizes: Sequence[int],
               reward_support_size: int = 0,
               name: Optional[str] = None):
    """`hidden_sizes` are the torso's hidden layers, `head_sizes` the reward
    head's; `reward_support_size` is `ValueHead`'s `support_size`."""
    super().__init__(name=name)
    tower.check_positive('num_actions', num_actions)
    tower.check_positive('hidden_size', hidden_size)
    self._num_actions = num_actions
    self._torso = snt.nets.MLP(
        list(hidden_sizes) + [hidden_size], name='torso')
    self._reward_head = ValueHead(
        head_sizes, reward_support_size, name='reward_head')

  def __call__(self,
               hidden_state: tf.Tensor,
               action: tf.Tensor,
               is_training: bool = False) -> Tuple[tf.Tensor, tf.Tensor]:
    """`[B, H]` states, `[B]` actions -> next states scaled to [0, 1] and
    `[B]` rewards or `[B, S]` reward logits."""
    del is_training
    encoded = one_hot_vector(action, self._num_actions, hidden_state.dtype)
    next_state = self._torso(tf.concat([hidden_state, encoded], axis=-1))
    reward = self._reward_head(next_state)
    return scale_hidden_state(next_state), reward


class MLPPrediction(snt.Module):
  """f: hidden state -> (policy logits, value)."""

  def __init__(self,
               num_actions: int,
               hidden_sizes: Sequence[int],
               head_sizes: Sequence[int],
               value_support_size: int = 0,
               name: Optional[str] = None):
    """`hidden_sizes` are the shared torso's layers (may be none), `head_sizes`
    each head's; `value_support_size` is `ValueHead`'s `support_size`."""
    super().__init__(name=name)
    tower.check_positive('num_actions', num_actions)
    self._torso = snt.nets.MLP(
        list(hidden_sizes), activate_final=True, name='torso')
    self._policy_head = snt.nets.MLP(
        list(head_sizes) + [num_actions], name='policy_head')
    self._value_head = ValueHead(
        head_sizes, value_support_size, name='value_head')

  def __call__(self,
               hidden_state: tf.Tensor,
               is_training: bool = False) -> Tuple[tf.Tensor, tf.Tensor]:
    """`[B, H]` -> `[B, A]` policy logits and `[B]` or `[B, S]` values."""
    del is_training
    features = self._torso(hidden_state)
    return self._policy_head(features), self._value_head(features)
