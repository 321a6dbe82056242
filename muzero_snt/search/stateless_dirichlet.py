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
"""Dirichlet noise for the roots, drawn in a compiled program row by row.

`dirichlet_noise` draws the pseudocode's `dirichlet([alpha] * len(actions))`
for B roots so that a batch padded to more rows mixes the same noise into its
real roots. Every number comes from `tf.random.stateless_uniform`, whose
element at a flat index is the same for any B, with or without XLA
(TensorFlow's Gamma sampler is not): Gamma(alpha + 1) by Marsaglia and Tsang's
rejection method (ACM TOMS 26(3), 2000), x the inverse-CDF normal of a uniform;
Gamma(alpha) = Gamma(alpha + 1) * U^(1 / alpha) (the same paper), as a
logarithm (at Go's 0.03 the variates underflow float32); the Dirichlet the
softmax of the legal actions' log-Gamma variates. All in the noise's dtype: a
float32 search's program holds no float64, which a TPU refuses.
"""

import math

import tensorflow as tf

# (normal, uniform) candidate pairs per element and round of rejection.
_CANDIDATES = 4
# Rows are padded to whole 64-byte vector registers (AVX-512): elementwise
# kernels then treat every row alike whatever the batch size, where a row
# ending inside a register is finished by scalar code that rounds otherwise.
_REGISTER_BYTES = 64
# A round fails an element with probability below 0.05 ** _CANDIDATES.
_MAX_ROUNDS = 64


def _padded_columns(columns, dtype: tf.DType):
  lanes = _REGISTER_BYTES // dtype.size
  return (columns + lanes - 1) // lanes * lanes


def log_gamma_sample(alpha: float, shape: tf.Tensor, seed: tf.Tensor,
                     dtype: tf.DType = tf.float64) -> tf.Tensor:
  """`log` of Gamma(alpha, 1) variates of `shape` `[B, ...]` in `dtype`
  (float32 or float64, also that of the computation), each depending only
  on the `[2]` int `seed` and its index, not on B.

  Raises:
    ValueError: if `alpha` is not a finite number > 0.
  """
  if not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and
          alpha > 0) or isinstance(alpha, bool):
    raise ValueError(f'alpha must be a finite number > 0, got {alpha!r}.')
  shape = tf.convert_to_tensor(shape, tf.int32)
  columns = shape[-1]
  shape = tf.concat([shape[:-1], [_padded_columns(columns, dtype)]], axis=0)
  d = alpha + 1 - 1 / 3
  c = 1 / math.sqrt(9 * d)
  candidates_shape = tf.concat([shape, [_CANDIDATES, 2]], axis=0)

  def draw(round_index):
    """One round: each element's first accepted variate, and whether any."""
    round_seed = tf.random.experimental.stateless_fold_in(seed, round_index)
    draws = tf.random.stateless_uniform(candidates_shape, round_seed,
                                        dtype=dtype)
    normal = math.sqrt(2) * tf.math.erfinv(2 * draws[..., 0] - 1)
    v = (1 + c * normal) ** 3
    positive = v > 0
    log_v = tf.math.log(tf.where(positive, v, 1.))
    log_u = tf.math.log1p(-draws[..., 1])  # 1 - u is in (0, 1].
    accepted = positive & (log_u < 0.5 * normal**2 + d - d * v + d * log_v)
    first = tf.argmax(tf.cast(accepted, tf.int32), axis=-1,
                      output_type=tf.int32)
    log_value = tf.gather(math.log(d) + log_v, first[..., None],
                          batch_dims=len(accepted.shape) - 1)[..., 0]
    return log_value, tf.reduce_any(accepted, axis=-1)

  def next_round(round_index, log_value, done):
    new_value, new_done = draw(round_index)
    log_value = tf.where(done, log_value, new_value)
    return round_index + 1, log_value, done | new_done

  log_value, done = draw(tf.constant(0))
  _, log_value, _ = tf.while_loop(
      lambda i, _, done: (i < _MAX_ROUNDS) & ~tf.reduce_all(done),
      next_round, (tf.constant(1), log_value, done))
  # The boost to shape alpha, from a fold-in no round uses.
  boost_seed = tf.random.experimental.stateless_fold_in(seed, _MAX_ROUNDS)
  log_boost = tf.math.log1p(-tf.random.stateless_uniform(
      shape, boost_seed, dtype=dtype)) / alpha
  return (log_value + log_boost)[..., :columns]


def dirichlet_noise(alpha: float, legal: tf.Tensor, seed: tf.Tensor,
                    dtype: tf.DType) -> tf.Tensor:
  """`[B, A]` Dirichlet(alpha) over each row's legal actions, 0 elsewhere,
  in `dtype`; row b depends only on the `[2]` int `seed`, b and `legal[b]`."""
  num_actions = legal.shape[-1]
  legal = tf.pad(legal, [[0, 0], [
      0, _padded_columns(num_actions, dtype) - num_actions]])
  log_gamma = log_gamma_sample(alpha, tf.shape(legal), seed, dtype)
  logits = tf.where(legal, log_gamma, tf.constant(-math.inf, dtype))
  noise = tf.nn.softmax(logits, axis=-1)
  # A row without a legal action (never searched) would be 0/0.
  noise = tf.where(legal, noise, tf.constant(0., dtype))
  return noise[:, :num_actions]
