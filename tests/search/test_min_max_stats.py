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
"""Tests for muzero_snt.search.min_max_stats."""

from absl.testing import absltest

from muzero_snt import config as config_lib
from muzero_snt.search import min_max_stats as min_max_stats_lib

MinMaxStats = min_max_stats_lib.MinMaxStats


class MinMaxStatsTest(absltest.TestCase):

  def test_unchanged_until_two_distinct_values(self):
    stats = MinMaxStats(None)
    # No bounds yet: the pseudocode returns the value itself.
    self.assertEqual(stats.normalize(0.7), 0.7)
    stats.update(2.)
    # max == min == 2: still no scale.
    self.assertEqual(stats.normalize(0.7), 0.7)
    stats.update(-2.)
    # [-2, 2]: (0.7 + 2) / 4 = 0.675.
    self.assertAlmostEqual(stats.normalize(0.7), 0.675)
    self.assertEqual((stats.minimum, stats.maximum), (-2., 2.))

  def test_known_bounds_normalise_from_the_start(self):
    stats = MinMaxStats(config_lib.KnownBounds(-1, 1))
    # (0 + 1) / 2 = 0.5; (1 + 1) / 2 = 1.
    self.assertAlmostEqual(stats.normalize(0.), 0.5)
    self.assertAlmostEqual(stats.normalize(1.), 1.)

  def test_known_bounds_only_widen(self):
    stats = MinMaxStats(config_lib.KnownBounds(-1, 1))
    stats.update(0.3)  # Inside: no change.
    self.assertEqual((stats.minimum, stats.maximum), (-1., 1.))
    stats.update(3.)
    # [-1, 3]: (1 + 1) / 4 = 0.5.
    self.assertAlmostEqual(stats.normalize(1.), 0.5)

  def test_values_outside_the_bounds_leave_the_unit_interval(self):
    stats = MinMaxStats(None)
    stats.update(0.)
    stats.update(1.)
    self.assertAlmostEqual(stats.normalize(1.5), 1.5)
    self.assertAlmostEqual(stats.normalize(-0.5), -0.5)


if __name__ == '__main__':
  absltest.main()
