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
"""Tests for `Actor.play_games`: self-play without rounds."""

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt import acting
from muzero_snt.run import data_sources
from muzero_snt import presets
from muzero_snt.run import run_config
from muzero_snt import search
from muzero_snt import types
from muzero_snt.environments import base
from tests import testing

_LENGTHS = 7  # A game lasts 1 to 7 moves.


class Countdown(base.Environment):
  """A one-player game of 1 + seed % 7 moves, one reward per move.

  The observation is [moves left, the game's length, the seed mod 2^24
  (exact in float32), 0]: a record holds one game's observations only if
  they agree.
  """

  def __init__(self, seed):
    self.seed = seed
    self.length = 1 + seed % _LENGTHS
    self._left = None

  def observation_spec(self):
    return specs.Array((4,), np.float32)

  def action_spec(self):
    return specs.DiscreteArray(2)

  def _observation(self):
    return np.array([self._left, self.length, self.seed % 2**24, 0.],
                    np.float32)

  def reset(self):
    self._left = self.length
    return dm_env.restart(self._observation())

  def step(self, action):
    del action
    self._left -= 1
    if self._left == 0:
      return dm_env.termination(1., self._observation())
    return dm_env.transition(1., self._observation())

  def legal_actions(self):
    return np.arange(2)

  def to_play(self):
    return 0

  @property
  def num_players(self):
    return 1


class UniformSearch:
  """A `search.Search` with equal visits; it records each batch's size."""

  def __init__(self):
    self.batch_sizes = []

  def __call__(self, observations, to_play, legal_actions_mask, rng,
               add_noise=True):
    del to_play, legal_actions_mask, rng, add_noise
    size = len(observations)
    self.batch_sizes.append(size)
    return search.SearchOutput(np.ones((size, 2), np.int32),
                               np.full((size, 2), 0.5, np.float32),
                               np.zeros(size, np.float32))


class ZeroModel:
  """A stub `Model`: value 0 everywhere (no game here is truncated)."""

  def initial_inference(self, observation):
    size = len(observation)
    return types.NetworkOutput(
        value=np.zeros(size, np.float32), reward=np.zeros(size, np.float32),
        policy_logits=np.zeros((size, 2), np.float32),
        hidden_state=np.zeros((size, 1), np.float32))

  def recurrent_inference(self, hidden_state, action):
    del action
    return self.initial_inference(hidden_state)


def _actor(seed=0, num_envs=4, made=None):
  made = [] if made is None else made

  def make(environment_seed):
    made.append(environment_seed)
    return Countdown(environment_seed)

  searcher = UniformSearch()
  config = presets.make_cartpole_config().replace(random_opening_moves=0)
  return (acting.Actor(config, searcher, ZeroModel(), make, seed=seed,
                       num_envs=num_envs), searcher, made)


def _check_whole(test, result):
  """The record is one game of Countdown from its first move to its end."""
  observations = result.trajectory.observations
  length = int(observations[0, 1])
  test.assertEqual(result.length, length)
  test.assertTrue(result.terminal)
  test.assertEqual(result.episode_return, float(length))
  np.testing.assert_array_equal(observations[:, 0],
                                np.arange(length, 0, -1))
  np.testing.assert_array_equal(observations[:, 1:3],
                                np.tile(observations[0, 1:3], (length, 1)))


class PlayGamesTest(testing.TestCase):

  def test_every_search_holds_all_the_games(self):
    actor, searcher, _ = _actor()
    for call in range(3):
      results = actor.play_games(call)
      self.assertGreaterEqual(len(results), 4)
      for result in results:
        _check_whole(self, result)
    self.assertEqual(set(searcher.batch_sizes), {4})
    # Rounds of the same games end with searches of fewer positions.
    round_actor, round_searcher, _ = _actor()
    round_actor.play_round(0)
    self.assertLess(min(round_searcher.batch_sizes), 4)

  def test_games_start_in_order_and_carry_over_between_calls(self):
    made = []
    actor, searcher, _ = _actor(made=made)
    moves = []
    first = actor.play_games(0, on_move=moves.append)
    second = actor.play_games(1, on_move=moves.append)
    # Every call plays until 4 games have ended; each move counts 4 steps.
    self.assertEqual(moves, [4] * len(searcher.batch_sizes))
    # A game started for each one that ended, and no other; each game that
    # ended is one of those started, once.
    self.assertLen(made, 4 + len(first) + len(second))
    finished = [int(r.trajectory.observations[0, 2]) for r in first + second]
    self.assertLen(set(finished), len(finished))
    self.assertContainsSubset(finished, [seed % 2**24 for seed in made])
    # Steps played: the finished games' and the progress of those in play.
    self.assertGreaterEqual(sum(moves), sum(r.length for r in first + second))
    self.assertLess(sum(moves) - sum(r.length for r in first + second),
                    4 * _LENGTHS)

  def test_same_seed_plays_the_same_games(self):
    plays = []
    for _ in range(2):
      actor, _, made = _actor(seed=3)
      results = actor.play_games(0) + actor.play_games(1)
      plays.append((made, [r.trajectory.actions.tolist() for r in results]))
    self.assertEqual(plays[0], plays[1])
    other, _, made = _actor(seed=4)
    other.play_games(0)
    self.assertNotEqual(made[:4], plays[0][0][:4])

  def test_first_game_numbers_the_environments(self):
    actor, _, made = _actor()
    actor.play_games(0)
    later, _, made_later = _actor()
    later.play_games(0, first_game=2)
    # Game 2's environment is the first that starts, then 3, 4, ...
    self.assertEqual(made_later[:3], made[2:5])

  def test_should_stop_returns_early_and_the_games_go_on(self):
    actor, searcher, made = _actor()
    self.assertEqual(actor.play_games(0, should_stop=lambda: True), [])
    self.assertLen(made, 4)
    self.assertEqual(searcher.batch_sizes, [4])
    results = actor.play_games(1)
    self.assertGreaterEqual(len(results), 4)
    for result in results:
      _check_whole(self, result)


  def test_on_game_end_hands_over_each_game_as_it_ends(self):
    actor, _, _ = _actor()
    events = []
    results = actor.play_games(
        0, on_move=lambda steps: events.append('move'),
        on_game_end=lambda result: events.append(result))
    # The same games in the same order, each before its move's on_move.
    self.assertEqual([e for e in events if e != 'move'], results)
    # The first game to end began on the call's first move, so a game of L
    # moves ends on move L: L - 1 moves were reported before it, not L.
    first = next(i for i, e in enumerate(events) if e != 'move')
    self.assertEqual(first, events[first].length - 1)
    self.assertEqual(events[-1], 'move')


class ContinuousSourceTest(testing.TestCase):

  def test_self_play_source_stores_whole_games(self):
    actor, searcher, _ = _actor()
    config = presets.make_cartpole_config()
    source = data_sources.SelfPlay(config, actor, train_ratio=0.5,
                                   continuous=True)
    stored = []
    for _ in range(3):
      source.run_round(learn=lambda: True, learner_steps=lambda: 0)
      stored.extend(source.last_results)
    replay = source.replay
    # last_results: each round's games, exactly the ones stored.
    self.assertEqual([r.length for r in stored],
                     [replay.game(i).length for i in replay.game_ids])
    self.assertEqual([r.episode_return for r in stored],
                     [float(r.length) for r in stored])
    self.assertGreaterEqual(source.games, 12)
    self.assertEqual(source.rounds, 3)
    self.assertEqual(set(searcher.batch_sizes), {4})
    self.assertEqual(source.env_steps, 4 * len(searcher.batch_sizes))
    self.assertLen(replay.game_ids, source.games)
    for game_id in replay.game_ids:
      game = replay.game(game_id)
      self.assertEqual(game.length, int(game.observations[0, 1]))

  def test_each_game_is_in_replay_from_the_move_it_ends(self):
    actor, _, _ = _actor()
    config = presets.make_cartpole_config().replace(batch_size=1)
    source = data_sources.SelfPlay(config, actor, train_ratio=1.,
                                   continuous=True)
    seen = []

    def learn():
      # What the learner could sample at each of its steps.
      seen.append((source.replay.num_games, source.games))
      return True

    source.run_round(learn=learn, learner_steps=lambda: 0)
    results = source.last_results
    self.assertGreaterEqual(len(results), 4)
    # Games reach the replay during the round, not at its end: the learner
    # saw the number of stored games grow one game at a time to all of them.
    counts = [games for games, _ in seen]
    self.assertEqual(counts, sorted(counts))
    # Learning starts once a batch (one position) is stored: the first game.
    self.assertEqual(counts[0], 1)
    self.assertEqual(counts[-1], len(results))
    self.assertGreater(len(set(counts)), 2)
    self.assertTrue(all(games == counted for games, counted in seen))

  def test_settings_refuse_continuous_play_without_self_play(self):
    # Actors play continuously too (tests/distributed/test_distributed_run).
    self.assertTrue(run_config.RunConfig(
        preset='tictactoe', num_actors=2,
        continuous_selfplay=True).resolved().continuous_selfplay)
    with self.assertRaisesRegex(
        ValueError, "continuous_selfplay must be False unless "
        "data='selfplay', got True"):
      run_config.RunConfig(preset='tictactoe', data='synthetic',
                               continuous_selfplay=True)
    with self.assertRaisesRegex(ValueError,
                                'continuous_selfplay must be None, True or False'):
      run_config.RunConfig(preset='tictactoe', continuous_selfplay=1)


if __name__ == '__main__':
  testing.main()
