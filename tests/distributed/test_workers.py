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
from unittest import mock

import tensorflow as tf

from muzero_snt.distributed import workers
from tests import testing


class _Counter(workers.Worker):
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


class WorkerLoopTest(testing.TestCase):

  # pylint: disable=protected-access
  def test_stop_ends_the_loop(self):
    counter = _Counter()
    self.assertTrue(counter.counted.wait(10.))
    counter.stop()
    counter._thread.join(10.)
    self.assertFalse(counter._thread.is_alive())
    self.assertEqual(counter._thread.name, 'counter')
    self.assertEqual(counter.status(),
                     {'error': None, 'pid': os.getpid(), 'node': None})
    self.assertEqual(counter.pid(), os.getpid())

  def test_an_exception_ends_the_loop_and_is_kept(self):
    counter = _Counter(fail_at=3)
    counter._thread.join(10.)
    self.assertFalse(counter._thread.is_alive())
    self.assertEqual(counter.count, 3)
    error = counter.status()['error']
    self.assertIn('Traceback', error)
    self.assertIn('ValueError: count 3', error)


class SeedTest(testing.TestCase):

  def test_each_worker_and_incarnation_draws_its_own(self):
    seeds = {workers.incarnation_seed(7, index, incarnation)
             for index in range(3) for incarnation in range(3)}
    self.assertLen(seeds, 9)
    self.assertEqual(workers.incarnation_seed(7, 1, 2),
                     workers.incarnation_seed(7, 1, 2))


class GpuTest(testing.TestCase):

  def test_a_worker_without_gpus_from_ray_hides_the_machines(self):
    ray = mock.Mock()
    with mock.patch.object(tf.config, 'set_visible_devices') as hide:
      ray.get_gpu_ids.return_value = []
      self.assertTrue(workers.hide_unassigned_gpus(ray))
      hide.assert_called_once_with([], 'GPU')
      hide.reset_mock()
      ray.get_gpu_ids.return_value = [1]  # Ray's: keep what it set.
      self.assertFalse(workers.hide_unassigned_gpus(ray))
      hide.assert_not_called()
      hide.side_effect = RuntimeError('Visible devices cannot be modified '
                                      'after being initialized')
      ray.get_gpu_ids.return_value = []
      self.assertFalse(workers.hide_unassigned_gpus(ray))
