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
"""Tests for muzero_snt.evaluation.exact."""

import fractions

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np

from muzero_snt.evaluation import exact as exact_evaluation
from muzero_snt.environments import tictactoe
from muzero_snt.environments import tictactoe_players


def _board_of(observation: np.ndarray, to_play: int) -> np.ndarray:
  """The `TicTacToe.board` coding of an observation (mover's plane first)."""
  mine = observation[..., 0].reshape(9) > 0
  theirs = observation[..., 1].reshape(9) > 0
  board = np.zeros(9, np.int8)
  board[mine] = to_play + 1
  board[theirs] = 2 - to_play
  return board


def lowest_square(observations, to_play, legal_actions):
  del observations, to_play
  return np.array([min(legal) for legal in legal_actions])


def lowest_optimal(observations, to_play, legal_actions):
  del legal_actions
  return np.array([
      tictactoe_players.optimal_actions(_board_of(obs, p), p)[0]
      for obs, p in zip(observations, to_play)])


def reference_walk(choose, opponent, side):
  """Depth-first over every line with exact fractions; {result: P}, lines."""
  results = {'win': fractions.Fraction(0), 'draw': fractions.Fraction(0),
             'loss': fractions.Fraction(0)}
  lines = []

  def visit(env, line, p):
    if env.winner is not None:
      result = ('draw' if env.winner == tictactoe.DRAW else
                'win' if env.winner == side else 'loss')
      results[result] += p
      if result == 'loss':
        lines.append((line, p))
      return
    if env.to_play() == side:
      choices = [int(choose(env.observation()[None], [side],
                            [env.legal_actions()])[0])]
    elif opponent == 'perfect':
      choices = tictactoe_players.optimal_actions(env)
    else:
      choices = [int(a) for a in env.legal_actions()]
    for action in choices:
      child = env.clone()
      child.step(action)
      visit(child, line + (action,), p / len(choices))

  env = tictactoe.TicTacToe()
  env.reset()
  visit(env, (), fractions.Fraction(1))
  return results, sorted(lines)


class _Deterministic:
  """A `select_action(env)` player around a batched choice, for sampling."""

  def __init__(self, choose):
    self._choose = choose

  def select_action(self, env):
    return int(self._choose(env.observation()[None], [env.to_play()],
                            [env.legal_actions()])[0])


class WalkTest(parameterized.TestCase):

  def test_lowest_square_loses_its_one_line_first_against_perfect(self):
    # By hand: X 0; a corner's only drawing reply is the centre, O 4; X 1
    # threatens 0-1-2, O must block at 2; X 3 threatens 0-3-6 while O's 2-4-6
    # needs 6: the perfect player's only winning move is 6, which wins.
    result = exact_evaluation.walk(lowest_square, 'perfect', side=0)
    self.assertEqual(result.loss, 1.0)
    self.assertEqual((result.win, result.draw), (0.0, 0.0))
    self.assertEqual(result.losing_lines, (((0, 4, 1, 2, 3, 6), 1.0),))

  @parameterized.product(opponent=('perfect', 'random'), side=(0, 1))
  def test_a_perfect_player_never_loses(self, opponent, side):
    result = exact_evaluation.walk(lowest_optimal, opponent, side)
    self.assertEqual(result.loss, 0.0)
    self.assertEqual(result.losing_lines, ())
    if opponent == 'perfect':  # Perfect against perfect always draws.
      self.assertAlmostEqual(result.draw, 1.0, places=12)
    else:  # The random player errs: first or second, a perfect one wins.
      self.assertGreater(result.win, 0.5)

  @parameterized.product(opponent=('perfect', 'random'), side=(0, 1))
  def test_equals_a_depth_first_walk_in_fractions(self, opponent, side):
    result = exact_evaluation.walk(lowest_square, opponent, side)
    expected, lines = reference_walk(lowest_square, opponent, side)
    for name in ('win', 'draw', 'loss'):
      self.assertAlmostEqual(getattr(result, name), float(expected[name]),
                             places=12, msg=name)
    self.assertAlmostEqual(result.win + result.draw + result.loss, 1.0,
                           places=12)
    self.assertEqual([line for line, _ in result.losing_lines],
                     [line for line, _ in lines])
    np.testing.assert_allclose([p for _, p in result.losing_lines],
                               [float(p) for _, p in lines], rtol=1e-12)

  def test_agrees_with_sampled_games_against_the_random_player(self):
    # Second player against the random one: sampled games of the real
    # players estimate the walk's probabilities.
    result = exact_evaluation.walk(lowest_square, 'random', side=1)
    num_games = 2000
    ours = _Deterministic(lowest_square)
    winners = [
        tictactoe_players.play_game([tictactoe_players.RandomPlayer(seed=g),
                                     ours]) for g in range(num_games)]
    for name, winner in (('loss', 0), ('win', 1), ('draw', tictactoe.DRAW)):
      p = getattr(result, name)
      observed = winners.count(winner) / num_games
      sigma = np.sqrt(p * (1 - p) / num_games)
      self.assertLess(abs(observed - p), 4 * sigma + 1e-9, msg=name)

  def test_walk_all_covers_both_opponents_and_sides(self):
    results = exact_evaluation.walk_all(lowest_square)
    self.assertEqual([(r.opponent, r.side) for r in results],
                     [('perfect', 'first'), ('perfect', 'second'),
                      ('random', 'first'), ('random', 'second')])
    self.assertEqual(results[0].loss, 1.0)

  def test_an_illegal_move_is_named(self):
    def always_centre(observations, to_play, legal_actions):
      del to_play, legal_actions
      return np.full(len(observations), 4)
    with self.assertRaisesRegex(ValueError,
                                r'chose square 4 after \[4, \d\]'):
      exact_evaluation.walk(always_centre, 'random', side=0)

  def test_bad_opponent_and_side_are_named(self):
    with self.assertRaisesRegex(ValueError, "'minimax'.*'perfect', 'random'"):
      exact_evaluation.walk(lowest_square, 'minimax', side=0)
    with self.assertRaisesRegex(ValueError, 'side must be 0 or 1, got 2'):
      exact_evaluation.walk(lowest_square, 'perfect', side=2)


if __name__ == '__main__':
  absltest.main()
