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
"""Tests of evaluation: the MuZero player, matches, episodes, presets' evaluation
and the reports."""

import dataclasses
import importlib.util
import math
from typing import Optional
from unittest import mock

from absl.testing import absltest
from absl.testing import parameterized
import dm_env
import numpy as np

from muzero_snt.evaluation import matches as evaluation
from muzero_snt.evaluation import opponents
from muzero_snt import presets
from muzero_snt import search
from muzero_snt import types
from muzero_snt.environments import base
from muzero_snt.environments import openspiel
from muzero_snt.environments import openspiel_players
from muzero_snt.environments import tictactoe
from muzero_snt.environments import tictactoe_players
from muzero_snt.run import builders
from tests import testing
from tests.search import oracle

try:
  import pyspiel  # pylint: disable=g-import-not-at-top
except ImportError:
  pyspiel = None

TICTACTOE = presets.make_tictactoe_config()
CONNECT4 = presets.make_connect4_config()
HAS_GYMNASIUM = importlib.util.find_spec('gymnasium') is not None
DRAW = openspiel_players.DRAW
# Connect four: 41 moves to a full board without four in a row (row r of
# column c holds player 0's disc when r + c // 2 is even); player 1's last
# disc, in column 5, draws.
DRAWING_FILL = (0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 4, 2, 2, 2, 2, 2, 2, 3,
                3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6,
                6)


class FixedModel:
  """A `Model` with fixed policy logits `[A]`, value and reward 0.

  The hidden state is one zero; the same logits at every node.
  """

  def __init__(self, logits):
    self._logits = np.asarray(logits, np.float32)

  def _output(self, batch_size):
    return types.NetworkOutput(
        value=np.zeros(batch_size, np.float32),
        reward=np.zeros(batch_size, np.float32),
        policy_logits=np.tile(self._logits, (batch_size, 1)),
        hidden_state=np.zeros((batch_size, 1), np.float32))

  def initial_inference(self, observation):
    return self._output(len(observation))

  def recurrent_inference(self, hidden_state, action):
    del action
    return self._output(len(hidden_state))


class LeanModel(FixedModel):
  """CartPole: the root prior favours pushing towards the pole's lean.

  Logits are 4 for action 1 (push right) if the pole angle `obs[2]` is
  positive, else 4 for action 0; 0 for the other action, and 0 for both
  inside the tree. Values and rewards are 0, so the search plays the
  favoured action (see `test_evaluate_episodes_matches_a_plain_loop`).
  """

  def __init__(self):
    super().__init__([0., 0.])

  def initial_inference(self, observation):
    output = self._output(len(observation))
    right = np.asarray(observation)[:, 2] > 0
    logits = np.where(right[:, None], [0., 4.], [4., 0.]).astype(np.float32)
    return output._replace(policy_logits=logits)


class FromPosition(openspiel.OpenSpielEnvironment):
  """Connect four whose every game starts after the moves `opening`."""

  def __init__(self, opening):
    super().__init__('connect_four')
    self._opening = tuple(opening)

  def reset(self):
    time_step = super().reset()
    for action in self._opening:
      time_step = self.step(action)
    return time_step


class Scripted:
  """Plays the given actions in turn, then the lowest legal ones."""

  def __init__(self, actions):
    self._actions = list(actions)

  def select_action(self, env):
    if self._actions:
      return self._actions.pop(0)
    return int(env.legal_actions()[0])


class Endless(base.Environment):
  """A game that ends only if `ends_after` moves are played, else never.

  Every move is rewarded 1, to its mover; the move that ends the game wins
  it. Observations are zeros of tic-tac-toe's shape (two players) or
  CartPole's (one). Playing past 100 moves raises, so that an evaluation
  without a move limit fails instead of running on.
  """

  def __init__(self, num_players: int, ends_after: Optional[int] = None):
    self._num_players = num_players
    self._ends_after = ends_after
    self._shape = (3, 3, 3) if num_players == 2 else (4,)
    self.moves = 0

  @property
  def num_players(self) -> int:
    return self._num_players

  def observation(self) -> np.ndarray:
    return np.zeros(self._shape, np.float32)

  def reset(self):
    self.moves = 0
    return dm_env.restart(self.observation())

  def step(self, action):
    del action
    self.moves += 1
    if self.moves > 100:
      raise RuntimeError('played 100 moves of a game without an end')
    if self.moves == self._ends_after:
      return base.termination(1., self.observation())
    return base.transition(1., self.observation())

  def to_play(self) -> int:
    return self.moves % self._num_players

  def legal_actions(self) -> np.ndarray:
    return np.arange(2, dtype=np.int32)

  def observation_spec(self):
    raise NotImplementedError

  def action_spec(self):
    raise NotImplementedError


class TakeAway(dm_env.Environment):
  """A user's two-player game, a plain `dm_env.Environment` without
  `observation()`: a pile of 3 stones, each move takes 1 (action 0) or 2
  (action 1), and who takes the last stone wins (reward 1 to its mover)."""

  num_players = 2

  def __init__(self, seed: int = 0):
    del seed  # Nothing is random.

  def reset(self):
    self._pile, self._player = 3, 0
    return dm_env.restart(self._observation())

  def step(self, action):
    self._pile -= int(action) + 1
    self._player = 1 - self._player
    if self._pile == 0:
      return dm_env.termination(1., self._observation())
    return dm_env.transition(0., self._observation())

  def legal_actions(self):
    return np.arange(min(2, self._pile), dtype=np.int32)

  def to_play(self):
    return self._player

  def _observation(self):
    return np.eye(4, dtype=np.float32)[self._pile]

  def observation_spec(self):
    return dm_env.specs.Array((4,), np.float32)

  def action_spec(self):
    return dm_env.specs.DiscreteArray(2)


def _player(config, model, num_simulations=None):
  """A MuZeroPlayer of the reference search with `model`."""
  if num_simulations is not None:
    config = dataclasses.replace(config, num_simulations=num_simulations)
  return evaluation.MuZeroPlayer(search.ReferenceSearch(config, model))


def _lean_action(observation) -> int:
  return 1 if observation[2] > 0 else 0


def _replay_counts(player, factory, side, num_games, seed):
  """(wins, draws, losses) of MuZero from play_game, one game at a time."""
  winners = []
  for g in range(num_games):
    opponent = factory(seed + side * num_games + g)
    players = [player, opponent] if side == 0 else [opponent, player]
    winners.append(tictactoe_players.play_game(players))
  return (winners.count(side), winners.count(tictactoe.DRAW),
          winners.count(1 - side))


class MuZeroPlayerTest(testing.TestCase):

  def test_plays_the_action_a_search_chooses(self):
    # A search that returns its own action (Gumbel MuZero's) is followed,
    # not the most visited action.
    def choosing_search(observations, to_play, legal_actions_mask, rng,
                        add_noise=True):
      del observations, to_play, rng
      self.assertFalse(add_noise)
      # The player's lists of legal actions, as the search's mask.
      self.assertAllEqual(legal_actions_mask, [[True, False, True],
                                               [True, True, False]])
      return search.SearchOutput(
          visit_counts=np.array([[5, 0, 1], [0, 2, 0]], np.int32),
          policy=np.zeros((2, 3), np.float32),
          root_value=np.zeros(2, np.float32),
          action=np.array([2, 0], np.int32))

    choosing = mock.create_autospec(search.Search,
                                    side_effect=choosing_search)
    choosing.config = mock.Mock(action_space_size=3)
    player = evaluation.MuZeroPlayer(choosing)
    actions = player.select_actions(np.zeros((2, 1)), [0, 0],
                                    [[0, 2], [0, 1]])
    self.assertAllEqual(actions, [2, 0])

  def test_plays_the_win_and_the_block_with_the_oracle(self):
    player = _player(TICTACTOE, oracle.TicTacToeOracle(), num_simulations=100)
    env = tictactoe.TicTacToe()
    env.set_state([1, 1, 0, 2, 2, 0, 0, 0, 0], to_play=0)  # XX.OO....
    self.assertEqual(player.select_action(env), 2)  # X completes the row.
    env.set_state([1, 1, 0, 0, 2, 0, 0, 0, 0], to_play=1)  # XX..O....
    self.assertEqual(player.select_action(env), 2)  # O blocks it.

  def test_equal_visits_go_to_the_lowest_legal_action(self):
    # Uniform priors, Q = 0, no known bounds: with 3 simulations the first
    # goes to the lowest action (every score is 0), the second to an
    # unvisited child (prior part c/3 against c/6), the third to the last
    # unvisited one: one visit each, and the tie goes to action 3.
    config = TICTACTOE.replace(known_bounds=None)
    player = _player(config, FixedModel(np.zeros(9)), num_simulations=3)
    actions = player.select_actions(np.zeros((2, 3, 3, 3)), [0, 1],
                                    [[7, 3, 5], [8, 6]])
    self.assertEqual(actions.tolist(), [3, 6])

  def test_an_environment_without_observation_needs_one(self):
    player = _player(TICTACTOE, FixedModel(np.zeros(9)), num_simulations=2)
    env = mock.Mock(spec=['to_play', 'legal_actions'])
    env.to_play.return_value = 0
    env.legal_actions.return_value = np.array([4, 6])
    with self.assertRaisesRegex(ValueError, 'Mock has no observation'):
      player.select_action(env)
    self.assertEqual(player.select_action(env, np.zeros((3, 3, 3))), 4)

  def test_bad_arguments(self):
    with self.assertRaisesRegex(TypeError,
                                'MuZeroPlayer needs a search.Search.*got str'):
      evaluation.MuZeroPlayer('network')
    # A model is what a search calls, not a search.
    with self.assertRaisesRegex(TypeError, 'search.Search.*got FixedModel'):
      evaluation.MuZeroPlayer(FixedModel(np.zeros(9)))
    # A search that cannot say its number of actions.
    with self.assertRaisesRegex(TypeError, 'search.Search with a config.*got '
                                'function'):
      evaluation.MuZeroPlayer(lambda *args, **kwargs: None)


class TicTacToeEvaluationTest(testing.TestCase):

  def test_perfect_model_never_loses(self):
    player = _player(TICTACTOE, oracle.TicTacToeOracle(), num_simulations=200)
    results = evaluation.evaluate_tictactoe(player, num_games=8, seed=3)
    self.assertEqual([(r.opponent, r.side) for r in results],
                     [('perfect', 'first'), ('perfect', 'second'),
                      ('random', 'first'), ('random', 'second')])
    for r in results:
      self.assertEqual(r.num_games, 8)
      self.assertEqual(r.losses, 0, r)
    # Two perfect players always draw.
    self.assertEqual(results[0].draws + results[1].draws, 16)
    # A perfect player beats a random one most of the time.
    self.assertGreaterEqual(results[2].wins + results[3].wins, 12)
    # The counts are those of the same games replayed one by one.
    for r, factory, side in ((results[1], tictactoe_players.PerfectPlayer, 1),
                             (results[3], tictactoe_players.RandomPlayer, 1)):
      self.assertEqual((r.wins, r.draws, r.losses),
                       _replay_counts(player, factory, side, 8, seed=3))

  def test_lowest_square_model_loses_and_counts_replay(self):
    # Logits fall by 3 per square and 2 simulations both visit the lowest
    # empty square: MuZero fills the squares in order. Moving first it
    # loses every game by hand: X0, O4 (the only drawing reply), X1, O2
    # (forced block), X3 (threatens 6), O6 completes 2-4-6.
    player = _player(TICTACTOE, FixedModel(-3. * np.arange(9)),
                     num_simulations=2)
    results = evaluation.evaluate_tictactoe(player, num_games=10, seed=0)
    self.assertEqual(results[0], evaluation.MatchResult(
        'perfect', 'first', wins=0, draws=0, losses=10, max_moves=9))
    self.assertGreater(results[1].losses, 0)
    self.assertEqual(results[1].wins, 0)  # Nobody beats the perfect player.
    factories = [tictactoe_players.PerfectPlayer] * 2 + [
        tictactoe_players.RandomPlayer] * 2
    for r, factory, side in zip(results, factories, (0, 1, 0, 1)):
      self.assertEqual((r.wins, r.draws, r.losses),
                       _replay_counts(player, factory, side, 10, seed=0), r)

  def test_bad_arguments(self):
    player = _player(TICTACTOE, FixedModel(np.zeros(9)), 1)
    with self.assertRaisesRegex(ValueError, 'num_games.*0'):
      evaluation.evaluate_tictactoe(player, num_games=0)
    with self.assertRaisesRegex(ValueError, 'opponents is empty'):
      evaluation.evaluate_tictactoe(player, opponents={})
    with self.assertRaisesRegex(ValueError, 'muzero_side.*2'):
      evaluation.play_games(player, [], [], muzero_side=2)


class BoardGameEvaluationTest(testing.TestCase):
  """MuZero against connect-four opponents from positions set by hand.

  A model whose logits favour column c (prior above 0.99), with values and
  rewards 0, plays c when it is legal: of 4 simulations the first goes to
  the lowest legal column (the exploration term is 0 at an unvisited
  root), the other 3 to c, whose prior term dominates.
  """

  def setUp(self):
    super().setUp()
    if pyspiel is None:
      self.skipTest('needs open-spiel')

  def _favouring(self, column):
    logits = np.zeros(7)
    logits[column] = 8.
    return _player(CONNECT4, FixedModel(logits), num_simulations=4)

  @parameterized.named_parameters(
      # x (player 0) has three in column 0 and moves.
      ('first_wins', (0, 1, 0, 1, 0, 1), 0, 0, [], (1, 0, 0)),
      # o (player 1) has three in column 1 and moves.
      ('second_wins', (0, 1, 2, 1, 0, 1, 3), 1, 1, [], (1, 0, 0)),
      # x moves with o's three in column 1 open; x plays 3, o wins.
      ('first_loses', (0, 1, 2, 1, 0, 1), 0, 3, [1], (0, 0, 1)),
      # o moves with x's three in column 0 open; o plays 5, x wins.
      ('second_loses', (0, 1, 0, 1, 0, 6), 1, 5, [0], (0, 0, 1)),
      # The drawing fill: x plays 6, o fills column 5.
      ('first_draws', DRAWING_FILL[:-1], 0, 6, [5], (0, 1, 0)),
      # o fills column 5, the last square.
      ('second_draws', DRAWING_FILL, 1, 0, [], (0, 1, 0)))
  def test_outcomes_count_from_muzeros_side(self, opening, side, column,
                                            replies, counts):
    def make_environment(seed):
      del seed
      return FromPosition(opening)

    # Both sides are played from the opening; the other side's game is not
    # the case under test.
    results = evaluation.evaluate_matches(
        self._favouring(column), make_environment,
        {'scripted': lambda seed: Scripted(replies)}, num_games=1)
    result = results[side]
    self.assertEqual(result.side, evaluation.SIDES[side])
    self.assertEqual((result.wins, result.draws, result.losses), counts)

  def test_matches_against_mcts_replay_game_by_game(self):
    env = openspiel.OpenSpielEnvironment('connect_four')
    factories = opponents.make_opponents('connect4', game=env.game,
                                         num_simulations=5)
    player = _player(CONNECT4, FixedModel(np.zeros(7)), num_simulations=2)
    results = evaluation.evaluate_matches(
        player, lambda s: openspiel.OpenSpielEnvironment('connect_four'),
        factories, num_games=2, seed=4)
    self.assertEqual([(r.opponent, r.side) for r in results],
                     [('mcts5', 'first'), ('mcts5', 'second'),
                      ('random', 'first'), ('random', 'second')])
    for r, name in zip(results, ('mcts5', 'mcts5', 'random', 'random')):
      side = evaluation.SIDES.index(r.side)
      winners = []
      for g in range(2):
        opponent = factories[name](4 + side * 2 + g)
        players = [player, opponent] if side == 0 else [opponent, player]
        winners.append(openspiel_players.play_game(players, env))
      self.assertEqual((r.wins, r.draws, r.losses),
                       (winners.count(side), winners.count(DRAW),
                        winners.count(1 - side)), r)

  def test_bad_arguments(self):
    player = self._favouring(0)
    env = FromPosition(())
    with self.assertRaisesRegex(ValueError, '2 games and 1 opponents'):
      evaluation.play_games(player, [env, env], [Scripted([])], 0)


class MoveLimitTest(testing.TestCase):
  """Games and episodes that would not end are cut at the move limit."""

  def test_two_player_games_are_cut_at_the_configs_max_moves(self):
    # Tic-tac-toe's max_moves is 9. Of the 2 games a side (seeds 0, 1 first,
    # 2, 3 second), seed 0's ends at its 5th move, made by player 0 (moves
    # 1, 3, 5): MuZero, moving first, wins it. The 3 others never end and
    # are cut after 9 moves: neither won, drawn nor lost.
    games = {}

    def make_environment(seed):
      games[seed] = Endless(2, ends_after=5 if seed == 0 else None)
      return games[seed]

    player = _player(TICTACTOE, FixedModel(np.zeros(9)), num_simulations=2)
    results = evaluation.evaluate_matches(
        player, make_environment, {'scripted': lambda seed: Scripted([])},
        num_games=2)
    self.assertEqual(results, [
        evaluation.MatchResult('scripted', 'first', wins=1, draws=0,
                               losses=0, cut=1, max_moves=9),
        evaluation.MatchResult('scripted', 'second', wins=0, draws=0,
                               losses=0, cut=2, max_moves=9)])
    self.assertEqual([games[s].moves for s in range(4)], [5, 9, 9, 9])
    self.assertEqual(results[1].num_games, 2)

  def test_two_player_games_are_cut_at_max_moves(self):
    envs = [Endless(2), Endless(2, ends_after=4), Endless(2, ends_after=3)]
    for env in envs:
      env.reset()
    player = _player(TICTACTOE, FixedModel(np.zeros(9)), num_simulations=2)
    # The 4th move (player 1's) ends the second game at the limit: it ends,
    # won by player 1, rather than being cut. The first is cut (None).
    winners = evaluation.play_games(player, envs, [Scripted([])] * 3,
                                    muzero_side=0, max_moves=4)
    self.assertEqual(winners, [None, 1, 0])
    self.assertEqual([env.moves for env in envs], [4, 4, 3])
    with self.assertRaisesRegex(ValueError, 'max_moves must be a positive '
                                'integer, got 0'):
      evaluation.play_games(player, envs, [Scripted([])] * 3, 0, max_moves=0)

  def test_episodes_are_cut_at_the_configs_max_moves(self):
    # max_moves 7. Episode 0 ends itself after 3 moves, episode 1 at the
    # 7th, the limit (it ends: not cut), episode 2 never: cut after 7 moves.
    # Every move is rewarded 1: returns 3, 7 and 7, one episode cut.
    config = presets.make_cartpole_config().replace(max_moves=7,
                                                    num_simulations=2)
    ends_after = {0: 3, 1: 7, 2: None}
    stats = evaluation.evaluate_episodes(
        search.ReferenceSearch(config, FixedModel(np.zeros(2))),
        lambda seed: Endless(1, ends_after[seed]), num_episodes=3)
    self.assertEqual(stats.returns.tolist(), [3., 7., 7.])
    self.assertEqual((stats.cut, stats.max_moves), (1, 7))

  def test_episodes_are_cut_at_max_moves(self):
    # The same episodes cut at 4 moves: returns 3, 4 and 4, two cut.
    config = presets.make_cartpole_config().replace(max_moves=7,
                                                    num_simulations=2)
    ends_after = {0: 3, 1: 7, 2: None}
    stats = evaluation.evaluate_episodes(
        search.ReferenceSearch(config, FixedModel(np.zeros(2))),
        lambda seed: Endless(1, ends_after[seed]), num_episodes=3,
        max_moves=4)
    self.assertEqual(stats.returns.tolist(), [3., 4., 4.])
    self.assertEqual((stats.cut, stats.max_moves), (2, 4))
    with self.assertRaisesRegex(ValueError, 'max_moves must be a positive '
                                'integer, got -1'):
      evaluation.evaluate_episodes(
          search.ReferenceSearch(config, FixedModel(np.zeros(2))),
          lambda seed: Endless(1), num_episodes=1, max_moves=-1)


class EpisodeEvaluationTest(testing.TestCase):

  def test_episode_stats_by_hand(self):
    stats = evaluation.EpisodeStats(np.array([1., 3., 8.]))
    self.assertEqual(stats.mean, 4.)
    self.assertAlmostEqual(stats.std, math.sqrt((9 + 1 + 16) / 3))
    self.assertEqual((stats.min, stats.max), (1., 8.))

  @absltest.skipUnless(HAS_GYMNASIUM, 'needs gymnasium')
  def test_evaluate_episodes_matches_a_plain_loop(self):
    import gymnasium  # pylint: disable=g-import-not-at-top
    from muzero_snt import environments  # pylint: disable=g-import-not-at-top
    config = presets.make_cartpole_config()
    # 4 simulations: the first goes to action 0 (all scores 0), the others to
    # the favoured action (prior 0.98 against 0.02, Q = 0 everywhere).
    stats = evaluation.evaluate_episodes(
        search.ReferenceSearch(config.replace(num_simulations=4), LeanModel()),
        lambda s: environments.make_environment('cartpole', s),
        num_episodes=6, seed=11)
    expected = []
    for i in range(6):
      env = gymnasium.make('CartPole-v1')
      observation, _ = env.reset(seed=11 + i)
      total, done = 0., False
      while not done:
        observation, reward, terminated, truncated, _ = env.step(
            _lean_action(observation))
        total += reward
        done = terminated or truncated
      expected.append(total)
    self.assertEqual(stats.returns.tolist(), expected)
    self.assertEqual(stats.mean, np.mean(expected))
    self.assertEqual((stats.min, stats.max), (min(expected), max(expected)))
    for value in expected:
      self.assertEqual(value, int(value))
      self.assertBetween(value, 1, 500)
    self.assertLess(stats.max, 200)  # Leaning pushes fail early.
    self.assertGreater(len(set(expected)), 1)  # Lockstep of unequal lengths.

  def test_two_player_environments_are_rejected(self):
    reference = search.ReferenceSearch(TICTACTOE, FixedModel(np.zeros(9)))
    with self.assertRaisesRegex(ValueError, 'one-player.*TicTacToe.*2'):
      evaluation.evaluate_episodes(reference, tictactoe.TicTacToe,
                                   num_episodes=1)
    with self.assertRaisesRegex(ValueError, 'num_episodes.*0'):
      evaluation.evaluate_episodes(reference, tictactoe.TicTacToe,
                                   num_episodes=0)


class PresetEvaluationTest(testing.TestCase):

  def test_tictactoe_plays_the_perfect_and_the_random_player(self):
    # Logits falling by 3 per square and 2 simulations fill the squares in
    # order; moving first that loses every game to the perfect player by
    # hand: X0, O4 (the only drawing reply), X1, O2 (forced), X3, O6 wins.
    config = presets.make_tictactoe_config()
    model = FixedModel(-3. * np.arange(9))
    opponents = evaluation.preset_opponents(
        'tictactoe', lambda seed: tictactoe.TicTacToe())
    self.assertEqual(list(opponents), ['perfect', 'random'])
    results = evaluation.evaluate_preset(
        search.ReferenceSearch(config.replace(num_simulations=2), model),
        lambda seed: tictactoe.TicTacToe(), opponents, num_games=5)
    self.assertEqual(results[0], evaluation.MatchResult(
        'perfect', 'first', wins=0, draws=0, losses=5, max_moves=9))
    self.assertEqual([(r.opponent, r.side) for r in results],
                     [('perfect', 'first'), ('perfect', 'second'),
                      ('random', 'first'), ('random', 'second')])
    self.assertEqual(results[1].wins, 0)  # Nobody beats the perfect player.

  @absltest.skipIf(pyspiel is None, 'needs open-spiel')
  def test_connect4_names_its_mcts_opponent_by_simulations(self):
    config = presets.make_connect4_config()
    make_environment = builders.make_environment_factory('connect4', config)
    opponents = evaluation.preset_opponents(
        'connect4', make_environment, num_simulations=10)
    self.assertEqual(list(opponents), ['mcts10', 'random'])
    alone = evaluation.preset_opponents(
        'connect4', make_environment, names=['random'])
    self.assertEqual(list(alone), ['random'])

  def test_a_two_player_game_of_the_users_plays_the_random_player(self):
    # MuZero always takes 1 (logits favour action 0). First, from 3: it
    # takes 1 and wins iff the random player then takes 1 too (MuZero takes
    # the last); second: the random player's opening take of 2 leaves it the
    # last stone (a win), a take of 1 leaves it 2 (it takes 1, and loses).
    # The random player of game n draws its first move from
    # default_rng(n) (`RandomPlayer`), n = seed + side * num_games + g.
    config = presets.config_for_environment(TakeAway(), max_moves=3)
    make_environment = builders.make_environment_factory(
        None, config, environment=TakeAway)
    opponents = evaluation.preset_opponents(None, make_environment)
    self.assertEqual(list(opponents), ['random'])
    results = evaluation.evaluate_preset(
        search.ReferenceSearch(config.replace(num_simulations=2),
                               FixedModel([8., 0.])),
        make_environment, opponents, num_games=6, seed=10)
    first = [int(np.random.default_rng(10 + g).choice([0, 1])) for g in
             range(6)]
    second = [int(np.random.default_rng(16 + g).choice([0, 1])) for g in
              range(6)]
    self.assertEqual(results, [
        evaluation.MatchResult('random', 'first', wins=first.count(0),
                               draws=0, losses=first.count(1), max_moves=3),
        evaluation.MatchResult('random', 'second', wins=second.count(1),
                               draws=0, losses=second.count(0),
                               max_moves=3)])

  @absltest.skipUnless(HAS_GYMNASIUM, 'needs gymnasium')
  def test_one_player_presets_play_episodes(self):
    # Pushing left always (logits favour action 0): each episode lasts as
    # long as gymnasium's own CartPole-v1 does from the same seed.
    import gymnasium  # pylint: disable=g-import-not-at-top
    config = presets.make_cartpole_config()
    make_environment = builders.make_environment_factory('cartpole', config)
    self.assertIsNone(
        evaluation.preset_opponents('cartpole', make_environment))
    stats = evaluation.evaluate_preset(
        search.ReferenceSearch(config.replace(num_simulations=2),
                               FixedModel(np.array([8., 0.]))),
        make_environment, None, num_games=3, seed=7)
    expected = []
    for seed in (7, 8, 9):
      env = gymnasium.make('CartPole-v1')
      env.reset(seed=seed)
      steps, done = 0, False
      while not done:
        _, _, terminated, truncated, _ = env.step(0)
        steps, done = steps + 1, terminated or truncated
      expected.append(steps)
    self.assertAllEqual(stats.returns, expected)


class TablesTest(testing.TestCase):

  RESULTS = (evaluation.MatchResult('perfect', 'first', 0, 3, 1),
             evaluation.MatchResult('perfect', 'second', 0, 2, 2),
             evaluation.MatchResult('random', 'first', 4, 0, 0),
             evaluation.MatchResult('random', 'second', 1, 1, 2))

  def test_tictactoe_table(self):
    self.assertEqual(
        evaluation.tictactoe_table(self.RESULTS[:2]).splitlines(),
        ['opponent  muzero   games  wins draws losses   cut',
         'perfect   first        4     0     3      1     0',
         'perfect   second       4     0     2      2     0'])

  def test_tictactoe_table_counts_the_games_cut(self):
    # 2 + 0 of the 4 + 3 games were cut at 42 moves.
    results = (evaluation.MatchResult('mcts10', 'first', 1, 0, 1, cut=2,
                                      max_moves=42),
               evaluation.MatchResult('mcts10', 'second', 1, 1, 1,
                                      max_moves=42))
    self.assertEqual(
        evaluation.tictactoe_table(results).splitlines(),
        ['opponent  muzero   games  wins draws losses   cut',
         'mcts10    first        4     1     0      1     2',
         'mcts10    second       3     1     1      1     0',
         '2 of 7 games cut at 42 moves (neither won, drawn nor lost).'])

  def test_episodes_table_counts_the_episodes_cut(self):
    # Mean 1031 / 3 = 343.7; deviations 156.3, 156.3, -312.7: std
    # sqrt((2 * 24440.1 + 97760.4) / 3) = sqrt(48880.2) = 221.1.
    stats = evaluation.EpisodeStats(np.array([500., 500., 31.]), cut=2,
                                    max_moves=500)
    self.assertEqual(evaluation.episodes_table(stats).splitlines(),
                     ['episodes     mean      std      min      max',
                      '       3    343.7    221.1     31.0    500.0',
                      '2 of 3 episodes cut at 500 moves.'])

  def test_episodes_table(self):
    # Mean 22; std sqrt((12^2 + 2^2 + 14^2) / 3) = sqrt(114.67) = 10.71.
    stats = evaluation.EpisodeStats(np.array([10., 20., 36.]))
    self.assertEqual(evaluation.episodes_table(stats).splitlines(),
                     ['episodes     mean      std      min      max',
                      '       3     22.0     10.7     10.0     36.0'])

  def test_summary_scalars(self):
    # perfect: 0 wins, 5 draws, 3 losses of 8; random: 5, 1, 2 of 8.
    self.assertEqual(evaluation.summary_scalars(self.RESULTS), {
        'eval/perfect/win_rate': 0., 'eval/perfect/draw_rate': 5 / 8,
        'eval/perfect/loss_rate': 3 / 8, 'eval/random/win_rate': 5 / 8,
        'eval/random/draw_rate': 1 / 8, 'eval/random/loss_rate': 2 / 8})
    # A game cut counts in the rates' denominator: 1 win of 2 games.
    self.assertEqual(evaluation.summary_scalars(
        [evaluation.MatchResult('random', 'first', 1, 0, 0, cut=1)]), {
            'eval/random/win_rate': 0.5, 'eval/random/draw_rate': 0.,
            'eval/random/loss_rate': 0.})
    stats = evaluation.EpisodeStats(np.array([10., 20.]))
    self.assertEqual(evaluation.summary_scalars(stats), {
        'eval/return_mean': 15., 'eval/return_std': 5.,
        'eval/return_min': 10., 'eval/return_max': 20.})


if __name__ == '__main__':
  absltest.main()
