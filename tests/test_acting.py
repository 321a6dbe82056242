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
"""Tests of the Actor: self-play games by the rules, seeded and checked."""

import dataclasses
import functools

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np
import tensorflow as tf

from muzero_snt import acting
from muzero_snt import config as config_lib
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search
from muzero_snt import types
from muzero_snt.environments import base
from muzero_snt.environments import checks
from muzero_snt.environments import tictactoe

# The eight lines of the board, written out here rather than imported, so
# that the rules the games are checked against do not come from the code
# under test.
_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
          (0, 4, 8), (2, 4, 6))


def _config(**changes) -> config_lib.MuZeroConfig:
  # Every move from the search (the paper's rule; the preset plays its first
  # at random, tested on its own below).
  config = presets.make_tictactoe_config().replace(
      num_simulations=4, batch_size=8, num_unroll_steps=2, td_steps=9,
      window_size=50, random_opening_moves=0)
  config = config.replace(
      network=dataclasses.replace(config.network, channels=4))
  return config.replace(**changes)


def _observation(stones, player):
  """The common.md observation: mover's stones, opponent's, to_play plane."""
  observation = np.zeros((3, 3, 3), np.float32)
  for square in stones[player]:
    observation[square // 3, square % 3, 0] = 1.
  for square in stones[1 - player]:
    observation[square // 3, square % 3, 1] = 1.
  observation[..., 2] = player
  return observation


def _referee(actions):
  """Plays `actions` from the empty board by the rules of tic-tac-toe.

  Returns:
    A dict: `observations` before each move, `players`, `rewards` (for the
    mover), `occupied` squares before each move, `winner` (0, 1, -1 for a
    draw, None if unfinished) and `final_observation`.

  Raises:
    AssertionError: on a move to an occupied square or after the end.
  """
  stones = (set(), set())
  record = {'observations': [], 'players': [], 'rewards': [], 'occupied': []}
  winner = None
  for t, action in enumerate(actions):
    player = t % 2
    occupied = stones[0] | stones[1]
    if winner is not None or action in occupied or not 0 <= action < 9:
      raise AssertionError(f'move {t} ({action}) is illegal after '
                           f'{list(actions[:t])}')
    record['observations'].append(_observation(stones, player))
    record['players'].append(player)
    record['occupied'].append(sorted(occupied))
    stones[player].add(int(action))
    won = any(set(line) <= stones[player] for line in _LINES)
    record['rewards'].append(1. if won else 0.)
    if won:
      winner = player
    elif len(stones[0]) + len(stones[1]) == 9:
      winner = -1
  record['winner'] = winner
  record['final_observation'] = _observation(stones, len(actions) % 2)
  return record


def _checked_factory(config, make=tictactoe.TicTacToe):
  """`(seed) -> make(seed)` checked against `config`, as the launcher's."""

  def factory(seed):
    return checks.CheckedEnvironment.from_config(make(seed), config)

  return factory


class SquareModel:
  """A stub `Model` whose priors favour one square everywhere.

  Logits are 10 for `square` and 0 elsewhere, rewards 0, recurrent values
  0; `initial_inference`'s value is `value_per_stone` times the number of
  stones on the board, so a bootstrap value can be worked out by hand.
  """

  def __init__(self, square: int = 4, value_per_stone: float = 0.1):
    self._square = square
    self._value_per_stone = value_per_stone

  def _output(self, batch_size, value):
    logits = np.zeros((batch_size, 9), np.float32)
    logits[:, self._square] = 10.
    return types.NetworkOutput(
        value=np.asarray(value, np.float32),
        reward=np.zeros(batch_size, np.float32),
        policy_logits=logits,
        hidden_state=np.zeros((batch_size, 1), np.float32))

  def initial_inference(self, observation):
    stones = np.asarray(observation)[..., :2].sum(axis=(1, 2, 3))
    return self._output(len(observation), self._value_per_stone * stones)

  def recurrent_inference(self, hidden_state, action):
    del action
    return self._output(len(hidden_state), np.zeros(len(hidden_state)))


class NaNRewardTicTacToe(tictactoe.TicTacToe):
  """Tic-tac-toe whose first move is rewarded with NaN."""

  def step(self, action):
    time_step = super().step(action)
    if not time_step.first():
      time_step = time_step._replace(reward=np.float32(np.nan))
    return time_step


class BrokenLegalActions(base.Environment):
  """Tic-tac-toe that reports `legal` as the legal moves at every position."""

  def __init__(self, seed=None, legal=tuple(range(9))):
    self._game = tictactoe.TicTacToe(seed)
    self._legal = np.asarray(legal, np.int32)

  def observation_spec(self):
    return self._game.observation_spec()

  def action_spec(self):
    return self._game.action_spec()

  def reset(self):
    return self._game.reset()

  def step(self, action):
    return self._game.step(action)

  def legal_actions(self):
    return self._legal

  def to_play(self):
    return self._game.to_play()

  @property
  def num_players(self):
    return 2


class ShrinkingObservation(BrokenLegalActions):
  """Tic-tac-toe whose observation loses a plane from its second move on."""

  def __init__(self, seed=None):
    super().__init__(seed)
    self._moves = 0

  def reset(self):
    self._moves = 0
    return self._game.reset()

  def step(self, action):
    time_step = self._game.step(action)
    self._moves += 1
    if self._moves >= 2:
      time_step = time_step._replace(observation=time_step.observation[..., :2])
    return time_step

  def legal_actions(self):
    return self._game.legal_actions()


class ScriptedTicTacToe(BrokenLegalActions):
  """Tic-tac-toe where the only legal move is the next one of a script."""

  def __init__(self, script, seed=None):
    super().__init__(seed)
    self._script = script

  def legal_actions(self):
    legal = self._game.legal_actions()
    if not len(legal):
      return legal
    return np.array([self._script[9 - len(legal)]], np.int32)


class RecordingTemperature:
  """A temperature function that records its arguments and returns 0."""

  def __init__(self):
    self.calls = []

  def __call__(self, num_moves, training_steps):
    self.calls.append((num_moves, training_steps))
    return 0.


class RecordingSearch:
  """A `search.Search` that keeps the outputs of the search it calls."""

  def __init__(self, inner):
    self._inner = inner
    self.outputs = []

  def __call__(self, observations, to_play, legal_actions_mask, rng,
               add_noise=True):
    output = self._inner(observations, to_play, legal_actions_mask, rng,
                         add_noise)
    self.outputs.append(output)
    return output


class ChoosingSearch:
  """A `search.Search` that chooses the action itself, as Gumbel MuZero's.

  It visits the first legal square most, puts its policy on the last one
  and returns the last legal square as the action to play.
  """

  def __call__(self, observations, to_play, legal_actions_mask, rng,
               add_noise=True):
    del observations, to_play, rng, add_noise
    counts = np.zeros((len(legal_actions_mask), 9), np.int32)
    policy = np.zeros((len(legal_actions_mask), 9), np.float32)
    actions = []
    for i, row in enumerate(legal_actions_mask):
      legal = np.flatnonzero(row)
      counts[i, legal[0]] = 3
      counts[i, legal[-1]] = 1
      policy[i, legal[-1]] = 1.
      actions.append(legal[-1])
    return search.SearchOutput(counts, policy,
                               np.zeros(len(legal_actions_mask), np.float32),
                               action=np.array(actions, np.int32))


class ActorWithChosenActionTest(parameterized.TestCase):

  def test_plays_the_search_action_not_the_most_visited(self):
    # Temperature 0 would play the most visited square, the first legal
    # one: the actor plays the search's own choice, the last legal square,
    # and stores its policy. Tic-tac-toe then fills the board 8, 7, ...:
    # X (player 0) completes the diagonal 6, 4, 2 on the 7th move.
    config = _config(
        visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=0))
    actor = acting.Actor(config, ChoosingSearch(), SquareModel(),
                         _checked_factory(config), seed=0, num_envs=1)
    (result,) = actor.play_round(0)
    self.assertEqual(list(result.trajectory.actions),
                     [8, 7, 6, 5, 4, 3, 2])
    for action, policy in zip(result.trajectory.actions,
                              result.trajectory.policies):
      self.assertEqual(policy[action], 1.)
    self.assertEqual(result.episode_return, 1.)


class ActorRandomOpeningTest(parameterized.TestCase):
  """`config.random_opening_moves`: the first moves at random."""

  def _games(self, random_opening_moves, rounds=10, num_envs=36):
    config = _config(
        visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=0),
        random_opening_moves=random_opening_moves)
    actor = acting.Actor(config, ChoosingSearch(), SquareModel(),
                         _checked_factory(config), seed=0, num_envs=num_envs)
    return [result.trajectory for r in range(rounds)
            for result in actor.play_round(r)]

  def test_opening_moves_are_uniform_then_the_search_plays(self):
    games = self._games(random_opening_moves=2)
    for game in games:
      actions = list(game.actions)
      _referee(actions)  # Legal throughout.
      occupied = set(actions[:2])
      # From the third move on, the search's choice: the last empty square.
      for action in actions[2:]:
        self.assertEqual(action, max(set(range(9)) - occupied))
        occupied.add(action)
      # The stored policy is the search's at every move, random or not.
      for t, policy in enumerate(game.policies):
        empty = sorted(set(range(9)) - set(actions[:t]))
        self.assertEqual(policy[empty[-1]], 1.)
    # 360 first moves, uniform over 9 squares: 40 expected per square, a
    # standard deviation of 6; every square within 5 of them. The second
    # move is uniform over the 8 squares left.
    first = np.bincount([g.actions[0] for g in games], minlength=9)
    self.assertLess(np.abs(first - 40).max(), 30, first)
    second_after_8 = [g.actions[1] for g in games if g.actions[0] == 8]
    self.assertLen(set(second_after_8), 8)

  def test_zero_keeps_the_search_choice_from_the_first_move(self):
    games = self._games(random_opening_moves=0, rounds=1, num_envs=2)
    for game in games:
      self.assertEqual(list(game.actions), [8, 7, 6, 5, 4, 3, 2])


class ActorWithNetworkTest(parameterized.TestCase):
  """Games played with the reference search and a small real network."""

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    cls.config = _config()
    tf.random.set_seed(0)
    cls.network = networks.make_network(cls.config)
    cls.model = search.NetworkModel(cls.network)

  def _search(self, config):
    return search.ReferenceSearch(config, self.model)

  def _actor(self, config=None, seed=0, num_envs=3, factory=None,
             searcher=None):
    config = config or self.config
    return acting.Actor(config, searcher or self._search(config), self.model,
                        factory or _checked_factory(config), seed=seed,
                        num_envs=num_envs)

  def test_round_plays_num_envs_games_by_the_rules(self):
    results = self._actor(num_envs=3).play_round(0)
    self.assertLen(results, 3)
    returns = {0: 1., 1: -1., -1: 0.}
    for result in results:
      trajectory = result.trajectory
      actions = trajectory.actions.tolist()
      game = _referee(actions)
      self.assertIsNotNone(game['winner'], f'unfinished game {actions}')
      self.assertTrue(trajectory.finished)
      self.assertTrue(result.terminal)
      self.assertTrue(trajectory.terminal)
      self.assertEqual(trajectory.bootstrap_value, 0.)
      self.assertEqual(result.length, len(actions))
      self.assertEqual(trajectory.to_play.tolist(), game['players'])
      self.assertEqual(trajectory.rewards.tolist(), game['rewards'])
      np.testing.assert_array_equal(trajectory.observations,
                                    np.stack(game['observations']))
      # Only the winner's last move is rewarded; a draw fills the board.
      if game['winner'] == -1:
        self.assertLen(actions, 9)
        self.assertEqual(sum(game['rewards']), 0.)
      else:
        self.assertEqual(game['players'][-1], game['winner'])
        self.assertEqual(game['rewards'][-1], 1.)
        self.assertEqual(sum(game['rewards']), 1.)
      self.assertEqual(result.episode_return, returns[game['winner']])

  def test_policies_are_normalised_visit_counts_over_legal_squares(self):
    results = self._actor(num_envs=3).play_round(1)
    n = self.config.num_simulations
    for result in results:
      trajectory = result.trajectory
      game = _referee(trajectory.actions.tolist())
      for t, policy in enumerate(trajectory.policies):
        self.assertAlmostEqual(float(policy.sum()), 1., places=6)
        # Every simulation passes through one root child: the policy is a
        # count out of num_simulations.
        visits = policy * n
        np.testing.assert_allclose(visits, np.round(visits), atol=1e-5)
        self.assertTrue(np.all(policy[game['occupied'][t]] == 0.), t)
        self.assertGreater(policy[trajectory.actions[t]], 0., t)
        # The record keeps the empty squares as the legal actions.
        empty = np.ones(9, bool)
        empty[game['occupied'][t]] = False
        np.testing.assert_array_equal(trajectory.legal_actions[t], empty)

  def test_trajectories_record_each_search_and_its_action_choice(self):
    recording = RecordingSearch(self._search(self.config))
    results = self._actor(num_envs=3, searcher=recording).play_round(2)
    outputs = recording.outputs
    lengths = [r.length for r in results]
    # Every batched move searches the games still running, in game order.
    self.assertEqual([len(o.root_value) for o in outputs],
                     [sum(length > c for length in lengths)
                      for c in range(max(lengths))])
    temperature_moves = self.config.visit_softmax_temperature_fn.moves
    for i, result in enumerate(results):
      trajectory = result.trajectory
      for t in range(result.length):
        row = sum(lengths[j] > t for j in range(i))
        visits = outputs[t].visit_counts[row]
        self.assertEqual(visits.sum(), self.config.num_simulations)
        np.testing.assert_allclose(trajectory.policies[t],
                                   visits / visits.sum(), atol=1e-7)
        self.assertAlmostEqual(trajectory.root_values[t],
                               float(outputs[t].root_value[row]), places=6)
        action = trajectory.actions[t]
        if t >= temperature_moves:  # Temperature 0: the most visited square.
          self.assertEqual(action, int(np.argmax(visits)), (i, t))
        else:
          self.assertGreater(visits[action], 0, (i, t))

  def test_temperature_sees_move_number_and_learner_steps(self):
    temperature = RecordingTemperature()
    config = self.config.replace(visit_softmax_temperature_fn=temperature)
    results = self._actor(config, num_envs=2).play_round(
        0, training_steps=lambda: 7)
    expected = sorted((t, 7) for r in results for t in range(r.length))
    self.assertEqual(sorted(temperature.calls), expected)

  def test_on_move_counts_the_games_still_running(self):
    moves = []
    results = self._actor(num_envs=3).play_round(0, on_move=moves.append)
    lengths = [r.length for r in results]
    self.assertEqual(moves, [sum(length > c for length in lengths)
                             for c in range(max(lengths))])
    self.assertEqual(sum(moves), sum(lengths))

  def test_same_seed_and_round_replay_the_same_games(self):
    first = self._actor(seed=5).play_round(3)
    # A fresh actor that played another round before: rounds do not depend
    # on what was played earlier, which a resumed run relies on.
    actor = self._actor(seed=5)
    actor.play_round(0)
    second = actor.play_round(3)
    for a, b in zip(first, second):
      for name in ('observations', 'to_play', 'actions', 'rewards',
                   'policies', 'root_values'):
        np.testing.assert_array_equal(getattr(a.trajectory, name),
                                      getattr(b.trajectory, name), name)
      self.assertEqual(a.episode_return, b.episode_return)

  @parameterized.named_parameters(
      ('other_round', 5, 4),
      ('other_seed', 6, 3),
  )
  def test_other_round_or_seed_plays_other_games(self, seed, round_index):
    first = self._actor(seed=5).play_round(3)
    second = self._actor(seed=seed).play_round(round_index)
    self.assertNotEqual([r.trajectory.actions.tolist() for r in first],
                        [r.trajectory.actions.tolist() for r in second])

  def test_environment_seeds_are_distinct_per_game_and_reproducible(self):

    def seeds_of_rounds(seed, rounds):
      seeds = []

      def make(environment_seed):
        seeds.append(environment_seed)
        return tictactoe.TicTacToe(environment_seed)

      actor = self._actor(seed=seed, num_envs=2,
                          factory=_checked_factory(self.config, make))
      for round_index in rounds:
        actor.play_round(round_index)
      return seeds

    seeds = seeds_of_rounds(0, (0, 1))
    self.assertLen(set(seeds), 4)
    self.assertEqual(seeds_of_rounds(0, (1,)), seeds[2:])
    self.assertNotEqual(seeds_of_rounds(1, (1,)), seeds[2:])

  def test_max_moves_truncates_with_the_network_value_of_the_last_position(
      self):
    config = self.config.replace(max_moves=3)
    results = self._actor(config, num_envs=2).play_round(0)
    for result in results:
      trajectory = result.trajectory
      self.assertEqual(result.length, 3)
      self.assertFalse(result.terminal)
      self.assertFalse(trajectory.terminal)
      self.assertEqual(result.episode_return, 0.)  # No line in 3 moves.
      game = _referee(trajectory.actions.tolist())
      self.assertIsNone(game['winner'])
      # The position after the last move, player 1 to move, straight
      # through the network rather than the search's model.
      output = self.network.initial_inference(
          game['final_observation'][None])
      self.assertAlmostEqual(trajectory.bootstrap_value,
                             float(output.value.numpy()[0]), places=6)
      self.assertNotEqual(trajectory.bootstrap_value, 0.)


class ActorWithCompiledSearchTest(ActorWithNetworkTest):
  """The same games' rules, with the compiled search (XLA) choosing."""

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    cls.compiled_search = search.CompiledSearch(cls.config, cls.network)

  def _search(self, config):
    if config is self.config:
      return self.compiled_search
    return search.CompiledSearch(config, self.network)


class ActorWithStubModelTest(parameterized.TestCase):
  """Games whose searches can be worked out by hand."""

  def _actor(self, config, factory=None, num_envs=2, model=None):
    model = model or SquareModel()
    return acting.Actor(config, search.ReferenceSearch(config, model), model,
                        factory or _checked_factory(config), seed=0,
                        num_envs=num_envs)

  def test_greedy_play_opens_in_the_favoured_square(self):
    config = _config(
        visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=0))
    results = self._actor(config).play_round(0)
    # 4 simulations: with N = 0 visits every pUCT score is 0 and the tie
    # goes to square 0; then square 4's prior (>= 0.75 after noise) beats
    # square 0 (prior <= 0.25, value part 0.5) and the unvisited squares
    # (prior <= 0.25) three times: 1.25 * 0.75 = 0.94 > 0.66,
    # 1.25 * sqrt(2) / 2 * 0.75 + 0.5 = 1.16 > 0.72 and
    # 1.25 * sqrt(3) / 3 * 0.75 + 0.5 = 1.04 > 0.77.
    expected_policy = np.zeros(9)
    expected_policy[[0, 4]] = [0.25, 0.75]
    for result in results:
      self.assertEqual(result.trajectory.actions[0], 4)
      np.testing.assert_allclose(result.trajectory.policies[0],
                                 expected_policy, atol=1e-7)
      # Every leaf value and reward is 0.
      self.assertEqual(result.trajectory.root_values[0], 0.)

  def test_truncated_game_bootstraps_from_the_model_value(self):
    config = _config(
        max_moves=3,
        visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=0))
    results = self._actor(config).play_round(0)
    for result in results:
      self.assertEqual(result.length, 3)
      self.assertFalse(result.terminal)
      # Three stones on the board, 0.1 each.
      self.assertAlmostEqual(result.trajectory.bootstrap_value, 0.3, places=6)

  @parameterized.named_parameters(
      # Player 0 completes the top row with its third stone.
      ('player_0_wins', (0, 3, 1, 4, 2), [0, 0, 0, 0, 1], 1.),
      # Player 1 completes the middle row with its third stone.
      ('player_1_wins', (0, 3, 1, 4, 8, 5), [0, 0, 0, 0, 0, 1], -1.),
      # X: 0 8 7 2 3, O: 4 1 6 5; no line when the board is full.
      ('draw', (0, 4, 8, 1, 7, 6, 2, 5, 3), [0] * 9, 0.),
  )
  def test_forced_games_have_the_hand_computed_rewards_and_return(
      self, script, rewards, episode_return):
    config = _config()
    factory = _checked_factory(
        config, functools.partial(ScriptedTicTacToe, script))
    results = self._actor(config, factory).play_round(0)
    for result in results:
      trajectory = result.trajectory
      self.assertEqual(trajectory.actions.tolist(), list(script))
      self.assertEqual(trajectory.to_play.tolist(),
                       [t % 2 for t in range(len(script))])
      self.assertEqual(trajectory.rewards.tolist(), rewards)
      self.assertEqual(result.episode_return, episode_return)
      self.assertEqual(result.length, len(script))
      self.assertTrue(result.terminal)
      # One legal move takes every simulation.
      np.testing.assert_array_equal(trajectory.policies,
                                    np.eye(9)[list(script)])

  def test_num_envs_must_be_a_positive_integer(self):
    config = _config()
    for bad in (0, -2, 1.5, '2'):
      with self.assertRaisesRegex(
          ValueError, f'num_envs must be a positive integer, got {bad!r}'):
        acting.Actor(config, search.ReferenceSearch(config, SquareModel()),
                     SquareModel(), _checked_factory(config), num_envs=bad)

  def test_search_and_model_must_be_what_they_say(self):
    config = _config()
    model = SquareModel()
    reference = search.ReferenceSearch(config, model)
    with self.assertRaisesRegex(TypeError,
                                'Actor needs a search.Search .*got '
                                'SquareModel'):
      acting.Actor(config, model, model, _checked_factory(config))
    with self.assertRaisesRegex(TypeError,
                                'Actor needs a search.Model .*got '
                                'ReferenceSearch'):
      acting.Actor(config, reference, reference, _checked_factory(config))

  def test_nan_reward_is_named_by_the_checked_environment(self):
    config = _config()
    factory = _checked_factory(config, NaNRewardTicTacToe)
    with self.assertRaisesRegex(
        ValueError, r'step\(\) of NaNRewardTicTacToe returned reward nan at '
        'step 1 of the episode; expected a finite scalar'):
      self._actor(config, factory).play_round(0)

  def test_nan_reward_of_an_unchecked_environment_is_named_by_the_record(
      self):
    config = _config()
    with self.assertRaisesRegex(ValueError,
                                'reward at move 0 must be a finite number, '
                                'got nan'):
      self._actor(config, NaNRewardTicTacToe).play_round(0)

  def test_occupied_square_listed_as_legal_is_refused_with_its_number(self):
    # The broken list passes the wrapper's check (it is the list the wrapper
    # checks against); the game itself refuses the occupied square. Greedy
    # play with the stub opens in 4, then picks 4 again for player 1.
    config = _config(
        visit_softmax_temperature_fn=config_lib.MoveCountTemperature(moves=0))
    factory = _checked_factory(config, BrokenLegalActions)
    with self.assertRaisesRegex(
        ValueError, r'Illegal tic-tac-toe action 4: .*empty.* legal actions '
        r'are \[0, 1, 2, 3, 5, 6, 7, 8\]'):
      self._actor(config, factory).play_round(0)

  def test_legal_actions_outside_the_action_space_are_named(self):
    config = _config()
    factory = _checked_factory(
        config, functools.partial(BrokenLegalActions, legal=range(10)))
    with self.assertRaisesRegex(
        ValueError, r'legal_actions\(\) of BrokenLegalActions returned '
        r'\[0, 1, 2, 3, 4, 5, 6, 7, 8, 9\] at step 0 of the episode; '
        r'expected .* in 0\.\.8'):
      self._actor(config, factory).play_round(0)

  def test_observation_of_the_wrong_shape_is_named(self):
    config = _config()
    factory = _checked_factory(config, ShrinkingObservation)
    with self.assertRaisesRegex(
        ValueError, r'step\(\) of ShrinkingObservation returned an '
        r'observation of shape \(3, 3, 2\).*at step 2 of the episode; '
        r'expected shape \(3, 3, 3\)'):
      self._actor(config, factory).play_round(0)

  def test_environment_that_does_not_fit_the_config_is_named(self):
    config = _config(action_space_size=10)
    factory = _checked_factory(config)
    with self.assertRaisesRegex(
        ValueError, r'action_spec\(\) of TicTacToe returned .* expected a '
        'DiscreteArray of 10 actions'):
      self._actor(config, factory).play_round(0)


if __name__ == '__main__':
  absltest.main()
