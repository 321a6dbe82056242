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
"""Tests for `benchmarks/reporting.py`: medians over lists of numbers only."""

import json
from unittest import mock

from absl.testing import absltest
import numpy as np

from benchmarks import reporting


class WithMediansTest(absltest.TestCase):

  def test_a_list_of_numbers_becomes_its_median_and_values(self):
    self.assertEqual(reporting.with_medians([3, 1, 2, 10]),
                     {'median': 2.5, 'values': [3, 1, 2, 10]})
    self.assertEqual(
        reporting.with_medians({'a': [np.float32(4.0), 1.0, 9.0]})['a'],
        {'median': 4.0, 'values': [4.0, 1.0, 9.0]})

  def test_a_list_of_records_keeps_its_records_each_with_medians(self):
    # A benchmark that reports one record per checkpoint (search_depth):
    # the records stay a list, in order, and their own lists get medians.
    tree = {'checkpoints': [{'step': 7, 'depths': [1, 5, 2]},
                            {'step': 9, 'depths': [4]}],
            'config': ['lr_init=0.1', 'td_steps=5'],
            'flags': [True, False], 'empty': []}
    out = reporting.with_medians(tree)
    self.assertEqual(out['checkpoints'], [
        {'step': 7, 'depths': {'median': 2, 'values': [1, 5, 2]}},
        {'step': 9, 'depths': {'median': 4, 'values': [4]}}])
    self.assertEqual(out['config'], ['lr_init=0.1', 'td_steps=5'])
    self.assertEqual(out['flags'], [True, False])
    self.assertEqual(out['empty'], [])
    json.dumps(out)  # What `report` writes.


class RotatedRatesTest(absltest.TestCase):

  def test_order_rotates_and_rates_are_work_over_seconds(self):
    # A fake clock: task a takes 1 s a call, b 2 s, c 4 s.
    clock = [0.]
    order = []

    def task(name, seconds):
      def run():
        order.append(name)
        clock[0] += seconds
      return run

    tasks = {'a': (task('a', 1.), 2, 10.), 'b': (task('b', 2.), 1, 6.),
             'c': (task('c', 4.), 1, 8.)}
    seen = []
    with mock.patch.object(reporting.time, 'perf_counter',
                           lambda: clock[0]):
      rates = reporting.rotated_rates(
          tasks, 3, lambda repeat, rates: seen.append(
              (repeat, len(rates['a']))))
    # Repeat r starts at the r-th task; a runs its 2 calls in a row.
    self.assertEqual(order, ['a', 'a', 'b', 'c', 'b', 'c', 'a', 'a',
                             'c', 'a', 'a', 'b'])
    # calls x work / seconds: a 2 x 10 / 2, b 6 / 2, c 8 / 4.
    self.assertEqual(rates, {'a': [10.] * 3, 'b': [3.] * 3, 'c': [2.] * 3})
    self.assertEqual(seen, [(0, 1), (1, 2), (2, 3)])


if __name__ == '__main__':
  absltest.main()
