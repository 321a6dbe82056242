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
"""Tests of evaluation: the MuZero player, matches, episodes and curves."""

import dataclasses
import importlib.util
import math
import os
import struct
import sys
import tempfile
from unittest import mock

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt import checkpointing
from muzero_snt import evaluation
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search
from muzero_snt import types
from muzero_snt.environments import tictactoe
from muzero_snt.environments import tictactoe_players
from tests import testing
from tests.search import oracle

TICTACTOE = presets.make_tictactoe_config()
HAS_GYMNASIUM = importlib.util.find_spec('gymnasium') is not None
HAS_MATPLOTLIB = importlib.util.find_spec('matplotlib') is not None
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'


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


def _player(config, model, num_simulations=None):
  """A MuZeroPlayer of the reference search with `model`."""
  return evaluation.MuZeroPlayer(
      search.ReferenceSearch(config, model, num_simulations))


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


def _new_dir(test: tf.test.TestCase) -> str:
  """A new empty directory under the test's temporary directory."""
  return tempfile.mkdtemp(dir=test.get_temp_dir())


def _png_size(path):
  """(width, height) from a PNG's IHDR chunk."""
  with open(path, 'rb') as f:
    header = f.read(24)
  return struct.unpack('>II', header[16:24])


class MuZeroPlayerTest(testing.TestCase):

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
        'perfect', 'first', wins=0, draws=0, losses=10))
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
      evaluation.play_tictactoe(player, [], muzero_side=2)


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
        search.ReferenceSearch(config, LeanModel(), num_simulations=4),
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


class LoadNetworkTest(testing.TestCase):

  def _trained_network(self, config):
    network = networks.make_network(config)
    network.create_variables()
    rng = np.random.default_rng(5)
    for v in network.variables:  # Far from any initialisation.
      v.assign(rng.normal(0., 0.5, v.shape).astype(np.float32))
    return network

  def test_round_trip_of_a_training_checkpoint(self):
    config = testing.tiny_mlp_config(support_size=5)
    network = self._trained_network(config)
    directory = _new_dir(self)
    # What TrainingLoop saves: Learner.state plus counters, numbered by
    # rounds.
    optimizer = tf.Variable(3.)
    counters = checkpointing.counters(rounds=7, games=70)
    checkpointing.Checkpointer(
        directory, network=network, optimizer=optimizer,
        step=tf.Variable(1234, dtype=tf.int64), **counters).save(7)
    observation = np.random.default_rng(0).normal(size=(3, 4))
    expected = network.initial_inference(observation.astype(np.float32))
    tf.random.set_seed(99)
    loaded, step = evaluation.load_network(config, directory)
    self.assertEqual(step, 1234)
    self.assertIsNot(loaded, network)
    output = loaded.initial_inference(observation.astype(np.float32))
    self.assertAllEqual(output.value, expected.value)
    self.assertAllEqual(output.policy_logits, expected.policy_logits)
    self.assertAllEqual(output.hidden_state, expected.hidden_state)

  def test_missing_checkpoint_names_the_directory(self):
    missing = os.path.join(_new_dir(self), 'nowhere')
    with self.assertRaisesRegex(FileNotFoundError, 'nowhere'):
      evaluation.load_network(TICTACTOE, missing)

  def test_a_checkpoint_of_another_network_is_rejected(self):
    config = testing.tiny_mlp_config()
    directory = _new_dir(self)
    tf.train.Checkpoint(network=self._trained_network(config),
                        step=tf.Variable(1, dtype=tf.int64)).save(
                            os.path.join(directory, 'ckpt'))
    wider = config.replace(
        network=dataclasses.replace(config.network, hidden_size=12))
    with self.assertRaisesRegex(ValueError,
                                'does not hold a network.*incompatible'):
      evaluation.load_network(wider, directory)
    step_only = _new_dir(self)
    tf.train.Checkpoint(step=tf.Variable(1, dtype=tf.int64)).save(
        os.path.join(step_only, 'ckpt'))
    with self.assertRaisesRegex(ValueError,
                                'does not hold a network.*not bound'):
      evaluation.load_network(config, step_only)


class LearningCurveTest(testing.TestCase):

  def _logdir(self):
    logdir = _new_dir(self)
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
      for step, value in ((10, 2.5), (20, 1.5), (30, 0.75)):
        tf.summary.scalar('loss', value, step=step)
        tf.summary.scalar('selfplay/episode_return', step / 10., step=step)
      tf.summary.histogram('weights', [1., 2., 3.], step=10)
      tf.summary.text('note', 'not a scalar', step=10)
    writer.close()
    return logdir

  def test_read_scalars(self):
    logdir = self._logdir()
    # A resumed run writes step 20 again, in a second events file.
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
      tf.summary.scalar('loss', 9., step=20)
    writer.close()
    scalars = evaluation.read_scalars(logdir)
    self.assertEqual(sorted(scalars), ['loss', 'selfplay/episode_return'])
    steps, values = scalars['loss']
    self.assertEqual(steps.tolist(), [10, 20, 30])
    self.assertEqual(values.tolist(), [2.5, 9., 0.75])
    self.assertEqual(scalars['selfplay/episode_return'][1].tolist(),
                     [1., 2., 3.])

  @absltest.skipUnless(HAS_MATPLOTLIB, 'needs matplotlib')
  def test_writes_a_png_with_a_panel_per_tag(self):
    logdir = self._logdir()
    path = os.path.join(_new_dir(self), 'plots', 'c.png')
    returned = evaluation.learning_curve_png(
        logdir, ['selfplay/episode_return', 'loss'], path)
    self.assertEqual(returned, path)
    with open(path, 'rb') as f:
      self.assertEqual(f.read(8), PNG_MAGIC)
    self.assertGreater(os.path.getsize(path), 5000)
    # 7 inches wide, 2.4 per panel, 100 dpi.
    self.assertEqual(_png_size(path), (700, 480))

  def test_missing_tag_lists_the_available_ones(self):
    with self.assertRaisesRegex(
        ValueError,
        r"'eval/score'.*\['loss', 'selfplay/episode_return'\]"):
      evaluation.learning_curve_png(self._logdir(), ['loss', 'eval/score'],
                                    '/unused.png')

  def test_bad_logdir_and_tags(self):
    empty = _new_dir(self)
    with self.assertRaisesRegex(FileNotFoundError, 'No TensorBoard event'):
      evaluation.learning_curve_png(empty, ['loss'], '/unused.png')
    with self.assertRaisesRegex(ValueError, 'non-empty.*loss'):
      evaluation.learning_curve_png(empty, 'loss', '/unused.png')

  def test_missing_matplotlib_says_how_to_install_it(self):
    hidden = dict.fromkeys(
        [m for m in sys.modules if m.startswith('matplotlib')] +
        ['matplotlib'])
    with mock.patch.dict(sys.modules, hidden):
      with self.assertRaisesRegex(ImportError, r"pip install -e '\.\[plots"):
        evaluation.learning_curve_png(self._logdir(), ['loss'],
                                      '/unused.png')


if __name__ == '__main__':
  absltest.main()
