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
"""Tests for `Trajectory.append_batch`: the same records as `append`."""

import re

import numpy as np
from absl.testing import parameterized

from muzero_snt import trajectory as trajectory_lib
from tests import frame_games
from tests import testing

Trajectory = trajectory_lib.Trajectory
_ARRAYS = ('observations', 'to_play', 'actions', 'rewards', 'policies',
           'root_values', 'legal_actions')


def _random_moves(rng, num_games, num_actions, observation_size=2):
  """One random legal move per game, as the batch `append_batch` takes."""
  legal = rng.random((num_games, num_actions)) < 0.6
  legal[np.arange(num_games), rng.integers(0, num_actions, num_games)] = True
  actions = [int(rng.choice(np.flatnonzero(row))) for row in legal]
  policies = rng.random((num_games, num_actions)).astype(np.float32) * legal
  policies /= policies.sum(axis=1, keepdims=True)
  return dict(
      observations=rng.normal(size=(num_games, observation_size)).astype(
          np.float32),
      to_play=[int(p) for p in rng.integers(0, 2, num_games)],
      actions=actions,
      rewards=[float(r) for r in rng.normal(size=num_games)],
      policies=policies,
      root_values=[float(v) for v in rng.normal(size=num_games)],
      legal_actions=legal)


class AppendBatchTest(testing.TestCase):

  def test_equals_appending_each_game(self):
    # Games of different lengths (two start empty), two players, A = 5:
    # the batch of moves and the same moves appended one game at a time
    # give identical records, dtypes included.
    rng = np.random.default_rng(0)
    batched = [Trajectory(5, num_players=2) for _ in range(4)]
    single = [Trajectory(5, num_players=2) for _ in range(4)]
    for game in (0, 2):
      moves = _random_moves(rng, 1, 5)
      for games in (batched, single):
        games[game].append(
            moves['observations'][0], moves['to_play'][0],
            moves['actions'][0], moves['rewards'][0], moves['policies'][0],
            moves['root_values'][0], moves['legal_actions'][0])
    for _ in range(6):
      moves = _random_moves(rng, 4, 5)
      Trajectory.append_batch(batched, **moves)
      for i, game in enumerate(single):
        game.append(*(moves[name][i] for name in _ARRAYS))
    for game_batched, game_single in zip(batched, single):
      game_batched.finish(terminal=True)
      game_single.finish(terminal=True)
      self.assertEqual(game_batched.length, game_single.length)
      for name in _ARRAYS:
        expected = getattr(game_single, name)
        got = getattr(game_batched, name)
        self.assertEqual(got.dtype, expected.dtype, name)
        np.testing.assert_array_equal(got, expected, err_msg=name)

  def test_records_are_copies(self):
    # The caller's buffers may be reused for the next move.
    rng = np.random.default_rng(1)
    games = [Trajectory(3) for _ in range(2)]
    moves = _random_moves(rng, 2, 3)
    moves['to_play'] = [0, 0]
    kept = {name: np.array(moves[name]) for name in _ARRAYS}
    Trajectory.append_batch(games, **moves)
    for name in ('observations', 'policies', 'legal_actions'):
      moves[name][...] = 0
    for i, game in enumerate(games):
      for name in _ARRAYS:
        np.testing.assert_array_equal(getattr(game, name)[0], kept[name][i],
                                      err_msg=name)

  def test_a_game_in_play_keeps_its_own_rows_only(self):
    # A row is not a view of the batch: an unfinished game does not hold
    # the other games' observations in memory.
    rng = np.random.default_rng(3)
    games = [Trajectory(3) for _ in range(8)]
    moves = _random_moves(rng, 8, 3, observation_size=1000)
    moves['to_play'] = [0] * 8
    Trajectory.append_batch(games, **moves)
    for name in ('observations', 'policies', 'legal_actions'):
      row = games[0]._moves[name][0]  # pylint: disable=protected-access
      self.assertIsNone(row.base, name)

  @parameterized.named_parameters(
      ('action_high', 'actions', 3,
       re.escape('game 2: action at move 1 must be in [0, 3), got 3')),
      ('reward_nan', 'rewards', np.nan,
       'game 2: reward at move 1 .*finite.*nan'),
      ('value_inf', 'root_values', np.inf,
       'game 2: root_value at move 1 .*finite.*inf'),
      ('policy_sum', 'policies', [0.5, 0.4, 0.],
       'game 2: policy at move 1 must sum to 1.*0.9'),
      ('to_play', 'to_play', 2,
       r'game 2: to_play at move 1 .*\[0, 2\), got 2'),
      ('observation_nan', 'observations', [0., np.nan],
       'game 2: observation at move 1 is not finite'),
      ('illegal_action', 'legal_actions', [True, False, True],
       'game 2: action 1 at move 1 is not in its legal_actions mask'),
  )
  def test_a_bad_value_names_the_game_and_changes_nothing(
      self, name, value, message):
    games = [Trajectory(3, num_players=2) for _ in range(3)]
    for game in games:
      game.append(np.zeros(2, np.float32), 0, 0, 0., [1., 0., 0.], 0.)
    moves = dict(
        observations=np.zeros((3, 2), np.float32), to_play=[1, 1, 1],
        actions=[1, 1, 1], rewards=[0., 0., 0.],
        policies=np.tile(np.float32([0., 1., 0.]), (3, 1)),
        root_values=[0., 0., 0.], legal_actions=np.ones((3, 3), bool))
    moves = {key: (np.array(item) if key in ('observations', 'policies',
                                             'legal_actions')
                   else list(item)) for key, item in moves.items()}
    moves[name][2] = value
    with self.assertRaisesRegex(ValueError, message):
      Trajectory.append_batch(games, **moves)
    self.assertEqual([game.length for game in games], [1, 1, 1])

  def test_an_observation_of_another_shape_names_its_game(self):
    games = [Trajectory(3), Trajectory(3)]
    games[1].append(np.zeros(3, np.float32), 0, 0, 0., [1., 0., 0.], 0.)
    moves = dict(observations=np.zeros((2, 2), np.float32), to_play=[0, 0],
                 actions=[0, 0], rewards=[0., 0.],
                 policies=np.tile(np.float32([1., 0., 0.]), (2, 1)),
                 root_values=[0., 0.], legal_actions=np.ones((2, 3), bool))
    with self.assertRaisesRegex(
        ValueError,
        r'game 1: observation at move 1 has shape \[2\], expected \[3\]'):
      Trajectory.append_batch(games, **moves)
    self.assertEqual([game.length for game in games], [0, 1])

  def test_a_finished_game_is_refused(self):
    games = [Trajectory(3), Trajectory(3)]
    games[0].append(np.zeros(2, np.float32), 0, 0, 0., [1., 0., 0.], 0.)
    games[0].finish(terminal=True)
    moves = dict(observations=np.zeros((2, 2), np.float32), to_play=[0, 0],
                 actions=[0, 0], rewards=[0., 0.],
                 policies=np.tile(np.float32([1., 0., 0.]), (2, 1)),
                 root_values=[0., 0.], legal_actions=np.ones((2, 3), bool))
    with self.assertRaisesRegex(ValueError,
                                'game 0: Cannot append move 1: the '
                                'trajectory is finished'):
      Trajectory.append_batch(games, **moves)
    self.assertEqual(games[1].length, 0)

  def test_frames_stored_once_equal_appending_each_game(self):
    # Frame-stacked games take the per-game checks; the stacked positions
    # are still the observations handed over.
    stack = frame_games.SMALL_STACK
    rng = np.random.default_rng(2)
    num_actions = stack.num_actions
    frames = rng.integers(0, 256, (2, 4) + stack.frame_shape).astype(
        stack.frame_dtype)
    actions = rng.integers(0, num_actions, (2, 4))
    games = [Trajectory(num_actions, frame_stack=stack) for _ in range(2)]
    observations = [[frame_games.literal_observation(
        stack, frames[g], actions[g], t) for t in range(4)]
                    for g in range(2)]
    policy = np.full(num_actions, 1. / num_actions, np.float32)
    for t in range(4):
      Trajectory.append_batch(
          games, np.stack([observations[g][t] for g in range(2)]), [0, 0],
          [int(actions[g, t]) for g in range(2)], [0., 0.],
          np.stack([policy, policy]), [0., 0.],
          np.ones((2, num_actions), bool))
    for g, game in enumerate(games):
      game.finish(terminal=True)
      np.testing.assert_array_equal(game.frames, frames[g])
      np.testing.assert_array_equal(game.observations,
                                    np.stack(observations[g]))


if __name__ == '__main__':
  testing.main()
