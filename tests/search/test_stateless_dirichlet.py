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


def _log_gamma(alpha, shape, seed, jit_compile=False):
  sample = tf.function(
      lambda: stateless_dirichlet.log_gamma_sample(
          alpha, shape, tf.constant(seed)),
      jit_compile=jit_compile)
  return sample().numpy()


class LogGammaSampleTest(testing.TestCase, parameterized.TestCase):

  @parameterized.parameters(0.03, 0.3, 1.0, 2.5)
  def test_distribution_is_gamma(self, alpha):
    n = 20_000
    log_sample = _log_gamma(alpha, [n // 4, 4], [7, 8]).ravel()
    self.assertTrue(np.isfinite(log_sample).all())
    sample = np.exp(log_sample)
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

  def test_rows_do_not_depend_on_the_batch_size(self):
    for jit_compile in (False, True):
      large = _log_gamma(0.3, [64, 9], [3, 4], jit_compile)
      for rows in (1, 5, 33):
        self.assertAllEqual(
            _log_gamma(0.3, [rows, 9], [3, 4], jit_compile), large[:rows])
      # Another seed draws other values in every element.
      other = _log_gamma(0.3, [64, 9], [3, 5], jit_compile)
      self.assertTrue(np.all(other != large))

  def test_rejects_a_bad_concentration(self):
    for alpha in (0., -1., math.nan, math.inf, True, '0.3'):
      with self.assertRaisesRegex(ValueError, 'alpha must be a finite'):
        stateless_dirichlet.log_gamma_sample(alpha, [2, 3], tf.constant([0, 1]))


class DirichletNoiseTest(testing.TestCase):

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


if __name__ == '__main__':
  absltest.main()
