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
"""Tests of the strategy factory (the multi-device run: test_multi_device)."""

from absl.testing import absltest
import tensorflow as tf

from muzero_snt.run import distribute
from tests import testing


class MakeStrategyTest(testing.TestCase):

  def test_unknown_name_raises_naming_it_and_the_choices(self):
    with self.assertRaisesRegex(ValueError, r"'bogus'.*'mirrored'"):
      distribute.make_strategy('bogus')

  def test_tpu_without_an_address_raises_naming_tpu(self):
    with self.assertRaisesRegex(ValueError, r'`tpu`, got None'):
      distribute.make_strategy('tpu')
    with self.assertRaisesRegex(ValueError, r'`tpu`, got \'\''):
      distribute.make_strategy('tpu', tpu='')

  def test_gpu_on_a_machine_without_gpu_raises_naming_gpu(self):
    if tf.config.list_logical_devices('GPU'):
      self.skipTest('This machine has a GPU.')
    with self.assertRaisesRegex(ValueError, "'gpu' needs a GPU"):
      distribute.make_strategy('gpu')

  def test_cpu_is_one_replica_on_the_cpu(self):
    strategy = distribute.make_strategy('cpu')
    self.assertIsInstance(strategy, tf.distribute.OneDeviceStrategy)
    self.assertEqual(strategy.num_replicas_in_sync, 1)
    self.assertEqual(strategy.extended.worker_devices,
                     ('/job:localhost/replica:0/task:0/device:CPU:0',))

  def test_default_is_the_current_strategy(self):
    self.assertIs(distribute.make_strategy('default'),
                  tf.distribute.get_strategy())
    strategy = distribute.make_strategy('cpu')
    with strategy.scope():
      self.assertIs(distribute.make_strategy('default'), strategy)

  def test_every_name_is_documented(self):
    for name in distribute.STRATEGIES:
      self.assertIn(f"'{name}'", distribute.make_strategy.__doc__)


if __name__ == '__main__':
  absltest.main()
