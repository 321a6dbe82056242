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
"""Tests for root_noise: the batch's noise is the reference's draws."""

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np

from muzero_snt import presets
from muzero_snt.search import mcts
from muzero_snt.search import node as node_lib
from muzero_snt.search import root_noise


class DirichletNoiseTest(parameterized.TestCase):

  # 0.03 and 0.05: below 0.1 NumPy draws Dirichlet by stick breaking; the
  # batch is drawn row by row then.
  @parameterized.parameters(0.3, 0.25, 0.1, 1.5, 0.05, 0.03)
  def test_equals_the_pseudocode_draws_root_by_root(self, alpha):
    # mcts.add_exploration_noise with fraction 1 on roots with zero priors
    # leaves each child's prior equal to its noise component.
    config = presets.make_tictactoe_config().replace(
        root_dirichlet_alpha=alpha, root_exploration_fraction=1.)
    legal = np.array([[True, False, True, True, False, True],
                      [False, False, False, True, False, False],
                      [True] * 6,
                      [False, True, False, False, True, False]] * 50)
    rng = np.random.default_rng(11)
    expected = np.zeros(legal.shape)
    for row, mask in enumerate(legal):
      root = node_lib.Node(0.)
      for action in np.flatnonzero(mask):
        root.children[int(action)] = node_lib.Node(0.)
      mcts.add_exploration_noise(config, root, rng)
      for action, child in root.children.items():
        expected[row, action] = child.prior
    after_reference = rng.random()

    rng = np.random.default_rng(11)
    noise = root_noise.dirichlet_noise(alpha, legal, rng)
    np.testing.assert_array_equal(noise, expected)
    # The same draws and no others: the generators are in the same state.
    self.assertEqual(rng.random(), after_reference)
    self.assertTrue(np.all(noise[~legal] == 0.))
    np.testing.assert_allclose(noise.sum(axis=1), 1., rtol=0., atol=1e-12)
    # A single legal action takes all of the noise.
    self.assertAlmostEqual(noise[1, 3], 1., delta=1e-15)

  def test_moments_at_the_tictactoe_concentration(self):
    # Each legal component of Dirichlet(alpha) over k actions is Beta(alpha,
    # (k - 1) alpha): mean 1/k, variance (1/k)(1 - 1/k) / (k alpha + 1);
    # k = 5, alpha = 0.3: 0.2 and 0.064. n = 20,000 rows: standard errors
    # sqrt(0.064 / n) = 0.0018 for the mean; allow 5 of them.
    n, alpha = 20_000, 0.3
    mask = np.array([True, False, True, True, False, True, False, False,
                     True])
    noise = root_noise.dirichlet_noise(alpha, np.tile(mask, (n, 1)),
                                       np.random.default_rng(3))
    legal_noise = noise[:, mask]
    np.testing.assert_allclose(legal_noise.mean(axis=0), 0.2, rtol=0.,
                               atol=5 * np.sqrt(0.064 / n))
    # The sample variance's standard error is below 0.0008 here (the
    # fourth central moment of Beta(0.3, 1.2) is 0.0156).
    np.testing.assert_allclose(legal_noise.var(axis=0), 0.064, rtol=0.,
                               atol=0.004)

  def test_bad_masks(self):
    rng = np.random.default_rng(0)
    with self.assertRaisesRegex(ValueError, r'Row 1 of legal has no legal '
                                r'action'):
      root_noise.dirichlet_noise(0.3, np.array([[True, False],
                                                [False, False]]), rng)
    with self.assertRaisesRegex(ValueError, r'legal must be a \[B, A\] bool '
                                r'mask, got dtype int64 and shape \[2, 2\]'):
      root_noise.dirichlet_noise(0.3, np.ones((2, 2), np.int64), rng)
    with self.assertRaisesRegex(ValueError, r'shape \[3\]'):
      root_noise.dirichlet_noise(0.3, np.ones(3, bool), rng)


if __name__ == '__main__':
  absltest.main()
