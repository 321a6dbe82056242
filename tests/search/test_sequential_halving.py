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
"""Tests for sequential_halving.py: schedules worked out by hand."""

from absl.testing import absltest

from muzero_snt.search import sequential_halving
from tests import testing

parameterized = testing.parameterized


class ConsideredVisitsTest(testing.TestCase):

  @parameterized.parameters(
      # m = 4, n = 8: two phases; 8 // (2 * 4) = 1 visit each for 4
      # actions, then 8 // (2 * 2) = 2 visits each for the best 2.
      (4, 8, (0, 0, 0, 0, 1, 1, 2, 2)),
      # m = 4, n = 16: 2 visits each for 4 (8), then 4 each for 2 (8).
      (4, 16, (0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)),
      # m = 16, n = 4: the budget ends inside the first phase.
      (16, 4, (0, 0, 0, 0)),
      # m = 2, n = 5: one phase of floor(5 / 2) = 2 visits each, then the
      # two stay (never fewer than two) with 2 each again.
      (2, 5, (0, 0, 1, 1, 2)),
      # m = 3: ceil(log2 3) = 2 phases; 6 // (2 * 3) = 1, then 2 actions
      # with 6 // (2 * 2) = 1 visit each, then again.
      (3, 6, (0, 0, 0, 1, 1, 2)),
      # m = 1 (one legal action) and m = 0: the one action, every time.
      (1, 3, (0, 1, 2)),
      (0, 2, (0, 1)),
  )
  def test_schedule(self, m, n, expected):
    self.assertEqual(sequential_halving.considered_visits(m, n), expected)

  def test_table_rows_are_the_schedules_of_each_count(self):
    self.assertEqual(sequential_halving.visit_table(2, 3),
                     ((0, 1, 2), (0, 1, 2), (0, 0, 1)))

  @parameterized.parameters((-1, 4), (2, -1), (2.0, 4), (True, 4))
  def test_refuses_bad_arguments(self, m, n):
    with self.assertRaisesRegex(ValueError, 'must be an integer >= 0'):
      sequential_halving.considered_visits(m, n)


if __name__ == '__main__':
  absltest.main()
