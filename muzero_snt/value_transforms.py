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
"""The value transform h, its inverse, and scalars as two-hot supports.

Appendix F of arXiv:1911.08265: h(x) = sign(x) (sqrt(|x| + 1) - 1) + eps x,
eps = 0.001 (Pohlen et al. 2018), then a "two-hot" distribution over the
integers -n..n: 3.7 puts 0.3 on 3 and 0.7 on 4.
"""

import tensorflow as tf

EPSILON = 1e-3


def _support_half_width(support_size: int) -> int:
  if support_size < 3 or support_size % 2 == 0:
    raise ValueError(
        f'support_size must be an odd integer >= 3, got {support_size!r}.')
  return (support_size - 1) // 2


def signed_hyperbolic(x: tf.Tensor, eps: float = EPSILON) -> tf.Tensor:
  """h(x) = sign(x) (sqrt(|x| + 1) - 1) + eps x, elementwise."""
  x = tf.convert_to_tensor(x)
  return tf.sign(x) * (tf.sqrt(tf.abs(x) + 1.) - 1.) + eps * x


def signed_parabolic(x: tf.Tensor, eps: float = EPSILON) -> tf.Tensor:
  """h^-1(x), the inverse of `signed_hyperbolic`, elementwise.

  |h^-1(y)| = z^2 - 1, z = (sqrt(1 + 4 eps w) - 1) / (2 eps), w = |y| + 1 +
  eps, computed as 2 w / (sqrt(1 + 4 eps w) + 1) to avoid cancellation.
  """
  x = tf.convert_to_tensor(x)
  w = tf.abs(x) + 1. + eps
  z = 2. * w / (tf.sqrt(1. + 4. * eps * w) + 1.)
  return tf.sign(x) * (tf.square(z) - 1.)


def scalar_to_two_hot(x: tf.Tensor, support_size: int) -> tf.Tensor:
  """`[...]` scalars `x` as `[..., 2n + 1]` two-hot distributions over the
  integers -n..n (atom i is i - n), clipped to them; `support_size` 2n + 1."""
  n = _support_half_width(support_size)
  x = tf.clip_by_value(tf.convert_to_tensor(x), -float(n), float(n))
  low = tf.floor(x)
  upper_weight = x - low  # [...]
  low_index = tf.cast(low, tf.int32) + n  # [...]
  # At x = n the upper atom would be n + 1 (weight 0): clamp it onto n.
  high_index = tf.minimum(low_index + 1, 2 * n)
  return (tf.one_hot(low_index, support_size, dtype=x.dtype) *
          (1. - upper_weight)[..., None] +
          tf.one_hot(high_index, support_size, dtype=x.dtype) *
          upper_weight[..., None])


def two_hot_to_scalar(probs: tf.Tensor) -> tf.Tensor:
  """The expectation of `[..., 2n + 1]` probabilities over -n..n."""
  probs = tf.convert_to_tensor(probs)
  n = _support_half_width(probs.shape[-1])
  atoms = tf.range(-n, n + 1, dtype=probs.dtype)
  return tf.reduce_sum(probs * atoms, axis=-1)


def scalar_to_support(x: tf.Tensor, support_size: int) -> tf.Tensor:
  """two_hot(h(x)): the target distribution for a scalar `x`, `[..., S]`."""
  return scalar_to_two_hot(signed_hyperbolic(x), support_size)


def support_to_scalar(logits: tf.Tensor) -> tf.Tensor:
  """h^-1(E[softmax(logits)]): the scalar a `[..., S]` head predicts."""
  return signed_parabolic(two_hot_to_scalar(tf.nn.softmax(logits, axis=-1)))
