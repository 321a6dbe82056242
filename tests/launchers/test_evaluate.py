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
"""Smoke tests of the evaluation launcher through its `run()` and flags."""

import contextlib
import dataclasses
import importlib.util
import io
import os
import sys
import struct
import subprocess
import tempfile
from unittest import mock

from absl import app
from absl import flags
from absl.testing import absltest
from absl.testing import flagsaver
import tensorflow as tf

from launchers import evaluate
from launchers import common_flags
from muzero_snt.run import builders
from muzero_snt.run import checkpointing
from muzero_snt.evaluation import curves
from muzero_snt.evaluation import matches as evaluation
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt.run import run_config
from tests import testing

FLAGS = flags.FLAGS
HAS_GYMNASIUM = importlib.util.find_spec('gymnasium') is not None
HAS_MATPLOTLIB = importlib.util.find_spec('matplotlib') is not None
HAS_OPENSPIEL = importlib.util.find_spec('pyspiel') is not None


def _new_dir(test: tf.test.TestCase) -> str:
  return tempfile.mkdtemp(dir=test.get_temp_dir())


def _save_run(test: tf.test.TestCase, preset: str, config, **settings) -> str:
  """A directory holding a checkpoint of learner step 42 of `config`'s
  network, and the record of the run of `preset` that trained it."""
  network = networks.make_network(config)
  network.create_variables()
  directory = _new_dir(test)
  checkpointing.Checkpointer(
      directory, network=network,
      step=tf.Variable(42, dtype=tf.int64)).save(1)
  run_config.save(directory,
                  run_config.RunConfig(preset, config, **settings))
  return directory


def _run_main():
  """Runs `evaluate.main` and returns what it printed."""
  out = io.StringIO()
  with contextlib.redirect_stdout(out):
    evaluate.main(['evaluate'])
  return out.getvalue()


class EvaluateTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not FLAGS.is_parsed():
      FLAGS.mark_as_parsed()

  def test_shares_the_training_launchers_flags(self):
    for holder, shared in (
        (evaluate.PRESET, common_flags.PRESET),
        (evaluate.CHECKPOINT_DIR, common_flags.CHECKPOINT_DIR),
        (evaluate.SEED, common_flags.SEED),
        (evaluate.LOGDIR, common_flags.LOGDIR),
        (evaluate.CONFIG, common_flags.CONFIG)):
      self.assertIs(holder, shared)

  def test_does_not_import_the_training_launcher(self):
    repo = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    result = subprocess.run(
        [sys.executable, '-c', 'import sys, launchers.evaluate; '
         'print(sorted(m for m in sys.modules if m.startswith("launchers")))'],
        cwd=repo, capture_output=True, text=True, timeout=300, check=True)
    self.assertEqual(result.stdout.strip(), "['launchers', "
                     "'launchers.common_flags', 'launchers.evaluate', "
                     "'launchers.quiet']")

  @flagsaver.flagsaver(preset='tictactoe', random_init=True, num_games=20,
                       num_simulations=3, exact=True)
  def test_exact_walk_of_a_random_network(self):
    printed = _run_main()
    exact = printed[printed.index('exact (every line)'):].splitlines()
    self.assertEqual([row.split()[:2] for row in exact[1:5]],
                     [['perfect', 'first'], ['perfect', 'second'],
                      ['random', 'first'], ['random', 'second']])
    results = evaluate.run('tictactoe', num_games=20, num_simulations=3,
                           exact=True)
    sampled = {(r.opponent, r.side): r for r in results.results}
    for r in results.exact:
      self.assertAlmostEqual(r.win + r.draw + r.loss, 1.0, places=9)
      self.assertAlmostEqual(sum(p for _, p in r.losing_lines), r.loss,
                             places=9)
      if r.opponent == 'perfect':
        self.assertEqual(r.win, 0.0)  # Nobody beats the perfect player.
      # The sampled games' losses are possible only on a losing line.
      if sampled[(r.opponent, r.side)].losses:
        self.assertGreater(r.loss, 0.0)

  @flagsaver.flagsaver(random_init=True, preset='connect4', exact=True)
  def test_exact_on_connect4_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                '--exact walks every line of tic-tac-toe'):
      evaluate.validate_flags()

  @flagsaver.flagsaver(preset='tictactoe', random_init=True, num_games=2,
                       num_simulations=3)
  def test_random_network_plays_tictactoe(self):
    printed = _run_main()
    lines = printed.splitlines()
    self.assertEqual(lines[0], 'MuZero tictactoe, learner step 0 (random '
                     'initialisation), 3 simulations per move')
    self.assertEqual(lines[1].split(),
                     ['opponent', 'muzero', 'games', 'wins', 'draws',
                      'losses', 'cut'])
    rows = [line.split() for line in lines[2:]]
    self.assertEqual([row[:3] for row in rows],
                     [['perfect', 'first', '2'], ['perfect', 'second', '2'],
                      ['random', 'first', '2'], ['random', 'second', '2']])
    for row in rows:
      self.assertEqual(sum(int(n) for n in row[3:]), 2, row)
    for row in rows[:2]:
      self.assertEqual(row[3], '0')  # Nobody beats the perfect player.

  def test_checkpoint_of_a_network_set_by_flags(self):
    # A run trained with --channels=8 saves a network of 8 planes.
    config = presets.get_preset('tictactoe')
    config = config.replace(
        network=dataclasses.replace(config.network, channels=8))
    network = networks.make_network(config)
    network.create_variables()
    directory = _new_dir(self)
    checkpointing.Checkpointer(
        directory, network=network,
        step=tf.Variable(42, dtype=tf.int64)).save(3)
    with flagsaver.flagsaver(preset='tictactoe', checkpoint_dir=directory,
                             channels=8, num_games=1, num_simulations=2):
      printed = _run_main()
    lines = printed.splitlines()
    self.assertEqual(lines[0], f'MuZero tictactoe, learner step 42 '
                     f'({directory}), 2 simulations per move')
    self.assertEqual([line.split()[2] for line in lines[2:]], ['1'] * 4)
    # The preset's 16 planes do not fit the checkpoint.
    with flagsaver.flagsaver(preset='tictactoe', checkpoint_dir=directory,
                             num_games=1):
      with self.assertRaisesRegex(ValueError, 'channels=16.*incompatible'):
        _run_main()

  @absltest.skipUnless(HAS_GYMNASIUM, 'needs gymnasium')
  def test_random_network_plays_cartpole(self):
    with contextlib.redirect_stdout(io.StringIO()):
      result = evaluate.run('cartpole', num_games=2, num_simulations=2)
    returns = result.results.returns
    self.assertLen(returns, 2)
    for value in returns:
      self.assertEqual(value, int(value))
      self.assertBetween(value, 1, 500)
    self.assertIn(f'{result.results.mean:.1f}', result.table)

  @absltest.skipUnless(HAS_GYMNASIUM, 'needs gymnasium')
  def test_the_saved_runs_env_is_evaluated(self):
    # A run trained with --preset=cartpole --env=CartPole-v0 plays
    # CartPole-v0, not the preset's CartPole-v1.
    directory = _save_run(self, 'cartpole', presets.get_preset('cartpole'),
                          env='CartPole-v0')
    factory = mock.patch.object(builders, 'make_environment_factory',
                                wraps=builders.make_environment_factory)
    with factory as make_factory, flagsaver.flagsaver(
        preset='cartpole', checkpoint_dir=directory, num_games=1,
        num_simulations=2, search='reference', max_moves=20):
      lines = _run_main().splitlines()
    self.assertEqual(
        lines[0], f'Evaluating the run in {directory}: preset cartpole, env '
        'CartPole-v0, no config changes from the preset; evaluated with '
        'num_simulations=2')
    self.assertEqual(lines[1], f'MuZero cartpole, learner step 42 '
                     f'({directory}), 2 simulations per move')
    self.assertEqual({c.args[2] for c in make_factory.call_args_list},
                     {'CartPole-v0'})

  @absltest.skipUnless(HAS_GYMNASIUM, 'needs gymnasium')
  def test_the_saved_runs_config_is_evaluated(self):
    # A run trained with --preset=cartpole --env=Acrobot-v1
    # --config=observation_shape=[6],action_space_size=3, evaluated from
    # its directory alone. Acrobot rewards each move -1 until the arm
    # swings up, which 10 moves from hanging cannot do: 2 episodes cut at
    # 10 moves, both returning -10.
    config = presets.get_preset('cartpole').replace(
        observation_shape=(6,), action_space_size=3)
    directory = _save_run(self, 'cartpole', config, env='Acrobot-v1')
    with flagsaver.flagsaver(checkpoint_dir=directory, num_games=2,
                             search='reference', max_moves=10):
      lines = _run_main().splitlines()
    self.assertEqual(
        lines[0], f'Evaluating the run in {directory}: preset cartpole, env '
        'Acrobot-v1, 2 config changes from the preset (action_space_size, '
        'observation_shape)')
    self.assertEqual(lines[1], f'MuZero cartpole, learner step 42 '
                     f'({directory}), {config.num_simulations} simulations '
                     'per move')
    self.assertEqual(lines[3].split(), ['2', '-10.0', '0.0', '-10.0',
                                        '-10.0'])
    self.assertEqual(lines[4], '2 of 2 episodes cut at 10 moves.')

  @absltest.skipUnless(HAS_GYMNASIUM, 'needs gymnasium')
  def test_a_gymnasium_run_is_played_with_its_action_repeat(self):
    # --preset=gymnasium --env=Acrobot-v1 --config=action_repeat=3: each of
    # the 10 moves lasts 3 steps of -1, far too few to swing up: -30 each.
    config = presets.get_preset('gymnasium', 'Acrobot-v1').replace(
        action_repeat=3)
    directory = _save_run(self, 'gymnasium', config, env='Acrobot-v1')
    with flagsaver.flagsaver(checkpoint_dir=directory, num_games=2,
                             search='reference', max_moves=10):
      lines = _run_main().splitlines()
    self.assertIn('action_repeat', lines[0])
    self.assertEqual(lines[3].split(), ['2', '-30.0', '0.0', '-30.0',
                                        '-30.0'])
    self.assertEqual(lines[4], '2 of 2 episodes cut at 10 moves.')

  @absltest.skipUnless(HAS_GYMNASIUM, 'needs gymnasium')
  @flagsaver.flagsaver(preset='cartpole', env='Acrobot-v1',
                       config=['observation_shape=[6]',
                               'action_space_size=3'],
                       random_init=True, num_games=2, num_simulations=2,
                       search='reference', max_moves=10)
  def test_config_flag_sets_the_evaluated_config(self):
    # As above, with the flags of the training run: -10 each, 2 cut.
    lines = _run_main().splitlines()
    self.assertEqual(lines[0], 'MuZero cartpole, learner step 0 (random '
                     'initialisation), 2 simulations per move')
    self.assertEqual(lines[2].split(), ['2', '-10.0', '0.0', '-10.0',
                                        '-10.0'])
    self.assertEqual(lines[3], '2 of 2 episodes cut at 10 moves.')

  def test_flags_that_disagree_with_the_saved_run_name_both_values(self):
    cartpole = _save_run(self, 'cartpole', presets.get_preset('cartpole'),
                         env='CartPole-v0')
    tictactoe = _save_run(self, 'tictactoe', presets.get_preset('tictactoe'))
    for directory, changes, message in (
        (cartpole, dict(env='CartPole-v1'),
         f'--env=CartPole-v1 disagrees with the run in {cartpole}, trained '
         'with --env=CartPole-v0 '),
        (tictactoe, dict(preset='connect4'),
         f'--preset=connect4 disagrees with the run in {tictactoe}, trained '
         'with --preset=tictactoe '),
        (tictactoe, dict(channels=8),
         r'--channels=8 \(trained: 16\) disagrees with the run in '),
        (tictactoe, dict(config=['discount=0.9']),
         r'config.discount=0.9 \(trained: 1.0\) disagrees with the run in ')):
      with self.subTest(message), flagsaver.flagsaver(
          checkpoint_dir=directory, **changes):
        with self.assertRaisesRegex(app.UsageError, f'^{message}'):
          _run_main()

  @flagsaver.flagsaver(random_init=True, max_moves=0)
  def test_non_positive_max_moves_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                '--max_moves must be positive, got 0'):
      evaluate.validate_flags()

  @absltest.skipUnless(HAS_MATPLOTLIB, 'needs matplotlib')
  def test_logdir_gets_eval_scalars_and_a_curve(self):
    logdir = _new_dir(self)
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
      for step in (10, 20):
        tf.summary.scalar('loss', 1. / step, step=step)
        tf.summary.scalar('selfplay/episode_return', 0.5, step=step)
    writer.close()
    path = os.path.join(_new_dir(self), 'curve.png')
    with contextlib.redirect_stdout(io.StringIO()):
      result = evaluate.run('tictactoe', num_games=1, num_simulations=2,
                            logdir=logdir, curve_png=path)
    scalars = curves.read_scalars(logdir)
    for tag, value in evaluation.summary_scalars(result.results).items():
      steps, values = scalars[tag]
      self.assertEqual(steps.tolist(), [0], tag)  # The learner step.
      self.assertAllClose(values, [value])
    with open(path, 'rb') as f:
      header = f.read(24)
    self.assertEqual(header[:8], b'\x89PNG\r\n\x1a\n')
    # 2 training tags and 6 eval tags, 2.4 inches each at 100 dpi.
    self.assertEqual(struct.unpack('>II', header[16:24]), (700, 1920))

  @flagsaver.flagsaver(random_init=False, checkpoint_dir=None)
  def test_no_checkpoint_dir_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                '--checkpoint_dir is required.*random_init'):
      _run_main()

  def test_a_checkpoint_dir_without_checkpoints_is_one_usage_error(self):
    base = _new_dir(self)
    empty = os.path.join(base, 'empty')
    os.mkdir(empty)
    stray = os.path.join(base, 'stray')
    os.mkdir(stray)
    with open(os.path.join(stray, 'notes.txt'), 'w') as f:
      f.write('no checkpoint here')
    a_file = os.path.join(base, 'a_file')
    with open(a_file, 'w') as f:
      f.write('not a directory')
    for directory, message in (
        (os.path.join(base, 'missing'), 'does not exist'),
        (empty, r'holds no checkpoint \(it is empty\)'),
        (stray, r'holds no checkpoint \(no ckpt-N.index file\)'),
        (a_file, 'is a file, not a directory')):
      with self.subTest(message), flagsaver.flagsaver(
          preset='tictactoe', checkpoint_dir=directory):
        with self.assertRaisesRegex(
            app.UsageError, f'^--checkpoint_dir={directory} {message}: '):
          _run_main()

  @flagsaver.flagsaver(random_init=True, num_games=0)
  def test_non_positive_num_games_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--num_games.*0'):
      _run_main()

  @flagsaver.flagsaver(random_init=True, num_simulations=-1)
  def test_non_positive_num_simulations_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--num_simulations.*-1'):
      evaluate.validate_flags()

  @flagsaver.flagsaver(random_init=True, checkpoint_dir='/tmp/run')
  def test_checkpoint_dir_and_random_init_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                'random_init.*--checkpoint_dir=/tmp/run'):
      evaluate.validate_flags()

  @flagsaver.flagsaver(random_init=True, preset='chess')
  def test_preset_without_evaluation_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--preset=chess'):
      evaluate.validate_flags()

  @absltest.skipUnless(HAS_OPENSPIEL, 'needs open-spiel')
  @flagsaver.flagsaver(preset='connect4', random_init=True, num_games=1,
                       num_simulations=2, opponent_simulations=7,
                       opponent_rollouts=2, search='reference')
  def test_random_network_plays_connect4_against_mcts_and_random(self):
    printed = _run_main()
    lines = printed.splitlines()
    self.assertEqual(lines[0], 'MuZero connect4, learner step 0 (random '
                     'initialisation), 2 simulations per move; OpenSpiel '
                     'MCTS opponent: 7 simulations, 2 random rollout(s) per '
                     'leaf')
    rows = [line.split() for line in lines[2:]]
    self.assertEqual([row[:3] for row in rows],
                     [['mcts7', 'first', '1'], ['mcts7', 'second', '1'],
                      ['random', 'first', '1'], ['random', 'second', '1']])
    for row in rows:
      self.assertEqual(sum(int(n) for n in row[3:]), 1, row)

  @absltest.skipUnless(HAS_OPENSPIEL, 'needs open-spiel')
  def test_go9_against_the_random_player_alone(self):
    with contextlib.redirect_stdout(io.StringIO()):
      result = evaluate.run('go9', num_games=1, num_simulations=1,
                            opponents=['random'], search_kind='reference')
    self.assertEqual([(r.opponent, r.side, r.num_games)
                      for r in result.results],
                     [('random', 'first', 1), ('random', 'second', 1)])
    self.assertNotIn('MCTS', result.table)

  def test_a_run_of_the_users_two_player_game_plays_the_random_player(self):
    # examples/nim.py, trained with --environment=examples.nim:Nim: no
    # preset, and a game with no draws and no MCTS opponent.
    from examples import nim  # pylint: disable=g-import-not-at-top
    config = presets.config_for_environment(nim.Nim())
    directory = _save_run(self, None, config, environment='examples.nim:Nim')
    with flagsaver.flagsaver(checkpoint_dir=directory, num_games=3,
                             num_simulations=2, search='reference'):
      lines = _run_main().splitlines()
    self.assertEqual(
        lines[0], f'Evaluating the run in {directory}: environment '
        'examples.nim:Nim, no config changes from the configuration derived '
        'from it; evaluated with num_simulations=2')
    self.assertEqual(lines[1], f'MuZero examples.nim:Nim, learner step 42 '
                     f'({directory}), 2 simulations per move')
    rows = [line.split() for line in lines[3:]]
    self.assertEqual([row[:3] for row in rows],
                     [['random', 'first', '3'], ['random', 'second', '3']])
    for row in rows:
      # wins + draws + losses + cut; Nim has no draws.
      self.assertEqual(sum(int(n) for n in row[3:]), 3, row)
      self.assertEqual(row[4], '0', row)
    with flagsaver.flagsaver(checkpoint_dir=directory, opponents=['mcts']):
      with self.assertRaisesRegex(
          app.UsageError, r"Opponents \['mcts'\] do not play this game; "
          r"expected some of \['random'\]"):
        _run_main()

  @absltest.skipUnless(HAS_OPENSPIEL, 'needs open-spiel')
  def test_an_openspiel_run_plays_the_mcts_bot_and_the_random_player(self):
    config = run_config.default_config('openspiel', 'tic_tac_toe')
    directory = _save_run(self, 'openspiel', config, env='tic_tac_toe')
    with flagsaver.flagsaver(checkpoint_dir=directory, num_games=1,
                             num_simulations=2, opponent_simulations=3,
                             search='reference'):
      lines = _run_main().splitlines()
    self.assertEqual(
        lines[0], f'Evaluating the run in {directory}: preset openspiel, env '
        'tic_tac_toe, no config changes from the preset; evaluated with '
        'num_simulations=2')
    self.assertEqual(
        lines[1], f'MuZero openspiel, learner step 42 ({directory}), 2 '
        'simulations per move; OpenSpiel MCTS opponent: 3 simulations, 1 '
        'random rollout(s) per leaf')
    rows = [line.split() for line in lines[3:]]
    self.assertEqual([row[:3] for row in rows],
                     [['mcts3', 'first', '1'], ['mcts3', 'second', '1'],
                      ['random', 'first', '1'], ['random', 'second', '1']])

  @flagsaver.flagsaver(random_init=True, preset='connect4',
                       opponent_simulations=0)
  def test_non_positive_opponent_simulations_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                '--opponent_simulations must be positive, '
                                'got 0'):
      evaluate.validate_flags()

  @flagsaver.flagsaver(random_init=True, preset='go9', opponent_rollouts=-2)
  def test_non_positive_opponent_rollouts_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                '--opponent_rollouts must be positive, got -2'):
      evaluate.validate_flags()

  @flagsaver.flagsaver(random_init=True, preset='connect4',
                       opponents=['perfect', 'random'])
  def test_opponent_of_another_game_is_a_usage_error(self):
    with self.assertRaisesRegex(
        app.UsageError, '--opponents=perfect,random: perfect cannot play '
        '--preset=connect4; expected some of mcts,random'):
      evaluate.validate_flags()

  @flagsaver.flagsaver(random_init=True, preset='tictactoe',
                       opponent_simulations=100)
  def test_opponent_simulations_without_mcts_is_a_usage_error(self):
    with self.assertRaisesRegex(
        app.UsageError, '--opponent_simulations=100 sets the mcts opponent.*'
        'tictactoe'):
      evaluate.validate_flags()
    with flagsaver.flagsaver(preset='connect4', opponents=['random']):
      with self.assertRaisesRegex(app.UsageError,
                                  'opponents random.*drop it'):
        evaluate.validate_flags()

  @flagsaver.flagsaver(random_init=True, preset='cartpole',
                       opponents=['random'])
  def test_opponents_of_a_one_player_preset_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                '--opponents choose the opponents of '
                                'two-player presets.*--preset=cartpole'):
      evaluate.validate_flags()

  @flagsaver.flagsaver(random_init=True, curve_png='/tmp/c.png', logdir=None)
  def test_curve_without_logdir_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--curve_png.*--logdir'):
      evaluate.validate_flags()

  def test_unexpected_arguments_are_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, 'extra'):
      evaluate.main(['evaluate', 'extra'])


if __name__ == '__main__':
  absltest.main()
