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
"""Tests of the tic-tac-toe environment: rules, rewards, planes, bad moves."""

import re

from absl.testing import absltest
from absl.testing import parameterized
import dm_env
from dm_env import specs
from dm_env import test_utils
import numpy as np

from muzero_snt.environments import tictactoe

# Player 0 takes 0, 1, 2 (the top row); player 1 answers on the middle row.
TOP_ROW_GAME = (0, 3, 1, 4, 2)

# A full board without a line; no line appears on the way either:
#   X O X
#   X O O
#   O X X
DRAW_GAME = (0, 1, 2, 4, 7, 6, 3, 5, 8)


def play(env, actions):
  """Resets `env`, plays `actions` and returns every time step."""
  timesteps = [env.reset()]
  for action in actions:
    timesteps.append(env.step(action))
  return timesteps


class ConformanceTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
  """dm_env's contract: FIRST after reset and after LAST, valid specs."""

  def make_object_under_test(self):
    return tictactoe.TicTacToe(seed=0)

  def make_action_sequence(self):
    # A won game, the step that starts the next episode, then a drawn game.
    yield from TOP_ROW_GAME
    yield 0  # Ignored: starts a new episode.
    yield from DRAW_GAME


class TicTacToeTest(parameterized.TestCase):

  def test_specs(self):
    env = tictactoe.TicTacToe()
    self.assertEqual(env.observation_spec(),
                     specs.Array((3, 3, 3), np.float32))
    action_spec = env.action_spec()
    self.assertIsInstance(action_spec, specs.DiscreteArray)
    self.assertEqual(action_spec.num_values, 9)
    self.assertEqual(env.reward_spec(), specs.Array((), np.float32))
    discount_spec = env.discount_spec()
    self.assertIsInstance(discount_spec, specs.BoundedArray)
    self.assertEqual((discount_spec.minimum, discount_spec.maximum), (0., 1.))
    self.assertEqual(env.num_players, 2)

  def test_reset_gives_an_empty_board_with_player_0_to_move(self):
    env = tictactoe.TicTacToe()
    env.reset()
    env.step(4)
    timestep = env.reset()
    self.assertEqual(timestep.step_type, dm_env.StepType.FIRST)
    self.assertIsNone(timestep.reward)
    self.assertIsNone(timestep.discount)
    np.testing.assert_array_equal(timestep.observation,
                                  np.zeros((3, 3, 3), np.float32))
    np.testing.assert_array_equal(env.board, np.zeros(9))
    self.assertEqual(env.to_play(), 0)
    self.assertIsNone(env.winner)
    np.testing.assert_array_equal(env.legal_actions(), np.arange(9))

  @parameterized.parameters(
      ((0, 1, 2),), ((3, 4, 5),), ((6, 7, 8),),  # Rows.
      ((0, 3, 6),), ((1, 4, 7),), ((2, 5, 8),),  # Columns.
      ((0, 4, 8),), ((2, 4, 6),))  # Diagonals.
  def test_player_0_wins_on_each_line(self, line):
    # Player 1 answers on the first two squares off the line; two stones
    # cannot make a line, and player 0 has only two before its last move.
    others = [s for s in range(9) if s not in line][:2]
    actions = (line[0], others[0], line[1], others[1], line[2])
    env = tictactoe.TicTacToe()
    timesteps = play(env, actions)
    for timestep in timesteps[1:-1]:
      self.assertEqual(timestep.step_type, dm_env.StepType.MID)
      self.assertEqual(timestep.reward, 0.)
      self.assertEqual(timestep.discount, 1.)
    last = timesteps[-1]
    self.assertEqual(last.step_type, dm_env.StepType.LAST)
    self.assertEqual(last.reward, 1.)  # For player 0, who just moved.
    self.assertEqual(last.discount, 0.)
    self.assertEqual(env.winner, 0)
    self.assertEqual(env.legal_actions().size, 0)

  @parameterized.named_parameters(
      # O takes the middle column 1, 4, 7.
      ('column', (0, 1, 3, 4, 8, 7)),
      # O takes the anti-diagonal 2, 4, 6; X's 0, 1, 8 make no line.
      ('anti_diagonal', (0, 2, 1, 4, 8, 6)),
      # O takes the bottom row 6, 7, 8.
      ('row', (0, 6, 1, 7, 5, 8)))
  def test_player_1_wins_and_its_move_is_rewarded(self, actions):
    env = tictactoe.TicTacToe()
    timesteps = play(env, actions)
    self.assertEqual([t.reward for t in timesteps[1:]], [0.] * 5 + [1.])
    self.assertTrue(timesteps[-1].last())
    self.assertEqual(timesteps[-1].discount, 0.)
    self.assertEqual(env.winner, 1)
    # The turn still passes after the last move: player 0 sees the end.
    self.assertEqual(env.to_play(), 0)
    np.testing.assert_array_equal(timesteps[-1].observation[..., 2],
                                  np.zeros((3, 3)))

  def test_a_full_board_without_a_line_is_a_draw(self):
    env = tictactoe.TicTacToe()
    timesteps = play(env, DRAW_GAME)
    self.assertTrue(all(t.mid() for t in timesteps[1:-1]))
    last = timesteps[-1]
    self.assertTrue(last.last())
    self.assertEqual(last.reward, 0.)
    self.assertEqual(last.discount, 0.)
    self.assertEqual(env.winner, tictactoe.DRAW)
    np.testing.assert_array_equal(env.board, [1, 2, 1, 1, 2, 2, 2, 1, 1])

  def test_a_win_on_the_last_square_is_a_win_not_a_draw(self):
    # X O X / O X O / O X _: X's ninth stone on 8 completes 0-4-8.
    actions = (0, 1, 2, 3, 4, 5, 7, 6, 8)
    env = tictactoe.TicTacToe()
    timesteps = play(env, actions)
    self.assertEqual(env.winner, 0)
    self.assertEqual(timesteps[-1].reward, 1.)

  def test_observation_planes_follow_the_player_to_move(self):
    env = tictactoe.TicTacToe()
    env.reset()
    env.step(4)  # Player 0 takes the centre (row 1, column 1).
    observation = env.step(0).observation  # Player 1 the corner (0, 0).
    # Player 0 to move: its stone on plane 0, the opponent's on plane 1.
    np.testing.assert_array_equal(
        observation[..., 0], [[0, 0, 0], [0, 1, 0], [0, 0, 0]])
    np.testing.assert_array_equal(
        observation[..., 1], [[1, 0, 0], [0, 0, 0], [0, 0, 0]])
    np.testing.assert_array_equal(observation[..., 2], np.zeros((3, 3)))
    observation = env.step(8).observation  # Player 0 the corner (2, 2).
    # Player 1 to move: the planes swap and plane 2 turns to ones.
    np.testing.assert_array_equal(
        observation[..., 0], [[1, 0, 0], [0, 0, 0], [0, 0, 0]])
    np.testing.assert_array_equal(
        observation[..., 1], [[0, 0, 0], [0, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(observation[..., 2], np.ones((3, 3)))
    self.assertEqual(observation.dtype, np.float32)
    np.testing.assert_array_equal(env.observation(), observation)

  def test_legal_actions_shrink_and_the_turn_alternates(self):
    env = tictactoe.TicTacToe()
    env.reset()
    expected = list(range(9))
    for move, action in enumerate((4, 0, 8, 2)):
      self.assertEqual(env.to_play(), move % 2)
      env.step(action)
      expected.remove(action)
      np.testing.assert_array_equal(env.legal_actions(), expected)
      self.assertEqual(env.legal_actions().dtype, np.int32)
    np.testing.assert_array_equal(env.board, [2, 0, 2, 0, 1, 0, 0, 0, 1])

  @parameterized.named_parameters(
      ('occupied', 4), ('too_large', 9), ('negative', -1),
      ('float', 2.0), ('string', '2'), ('bool', True), ('none', None),
      ('vector', np.array([2])))
  def test_an_illegal_action_raises_and_changes_nothing(self, action):
    env = tictactoe.TicTacToe()
    env.reset()
    env.step(4)
    board, observation = env.board, env.observation()
    with self.assertRaisesRegex(
        ValueError,
        'Illegal tic-tac-toe action ' + re.escape(repr(action)) +
        r'.*legal actions are \[0, 1, 2, 3, 5, 6, 7, 8\]'):
      env.step(action)
    np.testing.assert_array_equal(env.board, board)
    np.testing.assert_array_equal(env.observation(), observation)
    self.assertEqual(env.to_play(), 1)
    # The game goes on from the same position.
    timestep = env.step(2)
    self.assertTrue(timestep.mid())
    np.testing.assert_array_equal(env.board, [0, 0, 2, 0, 1, 0, 0, 0, 0])

  @parameterized.named_parameters(
      ('int32', lambda: np.int32(3)), ('int64', lambda: np.int64(3)),
      ('zero_d_array', lambda: np.array(3, np.int32)))
  def test_numpy_integer_actions_are_accepted(self, make_action):
    action = make_action()
    env = tictactoe.TicTacToe()
    env.reset()
    env.step(action)
    np.testing.assert_array_equal(env.board, [0, 0, 0, 1, 0, 0, 0, 0, 0])

  def test_step_after_the_end_starts_a_new_episode(self):
    env = tictactoe.TicTacToe()
    play(env, TOP_ROW_GAME)
    timestep = env.step(99)  # Ignored, as dm_env prescribes.
    self.assertTrue(timestep.first())
    np.testing.assert_array_equal(env.board, np.zeros(9))
    self.assertIsNone(env.winner)
    self.assertEqual(env.to_play(), 0)

  def test_board_is_a_copy(self):
    env = tictactoe.TicTacToe()
    env.reset()
    board = env.board
    board[0] = 1
    np.testing.assert_array_equal(env.board, np.zeros(9))

  def test_set_state_plays_on_from_the_position(self):
    env = tictactoe.TicTacToe()
    # X X _ / O O _ / _ _ _ with player 0 to move: 2 wins.
    env.set_state([[1, 1, 0], [2, 2, 0], [0, 0, 0]], to_play=0)
    np.testing.assert_array_equal(env.legal_actions(), [2, 5, 6, 7, 8])
    np.testing.assert_array_equal(
        env.observation()[..., 0], [[1, 1, 0], [0, 0, 0], [0, 0, 0]])
    timestep = env.step(2)
    self.assertTrue(timestep.last())
    self.assertEqual(timestep.reward, 1.)
    self.assertEqual(env.winner, 0)

  def test_set_state_to_a_finished_game(self):
    env = tictactoe.TicTacToe()
    env.set_state([1, 1, 1, 2, 2, 0, 0, 0, 0], to_play=1)
    self.assertEqual(env.winner, 0)
    self.assertEqual(env.legal_actions().size, 0)
    self.assertTrue(env.step(5).first())  # A new episode.
    env.set_state(np.array([1, 2, 1, 1, 2, 2, 2, 1, 1]), to_play=1)
    self.assertEqual(env.winner, tictactoe.DRAW)

  @parameterized.named_parameters(
      ('bad_code', [3, 0, 0, 0, 0, 0, 0, 0, 0], 1,
       r'must be 9 \(or 3x3\) integers in \{0, 1, 2\}.*3, 0'),
      ('bad_length', [0] * 8, 0, r'must be 9 \(or 3x3\) integers'),
      ('floats', [0.] * 9, 0, r'must be 9 \(or 3x3\) integers'),
      ('bad_player', [0] * 9, 2, r'to_play must be 0 or 1, got 2'),
      ('too_many_of_player_1', [2, 2, 1, 0, 0, 0, 0, 0, 0], 0,
       r'got 1 and 2'),
      ('wrong_player', [1, 0, 0, 0, 0, 0, 0, 0, 0], 0,
       r'the player to move is 1, got to_play=0'),
      ('two_winners', [1, 1, 1, 2, 2, 2, 1, 0, 0], 1,
       r'players \[0, 1\] do'),
      ('loser_moved_last', [1, 1, 1, 2, 2, 0, 2, 0, 0], 0,
       r'Only the player who moved last \(1\) can own a line'))
  def test_set_state_rejects_impossible_positions(self, board, to_play,
                                                  message):
    env = tictactoe.TicTacToe()
    env.reset()
    env.step(4)
    with self.assertRaisesRegex(ValueError, message):
      env.set_state(board, to_play)
    np.testing.assert_array_equal(env.board, [0, 0, 0, 0, 1, 0, 0, 0, 0])
    self.assertEqual(env.to_play(), 1)

  def test_clone_is_independent(self):
    env = tictactoe.TicTacToe()
    env.reset()
    env.step(0)
    copy = env.clone()
    copy.step(4)
    np.testing.assert_array_equal(env.board, [1, 0, 0, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(copy.board, [1, 0, 0, 0, 2, 0, 0, 0, 0])
    self.assertEqual(env.to_play(), 1)
    self.assertEqual(copy.to_play(), 0)

  def test_legal_actions_are_a_fresh_array_each_call(self):
    env = tictactoe.TicTacToe()
    env.reset()
    env.step(4)
    legal = env.legal_actions()
    legal[:] = 4  # The caller's array; the environment's answer stays.
    np.testing.assert_array_equal(env.legal_actions(),
                                  [0, 1, 2, 3, 5, 6, 7, 8])
    env.set_state([1, 2, 0, 0, 1, 0, 0, 0, 0], 1)
    np.testing.assert_array_equal(env.legal_actions(), [2, 3, 5, 6, 7, 8])

  def test_observations_of_every_position_reached(self):
    # Every position of the game tree, depth first through `clone`: the
    # planes written out square by square from the board.
    seen = set()

    def visit(env, observation):
      board, mover = env.board, env.to_play()
      key = (board.tobytes(), mover)
      if key in seen:
        return
      seen.add(key)
      expected = np.zeros((3, 3, 3), np.float32)
      for square in range(9):
        row, column = divmod(square, 3)
        expected[row, column, 0] = board[square] == mover + 1
        expected[row, column, 1] = board[square] == 2 - mover
        expected[row, column, 2] = mover
      np.testing.assert_array_equal(observation, expected)
      self.assertEqual(observation.dtype, np.float32)
      for action in env.legal_actions():
        child = env.clone()
        visit(child, child.step(action).observation)

    env = tictactoe.TicTacToe()
    visit(env, env.reset().observation)
    self.assertLen(seen, 5_478)

  def test_the_game_tree_has_the_known_counts(self):
    # Published counts of tic-tac-toe's game tree: 5,478 distinct positions
    # (with the empty board), 255,168 possible games, of which player 0 wins
    # 131,184, player 1 wins 77,904 and 46,080 are draws. They hold only if
    # the rules (turns, lines, end on a win) are right.
    games = {}  # Board bytes -> games (0 wins, 1 wins, draws) from there.

    def count(env):
      key = env.board.tobytes()
      if key not in games:
        if env.winner is not None:
          games[key] = np.eye(3, dtype=np.int64)[env.winner]
        else:
          total = np.zeros(3, np.int64)
          for action in env.legal_actions():
            child = env.clone()
            child.step(action)
            total += count(child)
          games[key] = total
      return games[key]

    env = tictactoe.TicTacToe()
    env.reset()
    # `winner` -1 (draw) indexes the last entry of np.eye(3).
    self.assertEqual(count(env).tolist(), [131_184, 77_904, 46_080])
    self.assertLen(games, 5_478)


if __name__ == '__main__':
  absltest.main()
