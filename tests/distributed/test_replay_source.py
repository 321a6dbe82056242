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
"""The learner's source on a local Ray, against stand-in actors: a service
that always has a batch, and self-play actors reporting their loops' state.
"""

import os

# Before Ray is imported: a private instance on the loopback interface.
os.environ['RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'] = '0'

# pylint: disable=g-import-not-at-top,wrong-import-position
import time
from unittest import mock

import numpy as np
import pytest

from muzero_snt import networks
from muzero_snt import replay as replay_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import replay_source
from muzero_snt.distributed import weight_store
from tests import testing
from tests.distributed import ray_testing

ray = pytest.importorskip('ray')
# pylint: enable=g-import-not-at-top,wrong-import-position


class _Service:
  """Hands out the same batch at once, every time."""

  def __init__(self, batch):
    self._batch = batch
    self.calls = 0

  def learner_batch(self, kind, timeout=None):
    del timeout
    assert kind == 'sample', kind
    self.calls += 1
    keys = np.zeros((len(self._batch.action), 2), np.int64)
    return (self._batch, keys), {'games': 1, 'env_steps': 9}

  def count(self):
    return self.calls


class _RestartedService:
  """A service that Ray restarts at `die()`: it refuses the learner's calls
  until `restore`, and records it."""

  def __init__(self, batch):
    self._batch = batch
    self._restored = True
    self.restores = []

  def die(self):
    self._restored = False

  def _check(self):
    if not self._restored:
      raise replay_service.NotRestoredError('restarted')

  def learner_batch(self, kind, timeout=None):
    del kind, timeout
    self._check()
    keys = np.zeros((len(self._batch.action), 2), np.int64)
    return (self._batch, keys), {'games': 9, 'env_steps': 70}

  def load(self, buffer, counters):
    self.restores.append((buffer.num_games, buffer.num_positions, counters))
    self._restored = True

  def stats(self):
    self._check()
    # An actor's games that waited for the restore are in.
    return {'games': 6, 'env_steps': 47, 'stored_games': 6,
            'positions': 47}

  def recorded(self):
    return self.restores


def _game(length):
  """A finished game of `length` moves over CartPole's shapes."""
  game = trajectory_lib.Trajectory(2, 1, 0.997)
  for t in range(length):
    game.append(np.full(4, t, np.float32), 0, t % 2, 1., np.ones(2) / 2, 0.)
  game.finish(True)
  return game


class _Actor:
  """A self-play actor's `status`, with or without its loop's error."""

  def __init__(self, error):
    self._error = error

  def status(self):
    return {'rounds': 1, 'version': 0, 'error': self._error,
            'pid': os.getpid(), 'node': None}


class _RayTestCase(testing.TestCase):
  """A local Ray for the test class."""

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    ray_testing.start_ray()

  @classmethod
  def tearDownClass(cls):
    ray.shutdown()
    super().tearDownClass()


class FailedLoopTest(_RayTestCase):
  """An actor's failed loop stops the run even while batches keep coming
  (the other actors feeding the learner, so it never waits for data)."""

  def test_a_failed_loop_is_raised_within_the_check_interval(self):
    config = testing.tiny_mlp_config()
    batch = testing.random_batch(config, batch_size=4)
    service = ray.remote(_Service).options(num_cpus=0).remote(batch)
    actors = [ray.remote(_Actor).options(num_cpus=0).remote(error)
              for error in (None, 'Traceback ...\nValueError: boom')]
    # Started before the clock is faked: a process still starting does not
    # answer within the check's 1 s, and the check skips it (on a loaded
    # machine a start can take longer).
    ray.get([actor.status.remote() for actor in actors])
    now = [0.]
    clock = mock.Mock(monotonic=lambda: now[0])
    with mock.patch.object(replay_source, 'time', clock):
      source = replay_source.ReplayServiceSource(
          config, learner=None, service=service, weights=None,
          publish_interval=1, workers=actors)
      # 9.9 s after the last check: the batch, and no question asked.
      now[0] = replay_source._CHECK_INTERVAL - 0.1
      taken, keys = source.sample()
      np.testing.assert_array_equal(taken.observation, batch.observation)
      self.assertIsNone(keys)  # Uniform replay: no priorities to update.
      # At 10 s the actors are asked, and actor 1's error stops the run.
      now[0] = replay_source._CHECK_INTERVAL
      with self.assertRaisesRegex(
          RuntimeError, '(?s)Self-play actor 1 failed:\nTraceback .*boom'):
        source.sample()
    # The batch after the first was asked for while the first was learnt
    # from: two requests, one batch taken.
    self.assertEqual(ray.get(service.count.remote()), 2)


class _Learner:
  """A learner's network and step count."""

  def __init__(self, network):
    self.network = network
    self.steps = 0

  def learn(self):
    self.steps += 1
    return True


class FirstRoundTest(_RayTestCase):
  """The actors get weights before the learner compiles its step, so they
  play while it does."""

  def test_weights_are_published_before_the_learner_compiles(self):
    config = testing.tiny_mlp_config()
    network = networks.make_network(config)
    network.create_variables()
    store = ray.remote(weight_store.WeightStore).options(
        num_cpus=0).remote()
    ray.get(store.latest.remote())  # Started (slow on a loaded machine).
    learner = _Learner(network)
    source = replay_source.ReplayServiceSource(
        config, learner=learner, service=None, weights=store,
        publish_interval=2)
    # The publisher's thread stops before Ray does (`tearDownClass`).
    self.addCleanup(source.close, failed=True)
    # What `TrainingLoop` calls before it compiles the learner's step.
    source.compile_function()()
    # Version 0, the network's own weights, reaches the store for the
    # actors with no learner step (sent by the publisher's thread).
    deadline = time.monotonic() + 60
    version = weight_store.NO_VERSION
    while version == weight_store.NO_VERSION and time.monotonic() < deadline:
      version, (reference,) = ray.get(store.latest.remote())
      time.sleep(0.01)
    self.assertEqual(version, 0)
    arrays = ray.get(reference)
    self.assertLen(arrays, len(network.variables))
    for array, variable in zip(arrays, network.variables):
      np.testing.assert_array_equal(array, variable.numpy())
    # Then the rounds' steps, publishing every two (not again at the first).
    for steps in range(1, 4):
      source.run_round(learner.learn, lambda: learner.steps)
      self.assertEqual(learner.steps, steps)
      self.assertEqual(source.published_version, 2 * (steps // 2))


class _StatsService:
  """The service's `stats` at two log steps: before it granted two learner
  steps (no observed ratio yet), then after."""

  def __init__(self):
    self._answers = [
        {'games': 4, 'env_steps': 36, 'positions': 36, 'queued_games': 1,
         'observed_ratio': None, 'ratio_window': 0,
         'worst_ratio_deviation': None, 'reanalysed_batches': 0,
         'returns': [1., 1., 0., -1.], 'lengths': [5, 7, 9, 9]},
        {'games': 8, 'env_steps': 96, 'positions': 96, 'queued_games': 0,
         'observed_ratio': 0.05, 'ratio_window': 3,
         'worst_ratio_deviation': None, 'reanalysed_batches': 6,
         'returns': [1.], 'lengths': [6]}]

  def stats(self):
    return self._answers.pop(0)


class ProgressTest(_RayTestCase):
  """The scalars of each log step, for the progress line and TensorBoard."""

  def test_scalars_with_reanalyse_workers(self):
    config = testing.tiny_mlp_config()
    network = networks.make_network(config)
    network.create_variables()
    store = ray.remote(weight_store.WeightStore).options(
        num_cpus=0).remote()
    service = ray.remote(_StatsService).options(num_cpus=0).remote()
    learner = _Learner(network)
    # Two reanalyse workers: only counted here, never asked.
    source = replay_source.ReplayServiceSource(
        config, learner=learner, service=service, weights=store,
        publish_interval=2, reanalyse_workers=(object(), object()))
    self.addCleanup(source.close, failed=True)
    source.compile_function()()  # Weights version 0.
    self.assertEqual(source.progress(2.), {
        'selfplay/games': 4, 'selfplay/env_steps': 36,
        'selfplay/env_steps_per_second': 18., 'selfplay/episode_return': 0.25,
        'selfplay/game_length': 7.5, 'replay/positions': 36,
        'replay/queued_games': 1, 'replay/train_ratio_window': 0,
        'weights/version': 0, 'reanalyse/batches': 0,
        'reanalyse/workers': 2})
    for _ in range(3):  # Publishing at step 2.
      source.run_round(learner.learn, lambda: learner.steps)
    self.assertEqual(source.progress(2.), {
        'selfplay/games': 8, 'selfplay/env_steps': 96,
        'selfplay/env_steps_per_second': 30., 'selfplay/episode_return': 1.,
        'selfplay/game_length': 6., 'replay/positions': 96,
        'replay/queued_games': 0, 'replay/observed_train_ratio': 0.05,
        'replay/train_ratio_window': 3, 'weights/version': 2,
        'reanalyse/batches': 6, 'reanalyse/workers': 2})


class RestartTest(_RayTestCase):
  """A service that Ray restarted is restored from the last checkpoint."""

  def test_the_resumed_checkpoints_replay_goes_back_with_its_counts(self):
    config = testing.tiny_mlp_config()
    service = ray.remote(_RestartedService).options(num_cpus=0).remote(
        testing.random_batch(config, batch_size=4))
    source = replay_source.ReplayServiceSource(
        config, learner=_Learner(None), service=service, weights=None,
        publish_interval=1)
    # A run resumed from the checkpoint at learner step 30: its counters
    # and its replay file.
    path = os.path.join(self.create_tempdir().full_path, 'replay-30.npz')
    buffer = replay_lib.ReplayBuffer(config)
    for _ in range(5):
      buffer.save_game(_game(8))
    buffer.save(path)
    saved = {'env_steps': 40, 'counted_env_steps': 36, 'learner_steps': 31,
             'games': 5}
    for name, value in saved.items():
      source.counters()[f'distributed_{name}'].assign(value)
    source._learner.steps = 30
    source.restore_replay(replay_lib.ReplayBuffer.restore(config, path))
    source.sample()  # The service counts 9 games, 70 environment steps.
    source._learner.steps = 33
    ray.get(service.die.remote())
    with self.assertLogs('absl', level='WARNING') as logs:
      # The batch asked for while the last was learnt from came from the
      # process before; the request after it is refused.
      source.sample()
      source.sample()
    # The checkpoint's file and counts, the learner's steps: no step is
    # owed until new games replace the lost ones.
    self.assertEqual(ray.get(service.recorded.remote()),
                     [(5, 40, saved), (5, 40, dict(saved, learner_steps=33))])
    (line,) = logs.output
    self.assertIn(
        "The replay service's process died; Ray restarted it with the replay "
        'of the checkpoint at learner step 30 (5 games, 40 positions). Lost: '
        'the games admitted since (at least 4, of 30 positions); the learner '
        'waits at step 33 ', line)
