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
"""Tests of evaluation_report: the printed tables and the eval/ scalars."""

from absl.testing import absltest
import numpy as np

from muzero_snt.evaluation import matches as evaluation
from muzero_snt.evaluation import report as evaluation_report
from tests import testing


class TablesTest(testing.TestCase):

  RESULTS = (evaluation.MatchResult('perfect', 'first', 0, 3, 1),
             evaluation.MatchResult('perfect', 'second', 0, 2, 2),
             evaluation.MatchResult('random', 'first', 4, 0, 0),
             evaluation.MatchResult('random', 'second', 1, 1, 2))

  def test_tictactoe_table(self):
    self.assertEqual(
        evaluation_report.tictactoe_table(self.RESULTS[:2]).splitlines(),
        ['opponent  muzero   games  wins draws losses   cut',
         'perfect   first        4     0     3      1     0',
         'perfect   second       4     0     2      2     0'])

  def test_tictactoe_table_counts_the_games_cut(self):
    # 2 + 0 of the 4 + 3 games were cut at 42 moves.
    results = (evaluation.MatchResult('mcts10', 'first', 1, 0, 1, cut=2,
                                      max_moves=42),
               evaluation.MatchResult('mcts10', 'second', 1, 1, 1,
                                      max_moves=42))
    self.assertEqual(
        evaluation_report.tictactoe_table(results).splitlines(),
        ['opponent  muzero   games  wins draws losses   cut',
         'mcts10    first        4     1     0      1     2',
         'mcts10    second       3     1     1      1     0',
         '2 of 7 games cut at 42 moves (neither won, drawn nor lost).'])

  def test_episodes_table_counts_the_episodes_cut(self):
    # Mean 1031 / 3 = 343.7; deviations 156.3, 156.3, -312.7: std
    # sqrt((2 * 24440.1 + 97760.4) / 3) = sqrt(48880.2) = 221.1.
    stats = evaluation.EpisodeStats(np.array([500., 500., 31.]), cut=2,
                                    max_moves=500)
    self.assertEqual(evaluation_report.episodes_table(stats).splitlines(),
                     ['episodes     mean      std      min      max',
                      '       3    343.7    221.1     31.0    500.0',
                      '2 of 3 episodes cut at 500 moves.'])

  def test_episodes_table(self):
    # Mean 22; std sqrt((12^2 + 2^2 + 14^2) / 3) = sqrt(114.67) = 10.71.
    stats = evaluation.EpisodeStats(np.array([10., 20., 36.]))
    self.assertEqual(evaluation_report.episodes_table(stats).splitlines(),
                     ['episodes     mean      std      min      max',
                      '       3     22.0     10.7     10.0     36.0'])

  def test_summary_scalars(self):
    # perfect: 0 wins, 5 draws, 3 losses of 8; random: 5, 1, 2 of 8.
    self.assertEqual(evaluation_report.summary_scalars(self.RESULTS), {
        'eval/perfect/win_rate': 0., 'eval/perfect/draw_rate': 5 / 8,
        'eval/perfect/loss_rate': 3 / 8, 'eval/random/win_rate': 5 / 8,
        'eval/random/draw_rate': 1 / 8, 'eval/random/loss_rate': 2 / 8})
    # A game cut counts in the rates' denominator: 1 win of 2 games.
    self.assertEqual(evaluation_report.summary_scalars(
        [evaluation.MatchResult('random', 'first', 1, 0, 0, cut=1)]), {
            'eval/random/win_rate': 0.5, 'eval/random/draw_rate': 0.,
            'eval/random/loss_rate': 0.})
    stats = evaluation.EpisodeStats(np.array([10., 20.]))
    self.assertEqual(evaluation_report.summary_scalars(stats), {
        'eval/return_mean': 15., 'eval/return_std': 5.,
        'eval/return_min': 10., 'eval/return_max': 20.})


if __name__ == '__main__':
  absltest.main()
