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
"""Tests of weight publication: the arrays, the store and a follower."""

import dataclasses
import threading

import numpy as np
import tensorflow as tf

from muzero_snt import networks
from muzero_snt.distributed import weight_store
from tests import testing


class _FakeRay:
  """`ray` of a process where every `ObjectRef` is its value, ready at once
  unless listed in `pending`."""

  def __init__(self):
    self.pending = []

  @staticmethod
  def get(value):
    return value

  def wait(self, refs, timeout):
    del timeout
    ready = [ref for ref in refs if ref not in self.pending]
    return ready, [ref for ref in refs if ref in self.pending]


class _Store:
  """A `WeightStore` handle whose `latest.remote()` answers `answer`."""

  def __init__(self, answer):
    self.latest = self
    self.answer = answer
    self.questions = 0

  def remote(self):
    self.questions += 1
    return self.answer


def _filled(offset):
  """A tiny network whose variable i holds `offset + i` everywhere."""
  network = networks.make_network(testing.tiny_mlp_config())
  network.create_variables()
  for i, variable in enumerate(network.variables):
    variable.assign(np.full(variable.shape, offset + i, np.float32))
  return network


def _network(seed, hidden_size=8):
  tf.random.set_seed(seed)
  config = testing.tiny_mlp_config(21)
  config = config.replace(network=dataclasses.replace(
      config.network, hidden_size=hidden_size))
  network = networks.make_network(config)
  network.create_variables()
  return network


class WeightArraysTest(testing.TestCase):

  def test_assigned_arrays_make_an_equal_network(self):
    source, target = _network(1), _network(2)
    observation = np.random.default_rng(0).normal(size=(3, 4)).astype(
        np.float32)
    before = target.initial_inference(observation).value
    arrays = weight_store.network_arrays(source)
    self.assertTrue(all(isinstance(a, np.ndarray) for a in arrays))
    weight_store.assign_arrays(target, arrays)
    expected = source.initial_inference(observation)
    got = target.initial_inference(observation)
    self.assertNotAllClose(before, expected.value)
    self.assertAllClose(got.value, expected.value)
    self.assertAllClose(got.policy_logits, expected.policy_logits)
    self.assertAllClose(got.hidden_state, expected.hidden_state)

  def test_arrays_follow_the_variables_after_updates(self):
    # The arrays are read by one compiled function per network: it must
    # read the variables' current values, not those of its first call.
    network = _network(1)
    first = weight_store.network_arrays(network)
    for variable in network.trainable_variables:
      variable.assign_add(tf.ones_like(variable))
    second = weight_store.network_arrays(network)
    expected = [v.numpy() for v in network.variables]
    self.assertLen(second, len(expected))
    for got, want in zip(second, expected):
      np.testing.assert_array_equal(got, want)
    changed = [not np.array_equal(a, b) for a, b in zip(first, second)]
    self.assertEqual(sum(changed), len(network.trainable_variables))
    # Copies: changing an array does not touch the network.
    second[0][...] = 123.
    self.assertFalse(np.any(network.variables[0].numpy() == 123.))

  def test_arrays_of_another_network_are_refused(self):
    arrays = weight_store.network_arrays(_network(1))
    with self.assertRaisesRegex(ValueError, 'Got 1 weight arrays'):
      weight_store.assign_arrays(_network(1), arrays[:1])
    with self.assertRaisesRegex(ValueError, 'of shape .* for variable'):
      weight_store.assign_arrays(_network(1, hidden_size=5), arrays)


class WeightStoreTest(testing.TestCase):

  def test_keeps_the_newest_version_only(self):
    store = weight_store.WeightStore()
    self.assertEqual(store.latest(), (weight_store.NO_VERSION, [None]))
    # Each publication answers with the version held before it: NO_VERSION
    # from a store that Ray restarted tells the learner so.
    self.assertEqual(store.publish(10, ['ten']), weight_store.NO_VERSION)
    self.assertEqual(store.publish(5, ['five']), 10)  # Older: ignored.
    self.assertEqual(store.latest(), (10, ['ten']))
    self.assertEqual(store.publish(20, ['twenty']), 10)
    self.assertEqual(store.version(), 20)
    self.assertEqual(store.latest(), (20, ['twenty']))


class FollowerTest(testing.TestCase):

  def _assert_filled(self, network, offset):
    for i, variable in enumerate(network.variables):
      np.testing.assert_array_equal(variable.numpy(), offset + i)

  def test_only_newer_weights_are_taken(self):
    network = _filled(0)
    follower = weight_store.Follower(_FakeRay(), None, network)
    published = weight_store.network_arrays(_filled(100))
    follower.version = 4
    for version in (4, 3):  # Equal, then older: kept.
      self.assertFalse(follower.take((version, [published])))
      self.assertEqual(follower.version, 4)
      self._assert_filled(network, 0)
    self.assertTrue(follower.take((5, [published])))
    self.assertEqual(follower.version, 5)
    self._assert_filled(network, 100)

  def test_the_first_publication_is_taken(self):
    network = _filled(0)
    follower = weight_store.Follower(_FakeRay(), None, network)
    published = weight_store.network_arrays(_filled(7))
    self.assertTrue(follower.take((0, [published])))
    self.assertEqual(follower.version, 0)
    self._assert_filled(network, 7)

  def test_newer_than_sets_the_bar(self):
    # The evaluator's use: weights 10 steps after those of step 0.
    follower = weight_store.Follower(_FakeRay(), None, _filled(0))
    published = weight_store.network_arrays(_filled(3))
    self.assertFalse(follower.take((9, [published]), newer_than=9))
    self.assertTrue(follower.take((10, [published]), newer_than=9))
    self.assertEqual(follower.version, 10)

  def test_an_answer_not_yet_come_is_not_waited_for(self):
    network = _filled(0)
    ray = _FakeRay()
    answer = (2, [weight_store.network_arrays(_filled(50))])
    store = _Store(answer)
    follower = weight_store.Follower(ray, store, network)
    ray.pending.append(answer)
    self.assertFalse(follower.update(wait=False))
    self.assertEqual(follower.version, weight_store.NO_VERSION)
    # The question in flight is not asked again; its answer is used once
    # it has come.
    ray.pending.clear()
    self.assertTrue(follower.update(wait=False))
    self.assertEqual(store.questions, 1)
    self.assertEqual(follower.version, 2)
    self._assert_filled(network, 50)


class _PublishingRay(_FakeRay):
  """`ray` whose `put` records the arrays and the thread that put them,
  and waits while `gate` is clear (a slow copy into the object store)."""

  def __init__(self):
    super().__init__()
    self.gate = threading.Event()
    self.gate.set()
    self.entered = threading.Semaphore(0)
    self.puts = []
    self.fail = None

  def put(self, arrays):
    self.entered.release()
    self.gate.wait()
    if self.fail:
      raise self.fail
    self.puts.append((threading.current_thread(), arrays))
    return arrays


class _PublishStore:
  """A `WeightStore` handle that records `publish.remote` calls."""

  def __init__(self):
    self.publish = self
    self.store = weight_store.WeightStore()
    self.versions = []

  def remote(self, version, reference):
    self.versions.append(version)
    return self.store.publish(version, reference)


class PublisherTest(testing.TestCase):

  def _assert_arrays(self, arrays, offset):
    for i, array in enumerate(arrays):
      np.testing.assert_array_equal(array, offset + i)

  def test_in_the_foreground_the_caller_sends(self):
    ray, store = _PublishingRay(), _PublishStore()
    publisher = weight_store.Publisher(ray, store, background=False)
    publisher.publish(_filled(3), 7)
    # Sent before publish returned, from this thread.
    self.assertEqual(store.versions, [7])
    self.assertIs(ray.puts[0][0], threading.current_thread())
    self._assert_arrays(ray.puts[0][1], 3)
    self.assertEqual((publisher.version, publisher.sent_version), (7, 7))

  def test_the_background_sends_the_values_at_publish_time(self):
    ray, store = _PublishingRay(), _PublishStore()
    publisher = weight_store.Publisher(ray, store)
    network = _filled(0)

    @tf.function(jit_compile=True)
    def add(amount):  # An in-place update in XLA, as the learner's step.
      for variable in network.variables:
        variable.assign_add(tf.fill(variable.shape, amount))

    ray.gate.clear()
    publisher.publish(network, 1)  # Values 0 + i; its put is held.
    ray.entered.acquire()
    add(10.)
    publisher.publish(network, 2)  # 10 + i, waits behind 1.
    add(10.)
    publisher.publish(network, 3)  # 20 + i, replaces 2.
    add(10.)  # 30 + i: never published.
    self.assertEqual(publisher.replaced, 1)
    self.assertEqual(publisher.version, 3)
    self.assertIsNone(publisher.sent_version)
    ray.gate.set()
    self.assertTrue(publisher.flush(timeout=60))
    self.assertEqual(store.versions, [1, 3])
    self.assertEqual(publisher.sent_version, 3)
    self._assert_arrays(ray.puts[0][1], 0)
    self._assert_arrays(ray.puts[1][1], 20)
    self.assertIsNot(ray.puts[0][0], threading.current_thread())
    self.assertEqual(store.store.latest()[0], 3)
    publisher.close()

  def test_close_sends_what_is_waiting(self):
    ray, store = _PublishingRay(), _PublishStore()
    publisher = weight_store.Publisher(ray, store)
    ray.gate.clear()
    publisher.publish(_filled(0), 4)
    ray.entered.acquire()
    publisher.publish(_filled(5), 8)
    ray.gate.set()
    publisher.close()
    self.assertEqual(store.versions, [4, 8])
    self._assert_arrays(ray.puts[1][1], 5)
    with self.assertRaisesRegex(RuntimeError, 'after close'):
      publisher.publish(_filled(0), 9)

  def test_a_failed_runs_close_waits_for_the_send_and_drops_the_rest(self):
    ray, store = _PublishingRay(), _PublishStore()
    publisher = weight_store.Publisher(ray, store)
    ray.gate.clear()
    publisher.publish(_filled(0), 4)  # In flight, held in its put.
    ray.entered.acquire()
    publisher.publish(_filled(5), 8)  # Waiting.
    closing = threading.Thread(target=publisher.close,
                               kwargs=dict(send_waiting=False))
    closing.start()
    # The send in flight is waited for (Ray may not stop under it).
    closing.join(0.2)
    self.assertTrue(closing.is_alive())
    ray.gate.set()
    closing.join(60)
    self.assertFalse(closing.is_alive())
    self.assertEqual(store.versions, [4])
    self.assertEqual(publisher.sent_version, 4)

  def test_a_failed_runs_close_keeps_the_runs_own_error(self):
    ray, store = _PublishingRay(), _PublishStore()
    ray.fail = OSError('object store full')
    publisher = weight_store.Publisher(ray, store)
    publisher.publish(_filled(0), 1)
    ray.entered.acquire()  # Being sent: it fails.
    publisher.close(send_waiting=False)  # Raises nothing.
    with self.assertRaisesRegex(RuntimeError, 'store full'):
      publisher.close()

  def test_a_failure_in_the_background_is_raised_by_the_next_call(self):
    ray, store = _PublishingRay(), _PublishStore()
    ray.fail = OSError('object store full')
    publisher = weight_store.Publisher(ray, store)
    publisher.publish(_filled(0), 1)
    with self.assertRaisesRegex(RuntimeError,
                                'in the background failed.*store full'):
      publisher.flush(timeout=60)
    with self.assertRaisesRegex(RuntimeError, 'store full'):
      publisher.publish(_filled(0), 2)
    self.assertEqual(store.versions, [])
