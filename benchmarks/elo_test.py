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
"""Tests of the maximum-likelihood Elo ratings."""

import math

from absl.testing import absltest
import numpy as np

from benchmarks import elo


def _log_likelihood(ratings, scores, games):
  """sum_ij s_ij log E_ij, written out pair by pair."""
  total = 0.
  n = len(ratings)
  for i in range(n):
    for j in range(n):
      if games[i][j]:
        e = 1. / (1. + 10. ** ((ratings[j] - ratings[i]) / 400.))
        total += scores[i][j] * math.log(e)
  return total


class EloTest(absltest.TestCase):

  def test_two_players_in_closed_form(self):
    # 15 wins, 2 draws, 3 losses: 16 points of 20, plus one virtual draw:
    # 16.5 of 21, a gap of 400 log10(16.5 / 4.5). The curvature is
    # n E (1 - E) (ln 10 / 400)^2 with n = 21 and E = 16.5 / 21.
    rated = elo.fit(['weak', 'strong'], [[0., 4.], [16., 0.]],
                    [[0., 20.], [20., 0.]], anchor='weak')
    gap = 400. * math.log10(16.5 / 4.5)
    self.assertAlmostEqual(rated.ratings[0], 0.)
    self.assertAlmostEqual(rated.ratings[1], gap, places=6)
    e = 16.5 / 21.
    error = 400. / math.log(10.) / math.sqrt(21. * e * (1. - e))
    np.testing.assert_allclose(rated.standard_errors, [0., error], rtol=1e-6)
    # Without the prior, a 3:1 score is 400 log10(3) = 190.8 points.
    rated = elo.fit(['a', 'b'], [[0., 3.], [1., 0.]], [[0., 4.], [4., 0.]],
                    anchor='b', prior_draws=0.)
    self.assertAlmostEqual(rated.ratings[0], 400. * math.log10(3.), places=6)

  def test_a_sweep_stays_finite(self):
    # 20 wins of 20: 400 log10(20.5 / 0.5) = 645.1 with one virtual draw.
    rated = elo.fit(['random', 'mcts'], [[0., 0.], [20., 0.]],
                    [[0., 20.], [20., 0.]], anchor='random')
    self.assertAlmostEqual(rated.ratings[1], 400. * math.log10(41.), places=6)

  def test_three_players_maximise_the_likelihood(self):
    scores = np.array([[0., 3., 7.5], [7., 0., 8.], [2.5, 2., 0.]])
    games = scores + scores.T
    rated = elo.fit(['a', 'b', 'c'], scores, games, anchor='c',
                    prior_draws=0.)
    self.assertEqual(rated.ratings[2], 0.)
    best = _log_likelihood(rated.ratings, scores, games)
    for i in (0, 1):
      for step in (-1., 1.):
        moved = rated.ratings.copy()
        moved[i] += step
        self.assertLess(_log_likelihood(moved, scores, games), best)
    # b beat a 7:3 and both beat c: b > a > c.
    self.assertGreater(rated.ratings[1], rated.ratings[0])
    self.assertGreater(rated.ratings[0], 0.)

  def test_bad_inputs_are_named(self):
    games = [[0., 2.], [2., 0.]]
    with self.assertRaisesRegex(ValueError, "anchor 'c' is not among"):
      elo.fit(['a', 'b'], [[0., 1.], [1., 0.]], games, anchor='c')
    with self.assertRaisesRegex(ValueError, r'must be \[2, 2\].*\[3, 3\]'):
      elo.fit(['a', 'b'], np.zeros((3, 3)), games, anchor='a')
    with self.assertRaisesRegex(ValueError, 'add up to its games'):
      elo.fit(['a', 'b'], [[0., 2.], [1., 0.]], games, anchor='a')
    with self.assertRaisesRegex(ValueError, 'symmetric'):
      elo.fit(['a', 'b'], [[0., 1.], [1., 0.]], [[0., 2.], [3., 0.]],
              anchor='a')
    with self.assertRaisesRegex(ValueError, r"\['c'\] played no games"):
      elo.fit(['a', 'b', 'c'], [[0, 1, 0], [1, 0, 0], [0, 0, 0]],
              [[0, 2, 0], [2, 0, 0], [0, 0, 0]], anchor='a')


if __name__ == '__main__':
  absltest.main()
