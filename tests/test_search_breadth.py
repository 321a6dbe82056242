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
"""Tests of benchmarks/search_breadth.py: statistics of root searches."""

from absl.testing import absltest
import numpy as np

from benchmarks import search_breadth


class RootStatisticsTest(absltest.TestCase):

  def test_hand_worked_positions(self):
    # Four actions. Position 1 splits its visits over two children (1 bit),
    # position 2 puts all on one (0 bits), position 3 spreads them evenly
    # over all four (2 bits). Actions played: 0, 0, 3.
    policies = np.array([[0.5, 0.5, 0., 0.],
                         [1., 0., 0., 0.],
                         [0.25, 0.25, 0.25, 0.25]])
    stats = search_breadth.root_statistics(policies, np.array([0, 0, 3]))
    self.assertEqual(stats['positions'], 3)
    self.assertAlmostEqual(stats['root_children_visited'], (2 + 1 + 4) / 3)
    self.assertAlmostEqual(stats['root_entropy_bits'], (1 + 0 + 2) / 3)
    # Over log2(4) = 2 bits.
    self.assertAlmostEqual(stats['root_entropy_fraction'], 0.5)
    self.assertAlmostEqual(stats['top_action_share'], 2 / 3)
    self.assertEqual(stats['actions_played'], [2, 0, 0, 1])

  def test_a_search_on_one_child_has_no_entropy(self):
    policies = np.eye(6)[[2, 2, 2, 2]]
    stats = search_breadth.root_statistics(policies, np.array([2, 2, 2, 2]))
    self.assertEqual(stats['root_children_visited'], 1.)
    self.assertEqual(stats['root_entropy_bits'], 0.)
    self.assertEqual(stats['top_action_share'], 1.)


if __name__ == '__main__':
  absltest.main()
