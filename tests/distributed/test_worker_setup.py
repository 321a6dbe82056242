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
"""Tests of what the worker processes share (no Ray instance started)."""

import os
import threading

import numpy as np

from muzero_snt import networks
from muzero_snt.distributed import weight_store
from muzero_snt.distributed import worker_setup
from tests import testing


class _FakeRay:
  """`ray.get` of a process where every `ObjectRef` is its value."""

  @staticmethod
  def get(value):
    return value


def _worker(seed):
  config = testing.tiny_mlp_config()
  network = networks.make_network(config)
  network.create_variables()
  for i, variable in enumerate(network.variables):
    variable.assign(np.full(variable.shape, seed + i, np.float32))
  return worker_setup.Worker(ray=_FakeRay(), weights=None, network=network,
                             search=None)


class TakeNewerWeightsTest(testing.TestCase):

  def test_only_newer_weights_are_taken(self):
    worker = _worker(0)
    # Variable i of the published weights holds 100 + i everywhere.
    published = weight_store.network_arrays(_worker(100).network)
    ours = weight_store.network_arrays(worker.network)
    for version in (4, 3):  # Equal, then older: kept.
      self.assertEqual(
          worker_setup.take_newer_weights(worker, (version, [published]), 4),
          4)
      for got, want in zip(worker.network.variables, ours):
        np.testing.assert_array_equal(got.numpy(), want)
    self.assertEqual(
        worker_setup.take_newer_weights(worker, (5, [published]), 4), 5)
    for i, variable in enumerate(worker.network.variables):
      np.testing.assert_array_equal(variable.numpy(), 100. + i)

  def test_the_first_publication_is_taken(self):
    worker = _worker(0)
    published = weight_store.network_arrays(_worker(7).network)
    self.assertEqual(worker_setup.take_newer_weights(
        worker, (0, [published]), weight_store.NO_VERSION), 0)
    np.testing.assert_array_equal(worker.network.variables[0].numpy(), 7.)


class _Counter(worker_setup.LoopThread):
  """Counts until stopped, or fails at `fail_at`."""

  def __init__(self, fail_at=None):
    self.count = 0
    self.fail_at = fail_at
    self.counted = threading.Event()
    self._start_loop('counter')

  def _loop(self):
    while not self._stop.is_set():
      self.count += 1
      if self.count == self.fail_at:
        raise ValueError(f'count {self.count}')
      self.counted.set()
      self._stop.wait(0.001)


class LoopThreadTest(testing.TestCase):

  # pylint: disable=protected-access
  def test_stop_ends_the_loop(self):
    counter = _Counter()
    self.assertTrue(counter.counted.wait(10.))
    counter.stop()
    counter._thread.join(10.)
    self.assertFalse(counter._thread.is_alive())
    self.assertEqual(counter._thread.name, 'counter')
    self.assertIsNone(counter._error)
    self.assertEqual(counter.pid(), os.getpid())

  def test_an_exception_ends_the_loop_and_is_kept(self):
    counter = _Counter(fail_at=3)
    counter._thread.join(10.)
    self.assertFalse(counter._thread.is_alive())
    self.assertEqual(counter.count, 3)
    self.assertIn('Traceback', counter._error)
    self.assertIn('ValueError: count 3', counter._error)
