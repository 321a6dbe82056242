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
"""Tests of the Checkpointer: replay file, then TF checkpoint, then restore."""

import os
import re
import tempfile

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt.run import checkpointing
from muzero_snt import presets
from muzero_snt import replay as replay_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt.environments import tictactoe

_ARRAYS = ('observations', 'to_play', 'actions', 'rewards', 'policies',
           'root_values')


def _config(**changes):
  return presets.make_tictactoe_config().replace(
      batch_size=4, num_unroll_steps=2, window_size=10, **changes)


def _game(actions, root_value=0.25):
  """A finished tic-tac-toe trajectory of `actions`, uniform policies."""
  env = tictactoe.TicTacToe()
  time_step = env.reset()
  trajectory = trajectory_lib.Trajectory(9, num_players=2, discount=1.)
  for action in actions:
    legal = env.legal_actions()
    policy = np.zeros(9, np.float32)
    policy[legal] = 1. / len(legal)
    observation, player = time_step.observation, env.to_play()
    time_step = env.step(action)
    trajectory.append(observation, player, action, float(time_step.reward),
                      policy, root_value)
  trajectory.finish(terminal=time_step.last(), bootstrap_value=(
      0. if time_step.last() else 0.5))
  return trajectory


# Games with different lengths and outcomes: a win for player 0, one for
# player 1, and one cut off after four moves.
_GAMES = ((0, 3, 1, 4, 2), (0, 4, 1, 2, 8, 6), (4, 0, 8, 2))


def _replay(config, games=_GAMES, seed=0):
  buffer = replay_lib.ReplayBuffer(config, seed=seed)
  for i, actions in enumerate(games):
    buffer.save_game(_game(actions, root_value=0.1 * i))
  return buffer


def _all_keys(buffer):
  return np.array([(g, t) for g in buffer.game_ids
                   for t in range(buffer.game(g).length)])


class CheckpointerTest(tf.test.TestCase):

  def setUp(self):
    super().setUp()
    self.directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    self.config = _config(prioritized_replay=True)
    self.weights = tf.Variable([1., 2., 3.])
    self.counters = checkpointing.counters(games=0, env_steps=0)

  def _checkpointer(self, max_to_keep=3):
    return checkpointing.Checkpointer(
        self.directory, max_to_keep=max_to_keep, weights=self.weights,
        **self.counters)

  def _replay_files(self):
    return sorted(name for name in os.listdir(self.directory)
                  if re.fullmatch(r'replay-\d+\.npz', name))

  def assertSameReplay(self, a, b):
    self.assertEqual(a.game_ids, b.game_ids)
    self.assertEqual(a.games_saved, b.games_saved)
    for game_id in a.game_ids:
      x, y = a.game(game_id), b.game(game_id)
      for name in _ARRAYS:
        np.testing.assert_array_equal(getattr(x, name), getattr(y, name),
                                      f'{name} of game {game_id}')
      self.assertEqual(x.terminal, y.terminal)
      self.assertEqual(x.bootstrap_value, y.bootstrap_value)
    np.testing.assert_array_equal(a.get_priorities(_all_keys(a)),
                                  b.get_priorities(_all_keys(b)))

  def test_counters_are_int64_variables_with_their_start_values(self):
    counters = checkpointing.counters(rounds=3, games=0)
    self.assertEqual(sorted(counters), ['games', 'rounds'])
    self.assertEqual(counters['rounds'].dtype, tf.int64)
    self.assertEqual(int(counters['rounds'].numpy()), 3)
    self.assertEqual(int(counters['games'].numpy()), 0)
    self.assertFalse(counters['rounds'].trainable)

  def test_empty_directory_is_refused(self):
    with self.assertRaisesRegex(ValueError,
                                "directory must be a non-empty path, got ''"):
      checkpointing.Checkpointer('', weights=self.weights)

  def test_restore_without_a_checkpoint_returns_none_and_changes_nothing(
      self):
    checkpointer = self._checkpointer()
    self.assertIsNone(checkpointer.latest_number)
    self.assertIsNone(checkpointer.restore(self.config))
    self.assertAllEqual(self.weights, [1., 2., 3.])

  def test_round_trip_of_variables_counters_and_replay(self):
    checkpointer = self._checkpointer()
    buffer = _replay(self.config)
    # Priorities the learner changed, and a draw that advanced the replay's
    # generator: both must come back.
    buffer.update_priorities([[0, 1], [2, 3]], [2.5, 0.125])
    buffer.sample_batch()
    self.counters['games'].assign(3)
    self.counters['env_steps'].assign(15)
    path = checkpointer.save(7, buffer)
    self.assertEqual(checkpointer.latest_number, 7)
    self.assertEqual(os.path.basename(path), 'ckpt-7')
    self.assertEqual(self._replay_files(), ['replay-7.npz'])

    # Everything changes after the save...
    self.weights.assign([0., 0., 0.])
    self.counters['games'].assign(100)
    self.counters['env_steps'].assign(100)
    expected_batch, expected_keys = buffer.sample_batch()
    # ... and a new Checkpointer (as after a restart) brings back the saved
    # state.
    restored = self._checkpointer().restore(self.config)
    self.assertAllEqual(self.weights, [1., 2., 3.])
    self.assertEqual(int(self.counters['games'].numpy()), 3)
    self.assertEqual(int(self.counters['env_steps'].numpy()), 15)
    self.assertSameReplay(buffer, restored)
    np.testing.assert_allclose(
        restored.get_priorities([[0, 1], [2, 3]]),
        [2.5 + replay_lib.PRIORITY_EPSILON,
         0.125 + replay_lib.PRIORITY_EPSILON])
    batch, keys = restored.sample_batch()
    np.testing.assert_array_equal(keys, expected_keys)
    for name, value in expected_batch._asdict().items():
      np.testing.assert_array_equal(getattr(batch, name), value, name)

  def test_restore_without_config_restores_variables_only(self):
    checkpointer = self._checkpointer()
    checkpointer.save(1, _replay(self.config))
    self.weights.assign([9., 9., 9.])
    self.assertIsNone(checkpointer.restore())
    self.assertAllEqual(self.weights, [1., 2., 3.])

  def test_replay_files_of_deleted_checkpoints_are_removed(self):
    checkpointer = self._checkpointer(max_to_keep=2)
    for number in (1, 2, 3, 4):
      self.weights.assign([float(number)] * 3)
      checkpointer.save(number, _replay(self.config, _GAMES[:number % 3 + 1]))
    self.assertEqual(self._replay_files(), ['replay-3.npz', 'replay-4.npz'])
    kept = sorted(os.path.basename(p) for p in tf.train.get_checkpoint_state(
        self.directory).all_model_checkpoint_paths)
    self.assertEqual(kept, ['ckpt-3', 'ckpt-4'])
    # Checkpoint 4 with its own replay file (two games: 4 % 3 + 1).
    restored = self._checkpointer().restore(self.config)
    self.assertAllEqual(self.weights, [4., 4., 4.])
    self.assertEqual(restored.game_ids, [0, 1])

  def test_missing_replay_file_falls_back_naming_it(self):
    checkpointer = self._checkpointer()
    checkpointer.save(1, _replay(self.config, _GAMES[:1]))
    checkpointer.save(2, _replay(self.config))
    path = os.path.join(self.directory, 'replay-2.npz')
    os.remove(path)
    with self.assertLogs(level='WARNING') as logs:
      restored = self._checkpointer().restore(self.config)
    self.assertIn(f'{path} is missing', '\n'.join(logs.output))
    self.assertEqual(restored.game_ids, [0])

  def test_save_without_replay_writes_no_replay_file(self):
    checkpointer = self._checkpointer()
    checkpointer.save(1)
    self.assertEqual(self._replay_files(), [])
    self.assertEqual(checkpointer.latest_number, 1)

  def test_crash_between_replay_file_and_checkpoint_resumes_the_previous(
      self):
    checkpointer = self._checkpointer()
    checkpointer.save(1, _replay(self.config, _GAMES[:1]))
    self.weights.assign([5., 5., 5.])
    self.counters['games'].assign(2)
    checkpoint_2 = _replay(self.config, _GAMES[:2])
    checkpointer.save(2, checkpoint_2)
    # The run gets to write replay-3.npz, then dies before the TF
    # checkpoint that would commit it.
    self.weights.assign([7., 7., 7.])
    self.counters['games'].assign(3)
    _replay(self.config).save(os.path.join(self.directory, 'replay-3.npz'))

    restarted = self._checkpointer()
    self.assertEqual(restarted.latest_number, 2)
    restored = restarted.restore(self.config)
    self.assertAllEqual(self.weights, [5., 5., 5.])
    self.assertEqual(int(self.counters['games'].numpy()), 2)
    self.assertSameReplay(checkpoint_2, restored)

    # The run continues and commits its own number 3 over the orphan.
    restored.save_game(_game((8, 7, 6, 5)))
    restarted.save(3, restored)
    again = self._checkpointer().restore(self.config)
    self.assertSameReplay(restored, again)
    self.assertEqual(again.game_ids, [0, 1, 2])
    self.assertEqual(again.game(2).actions.tolist(), [8, 7, 6, 5])

  def test_orphan_replay_file_is_removed_by_the_next_save(self):
    checkpointer = self._checkpointer()
    checkpointer.save(1, _replay(self.config))
    _replay(self.config).save(os.path.join(self.directory, 'replay-9.npz'))
    checkpointer.save(2, _replay(self.config))
    self.assertEqual(self._replay_files(), ['replay-1.npz', 'replay-2.npz'])


  def test_temporary_files_of_interrupted_writes_are_removed(self):
    checkpointer = self._checkpointer()
    checkpointer.save(1, _replay(self.config))
    left = ['.replay-2.npz.x1y2.tmp', '.checkpoint.a1b2.tmp',
            '.run_config.json.c3d4.tmp']
    for name in left:
      with open(os.path.join(self.directory, name), 'w') as f:
        f.write('half')
    checkpointer.save(2, _replay(self.config))
    self.assertEmpty(set(left) & set(os.listdir(self.directory)))
    self.assertEqual(self._replay_files(), ['replay-1.npz', 'replay-2.npz'])


if __name__ == '__main__':
  absltest.main()
