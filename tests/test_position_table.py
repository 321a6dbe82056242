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
"""Tests for muzero_snt.position_table."""

import pickle

import numpy as np
from absl.testing import absltest

from muzero_snt import position_table


class PositionTableTest(absltest.TestCase):

  def test_rows_follow_a_list_through_appends_and_drops(self):
    # A window of games as the replay keeps it: games of 1 to 30 rows
    # appended, the oldest dropped once more than 100 rows are held. A
    # Python list of rows is the independent route.
    rng = np.random.default_rng(0)
    table = position_table.PositionTable()
    rows, games = [], []
    for game in range(300):
      n = int(rng.integers(1, 31))
      value = rng.normal(size=n).astype(np.float32)
      policy = rng.dirichlet(np.ones(3), n).astype(np.float32)
      table.append(value=value, policy=policy,
                   game=np.full(n, game, np.int64))
      rows += [(v, p, game) for v, p in zip(value, policy)]
      games.append(n)
      while len(rows) > 100:
        table.drop_front(games[0])
        del rows[:games.pop(0)]
      self.assertLen(table, len(rows))
      np.testing.assert_array_equal(table.column('value'),
                                    [r[0] for r in rows])
      np.testing.assert_array_equal(table.column('policy'),
                                    [r[1] for r in rows])
      np.testing.assert_array_equal(table.column('game'),
                                    [r[2] for r in rows])
    # The arrays stay within a few times the rows held (at most 130 here):
    # dropped rows are reclaimed, not kept.
    capacity = len(table._arrays['value'])  # pylint: disable=protected-access
    self.assertLessEqual(capacity, 4 * 130)

  def test_gathered_rows_and_dtypes(self):
    table = position_table.PositionTable()
    table.append(value=np.array([1., 2., 3.], np.float32),
                 action=np.array([4, 5, 6], np.int32))
    table.append(value=np.array([7.], np.float64),  # Cast as stored.
                 action=np.array([8], np.int64))
    table.drop_front(2)
    np.testing.assert_array_equal(table.column('value')[[1, 0, 1]],
                                  [7., 3., 7.])
    self.assertEqual(table.column('value').dtype, np.float32)
    self.assertEqual(table.column('action').dtype, np.int32)
    np.testing.assert_array_equal(table.column('action'), [6, 8])
    table.drop_front(2)
    self.assertLen(table, 0)
    self.assertEqual(table.names, ('value', 'action'))

  def test_columns_are_read_only_views(self):
    table = position_table.PositionTable()
    table.append(value=np.zeros(4))
    with self.assertRaises(ValueError):
      table.column('value')[0] = 1.

  def test_a_table_unpickled_from_read_only_memory_takes_new_rows(self):
    # Ray hands an actor a replay buffer's arrays out of band, in read-only
    # shared memory (pickle protocol 5), as here; the copy must still take
    # rows, and carries only the live ones.
    table = position_table.PositionTable()
    for start in range(0, 40, 10):
      table.append(value=np.arange(start, start + 10, dtype=np.float32))
    table.drop_front(25)
    buffers = []
    data = pickle.dumps(table, protocol=5, buffer_callback=buffers.append)
    copy = pickle.loads(
        data, buffers=[memoryview(b.raw()).toreadonly() for b in buffers])
    self.assertEqual(sum(b.raw().nbytes for b in buffers), 15 * 4)
    copy.append(value=np.array([40., 41.], np.float32))
    np.testing.assert_array_equal(copy.column('value'), np.arange(25, 42))
    np.testing.assert_array_equal(table.column('value'), np.arange(25, 40))

  def test_bad_calls_name_the_problem(self):
    table = position_table.PositionTable()
    table.append(value=np.zeros(3), policy=np.zeros((3, 2)))
    with self.assertRaisesRegex(KeyError, "No column 'reward'"):
      table.column('reward')
    with self.assertRaisesRegex(ValueError, r"columns \['policy', 'value'\], "
                                r"got \['value'\]"):
      table.append(value=np.zeros(1))
    with self.assertRaisesRegex(ValueError, 'value: 2, policy: 1'):
      table.append(value=np.zeros(2), policy=np.zeros((1, 2)))
    with self.assertRaisesRegex(ValueError, r"'policy' has rows of shape "
                                r"\[2\]; got \[3\]"):
      table.append(value=np.zeros(1), policy=np.zeros((1, 3)))
    with self.assertRaisesRegex(ValueError, "'value' must be"):
      table.append(value=np.float32(1.), policy=np.zeros((1, 2)))
    with self.assertRaisesRegex(ValueError, r'drop_front\(4\): expected 0 to '
                                '3 rows'):
      table.drop_front(4)
    with self.assertRaisesRegex(ValueError, r'drop_front\(-1\)'):
      table.drop_front(-1)
    with self.assertRaisesRegex(ValueError, 'at least one column'):
      table.append()
    # Nothing was lost to the refused calls.
    self.assertLen(table, 3)


if __name__ == '__main__':
  absltest.main()
