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
"""Tests of the replay shards: the choice of a batch's shard, its exact
distribution over positions, and one file restored onto any number."""

import asyncio
import collections
import os

import numpy as np

from muzero_snt import replay as replay_lib
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import shards
from muzero_snt.run import run_config
from tests import testing


def _config(**changes):
  fields = dict(window_size=12, batch_size=4, num_unroll_steps=2,
                td_steps=2, discount=0.5)
  fields.update(changes)
  return testing.tiny_mlp_config(**fields)


def _game(length, seed):
  """A random finished game; its observations tell its positions apart."""
  return testing.random_game(length, seed)


def _positions(buffer):
  """{observation bytes: priority} of every stored position."""
  found = {}
  for game_id in buffer.game_ids:
    game = buffer.game(game_id)
    keys = [[game_id, t] for t in range(game.length)]
    for t, p in enumerate(buffer.get_priorities(keys)):
      found[game.observations[t].tobytes()] = p
  return found


class ChooseTest(testing.TestCase):

  def test_shards_of_30_and_10_positions_give_three_quarters_and_one(self):
    # The draw u * 40 falls in [0, 30) for shard 0, [30, 40) for shard 1.
    rng = collections.namedtuple('Rng', 'random')
    self.assertEqual(shards.choose([30, 10], rng(lambda: 0.7499)), 0)
    self.assertEqual(shards.choose([30, 10], rng(lambda: 0.75)), 1)
    generator = np.random.default_rng(0)
    counts = collections.Counter(
        shards.choose([30, 10], generator) for _ in range(4000))
    # 3/4 and 1/4 within 4 standard deviations (sqrt(4000 3/16) = 27).
    self.assertLess(abs(counts[0] - 3000), 4 * 27.4)
    self.assertEqual(counts[0] + counts[1], 4000)

  def test_empty_shards_are_never_chosen_unless_all_are(self):
    rng = np.random.default_rng(0)
    self.assertEqual({shards.choose([0, 5, 0], rng) for _ in range(50)}, {1})
    self.assertEqual({shards.choose([0, 0], rng) for _ in range(50)}, {0, 1})

  def test_actors_go_to_shards_in_turn(self):
    self.assertEqual([shards.shard_of(i, 3) for i in range(7)],
                     [0, 1, 2, 0, 1, 2, 0])

  def test_windows_add_up_to_the_run_s(self):
    config = _config(window_size=11)
    self.assertEqual([shards.shard_config(config, k, 3).window_size
                      for k in range(3)], [4, 4, 3])
    self.assertEqual(shards.shard_config(config, 0, 1), config)
    with self.assertRaisesRegex(ValueError, r'num_shards must be an integer '
                                r'in \[1, window_size = 11\].*got 12'):
      shards.shard_config(config, 0, 12)


class PrioritisedShardsTest(testing.TestCase):

  def test_each_row_has_the_probability_and_weight_of_one_buffer(self):
    # alpha = beta = 1. Shard 0 holds positions a, b of priorities 1 and
    # 3, shard 1 position c of priority 4: masses 4 and 4. One buffer of
    # all three: P = 1/8, 3/8, 4/8; its weights (3 P)^-1 are 8/3, 8/9 and
    # 2/3, so b's is a third of a's in a batch holding both.
    config = _config(prioritized_replay=True, priority_alpha=1.,
                     priority_beta=1., batch_size=4)
    buffers = [replay_lib.ReplayBuffer(config, seed=k) for k in range(2)]
    buffers[0].save_game(_game(2, seed=0))
    buffers[1].save_game(_game(1, seed=1))
    buffers[0].update_priorities([[0, 0], [0, 1]], [1., 3.])
    buffers[1].update_priorities([[0, 0]], [4.])
    masses = [b.sampling_mass for b in buffers]
    np.testing.assert_allclose(masses, [4., 4.], rtol=1e-5)
    rng = np.random.default_rng(0)
    counts = collections.Counter()
    draws = 2000
    for _ in range(draws):
      k = shards.choose(masses, rng)
      batch, keys = buffers[k].sample_batch(augment=False)
      counts.update((k, position) for position in keys[:, 1].tolist())
      if k == 0 and set(keys[:, 1].tolist()) == {0, 1}:
        weights = {int(t): w for t, w in zip(keys[:, 1], batch.weight)}
        self.assertAlmostEqual(weights[1] / weights[0], 1. / 3., places=5)
    n = 4 * draws
    # Batches share a shard: the shard's 1/2 varies as over 2000 draws
    # (standard deviation 0.011 of a fraction), hence 0.045.
    for key, p in {(0, 0): 1 / 8, (0, 1): 3 / 8, (1, 0): 4 / 8}.items():
      self.assertAlmostEqual(counts[key] / n, p, delta=0.045, msg=key)


class OneShardTest(testing.TestCase):

  def test_one_shard_samples_the_batches_of_one_buffer(self):
    config = _config()
    service = replay_service.ReplayService(config, 1., seed=7, shard=0,
                                           num_shards=1)
    buffer = replay_lib.ReplayBuffer(config, seed=7)
    games = [_game(n, seed=n) for n in (4, 6, 3)]
    loop = asyncio.new_event_loop()
    loop.run_until_complete(service.insert(
        0, [replay_service.Game(g, 0.) for g in games]))
    for game in games:
      buffer.save_game(game)
    for _ in range(3):
      (batch, keys), _ = loop.run_until_complete(
          service.learner_batch('sample', timeout=1.))
      expected, expected_keys = buffer.sample_batch()
      np.testing.assert_array_equal(keys, expected_keys)
      for name, value in batch._asdict().items():
        if value is not None:
          np.testing.assert_array_equal(value, getattr(expected, name))


class FileTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    # Three shards of windows 4, 4 and 4, holding 3, 2 and 4 games.
    self.config = _config(prioritized_replay=True)
    self.buffers = []
    seed = 0
    for k, games in enumerate((3, 2, 4)):
      buffer = replay_lib.ReplayBuffer(
          shards.shard_config(self.config, k, 3), seed=shards.shard_seed(5, k))
      for _ in range(games):
        seed += 1
        buffer.save_game(_game(2 + seed % 4, seed))
      self.buffers.append(buffer)
    self.buffers[1].update_priorities([[1, 0]], [9.])
    self.counters = [{'env_steps': b.num_positions,
                      'counted_env_steps': b.num_positions - 1,
                      'learner_steps': 3 + k, 'games': b.num_games}
                     for k, b in enumerate(self.buffers)]
    self.path = os.path.join(self.get_temp_dir(), 'replay.npz')
    shards.write(self.path, self.config, self.buffers, self.counters)
    self.positions = {}
    for buffer in self.buffers:
      self.positions.update(_positions(buffer))

  def test_three_shards_restored_onto_three_continue_each_shard(self):
    dealt = shards.deal(self.config, shards.read(self.config, self.path), 3,
                        5, shards.summed(self.counters))
    for (buffer, counters), saved, saved_counters in zip(
        dealt, self.buffers, self.counters):
      self.assertEqual(counters, saved_counters)
      self.assertEqual(buffer.game_ids, saved.game_ids)
      self.assertEqual(_positions(buffer), _positions(saved))
      # The generator's state too: the same next batch.
      np.testing.assert_array_equal(buffer.sample_batch()[1],
                                    saved.sample_batch()[1])

  def test_three_shards_restored_onto_two_and_one_hold_each_position_once(
      self):
    parts = shards.read(self.config, self.path)
    total = shards.summed(self.counters)
    for num_shards in (2, 1):
      dealt = shards.deal(self.config, parts, num_shards, 5, total)
      found = collections.Counter()
      priorities = {}
      for k, (buffer, _) in enumerate(dealt):
        self.assertLessEqual(
            buffer.num_games,
            shards.shard_config(self.config, k, num_shards).window_size)
        here = _positions(buffer)
        found.update(list(here))
        priorities.update(here)
      self.assertEqual(set(found), set(self.positions))
      self.assertEqual(set(found.values()), {1}, num_shards)
      self.assertEqual(priorities, self.positions)  # 9 + epsilon included.
      self.assertEqual(shards.summed([c for _, c in dealt]), total)
    # Onto two: the 9 games dealt 5 and 4, counters by positions dealt.
    (first, counters), (second, _) = shards.deal(self.config, parts, 2, 5,
                                                 total)
    self.assertEqual((first.num_games, second.num_games), (5, 4))
    self.assertEqual(counters['games'], round(
        9 * first.num_positions / (first.num_positions +
                                   second.num_positions)))

  def test_the_file_reads_as_one_buffer_of_every_game(self):
    whole = replay_lib.ReplayBuffer.restore(self.config, self.path)
    self.assertEqual(whole.num_games, 9)
    self.assertEqual(_positions(whole), self.positions)

  def test_a_file_of_one_buffer_is_one_shard(self):
    path = os.path.join(self.get_temp_dir(), 'one.npz')
    self.buffers[0].save(path)
    counters = self.counters[0]
    ((buffer, restored),) = shards.deal(
        self.config, shards.read(self.config, path), 1, 5, counters)
    self.assertEqual(restored, counters)
    self.assertEqual(_positions(buffer), _positions(self.buffers[0]))
    np.testing.assert_array_equal(buffer.sample_batch()[1],
                                  self.buffers[0].sample_batch()[1])


class StatsTest(testing.TestCase):

  def test_two_shards_stats_read_as_one_service_s(self):
    # Shard 0: 100 grants at ratio 0.5 (200 environment steps), shard 1:
    # 50 at 0.25 (200): 150 grants over 400 steps, 0.375.
    stats = [dict(env_steps=300, counted_env_steps=290, learner_steps=120,
                  games=30, positions=280, queued_games=1,
                  reanalysed_batches=0, reanalysis_held=0, returns=[1.],
                  lengths=[9], observed_ratio=0.5, ratio_window=100,
                  worst_ratio_deviation=None),
             dict(env_steps=200, counted_env_steps=190, learner_steps=50,
                  games=20, positions=200, queued_games=0,
                  reanalysed_batches=0, reanalysis_held=0, returns=[0.],
                  lengths=[7], observed_ratio=0.25, ratio_window=50,
                  worst_ratio_deviation=0.02)]
    combined = shards.combined_stats(stats)
    self.assertEqual(
        {k: combined[k] for k in ('env_steps', 'learner_steps', 'games',
                                  'positions', 'queued_games',
                                  'ratio_window', 'returns', 'lengths')},
        dict(env_steps=500, learner_steps=170, games=50, positions=480,
             queued_games=1, ratio_window=150, returns=[1., 0.],
             lengths=[9, 7]))
    self.assertAlmostEqual(combined['observed_ratio'], 0.375)
    self.assertEqual(combined['worst_ratio_deviation'], 0.02)


class RunConfigTest(testing.TestCase):

  def test_shards_need_actors_and_a_reanalyse_worker_each(self):
    with self.assertRaisesRegex(ValueError, 'replay_shards must be 1 unless '
                                'num_actors > 0, got 2'):
      run_config.RunConfig(preset='tictactoe', replay_shards=2)
    with self.assertRaisesRegex(ValueError, 'num_reanalyze_workers must be 0 '
                                'or at least replay_shards = 3 .*, got 2'):
      run_config.RunConfig(preset='tictactoe', num_actors=3, replay_shards=3,
                           num_reanalyze_workers=2)
    for workers in (0, 3, 5):
      self.assertEqual(run_config.RunConfig(
          preset='tictactoe', num_actors=3, replay_shards=3,
          num_reanalyze_workers=workers).num_reanalyze_workers, workers)
    with self.assertRaisesRegex(ValueError, 'replay_placement must be'):
      run_config.RunConfig(preset='tictactoe', num_actors=2,
                           replay_placement='head')
