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
"""Tests of the board-game opponents: OpenSpiel's MCTS bot and game scoring."""

from absl.testing import absltest
from absl.testing import parameterized

from muzero_snt.environments import openspiel
from muzero_snt.environments import openspiel_players
from muzero_snt.environments import tictactoe
from muzero_snt.environments import tictactoe_players

try:
  import pyspiel  # pylint: disable=g-import-not-at-top
except ImportError:
  pyspiel = None

needs_pyspiel = absltest.skipIf(
    pyspiel is None, "open-spiel is not installed (pip install -e "
    "'.[openspiel]'); the MCTS opponent's tests need it.")

DRAW = openspiel_players.DRAW

# Connect four, columns 0..6. Player 0 ('x') fills column 0 and player 1
# ('o') column 1: after these 6 moves x wins in column 0 (or o blocks it).
THREE_IN_COLUMN_0 = (0, 1, 0, 1, 0, 1)
# 41 moves to a full board with no four in a row (row r of column c holds
# x when r + c // 2 is even); the 42nd, o in column 5, draws.
DRAWING_FILL = (0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 4, 2, 2, 2, 2, 2, 2, 3,
                3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6,
                6)


def connect_four(moves=()):
  """A connect-four environment after `moves`."""
  env = openspiel.OpenSpielEnvironment('connect_four')
  env.reset()
  for action in moves:
    env.step(action)
  return env


class Scripted:
  """Plays the given actions in turn."""

  def __init__(self, actions):
    self._actions = list(actions)

  def select_action(self, env):
    del env
    return self._actions.pop(0)


class WinnerTest(parameterized.TestCase):

  @parameterized.parameters((1., 0, 0), (1., 1, 1), (-1., 0, 1),
                            (-1., 1, 0), (0., 0, DRAW), (0., 1, DRAW),
                            (0.5, 1, 1))
  def test_sign_of_the_movers_reward(self, reward, mover, expected):
    self.assertEqual(openspiel_players.winner(reward, mover), expected)

  def test_bad_mover(self):
    with self.assertRaisesRegex(ValueError, 'mover must be 0 or 1, got 2'):
      openspiel_players.winner(1., 2)

  def test_play_game_scores_tictactoe_by_the_winner(self):
    # X: 0, 1, 2 (the top row); O: 3, 4. Then a draw:
    # X O X / X O O / O X X.
    players = [Scripted([0, 1, 2]), Scripted([3, 4])]
    self.assertEqual(openspiel_players.play_game(players,
                                                 tictactoe.TicTacToe()), 0)
    players = [Scripted([0, 2, 3, 7, 8]), Scripted([1, 4, 5, 6])]
    self.assertEqual(openspiel_players.play_game(players,
                                                 tictactoe.TicTacToe()), DRAW)


@needs_pyspiel
class ConnectFourGamesTest(absltest.TestCase):

  def test_play_game_scores_a_win_for_either_player(self):
    env = openspiel.OpenSpielEnvironment('connect_four')
    # x fills column 0: x wins on move 7.
    players = [Scripted([0, 0, 0, 0]), Scripted([1, 1, 1])]
    self.assertEqual(openspiel_players.play_game(players, env), 0)
    # x plays 0, 0, 0, 2 while o fills column 1: o wins on move 8.
    players = [Scripted([0, 0, 0, 2]), Scripted([1, 1, 1, 1])]
    self.assertEqual(openspiel_players.play_game(players, env), 1)

  def test_play_game_scores_a_full_board_as_a_draw(self):
    env = openspiel.OpenSpielEnvironment('connect_four')
    moves = DRAWING_FILL + (5,)
    players = [Scripted(moves[0::2]), Scripted(moves[1::2])]
    self.assertEqual(openspiel_players.play_game(players, env), DRAW)


@needs_pyspiel
class MCTSPlayerTest(parameterized.TestCase):

  def test_moves_are_openspiels_mcts_bot(self):
    # The same bot, seeded alike, asked about the same positions in the
    # same order: a game of the player against a random player.
    env = connect_four()
    player = openspiel_players.MCTSPlayer(env.game, 30, seed=7,
                                          num_rollouts=2)
    bot = pyspiel.MCTSBot(env.game, pyspiel.RandomRolloutEvaluator(2, 7),
                          2., 30, 1000, True, 7, False)
    other = tictactoe_players.RandomPlayer(0)
    ours = []
    while len(env.legal_actions()):
      if env.to_play() == 0:
        action = player.select_action(env)
        self.assertEqual(action, bot.step(env.state))
        ours.append(action)
      else:
        action = other.select_action(env)
      env.step(action)
    self.assertGreaterEqual(len(ours), 4)
    # Another seed plays another game (checks the seed is used).
    env = connect_four()
    player = openspiel_players.MCTSPlayer(env.game, 30, seed=8,
                                          num_rollouts=2)
    self.assertNotEqual([player.select_action(env) for _ in range(10)],
                        [bot.step(env.state) for _ in range(10)])

  def test_takes_the_win_and_blocks_it(self):
    env = connect_four(THREE_IN_COLUMN_0)
    for seed in range(3):
      player = openspiel_players.MCTSPlayer(env.game, 20, seed=seed)
      self.assertEqual(player.select_action(env), 0)  # x wins.
    env = connect_four(THREE_IN_COLUMN_0[:-1] + (6,))
    for seed in range(3):
      player = openspiel_players.MCTSPlayer(env.game, 50, seed=seed)
      self.assertEqual(player.select_action(env), 0)  # o blocks.

  @parameterized.parameters(('connect_four', {}, 10), ('go', {
      'board_size': 9, 'komi': 7.5}, 3))
  def test_only_legal_moves_to_the_end(self, game, params, simulations):
    env = openspiel.OpenSpielEnvironment(game, **params)
    players = [openspiel_players.MCTSPlayer(env.game, simulations, seed=1),
               tictactoe_players.RandomPlayer(2)]
    for mcts_side in (0, 1):
      time_step = env.reset()
      while not time_step.last():
        player = players[(env.to_play() - mcts_side) % 2]
        action = player.select_action(env)
        self.assertIn(action, env.legal_actions().tolist())
        time_step = env.step(action)

  def test_bad_arguments_name_the_value(self):
    game = pyspiel.load_game('connect_four')
    for kwargs, message in (
        (dict(num_simulations=0), 'num_simulations must be a positive '
         'integer, got 0'),
        (dict(num_simulations=2.5), 'num_simulations.*got 2.5'),
        (dict(num_simulations=10, num_rollouts=-1),
         'num_rollouts must be a positive integer, got -1')):
      with self.assertRaisesRegex(ValueError, message):
        openspiel_players.MCTSPlayer(game, **kwargs)
    with self.assertRaisesRegex(TypeError, "pyspiel.Game.*'connect_four'"):
      openspiel_players.MCTSPlayer('connect_four', 10)
    with self.assertRaisesRegex(ValueError, "'cliff_walking' is .*REWARDS"):
      openspiel_players.MCTSPlayer(pyspiel.load_game('cliff_walking'), 10)

  def test_bad_positions(self):
    player = openspiel_players.MCTSPlayer(
        pyspiel.load_game('connect_four'), 10)
    with self.assertRaisesRegex(TypeError, 'OpenSpielEnvironment.*TicTacToe'):
      player.select_action(tictactoe.TicTacToe())
    go = openspiel.OpenSpielEnvironment('go', board_size=9)
    go.reset()
    with self.assertRaisesRegex(ValueError, 'built for .connect_four.*go'):
      player.select_action(go)
    with self.assertRaisesRegex(ValueError, 'The game is over'):
      player.select_action(connect_four(THREE_IN_COLUMN_0 + (0,)))


if __name__ == '__main__':
  absltest.main()
