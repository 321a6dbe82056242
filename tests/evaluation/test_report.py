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
        ['opponent  muzero   games  wins draws losses',
         'perfect   first        4     0     3      1',
         'perfect   second       4     0     2      2'])

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
    stats = evaluation.EpisodeStats(np.array([10., 20.]))
    self.assertEqual(evaluation_report.summary_scalars(stats), {
        'eval/return_mean': 15., 'eval/return_std': 5.,
        'eval/return_min': 10., 'eval/return_max': 20.})


if __name__ == '__main__':
  absltest.main()
