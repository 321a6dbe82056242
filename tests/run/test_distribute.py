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

import socket
from unittest import mock

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
    found = distribute.devices_found()
    with self.assertRaisesRegex(
        ValueError, rf"^strategy='gpu' needs a GPU, but TensorFlow sees only "
        rf"{found}: use strategy='cpu' or strategy='default' here"):
      distribute.make_strategy('gpu')

  def test_mirrored_on_one_cpu_raises_naming_the_devices(self):
    if (tf.config.list_logical_devices('GPU') or
        len(tf.config.list_logical_devices('CPU')) > 1):
      self.skipTest('This process has several devices.')
    self.assertEqual(distribute.devices_found(), 'CPU:0')
    with self.assertRaisesRegex(
        ValueError, r"^strategy='mirrored' needs GPUs \(one replica each\), "
        r'but TensorFlow sees only CPU:0: use'):
      distribute.make_strategy('mirrored')

  def test_local_tpu_without_a_tpu_raises_before_connecting(self):
    if tf.config.list_physical_devices('TPU'):
      self.skipTest('This machine has a TPU.')
    with self.assertRaisesRegex(
        ValueError, r"^strategy='tpu' with tpu='local' needs a TPU VM, but "
        r'TensorFlow sees only CPU:0'):
      distribute.make_strategy('tpu', tpu='local')

  def test_tpu_address_that_nothing_answers_raises_in_one_line(self):
    with socket.socket() as listener:  # A free port, then closed.
      listener.bind(('127.0.0.1', 0))
      port = listener.getsockname()[1]
    with self.assertRaisesRegex(
        ValueError, rf"^strategy='tpu' found no TPU at "
        rf"tpu='grpc://127.0.0.1:{port}' \(.*\); this machine has CPU:0"
    ) as raised:
      distribute.make_strategy('tpu', tpu=f'grpc://127.0.0.1:{port}')
    self.assertNotIn('\n', str(raised.exception))

  def test_a_batch_the_replicas_do_not_split_is_refused(self):
    strategy = mock.Mock(num_replicas_in_sync=4)
    strategy.extended.worker_devices = tuple(
        f'/job:localhost/replica:0/task:0/device:GPU:{i}' for i in range(4))
    distribute.check_batch_size(8, strategy)
    with self.assertRaisesRegex(
        ValueError, r'^batch_size=10 does not split among the 4 replicas of '
        r'the strategy \(on GPU:0, GPU:1, GPU:2, GPU:3\): use a multiple of '
        r'4, e.g. batch_size=8 or batch_size=12.$'):
      distribute.check_batch_size(10, strategy)
    with self.assertRaisesRegex(ValueError, r'e.g. batch_size=4.$'):
      distribute.check_batch_size(3, strategy)

  def test_one_replica_takes_any_batch(self):
    distribute.make_strategy('cpu', batch_size=7)

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


class _Search:
  """A stand-in search: records the device its calls run under."""

  config = 'the config'

  def __init__(self):
    self.devices = []

  def __call__(self, value):
    self.devices.append(tf.constant(0.).device)
    return value + 1

  def compile_function(self, sizes):
    del sizes

    def compile_search():
      self.devices.append(tf.constant(0.).device)
    return compile_search


class PlaceSearchTest(testing.TestCase):

  def test_calls_run_on_the_device_and_attributes_pass_through(self):
    network = tf.Module()
    network.w = tf.Variable(1.)
    inner = _Search()
    placed = distribute.place_search(inner, network)
    self.assertEqual(placed.device, network.w.device)
    self.assertEqual(placed(1), 2)
    placed.compile_function([1])()
    self.assertEqual(inner.devices, [network.w.device] * 2)
    self.assertEqual(placed.config, 'the config')
    # A search without compile_function (the reference) has none placed.
    self.assertIsNone(getattr(placed, 'search_with_seed', None))

  def test_unknown_search_device_is_refused(self):
    with self.assertRaisesRegex(
        ValueError, r"search_device must be one of \('accelerator', "
        r"'host'\), got 'gpu'."):
      distribute.place_search(_Search(), tf.Module(), 'gpu')


if __name__ == '__main__':
  absltest.main()
