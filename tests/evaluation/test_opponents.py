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
"""Tests of the opponents of each two-player preset."""

from absl.testing import absltest

from muzero_snt.evaluation import opponents
from muzero_snt.environments import openspiel
from muzero_snt.environments import openspiel_players
from muzero_snt.environments import tictactoe_players

try:
  import pyspiel  # pylint: disable=g-import-not-at-top
except ImportError:
  pyspiel = None


class OpponentsTest(absltest.TestCase):

  def test_tictactoe_has_the_perfect_and_the_random_player(self):
    factories = opponents.make_opponents('tictactoe')
    self.assertEqual(list(factories), ['perfect', 'random'])
    self.assertIsInstance(factories['perfect'](0),
                          tictactoe_players.PerfectPlayer)
    self.assertEqual(list(opponents.make_opponents('tictactoe', ['random'])),
                     ['random'])

  @absltest.skipIf(pyspiel is None, 'needs open-spiel')
  def test_board_games_have_mcts_named_by_its_simulations(self):
    env = openspiel.OpenSpielEnvironment('connect_four')
    env.reset()
    factories = opponents.make_opponents('connect4', game=env.game,
                                         num_simulations=25, num_rollouts=3)
    self.assertEqual(list(factories), ['mcts25', 'random'])
    player = factories['mcts25'](5)
    self.assertIsInstance(player, openspiel_players.MCTSPlayer)
    self.assertEqual((player.num_simulations, player.num_rollouts), (25, 3))
    # The factory's seed is the bot's: the moves of a bot seeded with 5.
    bot = pyspiel.MCTSBot(env.game, pyspiel.RandomRolloutEvaluator(3, 5), 2.,
                          25, 1000, True, 5, False)
    self.assertEqual([player.select_action(env) for _ in range(5)],
                     [bot.step(env.state) for _ in range(5)])
    self.assertEqual(
        list(opponents.make_opponents('go9', ['random'], game=None)),
        ['random'])

  def test_unsupported_opponents_are_named(self):
    with self.assertRaisesRegex(
        ValueError, r"\['perfect'\] do not play connect4; expected some of "
        r"\['mcts', 'random'\]"):
      opponents.make_opponents('connect4', ['perfect', 'random'])
    with self.assertRaisesRegex(ValueError,
                                r"\['mcts'\] do not play tictactoe"):
      opponents.make_opponents('tictactoe', ['mcts'])
    with self.assertRaisesRegex(ValueError, r'\[\] do not play go9'):
      opponents.make_opponents('go9', [])
    with self.assertRaisesRegex(ValueError, "'cartpole' has no opponents"):
      opponents.make_opponents('cartpole')

  def test_a_game_of_the_users_plays_the_random_player(self):
    self.assertEqual(opponents.available(None), ('random',))
    factories = opponents.make_opponents(None)
    self.assertEqual(list(factories), ['random'])
    self.assertIsInstance(factories['random'](0),
                          tictactoe_players.RandomPlayer)
    with self.assertRaisesRegex(
        ValueError, r"\['mcts'\] do not play this game; expected some of "
        r"\['random'\]"):
      opponents.make_opponents(None, ['mcts'])

  @absltest.skipIf(pyspiel is None, 'needs open-spiel')
  def test_an_openspiel_game_adds_the_mcts_bot(self):
    game = pyspiel.load_game('tic_tac_toe')
    self.assertEqual(opponents.available('openspiel', game),
                     ('mcts', 'random'))
    # A game of the user's that is an OpenSpiel game (preset None).
    self.assertEqual(opponents.available(None, game), ('mcts', 'random'))
    factories = opponents.make_opponents('openspiel', game=game,
                                         num_simulations=5)
    self.assertEqual(list(factories), ['mcts5', 'random'])
    self.assertIsInstance(factories['mcts5'](0), openspiel_players.MCTSPlayer)

  @absltest.skipIf(pyspiel is None, 'needs open-spiel')
  def test_bad_mcts_counts_are_named(self):
    game = pyspiel.load_game('connect_four')
    with self.assertRaisesRegex(ValueError,
                                'num_simulations must be a positive integer, '
                                'got 0'):
      opponents.make_opponents('connect4', game=game, num_simulations=0)
    with self.assertRaisesRegex(ValueError, 'num_rollouts.*got 0'):
      opponents.make_opponents('connect4', game=game, num_rollouts=0)
    with self.assertRaisesRegex(TypeError, 'pyspiel.Game.*None'):
      opponents.make_opponents('connect4')


if __name__ == '__main__':
  absltest.main()
