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
"""Hidden-state scaling and the action encodings the dynamics consumes."""

import tensorflow as tf

# Floor on (max - min) so that a constant hidden state does not divide by 0.
_MIN_RANGE = 1e-5


def scale_hidden_state(hidden_state: tf.Tensor) -> tf.Tensor:
  """Min-max scales each example of `[B, ...]` hidden states to [0, 1].

  Appendix "Network Architecture" of arXiv:1911.08265. A constant state maps
  to zeros.
  """
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
  """`[B]` actions -> `[B, H, W, P]` with a single one at the action's place.

  P = ceil(A / (H W)) planes; action a marks plane a // (H W) at square
  a % (H W), row-major (a second plane for Go's pass, 73 for chess).
  """
  squares = height * width
  num_planes = -(-num_actions // squares)
  flat = tf.one_hot(action, num_planes * squares, dtype=dtype)  # [B, P*H*W]
  planes = tf.reshape(flat, [-1, num_planes, height, width])
  return tf.transpose(planes, [0, 2, 3, 1])


def column_action_planes(action: tf.Tensor, num_actions: int, height: int,
                         width: int, dtype: tf.DType) -> tf.Tensor:
  """`[B]` actions -> `[B, H, W, 1]` with column a all ones, for drop games.

  For connect four: every square of the column sees the move in its 3x3
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
