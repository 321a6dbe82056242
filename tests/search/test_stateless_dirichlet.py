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
"""Tests for the row-by-row Gamma and Dirichlet sampler (stateless_dirichlet).

The distribution is checked against TensorFlow Probability's Gamma CDF (a
Kolmogorov-Smirnov statistic) and against moments worked out by hand
(mean and variance alpha, E[log G] the digamma function); the rows against
the same rows drawn in a batch of another size, with and without XLA.
"""

import math

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np
import tensorflow as tf

from muzero_snt.search import stateless_dirichlet
from tests import testing


def _log_gamma(alpha, shape, seed, jit_compile=False, dtype=tf.float64):
  sample = tf.function(
      lambda: stateless_dirichlet.log_gamma_sample(
          alpha, shape, tf.constant(seed), dtype),
      jit_compile=jit_compile)
  return sample().numpy()


class LogGammaSampleTest(testing.TestCase, parameterized.TestCase):

  @parameterized.parameters((0.03, tf.float64), (0.3, tf.float64),
                            (1.0, tf.float64), (2.5, tf.float64),
                            (0.03, tf.float32), (1.0, tf.float32))
  def test_distribution_is_gamma(self, alpha, dtype):
    n = 20_000
    log_sample = _log_gamma(alpha, [n // 4, 4], [7, 8], dtype=dtype).ravel()
    self.assertEqual(log_sample.dtype, dtype.as_numpy_dtype)
    self.assertTrue(np.isfinite(log_sample).all())
    sample = np.exp(log_sample.astype(np.float64))
    # Gamma(alpha, 1): mean alpha, variance alpha; the mean of n draws has
    # standard error sqrt(alpha / n). Allow 5 of them.
    self.assertAllClose(sample.mean(), alpha, rtol=0.,
                        atol=5 * math.sqrt(alpha / n))
    # E[log G] = digamma(alpha); Var[log G] = trigamma(alpha).
    digamma = float(tf.math.digamma(tf.constant(alpha, tf.float64)))
    trigamma = float(tf.math.polygamma(tf.constant(1., tf.float64),
                                       tf.constant(alpha, tf.float64)))
    self.assertAllClose(log_sample.mean(), digamma, rtol=0.,
                        atol=5 * math.sqrt(trigamma / n))
    # Kolmogorov-Smirnov against the Gamma CDF of a peer library: at the
    # 0.1% level the statistic stays below 1.95 / sqrt(n).
    import tensorflow_probability as tfp  # pylint: disable=g-import-not-at-top
    cdf = tfp.distributions.Gamma(
        concentration=np.float64(alpha), rate=np.float64(1.)).cdf(
            np.sort(sample)).numpy()
    ranks = np.arange(1, n + 1) / n
    statistic = max(np.max(ranks - cdf), np.max(cdf - (ranks - 1 / n)))
    self.assertLess(statistic, 1.95 / math.sqrt(n))

  @parameterized.parameters(tf.float32, tf.float64)
  def test_rows_do_not_depend_on_the_batch_size(self, dtype):
    for jit_compile in (False, True):
      large = _log_gamma(0.3, [64, 9], [3, 4], jit_compile, dtype)
      for rows in (1, 5, 33):
        self.assertAllEqual(
            _log_gamma(0.3, [rows, 9], [3, 4], jit_compile, dtype),
            large[:rows])
      # Another seed draws other values in every element.
      other = _log_gamma(0.3, [64, 9], [3, 5], jit_compile, dtype)
      self.assertTrue(np.all(other != large))

  def test_rejects_a_bad_concentration(self):
    for alpha in (0., -1., math.nan, math.inf, True, '0.3'):
      with self.assertRaisesRegex(ValueError, 'alpha must be a finite'):
        stateless_dirichlet.log_gamma_sample(alpha, [2, 3], tf.constant([0, 1]))


class DirichletNoiseTest(testing.TestCase):

  LEGAL = np.array([True, False, True, True, False, True, False, False, True])

  def test_rows_do_not_depend_on_the_batch_size(self):
    rng = np.random.default_rng(0)
    legal = rng.random((32, 9)) < 0.6
    legal[np.arange(32), rng.integers(0, 9, 32)] = True
    for jit_compile in (False, True):
      noise = tf.function(
          lambda legal: stateless_dirichlet.dirichlet_noise(
              0.25, legal, tf.constant([1, 2]), tf.float32),
          jit_compile=jit_compile)
      large = noise(tf.constant(legal)).numpy()
      self.assertAllEqual(noise(tf.constant(legal[:3])).numpy(), large[:3])
      # A row's noise is its own: changing another row's legal actions
      # leaves it as it was.
      changed = legal.copy()
      changed[1:] = True
      self.assertAllEqual(noise(tf.constant(changed)).numpy()[0], large[0])
      self.assertTrue(np.all(large[~legal] == 0))
      self.assertAllClose(large.sum(axis=1), np.ones(32), rtol=0., atol=1e-6)

  def test_marginal_is_beta(self):
    # Over k legal actions each component of Dirichlet(alpha) is
    # Beta(alpha, (k - 1) alpha); compared with NumPy's Dirichlet sampler by
    # a two-sample Kolmogorov-Smirnov statistic (below 1.95 sqrt(2 / n) at
    # the 0.1% level).
    n, alpha = 20_000, 0.3
    legal = np.zeros((n, 9), bool)
    legal[:, [0, 2, 3, 7]] = True
    ours = stateless_dirichlet.dirichlet_noise(
        alpha, tf.constant(legal), tf.constant([9, 9]), tf.float64).numpy()
    theirs = np.random.default_rng(1).dirichlet([alpha] * 4, size=n)
    for ours_column, theirs_column in ((0, 0), (7, 3)):
      a = np.sort(ours[:, ours_column])
      b = np.sort(theirs[:, theirs_column])
      grid = np.concatenate([a, b])
      statistic = np.max(np.abs(np.searchsorted(a, grid, 'right') -
                                np.searchsorted(b, grid, 'right'))) / n
      self.assertLess(statistic, 1.95 * math.sqrt(2 / n))

  @parameterized.parameters(tf.float32, tf.float64)
  def test_moments(self, dtype):
    n = 20_000
    alpha, k = 0.3, 5
    legal = np.tile(self.LEGAL, (n, 1))
    noise = stateless_dirichlet.dirichlet_noise(
        alpha, tf.constant(legal), tf.constant([3, 4]), dtype).numpy()
    self.assertEqual(noise.dtype, dtype.as_numpy_dtype)
    self.assertTrue(np.all(noise[:, ~self.LEGAL] == 0.))
    self.assertAllClose(noise.sum(axis=1), np.ones(n),
                        rtol=0., atol=10 * np.finfo(noise.dtype).eps)
    # Each legal component of Dirichlet(alpha, ..., alpha) over k actions is
    # Beta(a, b) with a = alpha, b = (k - 1) alpha: mean 1/k = 0.2, variance
    # (1/k)(1 - 1/k) / (k alpha + 1) = 0.16 / 2.5 = 0.064. The mean of n
    # draws has standard error sqrt(0.064 / n) = 0.00179; allow 5 of them.
    a, b = alpha, (k - 1) * alpha
    mean = 1 / k
    variance = mean * (1 - mean) / (k * alpha + 1)
    self.assertAllClose(variance, 0.064)
    legal_noise = noise[:, self.LEGAL].astype(np.float64)
    self.assertAllClose(legal_noise.mean(axis=0), [mean] * k, rtol=0.,
                        atol=5 * math.sqrt(variance / n))
    # The sample variance has standard error sqrt((mu4 - variance^2) / n),
    # mu4 the fourth central moment of Beta(a, b), from its raw moments
    # E[X^j] = prod_{i<j} (a + i) / (a + b + i): mu4 = 0.01560 and the
    # standard error 0.00076; allow 5 of them.
    raw = [math.prod((a + i) / (a + b + i) for i in range(j))
           for j in range(5)]
    mu4 = (raw[4] - 4 * mean * raw[3] + 6 * mean**2 * raw[2] -
           3 * mean**4)
    self.assertAllClose(legal_noise.var(axis=0), [variance] * k, rtol=0.,
                        atol=5 * math.sqrt((mu4 - variance**2) / n))

  @parameterized.parameters(tf.float32, tf.float64)
  def test_single_legal_action_and_tiny_concentration(self, dtype):
    # One legal action: exactly 1 there, 0 elsewhere.
    single = np.zeros((4, 9), bool)
    single[np.arange(4), [0, 3, 8, 8]] = True
    noise = stateless_dirichlet.dirichlet_noise(
        0.3, tf.constant(single), tf.constant([0, 1]), dtype).numpy()
    self.assertAllEqual(noise, single.astype(noise.dtype))
    # alpha 1e-3: the Gamma variates themselves would underflow float32 in
    # most rows; their logarithms do not, and the rows are still Dirichlet:
    # nearly one-hot on a legal action chosen uniformly, each component of
    # mean 1/5 and variance (1/5)(4/5) / (5e-3 + 1) = 0.1592.
    n, k, alpha = 4000, 5, 1e-3
    legal = np.tile(self.LEGAL, (n, 1))
    noise = stateless_dirichlet.dirichlet_noise(
        alpha, tf.constant(legal), tf.constant([0, 1]), dtype).numpy()
    self.assertTrue(np.isfinite(noise).all())
    self.assertTrue(np.all(noise[:, ~self.LEGAL] == 0.))
    self.assertAllClose(noise.sum(axis=1), np.ones(n), rtol=0.,
                        atol=10 * np.finfo(noise.dtype).eps)
    legal_noise = noise[:, self.LEGAL].astype(np.float64)
    variance = (1 / k) * (1 - 1 / k) / (k * alpha + 1)
    self.assertAllClose(variance, 0.1592, atol=1e-4)
    # Standard error of a mean: sqrt(0.1592 / 4000) = 0.0063; allow 5.
    self.assertAllClose(legal_noise.mean(axis=0), [1 / k] * k, rtol=0.,
                        atol=5 * math.sqrt(variance / n))
    # Nearly one-hot: P(largest < 0.99) is about 1% for alpha = 1e-3.
    self.assertGreater(np.mean(legal_noise.max(axis=1) > 0.99), 0.95)

  def test_seeds(self):
    legal = tf.constant(np.tile(self.LEGAL, (8, 1)))

    def noise(seed):
      return stateless_dirichlet.dirichlet_noise(
          0.3, legal, tf.constant(seed), tf.float32).numpy()

    self.assertAllEqual(noise([5, 6]), noise([5, 6]))
    different = noise([5, 6])[:, self.LEGAL] != noise([5, 7])[:, self.LEGAL]
    self.assertTrue(different.all())
    # Rows of one draw differ from each other.
    first = noise([5, 6])
    self.assertTrue(np.all(first[0, self.LEGAL] != first[1, self.LEGAL]))


if __name__ == '__main__':
  absltest.main()
