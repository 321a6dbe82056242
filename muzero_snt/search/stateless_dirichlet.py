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

The pseudocode's `add_exploration_noise` draws
`numpy.random.dirichlet([alpha] * len(actions))` at each root. A batched
search draws those B draws at once inside its program; `dirichlet_noise`
does so such that **row b's draw depends only on the seed and b**, not on
how many rows the batch has. A batch padded to more rows (`CompiledSearch`'s
`min_batch_size`, self-play's `pad_rounds`) therefore mixes the same noise
into its real roots as the unpadded batch.

Every random number comes from `tf.random.stateless_uniform` over a shape
`[B, ...]`, which gives the element at a flat index the same value whatever
B is, with or without XLA (TensorFlow's and XLA's normal samplers do not
under XLA, and XLA has no Gamma sampler), and the values are turned into
Gamma variates exactly:

* Gamma(alpha + 1) by Marsaglia and Tsang's rejection method ("A simple
  method for generating gamma variables", ACM TOMS 26(3), 2000): with
  d = alpha + 1 - 1/3 and c = 1 / sqrt(9 d), a standard normal x and a
  uniform u, `d * v` with v = (1 + c x)^3 is accepted if v > 0 and
  log u < x^2 / 2 + d - d v + d log v. Each element has `_CANDIDATES`
  (x, u) pairs a round; more than 95% of pairs are accepted for a shape of
  at least 1, so a second round (for the elements with none accepted,
  drawn from the seed folded with the round) is rare, and every element
  takes its first accepted pair, as a sequential sampler would.
* Gamma(alpha) = Gamma(alpha + 1) * U^(1 / alpha) for another uniform U
  (the same paper, for shapes below 1), kept as a logarithm: for the small
  concentrations of Go (0.03) the variates themselves underflow float32
  for a few percent of draws.
* The Dirichlet over a row's legal actions is the softmax of the legal
  actions' log-Gamma variates (independent Gamma variates divided by
  their sum), computed in float64 and cast at the end.

The normal x is `sqrt(2) * erfinv(2 u' - 1)` of a uniform u' of its own
(an inverse-CDF draw needs one uniform per element, where Box-Muller's
pairs would tie elements together).
"""

import math

import tensorflow as tf

# (normal, uniform) candidate pairs per element and round of rejection.
_CANDIDATES = 4
# Rows are computed padded to whole vector registers (`padded_columns`):
# elementwise kernels then treat every row alike, whatever the batch size,
# where a row that ends inside a register would be finished by scalar code
# that rounds differently. 64 bytes: AVX-512's registers, and a multiple of
# narrower ones.
_REGISTER_BYTES = 64
# Rounds after which the loop stops; each element fails a round with
# probability below 0.05 ** _CANDIDATES (6e-6), so the limit is never
# reached by a finite concentration.
_MAX_ROUNDS = 64


def padded_columns(columns, dtype: tf.DType = tf.float64):
  """`columns` rounded up to whole 64-byte vector registers of `dtype`.

  Elementwise kernels (TensorFlow's and XLA's) vectorise over the flattened
  tensor; a `[B, n]` tensor whose rows fill whole registers has every row
  computed by the same vector code, so its rows do not depend on B (bit for
  bit), where rows that end inside a register are partly finished by scalar
  code. Works on ints and on scalar int tensors.
  """
  lanes = _REGISTER_BYTES // dtype.size
  return (columns + lanes - 1) // lanes * lanes


def _uniform(shape, seed: tf.Tensor) -> tf.Tensor:
  """float64 uniforms in [0, 1), the same at a flat index for any `[B, ...]`."""
  return tf.random.stateless_uniform(shape, seed, dtype=tf.float64)


def log_gamma_sample(alpha: float, shape: tf.Tensor,
                     seed: tf.Tensor) -> tf.Tensor:
  """`log` of Gamma(alpha, 1) variates, float64, row by row from `seed`.

  Args:
    alpha: the shape parameter, a finite float > 0.
    shape: the shape of the sample, `[B, ...]` (a 1-D int tensor or list).
    seed: `[2]` int stateless seed.

  Returns:
    A float64 tensor of `shape`. Each element depends only on `seed` and
    its index (row, then position within the row), not on B.

  Raises:
    ValueError: if `alpha` is not a finite number > 0.
  """
  if not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and
          alpha > 0) or isinstance(alpha, bool):
    raise ValueError(f'alpha must be a finite number > 0, got {alpha!r}.')
  shape = tf.convert_to_tensor(shape, tf.int32)
  columns = shape[-1]
  shape = tf.concat([shape[:-1], [padded_columns(columns)]], axis=0)
  d = alpha + 1 - 1 / 3
  c = 1 / math.sqrt(9 * d)
  candidates_shape = tf.concat([shape, [_CANDIDATES, 2]], axis=0)

  def draw(round_index):
    """One round: each element's first accepted variate, and whether any."""
    round_seed = tf.random.experimental.stateless_fold_in(seed, round_index)
    draws = _uniform(candidates_shape, round_seed)
    normal = math.sqrt(2) * tf.math.erfinv(2 * draws[..., 0] - 1)
    v = (1 + c * normal) ** 3
    positive = v > 0
    log_v = tf.math.log(tf.where(positive, v, 1.))
    # log(1 - u) in (-inf, 0]: 1 - u is in (0, 1].
    log_u = tf.math.log1p(-draws[..., 1])
    accepted = positive & (log_u < 0.5 * normal**2 + d - d * v + d * log_v)
    first = tf.argmax(tf.cast(accepted, tf.int32), axis=-1,
                      output_type=tf.int32)
    log_value = tf.gather(math.log(d) + log_v, first[..., None],
                          batch_dims=len(accepted.shape) - 1)[..., 0]
    return log_value, tf.reduce_any(accepted, axis=-1)

  log_value, done = draw(tf.constant(0))

  def again(round_index, log_value, done):
    del log_value
    return (round_index < _MAX_ROUNDS) & ~tf.reduce_all(done)

  def next_round(round_index, log_value, done):
    new_value, new_done = draw(round_index)
    log_value = tf.where(done, log_value, new_value)
    return round_index + 1, log_value, done | new_done

  _, log_value, _ = tf.while_loop(
      again, next_round, (tf.constant(1), log_value, done))
  # The boost to shape alpha: one more uniform per element, from a seed of
  # its own (fold-ins 0.._MAX_ROUNDS - 1 are the rounds').
  boost_seed = tf.random.experimental.stateless_fold_in(seed, _MAX_ROUNDS)
  log_boost = tf.math.log1p(-_uniform(shape, boost_seed)) / alpha
  return (log_value + log_boost)[..., :columns]


def dirichlet_noise(alpha: float, legal: tf.Tensor, seed: tf.Tensor,
                    dtype: tf.DType) -> tf.Tensor:
  """A Dirichlet(alpha) sample over each row's legal actions, 0 elsewhere.

  A Dirichlet(alpha, ..., alpha) over a row's k legal actions is k
  independent Gamma(alpha) variates divided by their sum; here it is the
  softmax of their logarithms (`log_gamma_sample`) over the legal actions.
  Row b depends only on `seed`, b and row b of `legal`.

  Args:
    alpha: the concentration, `config.root_dirichlet_alpha` (> 0).
    legal: `[B, A]` bool the legal actions; each row needs one.
    seed: `[2]` int stateless seed.
    dtype: the float type of the result.

  Returns:
    `[B, A]` noise of `dtype`, each row summing to 1 over its legal actions.
  """
  num_actions = legal.shape[-1]
  # Computed on rows padded to whole vector registers (`padded_columns`).
  legal = tf.pad(legal,
                 [[0, 0], [0, padded_columns(num_actions) - num_actions]])
  log_gamma = log_gamma_sample(alpha, tf.shape(legal), seed)
  logits = tf.where(legal, log_gamma, tf.constant(-math.inf, tf.float64))
  noise = tf.nn.softmax(logits, axis=-1)
  # A row without a legal action (never searched) would be 0/0.
  noise = tf.where(legal, noise, tf.constant(0., tf.float64))
  return tf.cast(noise[:, :num_actions], dtype)
