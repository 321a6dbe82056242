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
"""Reanalysis in a distributed run on a local Ray: workers and the learner.

The weights are published once, before the first step (publish_interval
far beyond the run), so self-play, the reanalyse workers' searches and
their target networks use the learner's initial weights, which the test
reads from the weight store; reanalysis in the learner's process uses the
learner's network and target network of the moment, which the test copies
before each batch. The learner's batches are then checked row by row
against the stored games (the replay service's file at the end): a row is
either stored (its policy and value targets as self-play left them) or
reanalysed (each position's policy is the reference NumPy search of the
stored position, without noise, and each bootstrapped value uses the
target network's value), each row then moved by one of the board's 8
symmetries with its window, and half the rows of every batch are
reanalysed (fraction 0.5 of 8 rows).
"""

import os

# Before Ray is imported: a private instance on the loopback interface.
os.environ['RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'] = '0'

# pylint: disable=g-import-not-at-top,wrong-import-position
import shutil
import tempfile

import numpy as np
import pytest
import tensorflow as tf

from muzero_snt.run import experiment

from muzero_snt.run import run_config
from muzero_snt import networks
from muzero_snt import replay as replay_lib
from muzero_snt import search as search_lib
from muzero_snt import symmetries
from muzero_snt.distributed import weight_store
from tests import testing
from tests.distributed import ray_testing
from tests.distributed import test_distributed_run

ray = pytest.importorskip('ray')
# pylint: enable=g-import-not-at-top,wrong-import-position

_MAX_STEPS = 3000
_KILL_AT = 5  # Learner step at which the reanalyse worker is killed.
_MIN_STEPS = 30


def _config():
  # Bootstrapped values (td_steps 3 < 9 moves); a window holding every
  # game; prioritised, so the learner gets (and updates) the keys; the
  # preset's board symmetries, which move the windows after reanalysis.
  return test_distributed_run.tiny_tictactoe_config(
      reanalyze_fraction=0.5, target_update_interval=10, window_size=5000,
      prioritized_replay=True, board_symmetries='dihedral')


def _unmoved_policies(batch, row, game, t):
  """{map: the row's policy targets moved back by it} for each dihedral
  map that moves the stored window (its first observation and the actions
  inside the game) onto the batch's row: one map, or several for a
  symmetric position."""
  maps = symmetries.BoardSymmetries('dihedral', (3, 3, 3), 9)
  image = maps.action_image
  played = game.actions[t:t + batch.action.shape[1]]
  unmoved = {}
  for j in range(maps.size):
    observation = maps.transform_observations(game.observations[t][None],
                                              np.array([j]))[0]
    if (np.array_equal(observation, batch.observation[row]) and
        np.array_equal(image[j][played], batch.action[row, :len(played)])):
      # Mass on action a was moved to image[j][a].
      unmoved[j] = batch.target_policy[row][:, image[j]]
  return unmoved


class _Recorder:
  """`on_round`: records the learner's batches, kills the reanalyse worker
  at step `_KILL_AT` (if asked), and stops once it has come back."""

  def __init__(self, directory, kill):
    self.directory = directory
    self.kill = kill
    self.batches = []
    self.killed_pid = None
    self.registrations = None
    self.stats = None
    self.weights = None
    self.statuses = None

  def __call__(self, loop) -> bool:
    source, steps = loop.source, loop.learner.steps
    if self.weights is None:
      version, (reference,) = ray.get(source.weight_store.latest.remote())
      assert version == 0, version
      self.weights = ray.get(reference)
      sample = source.sample

      def recording_sample():
        # The networks the batch's reanalysis uses.
        network = target = self.weights
        if source.reanalyser is not None:  # The learner's, at this step.
          network = weight_store.network_arrays(loop.learner.network)
        batch, keys = sample()
        if source.reanalyser is not None:  # Refreshed in `sample`.
          target = weight_store.network_arrays(
              source.reanalyser.target_network)
        self.batches.append((batch, keys, network, target))
        return batch, keys

      source.sample = recording_sample
    workers = source.reanalyse_workers
    if self.kill and steps == _KILL_AT and self.killed_pid is None:
      self.killed_pid = ray_testing.kill(workers[0])
    if steps < _MIN_STEPS or steps % 5:
      return False
    self.registrations = ray.get(source.service.registrations.remote())
    if self.kill:
      statuses = ray_testing.statuses(workers)
      if statuses is None:
        return False  # Restarting.
      self.statuses = statuses
      if not (len(self.registrations[-1]) == 2 and
              self.statuses[0]['batches'] >= 3):
        return False
    self.stats = source.stats()
    ray.get(source.service.save.remote(
        os.path.join(self.directory, 'replay.npz')))
    return True


class _ReanalysedRunTest(testing.TestCase):
  """One run per class (`_settings`), checked batch by batch."""

  num_reanalyze_workers = 0

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    ray_testing.start_ray()
    cls.directory = tempfile.mkdtemp()
    cls.config = _config()
    cls.recorder = _Recorder(cls.directory,
                             kill=cls.num_reanalyze_workers > 0)
    cls.loop = experiment.run(
        run_config.RunConfig(
            config=cls.config,
            preset='tictactoe', num_actors=1, num_envs=4, train_ratio=0.5,
            search='graph', jit_compile=False, publish_interval=10**6,
            log_every=10, num_reanalyze_workers=cls.num_reanalyze_workers),
        on_round=cls.recorder)

  @classmethod
  def tearDownClass(cls):
    shutil.rmtree(cls.directory, ignore_errors=True)
    ray.shutdown()
    super().tearDownClass()

  def test_half_the_rows_of_every_batch_have_reanalysed_targets(self):
    config = self.config
    k, n = config.num_unroll_steps, config.td_steps
    replay = replay_lib.ReplayBuffer.restore(
        config, os.path.join(self.directory, 'replay.npz'))
    network = networks.make_network(config)
    network.create_variables()
    target = networks.make_network(config)
    target.create_variables()
    reference = search_lib.make_search(config, network, 'reference')
    self.assertGreaterEqual(len(self.recorder.batches), 10)
    decisive_rows = 0  # Reanalysed rows whose stored targets differ.
    moved_rows = 0  # Rows no identity map explains.
    # The last ten: the further the learner's network has moved from the
    # actors' (the first publication's), the rarer a fresh search repeats a
    # stored policy by chance.
    for batch, keys, arrays, target_arrays in self.recorder.batches[-10:]:
      weight_store.assign_arrays(network, arrays)
      weight_store.assign_arrays(target, target_arrays)
      # Each row is checked against both its stored targets and its
      # reanalysed ones (the reference search of the stored positions,
      # without noise, and the target network's bootstraps): a row whose
      # two sets agree by chance (a position with one legal action, a
      # window past the bootstraps) counts for both.
      as_stored, as_reanalysed, only_reanalysed = 0, 0, 0
      for row, (game_id, t) in enumerate(keys.tolist()):
        game = replay.game(game_id)
        stored = game.make_target(t, k, n)
        inside = min(k + 1, game.length - t)
        unmoved = _unmoved_policies(batch, row, game, t)
        self.assertNotEmpty(unmoved, f'row {row} is no map of its window')
        stored_maps = [
            j for j, p in unmoved.items()
            if np.array_equal(p, stored.target_policy) and
            np.array_equal(batch.target_value[row], stored.target_value)]
        searched = np.stack([
            reference(game.observations[j][None], [int(game.to_play[j])],
                      game.legal_actions[j][None], np.random.default_rng(0),
                      add_noise=False).policy[0]
            for j in range(t, t + inside)])
        values = np.array(stored.target_value, np.float64)
        for step in range(inside):
          j = t + step
          if j + n < game.length:
            # The stored bootstrap (discount 1) replaced by the target
            # network's value of the stored observation there.
            sign = 1. if game.to_play[j] == game.to_play[j + n] else -1.
            value = float(target.initial_inference(
                tf.constant(game.observations[j + n][None])).value[0])
            values[step] = (game.value_targets(n)[j] +
                            sign * (value - game.root_values[j + n]))
        reanalysed_maps = [
            j for j, p in unmoved.items()
            if np.array_equal(p[:inside], searched) and
            np.allclose(batch.target_value[row, :inside], values[:inside],
                        rtol=1e-6, atol=1e-5)]
        self.assertTrue(stored_maps or reanalysed_maps,
                        f'row {row}: neither its stored targets nor its '
                        'reanalysed ones, under any map')
        as_stored += bool(stored_maps)
        as_reanalysed += bool(reanalysed_maps)
        only_reanalysed += not stored_maps
        moved_rows += 0 not in (stored_maps or reanalysed_maps)
      # 4 rows of 8 reanalysed, 4 stored.
      self.assertGreaterEqual(as_stored, 4)
      self.assertGreaterEqual(as_reanalysed, 4)
      self.assertLessEqual(only_reanalysed, 4)
      decisive_rows += only_reanalysed
    # Reanalysis changed the targets of a quarter of the rows at least (of
    # the 40 reanalysed rows, the rest agree with the stored targets by
    # chance: terminal windows and near-uniform priors with 4 simulations).
    self.assertGreaterEqual(decisive_rows, 10)
    # Rows are moved (7 in 8 by a map other than the identity).
    self.assertGreater(moved_rows, 40)

  def test_one_limiter_grant_per_learner_step(self):
    stats = self.recorder.stats
    # The next batch is asked for (and granted) while a step is computed.
    self.assertIn(stats['learner_steps'] - self.loop.learner.steps, (0, 1))
    self.assertGreaterEqual(0.5 * stats['counted_env_steps'],
                            stats['learner_steps'])


class InTheLearnerTest(_ReanalysedRunTest):
  """No reanalyse worker: the learner reanalyses the service's batches."""

  num_reanalyze_workers = 0

  def test_the_learner_holds_the_reanalysis_state(self):
    source = self.loop.source
    self.assertIsNotNone(source.reanalyser)
    self.assertIn('reanalyse_target_network', source.counters())
    # One reanalysis per learner step.
    self.assertEqual(int(source.counters()['reanalyse_reanalysed_batches']),
                     self.loop.learner.steps)


class WorkerTest(_ReanalysedRunTest):
  """One reanalyse worker, killed with kill -9 at step 5."""

  num_reanalyze_workers = 1

  def test_the_killed_worker_is_restarted_and_reanalyses_again(self):
    recorder = self.recorder
    pids = recorder.registrations[-1]  # Reanalyse worker 0.
    self.assertLen(pids, 2)
    self.assertEqual(pids[0], recorder.killed_pid)
    self.assertNotEqual(pids[1], pids[0])
    status = recorder.statuses[0]
    self.assertGreaterEqual(status['batches'], 3)
    self.assertIsNone(status['error'])
    self.assertEqual((status['version'], status['target_version']), (0, 0))
    self.assertIsNone(self.loop.source.reanalyser)
    self.assertGreaterEqual(self.recorder.stats['reanalysed_batches'],
                            self.loop.learner.steps)


del _ReanalysedRunTest  # Only its subclasses run.


class _ShardRecorder:
  """`on_round`: stops once every shard has reanalysed batches, recording
  each shard's registrations and statistics."""

  def __init__(self):
    self.registrations = None
    self.stats = None

  def __call__(self, loop) -> bool:
    source = loop.source
    if loop.learner.steps < _MIN_STEPS or loop.learner.steps % 5:
      return False
    stats = ray.get([s.stats.remote() for s in source.shards])
    if not all(s['reanalysed_batches'] >= 3 for s in stats):
      return False
    self.registrations = ray.get([s.registrations.remote()
                                  for s in source.shards])
    self.stats = stats
    return True


class ShardedWorkersTest(testing.TestCase):
  """Two replay shards, two reanalyse workers: worker j serves shard j."""

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    ray_testing.start_ray(num_cpus=4)  # One per actor and worker.
    cls.recorder = _ShardRecorder()
    cls.loop = experiment.run(
        run_config.RunConfig(
            config=_config(), preset='tictactoe', num_actors=2, num_envs=4,
            train_ratio=0.5, search='graph', jit_compile=False,
            publish_interval=10, log_every=10, replay_shards=2,
            num_reanalyze_workers=2),
        on_round=cls.recorder)

  @classmethod
  def tearDownClass(cls):
    ray.shutdown()
    super().tearDownClass()

  def test_each_shard_is_reanalysed_by_its_own_worker(self):
    recorder = self.recorder
    self.assertIsNotNone(recorder.stats, 'a shard was never reanalysed')
    # Shard k holds actor k's games and reanalyse worker k (as -1 - k).
    self.assertCountEqual(recorder.registrations[0], [0, -1])
    self.assertCountEqual(recorder.registrations[1], [1, -2])
    # Every learner batch was a reanalysed one, from one shard or the
    # other: the shards reanalysed at least as many as the learner took.
    reanalysed = sum(s['reanalysed_batches'] for s in recorder.stats)
    self.assertGreaterEqual(reanalysed, self.loop.learner.steps)
    self.assertLess(self.loop.learner.steps, _MAX_STEPS)
