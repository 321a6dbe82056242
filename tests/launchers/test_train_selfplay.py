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
"""Tests of the launcher's self-play path: flags, smoke runs, kill -9."""

import glob
import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import time
from unittest import mock

from absl import app
from absl import flags
from absl.testing import absltest
from absl.testing import flagsaver
import numpy as np
import tensorflow as tf

from launchers import train
from muzero_snt.run import builders
from muzero_snt.run import experiment
from muzero_snt import environments
from muzero_snt import presets
from tests import testing

try:
  import gymnasium  # pylint: disable=g-import-not-at-top,unused-import
except ImportError:
  gymnasium = None

FLAGS = flags.FLAGS
_REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# A tiny tic-tac-toe run through the flags.
_TICTACTOE_FLAGS = dict(
    preset='tictactoe', data='selfplay', batch_size=8, num_unroll_steps=2,
    channels=4, num_simulations=4, jit_compile=False, num_envs=2)


def _read_scalars(logdir):
  """{tag: [(step, value)]} of every scalar of the events files in logdir."""
  scalars = {}
  for path in glob.glob(os.path.join(logdir, 'events.out.tfevents*')):
    for event in tf.compat.v1.train.summary_iterator(path):
      for value in event.summary.value:
        scalars.setdefault(value.tag, []).append(
            (event.step, float(tf.make_ndarray(value.tensor))))
  return scalars


def _player_0_return(trajectory):
  """Player 0's rewards minus player 1's, from the record alone."""
  signs = np.where(trajectory.to_play == 0, 1., -1.)
  return float(np.sum(signs * trajectory.rewards))


class Captured:
  """Wraps the library's factories to keep what they build."""

  def __init__(self, test):
    self.learners = []
    self.loops = []
    make_learner, run = builders.make_learner, experiment.run

    def capture_learner(*args, **kwargs):
      self.learners.append(make_learner(*args, **kwargs))
      return self.learners[-1]

    def capture_loop(*args, **kwargs):
      self.loops.append(run(*args, **kwargs))
      return self.loops[-1]

    test.enter_context(mock.patch.object(builders, 'make_learner',
                                         capture_learner))
    test.enter_context(mock.patch.object(experiment, 'run', capture_loop))


class TrainSelfPlayTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not FLAGS.is_parsed():
      FLAGS.mark_as_parsed()

  def _new_directory(self):
    return tempfile.mkdtemp(dir=self.get_temp_dir())

  def _train_three_steps(self, **more_flags):
    """(learner, loop) of `train.main` on small tic-tac-toe, 3 steps."""
    captured = Captured(self)
    with flagsaver.flagsaver(training_steps=3, train_ratio=0.5, log_every=1,
                             **_TICTACTOE_FLAGS, **more_flags):
      train.main(['train'])
    learner, = captured.learners
    loop, = captured.loops
    return learner, loop

  def test_selfplay_through_main_trains_and_writes_summaries(self):
    logdir = self._new_directory()
    learner, loop = self._train_three_steps(logdir=logdir)
    self.assertEqual(learner.steps, 3)
    # Four simulations: every stored policy is a count out of 4.
    for game_id in loop.replay.game_ids:
      visits = loop.replay.game(game_id).policies * 4
      np.testing.assert_allclose(visits, np.round(visits), atol=1e-5)
    # Round 0 fills the replay (at least 10 positions > batch 8); round 1
    # owes at least 5 steps, so it is the last one.
    self.assertEqual(loop.rounds, 2)
    self.assertEqual(loop.games, 4)
    replay = loop.replay
    games = [replay.game(g) for g in replay.game_ids]
    self.assertEqual(loop.env_steps, sum(g.length for g in games))

    scalars = _read_scalars(logdir)
    self.assertContainsSubset({'selfplay/episode_return', 'loss'}, scalars)
    (step, loss), = scalars['loss']
    self.assertEqual(step, 3)
    self.assertTrue(np.isfinite(loss))
    self.assertGreater(loss, 0.)
    # One summary after each round, of that round's games (ids 0-1, 2-3).
    returns = [_player_0_return(g) for g in games]
    self.assertEqual(
        scalars['selfplay/episode_return'],
        [(0, np.mean(returns[:2])), (3, np.mean(returns[2:]))])
    self.assertEqual([v for _, v in scalars['selfplay/games']], [2., 4.])
    self.assertEqual(scalars['replay/positions'][-1][1], loop.env_steps)

  def test_continuous_selfplay_through_main(self):
    learner, loop = self._train_three_steps(continuous_selfplay=True)
    self.assertEqual(learner.steps, 3)
    replay = loop.replay
    games = [replay.game(g) for g in replay.game_ids]
    self.assertEqual(loop.games, len(games))
    self.assertGreaterEqual(loop.games, 2 * loop.rounds)
    # Every game stored whole (X moves first; a game ends with a win or a
    # full board), and the steps counted include the games still in play.
    for game in games:
      self.assertTrue(game.terminal)
      self.assertEqual(game.to_play.tolist(),
                       [t % 2 for t in range(game.length)])
      self.assertEqual(game.observations[0].sum(), 0.)  # An empty board.
    self.assertGreaterEqual(loop.env_steps, sum(g.length for g in games))

  def test_every_preset_has_self_play_settings(self):
    self.assertCountEqual(presets.RUN_DEFAULTS, presets.preset_names())
    for name in presets.RUN_DEFAULTS:
      defaults = presets.run_defaults(name)
      self.assertGreater(defaults['num_envs'], 0, msg=name)
      self.assertGreater(defaults['train_ratio'], 0, msg=name)

  @flagsaver.flagsaver(data='selfplay', preset='connect4', env='Pong')
  def test_a_title_for_an_untitled_preset_is_a_usage_error(self):
    with self.assertRaisesRegex(
        app.UsageError,
        r"--env=Pong chooses the game of \['atari', 'atari_small', "
        r"'cartpole', 'gymnasium', 'minatar', 'openspiel'\]; --preset=connect4 "
        r"has no titles\."):
      train.validate_flags()

  def test_an_unknown_atari_title_is_refused_naming_it(self):
    if importlib.util.find_spec('ale_py') is None:
      self.skipTest('ale-py is not installed.')
    config = presets.get_preset('atari_small')
    with self.assertRaisesRegex(
        ValueError, r"preset 'atari_small' with title 'Pongg': .*'Pongg'.*pong"):
      builders.check_environment('atari_small', config, 'Pongg')

  def test_a_missing_extra_is_refused_naming_it(self):
    # None in sys.modules makes `import ale_py` fail as if it were absent.
    with mock.patch.dict(sys.modules, {'ale_py': None}):
      with self.assertRaisesRegex(
          ValueError, r"preset 'atari': .*pip install -e '\.\[atari\]'"):
        builders.check_environment('atari', presets.get_preset('atari'))

  def test_an_observation_unlike_the_preset_is_refused(self):
    config = presets.get_preset('tictactoe').replace(
        observation_shape=(3, 3, 4))
    with self.assertRaisesRegex(ValueError,
                                r"preset 'tictactoe': .*\(3, 3, 4\)"):
      builders.check_environment('tictactoe', config)

  @flagsaver.flagsaver(preset='tictactoe', data='selfplay',
                       channels=8, num_blocks=1)
  def test_main_turns_a_refused_environment_into_a_usage_error(self):
    with mock.patch.object(
        builders, 'check_environment',
        mock.Mock(side_effect=ValueError("preset 'tictactoe': broken"))):
      with self.assertRaisesRegex(app.UsageError, "preset 'tictactoe': broken"):
        train.main(['train'])

  @flagsaver.flagsaver(data='synthetic', preset='atari')
  def test_synthetic_data_on_the_same_preset_is_valid(self):
    train.validate_flags()

  def test_non_positive_num_envs_is_a_usage_error(self):
    for value in (0, -3):
      with flagsaver.flagsaver(num_envs=value):
        with self.assertRaisesRegex(
            app.UsageError, f'--num_envs must be positive, got {value}'):
          train.validate_flags()

  def test_non_positive_train_ratio_is_a_usage_error(self):
    for value in (0., -0.5):
      with flagsaver.flagsaver(train_ratio=value):
        with self.assertRaisesRegex(
            app.UsageError,
            f'--train_ratio must be a positive finite number, got {value}'):
          train.validate_flags()

  def test_tictactoe_factory_checks_the_environment_against_the_config(self):
    config = presets.make_tictactoe_config()
    environment = builders.make_environment_factory('tictactoe', config)(3)
    self.assertIsInstance(environment, environments.CheckedEnvironment)
    self.assertIsInstance(environment.environment, environments.TicTacToe)
    wrong = config.replace(action_space_size=10)
    with self.assertRaisesRegex(ValueError, 'DiscreteArray of 10 actions'):
      builders.make_environment_factory('tictactoe', wrong)(3)

  @absltest.skipIf(gymnasium is None, 'gymnasium is not installed')
  def test_cartpole_factory_is_seeded(self):
    config = presets.make_cartpole_config()
    make = builders.make_environment_factory('cartpole', config)
    first = make(7).reset().observation
    np.testing.assert_array_equal(make(7).reset().observation, first)
    self.assertFalse(np.array_equal(make(8).reset().observation, first))

  @absltest.skipIf(gymnasium is None, 'gymnasium is not installed')
  def test_cartpole_selfplay_smoke(self):
    config = testing.tiny_mlp_config(
        21, num_simulations=4, batch_size=8, num_unroll_steps=2, td_steps=5,
        training_steps=3, max_moves=20, window_size=50)
    logdir = self._new_directory()
    captured = Captured(self)
    loop = experiment.run_selfplay(config, 'cartpole', num_envs=2,
                                   train_ratio=0.5, jit_compile=False,
                                   logdir=logdir)
    learner, = captured.learners
    self.assertEqual(learner.steps, 3)
    self.assertEqual(loop.games, 2 * loop.rounds)
    replay = loop.replay
    for game_id in replay.game_ids:
      game = replay.game(game_id)
      self.assertTrue(np.all(game.to_play == 0))
      self.assertTrue(np.all(game.rewards == 1.))
      # The pole fell before move 20, or config.max_moves cut the game.
      if game.terminal:
        self.assertLessEqual(game.length, 20)
      else:
        self.assertEqual(game.length, 20)
    (_, loss), = _read_scalars(logdir)['loss']
    self.assertTrue(np.isfinite(loss))

  def test_kill_9_resumes_from_the_last_complete_checkpoint(self):
    # The preset checkpoints every 500 learner steps (no flag changes it):
    # a high train ratio gets there in a few rounds. A round owes at most
    # 18 * 5 = 90 steps, so the first checkpoint is at 500..589 and at least
    # one more round remains before 700.
    directory = self._new_directory()
    flag_values = dict(training_steps=700, train_ratio=5.,
                       **_TICTACTOE_FLAGS)
    command = [sys.executable, '-m', 'launchers.train',
               f'--checkpoint_dir={directory}', '--log_every=1000']
    for name, value in flag_values.items():
      if isinstance(value, bool):
        command.append(f'--{name}' if value else f'--no{name}')
      else:
        command.append(f'--{name}={value}')
    environment = dict(os.environ, PYTHONPATH=_REPO, TF_CPP_MIN_LOG_LEVEL='2',
                       CUDA_VISIBLE_DEVICES='')
    log_path = os.path.join(self._new_directory(), 'log.txt')
    with open(log_path, 'w') as log:
      process = subprocess.Popen(command, cwd=_REPO, env=environment,
                                 stdout=log, stderr=subprocess.STDOUT)
      try:
        deadline = time.time() + 240
        while (process.poll() is None and time.time() < deadline and
               tf.train.latest_checkpoint(directory) is None):
          time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.wait()
      finally:
        if process.poll() is None:
          process.kill()
          process.wait()
    with open(log_path) as log:
      output = log.read()[-3000:]
    self.assertEqual(process.returncode, -signal.SIGKILL, output)
    latest = tf.train.latest_checkpoint(directory)
    self.assertIsNotNone(latest, output)
    number = int(latest.rsplit('-', 1)[1])  # The learner step.
    self.assertTrue(os.path.exists(
        os.path.join(directory, f'replay-{number}.npz')))
    saved_rounds = int(tf.train.load_checkpoint(latest).get_tensor(
        'rounds/.ATTRIBUTES/VARIABLE_VALUE'))

    # A second run with the same flags continues from that checkpoint to
    # the end.
    rounds = []
    captured = Captured(self)
    with flagsaver.flagsaver(checkpoint_dir=directory, **flag_values):
      train.validate_flags()
      config = train.make_config()
    self.assertEqual(config.checkpoint_interval, 500)
    self.assertEqual(config.num_simulations, 4)
    loop = experiment.run_selfplay(
        config, 'tictactoe', num_envs=2, train_ratio=5., jit_compile=False,
        checkpoint_dir=directory,
        on_round=lambda l: rounds.append((l.rounds, l.games)))
    learner, = captured.learners
    self.assertEqual(rounds[0], (saved_rounds + 1, 2 * (saved_rounds + 1)))
    self.assertEqual(learner.steps, 700)
    self.assertEqual(loop.games, 2 * loop.rounds)
    replay = loop.replay
    self.assertEqual(replay.game_ids, list(range(loop.games)))
    self.assertEqual(loop.env_steps,
                     sum(replay.game(g).length for g in replay.game_ids))
    self.assertEqual(int(tf.train.latest_checkpoint(directory).rsplit(
        '-', 1)[1]), 700)


if __name__ == '__main__':
  absltest.main()
