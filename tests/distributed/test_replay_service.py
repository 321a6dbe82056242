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
"""Tests of the replay service's logic, in one event loop without Ray."""

import asyncio
import os

import numpy as np

from muzero_snt import replay as replay_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt.distributed import replay_service
from tests import testing


def _config(**changes):
  fields = dict(window_size=50, batch_size=4, num_unroll_steps=2,
                td_steps=2, discount=0.5)
  fields.update(changes)
  return testing.tiny_mlp_config(**fields)


def _game(length, seed=0):
  """A random finished game of `length` moves over CartPole's shapes."""
  game = testing.random_game(length, seed)
  return replay_service.Game(game, float(length))


def _run(coroutine):
  return asyncio.new_event_loop().run_until_complete(coroutine)


class ReplayServiceTest(testing.TestCase):

  def test_learner_waits_for_data_and_gets_what_is_owed(self):
    # r = 0.5; the first game (4 positions = one batch) owes nothing.
    service = replay_service.ReplayService(_config(), 0.5)

    async def scenario():
      self.assertIsNone(await service.sample_batch(timeout=0.01))
      await service.insert(0, [_game(4)])
      self.assertIsNone(await service.sample_batch(timeout=0.01))
      await service.insert(0, [_game(6, seed=1)])  # floor(6 / 2) = 3 owed.
      batches = [await service.sample_batch(timeout=0.01) for _ in range(4)]
      return batches

    batches = _run(scenario())
    self.assertIsNotNone(batches[2])
    self.assertIsNone(batches[3])
    batch, keys = batches[0]
    self.assertEqual(batch.observation.shape, (4, 4))
    self.assertTrue(np.all((keys[:, 0] >= 0) & (keys[:, 0] <= 1)))
    counters = service.counters()
    self.assertEqual(counters, {'env_steps': 10, 'counted_env_steps': 6,
                                'learner_steps': 3, 'games': 2})

  def test_sampling_wakes_up_when_a_game_arrives(self):
    service = replay_service.ReplayService(_config(), 1.)

    async def scenario():
      await service.insert(0, [_game(4)])
      waiting = asyncio.ensure_future(service.sample_batch(timeout=5.))
      await asyncio.sleep(0.01)
      self.assertFalse(waiting.done())
      await service.insert(1, [_game(3, seed=1)])
      return await waiting

    self.assertIsNotNone(_run(scenario()))

  def test_an_actor_too_far_ahead_is_held_until_the_learner_catches_up(self):
    # r = 1, max_ahead = 5: after the warm-up game, a 5-move game owes 5
    # steps; the next 5-move game would make 10 > 5 and waits in the queue,
    # and the actor's next insert waits until it is admitted.
    service = replay_service.ReplayService(_config(), 1., max_ahead=5)

    async def scenario():
      await service.insert(0, [_game(4)])
      await service.insert(0, [_game(5, seed=1)])
      self.assertEqual(await service.insert(0, [_game(5, seed=2)]), 0)
      held = asyncio.ensure_future(service.insert(0, [_game(5, seed=3)]))
      await asyncio.sleep(0.01)
      self.assertFalse(held.done())
      self.assertEqual(service.stats()['queued_games'], 1)
      for _ in range(5):
        self.assertIsNotNone(await service.sample_batch(timeout=0.01))
      # Owed 0 now: the queued game is admitted, the actor goes on.
      await asyncio.wait_for(held, 1.)
      return service.stats()

    stats = _run(scenario())
    self.assertEqual(stats['games'], 3)
    self.assertEqual(stats['queued_games'], 1)
    self.assertEqual(stats['returns'], [5.])  # Admitted since last stats.

  def test_actors_and_learner_at_random_speeds_hold_the_ratio(self):
    # Two actors and the learner interleave at random; games of 1..40
    # moves at r = 1 are worth at most 40 learner steps (max_ahead).
    service = replay_service.ReplayService(_config(window_size=100), 1.)
    limiter = service._limiter
    env_at_grant = []
    grant = limiter.sample

    def recorded_sample():
      env_at_grant.append(limiter.counted_env_steps)
      grant()

    limiter.sample = recorded_sample
    rng = np.random.default_rng(0)
    steps = 3000

    async def actor(index):
      while True:
        for _ in range(int(rng.integers(0, 20))):
          await asyncio.sleep(0)
        games = [_game(int(rng.integers(1, 41)), seed=int(rng.integers(1e9)))
                 for _ in range(int(rng.integers(1, 4)))]
        await service.insert(index, games)

    async def learner():
      while len(env_at_grant) < steps:
        for _ in range(int(rng.integers(0, 5))):
          await asyncio.sleep(0)
        self.assertIsNotNone(await service.sample_batch(timeout=5.))

    async def scenario():
      actors = [asyncio.ensure_future(actor(i)) for i in range(2)]
      await asyncio.wait_for(learner(), 120.)
      for task in actors:  # Held in `insert` once the learner stops.
        task.cancel()

    _run(scenario())
    env = np.array(env_at_grant)
    deviation = np.abs(1000 / (env[1000:] - env[:-1000]) - 1)
    self.assertLess(deviation.max(), 0.05)
    self.assertTrue(np.all(env >= np.arange(1, len(env) + 1)))
    self.assertAlmostEqual(service.stats()['worst_ratio_deviation'],
                           deviation.max())

  def test_unfinished_games_are_refused(self):
    service = replay_service.ReplayService(_config(), 1.)
    game = trajectory_lib.Trajectory(2, 1, 0.5)
    game.append(np.zeros(4, np.float32), 0, 0, 0., np.ones(2) / 2, 0.)
    with self.assertRaisesRegex(ValueError, 'unfinished game of 1 moves'):
      _run(service.insert(3, [replay_service.Game(game, 0.)]))

  def test_priority_updates_reach_the_buffer(self):
    service = replay_service.ReplayService(
        _config(prioritized_replay=True), 1.)
    _run(service.insert(0, [_game(4)]))
    service.update_priorities(np.array([[0, 2]]), np.array([7.]))
    path = os.path.join(self.get_temp_dir(), 'replay.npz')
    service.save(path)
    buffer = replay_lib.ReplayBuffer.restore(service._config, path)
    self.assertAlmostEqual(buffer.get_priorities([[0, 2]])[0],
                           7. + replay_lib.PRIORITY_EPSILON)

  def test_save_and_restore_continue_the_buffer_and_counters(self):
    config = _config(prioritized_replay=True)
    service = replay_service.ReplayService(config, 0.5, seed=3)
    _run(service.insert(0, [_game(4), _game(8, seed=1)]))
    _run(service.sample_batch(timeout=0.01))
    path = os.path.join(self.get_temp_dir(), 'replay.npz')
    counters = service.save(path)
    self.assertEqual(counters, {'env_steps': 12, 'counted_env_steps': 8,
                                'learner_steps': 1, 'games': 2})
    expected = _run(service.sample_batch(timeout=0.01))
    restored = replay_service.ReplayService(config, 0.5)
    self.assertEqual(_run(restored.restore(path, counters)), (2, 12))
    self.assertEqual(restored.counters(), counters)
    batch, keys = _run(restored.sample_batch(timeout=0.01))
    # The buffer's generator state is saved too: the same next batch.
    np.testing.assert_array_equal(keys, expected[1])
    np.testing.assert_array_equal(batch.observation, expected[0].observation)
    self.assertEqual(restored.counters()['learner_steps'], 2)

  def test_a_restarted_service_refuses_the_learner_until_restored(self):
    # What Ray restarts after the service's process died: it holds no
    # buffer; the learner restores it with a checkpoint's counters (here
    # none yet) but its own 3 learner steps.
    service = replay_service.ReplayService(_config(), 0.5,
                                           wait_for_restore=True)
    path = os.path.join(self.get_temp_dir(), 'replay.npz')
    for call in (service.stats, lambda: service.save(path),
                 lambda: service.update_priorities(np.zeros((1, 2)), [1.]),
                 lambda: _run(service.learner_batch('sample', 0.01)),
                 lambda: _run(service.take_reanalysed(0.01))):
      with self.assertRaises(replay_service.NotRestoredError):
        call()
    self.assertFalse(os.path.exists(path))

    async def scenario():
      # An actor's games wait for the restore (its call, sent again by Ray
      # to the new process, returns once they are in).
      held = asyncio.ensure_future(
          service.insert(0, [_game(4), _game(8, seed=1)]))
      for _ in range(3):
        await asyncio.sleep(0)
      self.assertFalse(held.done())
      restored = await service.restore(
          None, dict(replay_service.NO_COUNTS, learner_steps=3))
      self.assertEqual(restored, (0, 0))  # The waiting games come after.
      self.assertEqual(await held, 2)
      # floor(0.5 * 8) - 3 = 1 step owed (the first 4 positions fill a
      # batch and owe none).
      return [await service.learner_batch('sample', 0.01)
              for _ in range(2)]

    (first, counters), (second, _) = _run(scenario())
    self.assertIsNotNone(first)
    self.assertIsNone(second)
    self.assertEqual(counters, {'env_steps': 12, 'counted_env_steps': 8,
                                'learner_steps': 4, 'games': 2})

  def test_registrations_count_incarnations(self):
    service = replay_service.ReplayService(_config(), 1.)
    self.assertEqual(service.register(0, 100), 0)
    self.assertEqual(service.register(1, 101), 0)
    self.assertEqual(service.register(0, 102), 1)
    self.assertEqual(service.registrations(), {0: [100, 102], 1: [101]})


class ReanalysisTest(testing.TestCase):
  """The batches and inputs the service hands to reanalysis."""

  def test_the_learner_gets_the_chosen_rows_inputs_with_its_batch(self):
    # fraction 0.5 of 4 rows: exactly 2 rows, each searched at its K+1 = 3
    # positions inside the game (games of 4 and 6 moves, from t <= 3).
    config = _config(reanalyze_fraction=0.5)
    service = replay_service.ReplayService(config, 0.5)

    async def scenario():
      await service.insert(0, [_game(4), _game(6, seed=1)])
      return await service.sample_with_inputs(timeout=0.01)

    batch, keys, inputs, maps = _run(scenario())
    self.assertLen(inputs.rows, 2)
    np.testing.assert_array_equal(maps, np.zeros(4))  # No symmetries.
    self.assertEqual(service.counters()['learner_steps'], 1)
    games = {0: _game(4).trajectory, 1: _game(6, seed=1).trajectory}
    expected = [(row, step) for row in inputs.rows.tolist()
                for step in range(3)
                if keys[row, 1] + step < games[keys[row, 0]].length]
    self.assertEqual([tuple(x) for x in inputs.searched.tolist()], expected)
    for (row, step), observation in zip(inputs.searched.tolist(),
                                        inputs.observations):
      game_id, t = keys[row].tolist()
      np.testing.assert_array_equal(
          observation, games[game_id].observations[t + step])
    # A row's first searched position is the batch's observation.
    index = {tuple(x): i for i, x in enumerate(inputs.searched.tolist())}
    for row in inputs.rows.tolist():
      np.testing.assert_array_equal(batch.observation[row],
                                    inputs.observations[index[(row, 0)]])

  def test_workers_take_only_owed_batches_and_the_learner_one_a_step(self):
    config = _config(reanalyze_fraction=1.)
    service = replay_service.ReplayService(config, 0.5, reanalysis_queue=3)

    async def scenario():
      # Nothing owed yet: no batch for a worker.
      await service.insert(0, [_game(4)])
      self.assertIsNone(await service.take_for_reanalysis(0, timeout=0.01))
      await service.insert(0, [_game(4, seed=1)])  # floor(4 / 2) = 2 owed.
      first = await service.take_for_reanalysis(0, timeout=0.01)
      second = await service.take_for_reanalysis(1, timeout=0.01)
      # Two held and two owed: a third waits for more data.
      self.assertIsNone(await service.take_for_reanalysis(0, timeout=0.01))
      self.assertIsNone(await service.take_reanalysed(timeout=0.01))
      (ticket, (batch, keys, _, _)), (ticket_2, sampled_2) = first, second
      self.assertTrue(await service.put_reanalysed(
          ticket_2, sampled_2.batch, sampled_2.keys))
      taken, taken_keys = await service.take_reanalysed(timeout=0.01)
      np.testing.assert_array_equal(taken_keys, sampled_2.keys)
      counters = service.counters()
      # Worker 0 restarts: its batch is dropped, and another may be taken.
      await service.register_reanalyser(0, 100)
      self.assertFalse(await service.put_reanalysed(ticket, batch, keys))
      third = await service.take_for_reanalysis(0, timeout=0.01)
      self.assertIsNone(await service.take_for_reanalysis(0, timeout=0.01))
      return counters, third, service.stats()

    counters, third, stats = _run(scenario())
    # One grant per batch the learner took, none for those workers took.
    self.assertEqual(counters['learner_steps'], 1)
    self.assertIsNotNone(third)
    self.assertEqual(stats['reanalysed_batches'], 1)
    self.assertEqual(stats['reanalysis_held'], 1)
    self.assertEqual(service.registrations(), {-1: [100]})
