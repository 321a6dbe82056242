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
"""Tests for muzero_snt.replay: window, sampling, priorities, checkpoints."""

import collections
import json
import os
import pickle
import re
import tempfile
from unittest import mock

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import learning
from muzero_snt import losses
from muzero_snt import replay
from muzero_snt import trajectory as trajectory_lib
from muzero_snt.networks import make_network
from tests import frame_games
from tests import testing

EPSILON = replay.PRIORITY_EPSILON
DRAWS = 20_000

# Policies of the hand-worked game, over CartPole's two actions.
POLICIES = np.array([[1., 0.], [0., 1.], [0.5, 0.5], [0.25, 0.75]])


def _config(**changes):
  """CartPole's shapes (observation [4], 2 actions), discount 0.5, K 3."""
  fields = dict(window_size=10, batch_size=32, num_unroll_steps=3,
                td_steps=2, discount=0.5)
  fields.update(changes)
  return testing.tiny_mlp_config(**fields)


def _hand_game(tag=0.):
  """4 moves: actions 0, 1, 0, 1; rewards 1..4; root values 10, 20, 30, 40.

  With discount 0.5 and td_steps 2 the value targets are
  z = 9.5, 13.5, 5, 4 (tests/test_trajectory.py works them out), so the
  initial priorities |v - z| are 0.5, 6.5, 25, 36.
  """
  game = trajectory_lib.Trajectory(2, discount=0.5)
  for t in range(4):
    game.append(np.array([tag, t, 0., 0.], np.float32), 0, t % 2, t + 1.,
                POLICIES[t], 10. * (t + 1))
  game.finish(terminal=True)
  return game


def _game(length, discount=0.5, terminal=True, seed=0, num_players=1):
  """A random finished game of `length` moves."""
  rng = np.random.default_rng(seed)
  game = trajectory_lib.Trajectory(2, num_players, discount)
  for t in range(length):
    game.append(rng.normal(size=4).astype(np.float32), t % num_players,
                int(rng.integers(2)), float(rng.normal()),
                rng.dirichlet(np.ones(2)), float(rng.normal()))
  game.finish(terminal, 0. if terminal else float(rng.normal()))
  return game


def _count_keys(buffer, draws=DRAWS):
  counts = collections.Counter()
  for _ in range(draws // buffer.config.batch_size):
    _, keys = buffer.sample_batch()
    counts.update(map(tuple, keys.tolist()))
  return counts


class ReplayTestCase(testing.TestCase):

  def assert_frequencies(self, counts, probabilities):
    """Each count within 4 binomial standard deviations of n P(i).

    A count is Binomial(n, P); 4 standard deviations leave a false alarm
    probability of about 6e-5 per key (normal approximation), and the draws
    are seeded, so the test is deterministic.
    """
    n = sum(counts.values())
    self.assertEqual(set(counts), set(probabilities))
    for key, p in probabilities.items():
      sd = np.sqrt(n * p * (1. - p))
      self.assertLessEqual(abs(counts[key] - n * p), 4. * sd,
                           msg=f'key {key}: {counts[key]} draws, expected '
                           f'{n * p:.1f} +- {sd:.1f}')


class SaveGameTest(ReplayTestCase):

  def test_window_evicts_exactly_when_a_game_would_exceed_it(self):
    buffer = replay.ReplayBuffer(_config(window_size=3, batch_size=64))
    # Game i has i + 1 moves.
    expected_ids = [[0], [0, 1], [0, 1, 2], [1, 2, 3], [2, 3, 4]]
    expected_positions = [1, 3, 6, 2 + 3 + 4, 3 + 4 + 5]
    for i in range(5):
      self.assertEqual(buffer.save_game(_game(i + 1, seed=i)), i)
      self.assertEqual(buffer.game_ids, expected_ids[i])
      self.assertEqual(buffer.num_games, len(expected_ids[i]))
      self.assertEqual(buffer.num_positions, expected_positions[i])
      self.assertEqual(buffer.games_saved, i + 1)
    self.assertEqual([buffer.game(i).length for i in (2, 3, 4)], [3, 4, 5])
    with self.assertRaisesRegex(ValueError, r'game id 1 is not stored'):
      buffer.game(1)
    _, keys = buffer.sample_batch()
    self.assertContainsSubset(set(keys[:, 0].tolist()), {2, 3, 4})
    for game_id, position in keys:
      self.assertLess(position, buffer.game(game_id).length)

  def test_new_positions_get_the_search_value_error(self):
    buffer = replay.ReplayBuffer(_config())
    buffer.save_game(_hand_game())
    # |v - z| = |10 - 9.5|, |20 - 13.5|, |30 - 5|, |40 - 4|.
    self.assertAllClose(
        buffer.get_priorities([[0, 0], [0, 1], [0, 2], [0, 3]]),
        np.array([0.5, 6.5, 25., 36.]) + EPSILON, atol=0., rtol=1e-12)

  def test_bad_games_raise(self):
    buffer = replay.ReplayBuffer(_config())
    unfinished = trajectory_lib.Trajectory(2, discount=0.5)
    unfinished.append(np.zeros(4), 0, 0, 0., [1., 0.], 0.)
    with self.assertRaisesRegex(ValueError, 'finished trajectory.*1 moves'):
      buffer.save_game(unfinished)
    wide = trajectory_lib.Trajectory(3, discount=0.5)
    wide.append(np.zeros(4), 0, 0, 0., [1., 0., 0.], 0.)
    wide.finish(terminal=True)
    with self.assertRaisesRegex(ValueError,
                                'action_space_size 3 does not match.* 2'):
      buffer.save_game(wide)
    with self.assertRaisesRegex(ValueError, 'discount 0.9 does not match.*0.5'):
      buffer.save_game(_game(2, discount=0.9))
    with self.assertRaisesRegex(ValueError, 'num_players 2 does not match'):
      buffer.save_game(_game(2, num_players=2))
    small = trajectory_lib.Trajectory(2, discount=0.5)
    small.append(np.zeros(3), 0, 0, 0., [1., 0.], 0.)
    small.finish(terminal=True)
    with self.assertRaisesRegex(
        ValueError, re.escape('observation shape [3] does not match the '
                              "config's observation_shape [4]")):
      buffer.save_game(small)
    with self.assertRaisesRegex(TypeError, 'expects a Trajectory'):
      buffer.save_game([1, 2])
    with self.assertRaisesRegex(ValueError, 'empty replay buffer'):
      buffer.sample_batch()
    self.assertEqual(buffer.games_saved, 0)


class UniformSamplingTest(ReplayTestCase):

  def test_every_position_is_equally_likely(self):
    buffer = replay.ReplayBuffer(_config(batch_size=2000), seed=1)
    buffer.save_game(_game(1, seed=0))
    buffer.save_game(_game(5, seed=1))
    # 6 positions, 1/6 each. Game first, then position (the pseudocode's
    # stub) would give the one-move game's position 1/2.
    self.assert_frequencies(_count_keys(buffer),
                            {(0, 0): 1 / 6,
                             **{(1, t): 1 / 6 for t in range(5)}})
    batch, _ = buffer.sample_batch()
    self.assertAllEqual(batch.weight, np.ones(2000))

  def test_rows_hold_the_targets_worked_out_by_hand(self):
    buffer = replay.ReplayBuffer(_config(batch_size=32))
    buffer.save_game(_hand_game(tag=7.))
    batch, keys = buffer.sample_batch()
    self.assertAllEqual(keys[:, 0], np.zeros(32))
    self.assertEqual(set(keys[:, 1].tolist()), {0, 1, 2, 3})
    zeros = [0., 0.]
    expected = {
        # t: (value [K+1], reward [K], mask [K+1], real actions, policies)
        0: ([9.5, 13.5, 5., 4.], [1., 2., 3.], [1, 1, 1, 1], [0, 1, 0],
            POLICIES),
        1: ([13.5, 5., 4., 0.], [2., 3., 4.], [1, 1, 1, 0], [1, 0, 1],
            [POLICIES[1], POLICIES[2], POLICIES[3], zeros]),
        2: ([5., 4., 0., 0.], [3., 4., 0.], [1, 1, 0, 0], [0, 1],
            [POLICIES[2], POLICIES[3], zeros, zeros]),
        3: ([4., 0., 0., 0.], [4., 0., 0.], [1, 0, 0, 0], [1],
            [POLICIES[3], zeros, zeros, zeros]),
    }
    for i, t in enumerate(keys[:, 1]):
      value, reward, mask, actions, policy = expected[t]
      self.assertAllEqual(batch.observation[i], [7., t, 0., 0.])
      self.assertAllClose(batch.target_value[i], value)
      self.assertAllClose(batch.target_reward[i], reward)
      self.assertAllEqual(batch.policy_mask[i], mask)
      self.assertAllClose(batch.target_policy[i], policy)
      self.assertAllEqual(batch.action[i, :len(actions)], actions)
      self.assertAllInSet(batch.action[i], [0, 1])


  def assert_batches_follow_the_per_row_route(self, buffer, rng, draws=3):
    """The route sample_batch took before it gathered whole columns: for
    each drawn position, make_target, observation and actions_window,
    padding actions drawn from the buffer's generator in row order.

    `rng` is a generator in the buffer's state; uniform draws only."""
    config = buffer.config
    games = [buffer.game(game_id) for game_id in buffer.game_ids]
    first = buffer.game_ids[0]
    n, k = buffer.num_positions, config.num_unroll_steps
    offsets = np.cumsum([0] + [game.length for game in games])
    for _ in range(draws):  # The generator's state carries over.
      batch, keys = buffer.sample_batch(augment=False)
      flat = rng.integers(0, n, config.batch_size)
      for i, f in enumerate(flat.tolist()):
        g = int(np.searchsorted(offsets, f, side='right') - 1)
        t = f - offsets[g]
        self.assertAllEqual(keys[i], [first + g, t])
        target = games[g].make_target(t, k, config.td_steps)
        self.assertAllEqual(batch.observation[i], games[g].observation(t))
        self.assertAllEqual(batch.action[i],
                            games[g].actions_window(t, k, rng))
        self.assertAllEqual(batch.target_value[i], target.target_value)
        self.assertAllEqual(batch.target_reward[i], target.target_reward)
        self.assertAllEqual(batch.target_policy[i], target.target_policy)
        self.assertAllEqual(batch.policy_mask[i], target.policy_mask)
      self.assertEqual(batch.observation.dtype, np.float32)
      self.assertEqual(batch.action.dtype, np.int32)

  def test_batches_equal_the_per_row_route(self):
    # Games shorter and longer than K = 3, so that many windows run past
    # their end.
    buffer = replay.ReplayBuffer(_config(batch_size=64), seed=3)
    for length in (1, 2, 5, 9, 4):
      buffer.save_game(_game(length, seed=length))
    self.assert_batches_follow_the_per_row_route(buffer,
                                                 np.random.default_rng(3))

  def test_batches_after_evictions_equal_the_per_row_route(self):
    # 40 games through a window of 6: the stored rows are dropped from the
    # front and moved back many times (position_table.PositionTable).
    buffer = replay.ReplayBuffer(_config(batch_size=64, window_size=6,
                                         num_unroll_steps=4), seed=5)
    rng = np.random.default_rng(5)
    for i in range(40):
      buffer.save_game(_game(int(1 + i * 7 % 11), seed=i))
      if i % 13 == 12:
        self.assert_batches_follow_the_per_row_route(buffer, rng, draws=1)
    self.assertEqual(buffer.game_ids, list(range(34, 40)))
    self.assert_batches_follow_the_per_row_route(buffer, rng)

  def test_batches_of_a_restored_buffer_equal_the_per_row_route(self):
    buffer = replay.ReplayBuffer(_config(batch_size=64, window_size=4), seed=7)
    for i in range(7):
      buffer.save_game(_game(2 + i, seed=i))
    buffer.sample_batch()
    with tempfile.TemporaryDirectory() as directory:
      path = os.path.join(directory, 'replay')
      buffer.save(path)
      restored = replay.ReplayBuffer.restore(buffer.config, path)
    rng = np.random.default_rng()
    rng.bit_generator.state = restored._rng.bit_generator.state  # pylint: disable=protected-access
    self.assert_batches_follow_the_per_row_route(restored, rng)


class PrioritisedSamplingTest(ReplayTestCase):

  def _buffer(self, priorities, lengths, alpha=1., beta=1., batch_size=2000,
              window_size=10):
    config = _config(prioritized_replay=True, priority_alpha=alpha,
                     priority_beta=beta, batch_size=batch_size,
                     window_size=window_size)
    buffer = replay.ReplayBuffer(config, seed=3)
    for i, length in enumerate(lengths):
      buffer.save_game(_game(length, seed=i))
    keys = [(g, t) for g, length in enumerate(lengths) for t in range(length)]
    buffer.update_priorities(keys, priorities)
    return buffer, keys

  @parameterized.parameters(1., 0.5)
  def test_frequencies_follow_p_to_the_alpha(self, alpha):
    # Two games of 2 and 3 moves with priorities 1, 2, 3, 4, 10.
    # alpha 1: P = p / 20 = 0.05, 0.1, 0.15, 0.2, 0.5.
    # alpha 0.5: sqrt(p) = 1, 1.414, 1.732, 2, 3.162 (sum 9.309), so
    # P = 0.107, 0.152, 0.186, 0.215, 0.340.
    p = np.array([1., 2., 3., 4., 10.])
    buffer, keys = self._buffer(p, [2, 3], alpha=alpha)
    probability = p**alpha / np.sum(p**alpha)
    self.assert_frequencies(_count_keys(buffer),
                            dict(zip(keys, probability)))

  def test_initial_priorities_and_updates_change_the_frequencies(self):
    buffer = replay.ReplayBuffer(
        _config(prioritized_replay=True, batch_size=2000), seed=5)
    buffer.save_game(_hand_game())
    keys = [(0, t) for t in range(4)]
    # Initial p = 0.5, 6.5, 25, 36 (sum 68).
    self.assert_frequencies(
        _count_keys(buffer),
        dict(zip(keys, np.array([0.5, 6.5, 25., 36.]) / 68.)))
    # The learner says position 0 is badly predicted: p = 67.5, 6.5, 25, 36
    # (sum 135), so P(0) = 0.5.
    buffer.update_priorities([[0, 0]], [67.5])
    self.assert_frequencies(
        _count_keys(buffer),
        dict(zip(keys, np.array([67.5, 6.5, 25., 36.]) / 135.)))

  @parameterized.parameters(
      # N = 4, sum p = 10, N P(i) = 0.4, 0.8, 1.2, 1.6.
      # beta 1: w = 2.5, 1.25, 0.833, 0.625; / 2.5 = 1, 1/2, 1/3, 1/4.
      (1., [1., 1 / 2, 1 / 3, 1 / 4]),
      # beta 0.5: w = 1.581, 1.118, 0.913, 0.791; / 1.581 = 1, 1/sqrt(2),
      # 1/sqrt(3), 1/2.
      (0.5, [1., 0.70710678, 0.57735027, 0.5]),
  )
  def test_importance_weights_by_hand(self, beta, expected):
    buffer, _ = self._buffer([1., 2., 3., 4.], [4], beta=beta, batch_size=64)
    batch, keys = buffer.sample_batch()
    self.assertIn(0, keys[:, 1])  # The largest weight is in the batch.
    self.assertAllClose(batch.weight, np.array(expected)[keys[:, 1]],
                        atol=0., rtol=1e-5)  # Epsilon moves them by 1e-6.
    self.assertEqual(batch.weight.dtype, np.float32)

  def test_weights_are_normalised_by_the_batch_maximum(self):
    # p = 0 (+ epsilon), 2, 3, 4: position 0 is (almost) never drawn, so
    # the largest weight in the batch is position 1's:
    # w_i / w_1 = p_1 / p_i = 1, 2/3, 1/2 for positions 1, 2, 3 (beta 1).
    buffer, _ = self._buffer([0., 2., 3., 4.], [4], batch_size=64)
    batch, keys = buffer.sample_batch()
    self.assertNotIn(0, keys[:, 1])
    self.assertIn(1, keys[:, 1])
    expected = np.array([np.nan, 1., 2 / 3, 1 / 2])[keys[:, 1]]
    self.assertAllClose(batch.weight, expected, atol=0., rtol=1e-5)

  def test_evicted_keys_are_ignored(self):
    buffer, _ = self._buffer([1., 1., 1., 1.], [2, 2], window_size=2)
    buffer.save_game(_game(3, seed=9))  # Evicts game 0.
    self.assertEqual(buffer.game_ids, [1, 2])
    buffer.update_priorities([[0, 1], [2, 2], [1, 0]], [5., 7., 3.])
    self.assertAllClose(
        buffer.get_priorities([[0, 1], [2, 2], [1, 0], [1, 1]]),
        [np.nan, 7. + EPSILON, 3. + EPSILON, 1. + EPSILON])

  def test_a_buffer_unpickled_from_read_only_memory_takes_updates(self):
    # Ray hands a replay service a buffer's arrays out of band, in read-only
    # shared memory (pickle protocol 5), as here (the service's `load`).
    buffer, _ = self._buffer([1., 2., 3.], [3])
    buffers = []
    data = pickle.dumps(buffer, protocol=5, buffer_callback=buffers.append)
    copy = pickle.loads(
        data, buffers=[memoryview(b.raw()).toreadonly() for b in buffers])
    copy.update_priorities([[0, 2]], [6.])
    self.assertAllClose(copy.get_priorities([[0, 0], [0, 2]]),
                        [1. + EPSILON, 6. + EPSILON])
    copy.save_game(_game(2, seed=9))
    self.assertEqual(copy.game_ids, [0, 1])
    batch, _ = copy.sample_batch()
    self.assertLen(batch.action, copy.config.batch_size)

  def test_a_repeated_key_takes_its_last_priority(self):
    buffer, _ = self._buffer([1., 1.], [2])
    buffer.update_priorities([[0, 1], [0, 1]], [5., 2.])
    self.assertAllClose(buffer.get_priorities([[0, 1]]), [2. + EPSILON])

  @parameterized.named_parameters(
      ('nan', [[0, 0], [1, 2]], [1., np.nan],
       re.escape('priority nan for key [1, 2] must be finite and >= 0')),
      ('negative', [[0, 1]], [-0.5],
       re.escape('priority -0.5 for key [0, 1] must be finite')),
      ('infinite', [[0, 1]], [np.inf], 'priority inf for key'),
      ('future_game', [[5, 0]], [1.],
       re.escape('key [5, 0]: game id 5 was never saved')),
      ('position', [[1, 3]], [1.],
       re.escape('key [1, 3]: position 3 is outside game 1 of length 3')),
      ('shape', [[0, 0], [0, 1]], [1.], 'priorities must have shape'),
      ('keys', [0, 1], [1., 1.], re.escape('keys must be an integer array')),
  )
  def test_bad_updates_raise_and_change_nothing(self, keys, priorities,
                                                message):
    buffer, all_keys = self._buffer([1., 2., 3., 4., 5.], [2, 3])
    with self.assertRaisesRegex(ValueError, message):
      buffer.update_priorities(keys, priorities)
    self.assertAllClose(buffer.get_priorities(all_keys),
                        np.arange(1., 6.) + EPSILON)


class CheckpointTest(ReplayTestCase):

  def _buffer(self, prioritized):
    config = _config(prioritized_replay=prioritized, window_size=3,
                     priority_alpha=0.6, priority_beta=0.4)
    buffer = replay.ReplayBuffer(config, seed=11)
    for i, length in enumerate([3, 6, 2, 5]):  # Game 0 is evicted.
      buffer.save_game(_game(length, seed=i, terminal=bool(i % 2)))
    _, keys = buffer.sample_batch()
    buffer.update_priorities(keys, np.arange(len(keys)) / 3.)
    return buffer

  @parameterized.parameters(True, False)
  def test_restore_continues_exactly(self, prioritized):
    buffer = self._buffer(prioritized)
    directory = self.get_temp_dir()
    path = os.path.join(directory, 'replay_checkpoint')
    buffer.save(path)
    self.assertEqual(os.listdir(directory), ['replay_checkpoint'])
    restored = replay.ReplayBuffer.restore(buffer.config, path)
    # Where it came from: a restarted replay service reads it again.
    self.assertIsNone(buffer.restored_from)
    self.assertEqual(restored.restored_from, path)
    self.assertEqual(restored.game_ids, [1, 2, 3])
    self.assertEqual(restored.games_saved, 4)
    self.assertEqual(restored.num_positions, 6 + 2 + 5)
    for game_id in restored.game_ids:
      old, new = buffer.game(game_id), restored.game(game_id)
      for name in ('observations', 'to_play', 'actions', 'rewards',
                   'policies', 'root_values', 'legal_actions'):
        self.assertAllEqual(getattr(new, name), getattr(old, name))
        self.assertEqual(getattr(new, name).dtype, getattr(old, name).dtype)
      self.assertEqual(new.terminal, old.terminal)
      self.assertEqual(new.bootstrap_value, old.bootstrap_value)
    all_keys = [(g, t) for g in buffer.game_ids
                for t in range(buffer.game(g).length)]
    self.assertAllEqual(restored.get_priorities(all_keys),
                        buffer.get_priorities(all_keys))
    for _ in range(2):
      (batch, keys), (batch2, keys2) = (buffer.sample_batch(),
                                        restored.sample_batch())
      self.assertAllEqual(keys2, keys)
      for field, value in batch._asdict().items():
        self.assertAllEqual(getattr(batch2, field), value)
      # The next game gets the same id in both.
      self.assertEqual(restored.save_game(_game(4, seed=20)),
                       buffer.save_game(_game(4, seed=20)))

  def test_a_failed_write_keeps_the_old_file(self):
    buffer = self._buffer(True)
    directory = self.get_temp_dir()
    path = os.path.join(directory, 'replay')
    buffer.save(path)
    before = open(path, 'rb').read()
    buffer.save_game(_game(3, seed=30))
    with mock.patch.object(np, 'savez', side_effect=OSError('disk full')):
      with self.assertRaisesRegex(OSError, 'disk full'):
        buffer.save(path)
    self.assertEqual(open(path, 'rb').read(), before)
    self.assertEqual(os.listdir(directory), ['replay'])
    self.assertEqual(
        replay.ReplayBuffer.restore(buffer.config, path).games_saved, 4)

  def test_restore_checks_the_config(self):
    buffer = self._buffer(True)
    path = os.path.join(tempfile.mkdtemp(dir=self.get_temp_dir()), 'replay')
    buffer.save(path)
    with self.assertRaisesRegex(ValueError,
                                'discount = 0.5, but the config has 0.9'):
      replay.ReplayBuffer.restore(buffer.config.replace(discount=0.9), path)
    with self.assertRaisesRegex(ValueError, 'more than the config\'s '
                                'window_size 2'):
      replay.ReplayBuffer.restore(buffer.config.replace(window_size=2), path)


  def _saved_path(self, buffer):
    path = os.path.join(tempfile.mkdtemp(dir=self.get_temp_dir()),
                        'replay.npz')
    buffer.save(path)
    return path

  def _rewrite(self, path, change):
    """Rewrites the file at `path` with `change(arrays, meta)` applied."""
    with np.load(path) as data:
      arrays = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays.pop('meta')))
    change(arrays, meta)
    np.savez(open(path, 'wb'), meta=np.array(json.dumps(meta)), **arrays)

  def test_legal_masks_are_saved(self):
    buffer = replay.ReplayBuffer(_config())
    game = trajectory_lib.Trajectory(2, discount=0.5)
    game.append(np.zeros(4, np.float32), 0, 1, 0., [0., 1.], 0.,
                np.array([False, True]))
    game.append(np.zeros(4, np.float32), 0, 0, 0., [1., 0.], 0.)
    game.finish(terminal=True)
    buffer.save_game(game)
    restored = replay.ReplayBuffer.restore(buffer.config,
                                           self._saved_path(buffer))
    self.assertAllEqual(restored.game(0).legal_actions,
                        [[False, True], [True, True]])

  def test_format_1_files_read_with_every_action_legal(self):
    buffer = self._buffer(True)
    path = self._saved_path(buffer)

    def to_format_1(arrays, meta):
      del arrays['legal_actions']
      meta['format_version'] = 1
    self._rewrite(path, to_format_1)
    restored = replay.ReplayBuffer.restore(buffer.config, path)
    self.assertTrue(restored.game(1).legal_actions.all())
    self.assertEqual(restored.game(1).legal_actions.shape, (6, 2))
    two_players = buffer.config.replace(num_players=2,
                                        reanalyze_fraction=0.5)

    def two_player_data(arrays, meta):
      del arrays
      meta['config']['num_players'] = 2
    self._rewrite(path, two_player_data)
    with self.assertRaisesRegex(ValueError, re.escape(path) +
                                ' is a replay file of format 1, without '
                                'legal-action masks'):
      replay.ReplayBuffer.restore(two_players, path)

  @parameterized.named_parameters(
      ('not_a_zip', lambda path: open(path, 'wb').write(b'not a replay'),
       'is not a readable replay file'),
      ('truncated', lambda path: open(path, 'r+b').truncate(200),
       'is not a readable replay file'),
      ('missing', os.remove, 'is not a readable replay file'),
  )
  def test_corrupt_files_name_the_path(self, damage, message):
    path = self._saved_path(self._buffer(True))
    damage(path)
    with self.assertRaisesRegex(ValueError, re.escape(path) + '.*' + message):
      replay.ReplayBuffer.restore(_config(), path)

  @parameterized.named_parameters(
      ('no_priorities', lambda arrays, meta: arrays.pop('priorities'),
       r"is not a readable replay file .*lacks \['priorities'\]"),
      ('future_version',
       lambda arrays, meta: meta.update(format_version=7),
       r'replay format version 7, expected one of \(1, 2, 3\)'),
      ('no_masks', lambda arrays, meta: arrays.pop('legal_actions'),
       'format 3 without its legal_actions array'),
      ('short_policies',
       lambda arrays, meta: arrays.update(policies=arrays['policies'][:3]),
       'game 0 of the file is not valid: policy must have shape'),
  )
  def test_incompatible_files_name_the_path_and_the_problem(self, change,
                                                            message):
    buffer = self._buffer(True)
    path = self._saved_path(buffer)
    self._rewrite(path, change)
    with self.assertRaisesRegex(ValueError, re.escape(path) + '.*' + message):
      replay.ReplayBuffer.restore(buffer.config, path)

  def test_restore_with_a_seed_draws_anew(self):
    buffer = self._buffer(False)
    path = self._saved_path(buffer)
    a = replay.ReplayBuffer.restore(buffer.config, path, seed=5)
    b = replay.ReplayBuffer.restore(buffer.config, path, seed=5)
    c = replay.ReplayBuffer.restore(buffer.config, path)
    keys_a, keys_b = a.sample_batch()[1], b.sample_batch()[1]
    self.assertAllEqual(keys_a, keys_b)
    # The saved state draws what the saved buffer draws next, not seed 5's.
    self.assertAllEqual(c.sample_batch()[1], buffer.sample_batch()[1])
    self.assertNotAllEqual(keys_a, c.sample_batch()[1])


class FrameStackTest(ReplayTestCase):
  """Games that store each frame once (a miniature of Atari's layout)."""

  def _buffer(self, **changes):
    config = _config(observation_shape=(2, 3, 8), action_space_size=18,
                     discount=0.9, window_size=3, batch_size=64, **changes)
    buffer = replay.ReplayBuffer(config, seed=3)
    observations = {}
    for i, length in enumerate([4, 7, 1, 5]):  # Game 0 is evicted.
      game, game_observations = frame_games.random_game(length, seed=i)
      observations[buffer.save_game(game)] = game_observations
    return buffer, observations

  def test_sampled_observations_are_those_handed_to_the_games(self):
    buffer, observations = self._buffer()
    self.assertEqual(buffer.frame_stack, frame_games.SMALL_STACK)
    batch, keys = buffer.sample_batch()
    self.assertEqual(batch.observation.dtype, np.float32)
    for row, (game_id, t) in enumerate(keys.tolist()):
      self.assertAllEqual(batch.observation[row], observations[game_id][t])
    # Every stored position is drawn in 64 rows from 13.
    self.assertLen(set(map(tuple, keys.tolist())), 13)

  def test_save_and_restore_keep_the_frames_once(self):
    buffer, observations = self._buffer(prioritized_replay=True)
    path = os.path.join(self.get_temp_dir(), 'frames.npz')
    buffer.save(path)
    with np.load(path) as data:
      self.assertNotIn('observations', data.files)
      self.assertEqual(data['frames'].dtype, np.uint8)
      self.assertEqual(data['frames'].shape, (7 + 1 + 5, 2, 3, 3))
      meta = json.loads(str(data['meta']))
    self.assertEqual(meta['format_version'], 3)
    self.assertEqual(meta['frame_stack']['frame_shape'], [2, 3, 3])
    restored = replay.ReplayBuffer.restore(buffer.config, path)
    self.assertEqual(restored.frame_stack, buffer.frame_stack)
    for _ in range(2):
      (batch, keys), (batch2, keys2) = (buffer.sample_batch(),
                                        restored.sample_batch())
      self.assertAllEqual(keys2, keys)
      for field, value in batch._asdict().items():
        self.assertAllEqual(getattr(batch2, field), value)
    for game_id in restored.game_ids:
      self.assertAllEqual(restored.game(game_id).observations,
                          np.stack(observations[game_id]))

  def test_a_file_stacking_another_shape_is_refused(self):
    buffer, _ = self._buffer()
    path = os.path.join(self.get_temp_dir(), 'frames.npz')
    buffer.save(path)
    with np.load(path) as data:
      arrays = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays.pop('meta')))
    meta['frame_stack']['num_frames'] = 3
    np.savez(open(path, 'wb'), meta=np.array(json.dumps(meta)), **arrays)
    with self.assertRaisesRegex(ValueError, re.escape(path) + r' stacks '
                                r'frames into observations of shape '
                                r'\[2, 3, 12\], but the config has '
                                r'\[2, 3, 8\]'):
      replay.ReplayBuffer.restore(buffer.config, path)

  def test_games_of_whole_observations_do_not_mix_with_frames(self):
    buffer, observations = self._buffer()
    game, _ = frame_games.random_game(2, seed=9)
    whole = trajectory_lib.Trajectory.from_arrays(
        18, 1, 0.9, game.observations, game.to_play, game.actions,
        game.rewards, game.policies, game.root_values, terminal=True)
    with self.assertRaisesRegex(ValueError, 'frame_stack None differs from '
                                'that of the stored games'):
      buffer.save_game(whole)


class LearnerTest(ReplayTestCase):

  def test_batches_feed_the_learner(self):
    config = testing.tiny_mlp_config(
        21, num_unroll_steps=3, batch_size=8, td_steps=5, window_size=10,
        prioritized_replay=True)
    buffer = replay.ReplayBuffer(config)
    for i in range(3):  # CartPole-like: reward 1 per step.
      game = trajectory_lib.Trajectory(2, discount=config.discount)
      for t in range(4 + i):
        game.append(np.full(4, t, np.float32), 0, t % 2, 1.,
                    [0.5, 0.5], 3.)
      game.finish(terminal=i < 2, bootstrap_value=0. if i < 2 else 2.)
      buffer.save_game(game)
    batch, keys = buffer.sample_batch()
    losses.check_batch(batch, config.action_space_size,
                       config.num_unroll_steps)
    self.assertEqual(batch.action.dtype, np.int32)
    for field in ('observation', 'target_value', 'target_reward',
                  'target_policy', 'policy_mask', 'weight'):
      self.assertEqual(getattr(batch, field).dtype, np.float32, msg=field)
    self.assertEqual(keys.dtype, np.int64)
    learner = learning.Learner(make_network(config), config)
    metrics = learner.step(batch)
    self.assertEqual(metrics['step'], 1)
    self.assertAllEqual(np.isfinite(metrics['priority']), [True] * 8)
    buffer.update_priorities(keys, metrics['priority'])
    # The last write per key wins (a key may be drawn twice).
    last = {tuple(k): p for k, p in zip(keys.tolist(), metrics['priority'])}
    self.assertAllClose(buffer.get_priorities(list(last)),
                        np.array(list(last.values())) + EPSILON)


if __name__ == '__main__':
  tf.test.main()
