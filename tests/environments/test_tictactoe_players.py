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
"""Tests of the tic-tac-toe solver and the perfect and random players."""

import collections
import functools
import itertools

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np

from muzero_snt.environments import tictactoe
from muzero_snt.environments import tictactoe_players as players

X, O, _ = 1, 2, 0  # Board codes: player 0's stone, player 1's, empty.

# The squares as the numbers of a 3x3 magic square: three squares form a
# line exactly when three distinct numbers sum to 15. This reference solver
# shares nothing with the library (no board, no list of lines).
MAGIC = (2, 7, 6,
         9, 5, 1,
         4, 3, 8)


def _has_line(numbers):
  return any(sum(c) == 15 for c in itertools.combinations(numbers, 3))


@functools.lru_cache(maxsize=None)
def _negamax(mine: frozenset, theirs: frozenset) -> int:
  """Value for the player owning `mine`, to move; `theirs` moved last."""
  if _has_line(theirs):
    return -1
  free = set(MAGIC) - mine - theirs
  if not free:
    return 0
  return max(-_negamax(theirs, mine | {n}) for n in free)


def reference_values(board, to_play):
  """{action: value} of the live position by the magic-square solver."""
  mine = frozenset(MAGIC[s] for s in range(9) if board[s] == to_play + 1)
  theirs = frozenset(MAGIC[s] for s in range(9) if board[s] == 2 - to_play)
  if _has_line(theirs) or len(mine) + len(theirs) == 9:
    return {}
  return {s: -_negamax(theirs, mine | {MAGIC[s]})
          for s in range(9) if board[s] == 0}


def live_positions():
  """Every position that arises in a game and is not over, with to_play."""
  found = {}
  frontier = [((0,) * 9, 0)]
  while frontier:
    board, to_play = frontier.pop()
    if board in found or not reference_values(board, to_play):
      continue
    found[board] = to_play
    for s in range(9):
      if board[s] == 0:
        child = board[:s] + (to_play + 1,) + board[s + 1:]
        frontier.append((child, 1 - to_play))
  return found


def random_play_outcomes():
  """Exact probabilities of (0 wins, 1 wins, draw) under uniform play."""

  @functools.lru_cache(maxsize=None)
  def outcome(mine, theirs, mover):
    if _has_line(theirs):
      return np.eye(3)[1 - mover]
    free = set(MAGIC) - mine - theirs
    if not free:
      return np.eye(3)[2]
    return np.mean([outcome(theirs, mine | {n}, 1 - mover) for n in free],
                   axis=0)

  return outcome(frozenset(), frozenset(), 0)


def env_at(board, to_play):
  env = tictactoe.TicTacToe()
  env.set_state(board, to_play)
  return env


class SolverTest(parameterized.TestCase):

  def test_the_empty_board_is_a_draw_and_every_opening_is_optimal(self):
    # Tic-tac-toe is a draw with perfect play, so no opening wins. No opening
    # loses either: an extra stone of one's own never hurts, so after any
    # opening player 0 is at least as well off as the second player of a
    # fresh game, whose value is 0. All nine openings are worth exactly 0.
    self.assertEqual(players.game_value([_] * 9, 0), 0)
    self.assertEqual(players.minimax_values([_] * 9, 0),
                     {a: 0 for a in range(9)})
    self.assertEqual(players.optimal_actions([_] * 9, 0), list(range(9)))

  def test_the_winning_moves_are_exactly_the_optimal_ones(self):
    # X O O
    # _ X O     X to move: 3 completes the left column, 8 the diagonal;
    # X _ _     after 7, O completes 2-5-8.
    board = [X, O, O, _, X, O, X, _, _]
    self.assertEqual(players.minimax_values(board, 0), {3: 1, 7: -1, 8: 1})
    self.assertEqual(players.optimal_actions(board, 0), [3, 8])
    self.assertEqual(players.game_value(board, 0), 1)

  def test_only_the_block_is_optimal_against_a_threat(self):
    # X X _
    # _ O _     O to move; X threatens 2. Any other move loses at once (-1).
    # _ _ _     After the block every move is forced: X blocks 6 (2-4-6),
    # O blocks 3 (0-3-6), X blocks 5 (3-4-5), and the last two squares
    # complete no line: a draw (0).
    board = [X, X, _, _, O, _, _, _, _]
    self.assertEqual(players.minimax_values(board, 1),
                     {2: 0, 3: -1, 5: -1, 6: -1, 7: -1, 8: -1})
    self.assertEqual(players.optimal_actions(board, 1), [2])

  def test_a_fork_wins(self):
    # X O _
    # _ X _     X to move. 6 threatens 3 (0-3-6) and 2 (2-4-6); 3 threatens
    # _ _ O     6 (0-3-6) and 5 (3-4-5): O blocks one, X wins (+1). 2 makes
    # one threat (6); O blocks it, X must block 7 (6-7-8) and the board
    # fills without a line (0). 5 and 7 make at most one threat: O blocks
    # and holds the draw (0).
    board = [X, O, _, _, X, _, _, _, O]
    self.assertEqual(players.minimax_values(board, 0),
                     {2: 0, 3: 1, 5: 0, 6: 1, 7: 0})
    self.assertEqual(players.optimal_actions(board, 0), [3, 6])

  def test_a_lost_position_makes_every_move_optimal(self):
    # X O _
    # _ X _     O to move: O must block 8, then X forks as in the test above;
    # _ _ _     any other move lets X complete 0-4-8. Every move loses.
    board = [X, O, _, _, X, _, _, _, _]
    self.assertEqual(players.game_value(board, 1), -1)
    self.assertEqual(set(players.minimax_values(board, 1).values()), {-1})
    self.assertEqual(players.optimal_actions(board, 1), [2, 3, 5, 6, 7, 8])

  def test_against_opposite_corners_only_an_edge_holds(self):
    # X _ _
    # _ O _     O to move. A corner (2 or 6) threatens the anti-diagonal;
    # _ _ X     X blocks with the other corner and forks (-1). An edge,
    # e.g. 1, threatens 1-4-7; the blocks that follow are forced (X 7, O 6,
    # X 2, O 5, X 3) and end in a full board (0); the four edges are alike
    # by the position's symmetry.
    board = [X, _, _, _, O, _, _, _, X]
    self.assertEqual(players.minimax_values(board, 1),
                     {1: 0, 2: -1, 3: 0, 5: 0, 6: -1, 7: 0})
    self.assertEqual(players.optimal_actions(board, 1), [1, 3, 5, 7])

  def test_every_position_agrees_with_the_magic_square_solver(self):
    positions = live_positions()
    # 5,478 positions arise in games; 958 of them are over.
    self.assertLen(positions, 5_478 - 958)
    for board, to_play in positions.items():
      expected = reference_values(board, to_play)
      self.assertEqual(players.minimax_values(board, to_play), expected,
                       msg=f'{board} with {to_play} to play')
      self.assertEqual(players.game_value(board, to_play),
                       max(expected.values()))

  def test_finished_games(self):
    won = [X, X, X, O, O, _, _, _, _]  # Player 0 won; player 1 to move.
    self.assertEqual(players.minimax_values(won, 1), {})
    self.assertEqual(players.optimal_actions(won, 1), [])
    self.assertEqual(players.game_value(won, 1), -1)
    drawn = [X, O, X, X, O, O, O, X, X]
    self.assertEqual(players.game_value(drawn, 1), 0)

  def test_an_environment_is_read_not_changed(self):
    board = [X, O, _, _, X, _, _, _, O]
    env = env_at(board, 0)
    self.assertEqual(players.optimal_actions(env), [3, 6])
    self.assertEqual(players.minimax_values(env)[2], 0)
    np.testing.assert_array_equal(env.board, board)
    self.assertEqual(env.to_play(), 0)

  def test_bad_input(self):
    with self.assertRaisesRegex(ValueError, r'needs the player to move'):
      players.optimal_actions([_] * 9)
    with self.assertRaisesRegex(ValueError, r'read from the environment'):
      players.optimal_actions(tictactoe.TicTacToe(), 0)
    with self.assertRaisesRegex(ValueError, r'the player to move is 0, got '
                                r'to_play=1'):
      players.minimax_values([_] * 9, 1)
    with self.assertRaisesRegex(ValueError, r'integers in \{0, 1, 2\}'):
      players.game_value([5] * 9, 0)


class PlayerTest(parameterized.TestCase):

  def test_perfect_players_always_draw(self):
    for seed in range(50):
      winner = players.play_game(
          [players.PerfectPlayer(seed), players.PerfectPlayer(seed + 100)])
      self.assertEqual(winner, tictactoe.DRAW, msg=f'seed {seed}')

  @parameterized.parameters(0, 1)
  def test_the_perfect_player_never_loses_to_the_random_one(self, perfect):
    outcomes = collections.Counter()
    for seed in range(200):
      seats = [players.RandomPlayer(seed), players.RandomPlayer(seed)]
      seats[perfect] = players.PerfectPlayer(seed + 1000)
      outcomes[players.play_game(seats)] += 1
    self.assertEqual(outcomes[1 - perfect], 0)
    self.assertGreater(outcomes[perfect], 100)  # It also wins most games.

  def test_random_players_win_about_as_often_as_exact_enumeration_says(self):
    probabilities = random_play_outcomes()
    # Published: 0.585 / 0.288 / 0.127 for player 0, player 1, draw.
    np.testing.assert_allclose(probabilities, [0.585, 0.288, 0.127],
                               atol=1e-3)
    n = 400
    outcomes = collections.Counter(
        players.play_game([players.RandomPlayer(seed),
                           players.RandomPlayer(seed + n)])
        for seed in range(n))
    counts = [outcomes[0], outcomes[1], outcomes[tictactoe.DRAW]]
    # Within 4.5 binomial standard deviations of n * p.
    tolerance = 4.5 * np.sqrt(n * probabilities * (1 - probabilities))
    np.testing.assert_array_less(np.abs(counts - n * probabilities),
                                 tolerance)
    self.assertGreater(min(counts[:2]), 0)  # Each side wins sometimes.

  @parameterized.named_parameters(
      # (player, board, to_play, the actions it may choose, draws).
      ('perfect_opening', players.PerfectPlayer, [_] * 9, 0,
       list(range(9)), 1800),
      ('perfect_two_wins', players.PerfectPlayer,
       [X, O, O, _, X, O, X, _, _], 0, [3, 8], 1000),
      ('perfect_edges', players.PerfectPlayer,
       [X, _, _, _, O, _, _, _, X], 1, [1, 3, 5, 7], 1200),
      ('random', players.RandomPlayer,
       [X, O, _, _, X, _, _, _, _], 1, [2, 3, 5, 6, 7, 8], 1200))
  def test_ties_are_broken_uniformly(self, player_class, board, to_play,
                                     choices, n):
    env = env_at(board, to_play)
    player = player_class(seed=0)
    counts = collections.Counter(player.select_action(env) for _ in range(n))
    self.assertEqual(sorted(counts), choices)
    expected = n / len(choices)
    p = 1 / len(choices)
    # Each count within 4.5 binomial standard deviations of n / k.
    tolerance = 4.5 * np.sqrt(n * p * (1 - p))
    for action in choices:
      self.assertLess(abs(counts[action] - expected), tolerance,
                      msg=f'action {action}: {counts}')
    np.testing.assert_array_equal(env.board, board)  # Read only.

  @parameterized.parameters(players.PerfectPlayer, players.RandomPlayer)
  def test_seeds_reproduce_the_choices(self, player_class):
    env = tictactoe.TicTacToe()
    env.reset()

    def choices(seed):
      player = player_class(seed)
      return [player.select_action(env) for _ in range(20)]

    self.assertEqual(choices(3), choices(3))
    self.assertNotEqual(choices(3), choices(4))

  @parameterized.parameters(players.PerfectPlayer, players.RandomPlayer)
  def test_a_finished_game_has_no_action_to_select(self, player_class):
    env = env_at([X, X, X, O, O, _, _, _, _], 1)
    with self.assertRaisesRegex(ValueError, r'The game is over'):
      player_class(seed=0).select_action(env)

  def test_play_game_needs_two_players(self):
    with self.assertRaisesRegex(ValueError, r'needs two players, got 1'):
      players.play_game([players.RandomPlayer(0)])


if __name__ == '__main__':
  absltest.main()
