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
"""The check's comparisons, run with one device against itself."""

from absl.testing import absltest

from benchmarks import accelerator_check
from muzero_snt.run import device_audit
from tests import testing


class CompareTest(testing.TestCase):

  def test_a_learner_step_equals_itself_on_one_device(self):
    # Without XLA, whose compilation would take most of the test's time.
    result = accelerator_check.compare_learners(
        '/cpu:0', '/cpu:0', device_audit.small_config('tictactoe'),
        jit_compile=False)
    self.assertEqual(result['loss_first'], result['loss_second'])
    self.assertGreater(result['gradient_max'], 0.)
    self.assertEqual(result['gradient_relative_difference'], 0.)

  def test_a_search_equals_itself_on_one_device(self):
    result = accelerator_check.compare_searches(
        '/cpu:0', '/cpu:0', 8, device_audit.small_config('tictactoe'))
    self.assertEqual(result, {'positions': 8, 'equal_share': 1.})


if __name__ == '__main__':
  absltest.main()
