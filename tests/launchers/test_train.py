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
"""Tests of the training launcher: flags, their checks and its output."""

import os
import socket
import subprocess
import sys
from unittest import mock

from absl import app
from absl import flags
from absl.testing import flagsaver
import tensorflow as tf

from launchers import common_flags
from launchers import train
from muzero_snt.run import distribute
from muzero_snt.run import experiment
from muzero_snt import learning
from muzero_snt import presets
from muzero_snt.run import run_config
from tests import testing

FLAGS = flags.FLAGS


class TrainTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not FLAGS.is_parsed():
      FLAGS.mark_as_parsed()

  @flagsaver.flagsaver(preset='cartpole', td_steps=7, weight_decay=0.,
                       lr_decay_steps=100., lr_decay_rate=0.5, hidden_size=12,
                       support_size=0)
  def test_flags_override_tuned_fields(self):
    config = train.make_config()
    self.assertEqual(config.td_steps, 7)
    self.assertEqual(config.weight_decay, 0.)
    self.assertEqual(config.lr_decay_steps, 100.)
    self.assertEqual(config.lr_decay_rate, 0.5)
    self.assertEqual(config.network.hidden_size, 12)
    self.assertEqual(config.network.value_support_size, 0)
    self.assertEqual(config.network.reward_support_size, 0)

  @flagsaver.flagsaver(support_size=4)
  def test_even_support_size_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                'value_support_size.*odd.*got 4'):
      train.make_config()

  @flagsaver.flagsaver(td_steps=0)
  def test_non_positive_td_steps_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--td_steps.*0'):
      train.make_config()

  @flagsaver.flagsaver(
      preset='minatar', lr_decay_steps=2e5, config=[
          'network.conv_as_matmul=true', 'max_moves=500',
          'visit_softmax_temperature_fn={"type": "TrainingStepTemperature", '
          '"boundaries": [100000, 150000], "values": [1.0, 0.5, 0.25]}'])
  def test_config_flag_sets_fields_without_their_own_flag(self):
    config = train.make_config()
    self.assertTrue(config.network.conv_as_matmul)
    self.assertEqual(config.max_moves, 500)
    self.assertEqual(config.lr_decay_steps, 2e5)
    temperature = config.visit_softmax_temperature_fn
    self.assertEqual(temperature(num_moves=0, training_steps=99_999), 1.0)
    self.assertEqual(temperature(num_moves=0, training_steps=100_000), 0.5)
    self.assertEqual(temperature(num_moves=0, training_steps=150_000), 0.25)

  @flagsaver.flagsaver(preset='tictactoe', td_steps=7, config=['td_steps=3'])
  def test_config_flag_applies_after_the_named_flags(self):
    self.assertEqual(train.make_config().td_steps, 3)

  @flagsaver.flagsaver(config=['network.chanels=8'])
  def test_config_flag_with_an_unknown_name_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                '--config.*network.chanels.*expected one of'):
      train.make_config()

  @flagsaver.flagsaver(config=['discount=1.5'])
  def test_config_flag_with_a_refused_value_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--config.*discount.*1.5'):
      train.make_config()

  @flagsaver.flagsaver(lr_decay_rate=1.5)
  def test_decay_rate_above_one_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, 'lr_decay_rate.*1.5'):
      train.make_config()

  @flagsaver.flagsaver(preset='tictactoe', batch_size=16, num_unroll_steps=2,
                       lr_init=0.5, training_steps=7, optimizer='adam')
  def test_flags_override_the_preset(self):
    config = train.make_config()
    self.assertEqual(config.batch_size, 16)
    self.assertEqual(config.num_unroll_steps, 2)
    self.assertEqual(config.lr_init, 0.5)
    self.assertEqual(config.training_steps, 7)
    self.assertEqual(config.optimizer, 'adam')
    self.assertEqual(config.action_space_size, 9)

  @flagsaver.flagsaver(preset='connect4', reward_loss_weight=5.,
                       value_loss_weight=0.25)
  def test_loss_weight_flags_set_the_config(self):
    config = train.make_config()
    self.assertEqual(config.reward_loss_weight, 5.)
    self.assertEqual(config.value_loss_weight, 0.25)

  @flagsaver.flagsaver(preset='connect4', lr_warmup_steps=300)
  def test_lr_warmup_flag_sets_the_schedule(self):
    config = train.make_config()
    self.assertEqual(config.lr_warmup_steps, 300)
    # The connect4 preset's lr_init is 0.02 and its decay 0.1 per 20,000
    # steps: update 0 takes 0.02 / 300 and update 299 the decayed full rate.
    rates = [float(learning.learning_rate_schedule(config, tf.constant(step)))
             for step in (0, 299)]
    self.assertAllClose(rates, [0.02 / 300, 0.02 * 0.1**(299 / 20e3)],
                        rtol=1e-6)

  @flagsaver.flagsaver(lr_warmup_steps=-1)
  def test_negative_lr_warmup_is_a_usage_error(self):
    with self.assertRaisesRegex(
        app.UsageError,
        'lr_warmup_steps must be a non-negative integer, got -1'):
      train.make_config()

  @flagsaver.flagsaver(reward_loss_weight=0.)
  def test_zero_reward_loss_weight_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                '--reward_loss_weight must be positive, got 0'):
      train.make_config()

  @flagsaver.flagsaver(preset='connect4', board_symmetries='left_right')
  def test_board_symmetries_flag_sets_the_config(self):
    self.assertEqual(train.make_config().board_symmetries, 'left_right')

  @flagsaver.flagsaver(preset='tictactoe', random_opening_moves=1)
  def test_random_opening_moves_flag_sets_the_config(self):
    self.assertEqual(train.make_config().random_opening_moves, 1)

  @flagsaver.flagsaver(preset='tictactoe', random_opening_moves=-2)
  def test_negative_random_opening_moves_is_a_usage_error(self):
    with self.assertRaisesRegex(
        app.UsageError, 'random_opening_moves must be a non-negative integer, '
        'got -2'):
      train.make_config()

  @flagsaver.flagsaver(preset='connect4', board_symmetries='dihedral')
  def test_dihedral_symmetries_of_a_6x7_board_are_a_usage_error(self):
    with self.assertRaisesRegex(
        app.UsageError, "'dihedral' needs a square board, got 6x7.*"
        'preset=connect4'):
      train.make_config()

  @flagsaver.flagsaver(batch_size=0)
  def test_non_positive_batch_size_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, 'batch_size.*0'):
      train.make_config()

  @flagsaver.flagsaver(lr_init=-1.)
  def test_negative_learning_rate_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, 'lr_init.*-1'):
      train.make_config()

  def test_unknown_preset_is_rejected_by_the_flag(self):
    with self.assertRaisesRegex(flags.IllegalFlagValueError, 'chequers'):
      FLAGS['preset'].parse('chequers')

  @flagsaver.flagsaver(strategy='tpu')
  def test_tpu_strategy_without_tpu_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--tpu'):
      train.validate_flags()

  @flagsaver.flagsaver(strategy='tpu')
  def test_main_validates_the_flags_before_any_work(self):
    # Making the strategy first would raise a ValueError instead.
    with self.assertRaisesRegex(app.UsageError, '--tpu'):
      train.main(['train'])

  @flagsaver.flagsaver(strategy='tpu', tpu='local')
  def test_tpu_strategy_with_tpu_is_valid(self):
    train.validate_flags()

  @flagsaver.flagsaver(strategy='gpu', data='synthetic')
  def test_gpu_strategy_without_gpu_is_a_usage_error_in_flag_names(self):
    if tf.config.list_logical_devices('GPU'):
      self.skipTest('This machine has a GPU.')
    with self.assertRaisesRegex(
        app.UsageError, r'^--strategy=gpu needs a GPU, but TensorFlow sees '
        # Other tests of this process may have made logical CPUs.
        r'only CPU:0(, CPU:\d+)*: use --strategy=cpu or --strategy=default '
        r'here'):
      train.main(['train'])

  @flagsaver.flagsaver(strategy='mirrored', tpu='local')
  def test_tpu_without_tpu_strategy_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--tpu=local.*mirrored'):
      train.validate_flags()

  def test_unknown_strategy_is_rejected_by_the_flag(self):
    with self.assertRaisesRegex(flags.IllegalFlagValueError, 'bogus'):
      FLAGS['strategy'].parse('bogus')

  @flagsaver.flagsaver(preset='tictactoe', hidden_size=32)
  def test_a_network_flag_of_another_network_kind_is_a_usage_error(self):
    with self.assertRaisesRegex(
        app.UsageError, '--hidden_size is for mlp networks; '
        '--preset=tictactoe has a residual network'):
      train.validate_flags()

  @flagsaver.flagsaver(preset='cartpole', channels=8)
  def test_channels_on_an_mlp_preset_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--channels is for residual'):
      train.validate_flags()

  @flagsaver.flagsaver(preset='cartpole', action_encoding='column')
  def test_action_encoding_on_an_mlp_preset_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                '--action_encoding is for residual'):
      train.validate_flags()

  def test_action_encoding_sets_the_network_field(self):
    with flagsaver.flagsaver(preset='connect4', action_encoding='column'):
      self.assertEqual(
          common_flags.make_config().network.action_encoding, 'column')
    # Tic-tac-toe's 9 moves are squares of a 3-wide board, not columns.
    with flagsaver.flagsaver(preset='tictactoe', action_encoding='column'):
      with self.assertRaisesRegex(
          app.UsageError, r"action_space_size must be one action per column "
          r"of the observation's width 3 .*got 9\..*--preset=tictactoe"):
        common_flags.make_config()

  def test_self_play_flags_with_synthetic_data_are_usage_errors(self):
    for name, value in (('num_envs', 4), ('train_ratio', 0.5),
                        ('search', 'graph'), ('num_simulations', 3)):
      with flagsaver.flagsaver(data='synthetic', **{name: value}):
        with self.assertRaisesRegex(
            app.UsageError, f'--{name} only apply to --data=selfplay'):
          train.validate_flags()

  def test_an_infinite_or_nan_train_ratio_is_a_usage_error(self):
    for ratio in (float('inf'), float('nan')):
      with flagsaver.flagsaver(train_ratio=ratio):
        with self.assertRaisesRegex(
            app.UsageError, '--train_ratio must be a positive finite number'):
          train.validate_flags()

  @flagsaver.flagsaver(allow_config_changes=['lr_init', 'colour'])
  def test_unknown_allowed_config_change_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, r"unknown fields \['colour'\]"):
      train.validate_flags()

  def test_a_field_only_the_saved_run_has_may_be_allowed_to_change(self):
    # A one-process cartpole run saves overlap_learning=True; a resume
    # without it is refused with a suggestion to allow the change, and that
    # suggestion is a name the flag accepts.
    directory = self.create_tempdir().full_path
    config = presets.get_preset('cartpole')
    saved = run_config.RunConfig(preset='cartpole').replace(config=config)
    self.assertTrue(saved.defining_settings()['overlap_learning'])
    run_config.save(directory, saved)
    with flagsaver.flagsaver(preset='cartpole', checkpoint_dir=directory,
                             overlap_learning=False):
      with self.assertRaisesRegex(
          run_config.RunConfigError,
          r"allow_config_changes=\('overlap_learning',\)"):
        experiment.check_run(train.make_run(train.make_config()))
      # The launcher's user reads it as the flag.
      with self.assertRaisesRegex(
          app.UsageError,
          r'\(--allow_config_changes=overlap_learning\)\.$'):
        common_flags.usage_errors(experiment.check_run,
                                  train.make_run(train.make_config()))
    with flagsaver.flagsaver(preset='cartpole', checkpoint_dir=directory,
                             overlap_learning=False,
                             allow_config_changes=['overlap_learning']):
      train.validate_flags()
      experiment.check_run(train.make_run(train.make_config()))

  def test_distributed_flags_need_actors_and_self_play(self):
    for name, value in (('ray_address', '127.0.0.1:6379'),
                        ('publish_interval', 5), ('eval_interval', 100),
                        ('num_reanalyze_workers', 1)):
      with flagsaver.flagsaver(**{name: value}):
        with self.assertRaisesRegex(
            app.UsageError, f'--{name} only apply to --num_actors > 0'):
          train.validate_flags()
    with flagsaver.flagsaver(data='synthetic', num_actors=2):
      with self.assertRaisesRegex(
          app.UsageError, '--num_actors only applies to --data=selfplay'):
        train.validate_flags()
    with flagsaver.flagsaver(num_actors=-1):
      with self.assertRaisesRegex(app.UsageError, '--num_actors must be >= 0'):
        train.validate_flags()
    with flagsaver.flagsaver(num_actors=1, eval_interval=10, eval_games=0):
      with self.assertRaisesRegex(app.UsageError,
                                  '--eval_games must be >= 1, got 0'):
        train.validate_flags()
    with flagsaver.flagsaver(num_actors=1, num_reanalyze_workers=-2):
      with self.assertRaisesRegex(
          app.UsageError, '--num_reanalyze_workers must be >= 0, got -2'):
        train.validate_flags()

  def test_continuous_selfplay_flag(self):
    with flagsaver.flagsaver(continuous_selfplay=True):
      self.assertTrue(train.make_run().continuous_selfplay)
      self.assertTrue(train.make_run().flat()['continuous_selfplay'])
    self.assertIsNone(train.make_run().continuous_selfplay)
    with flagsaver.flagsaver(continuous_selfplay=False, preset='cartpole'):
      self.assertFalse(train.make_run().resolved().continuous_selfplay)
    with flagsaver.flagsaver(continuous_selfplay=True, num_actors=2):
      train.validate_flags()  # The actors play continuously.
      self.assertTrue(train.make_run().resolved().continuous_selfplay)
    for data in ('synthetic', 'replay'):
      with flagsaver.flagsaver(continuous_selfplay=True, data=data,
                               replay_path='/tmp/replay.npz'
                               if data == 'replay' else None):
        with self.assertRaisesRegex(app.UsageError,
                                    '--continuous_selfplay only applies to '
                                    '--data=selfplay'):
          train.validate_flags()

  def test_pad_rounds_flag(self):
    self.assertIsNone(train.make_run().pad_rounds)
    self.assertTrue(train.make_run().resolved().pad_rounds)  # Preset's.
    with flagsaver.flagsaver(pad_rounds=False):
      self.assertFalse(train.make_run().resolved().pad_rounds)
      self.assertNotIn('pad_rounds', train.make_run().flat())
    with flagsaver.flagsaver(pad_rounds=True, preset='connect4'):
      self.assertTrue(train.make_run().resolved().pad_rounds)
    for data in ('synthetic', 'replay'):
      with flagsaver.flagsaver(pad_rounds=True, data=data,
                               replay_path='/tmp/replay.npz'
                               if data == 'replay' else None):
        with self.assertRaisesRegex(app.UsageError,
                                    '--pad_rounds only applies to '
                                    '--data=selfplay'):
          train.validate_flags()

  def test_flags_reach_the_distributed_settings(self):
    with flagsaver.flagsaver(num_actors=3, ray_address='10.0.0.5:6379',
                             publish_interval=7, eval_interval=50,
                             eval_games=100, num_reanalyze_workers=2):
      settings = train.make_run()
    self.assertEqual((settings.num_actors, settings.ray_address,
                      settings.publish_interval, settings.eval_interval,
                      settings.eval_games, settings.num_reanalyze_workers),
                     (3, '10.0.0.5:6379', 7, 50, 100, 2))
    self.assertEqual(train.make_run().num_actors, 0)  # The default.

  def test_placement_flags_reach_the_run_and_bad_ones_are_usage_errors(self):
    with flagsaver.flagsaver(num_actors=2, actor_placement='resource:cpu_pool',
                             num_reanalyze_workers=1,
                             reanalyze_placement='learner', eval_interval=9,
                             evaluator_placement='spread'):
      train.validate_flags()
      run = train.make_run()
    self.assertEqual((run.actor_placement, run.reanalyze_placement,
                      run.evaluator_placement),
                     ('resource:cpu_pool', 'learner', 'spread'))
    self.assertEqual((train.make_run().actor_placement,
                      train.make_run().evaluator_placement),
                     ('spread', 'learner'))  # The defaults.
    with flagsaver.flagsaver(num_actors=1, actor_placement='anywhere'):
      with self.assertRaisesRegex(
          app.UsageError, "--actor_placement must be 'spread', 'learner' or "
          "'resource:NAME'"):
        train.validate_flags()
    with flagsaver.flagsaver(num_actors=1, evaluator_placement='spread'):
      with self.assertRaisesRegex(
          app.UsageError, '--evaluator_placement only applies to '
          '--eval_interval > 0; drop it.'):
        train.validate_flags()

  def test_replay_shard_flags_reach_the_run(self):
    with flagsaver.flagsaver(num_actors=2, replay_shards=3,
                             replay_placement='resource:replay'):
      train.validate_flags()
      run = train.make_run()
    self.assertEqual((run.replay_shards, run.replay_placement),
                     (3, 'resource:replay'))
    self.assertEqual((train.make_run().replay_shards,
                      train.make_run().replay_placement), (1, 'learner'))
    with flagsaver.flagsaver(replay_shards=2):
      with self.assertRaisesRegex(
          app.UsageError, '--replay_shards only apply to --num_actors > 0'):
        train.validate_flags()

  def test_a_bad_ray_address_is_a_usage_error_before_any_work(self):
    with socket.socket() as probe:  # A loopback port nobody listens on.
      probe.bind(('127.0.0.1', 0))
      port = probe.getsockname()[1]
    with flagsaver.flagsaver(num_actors=1, ray_address=f'127.0.0.1:{port}'):
      with self.assertRaisesRegex(
          app.UsageError, f'ray_address=127.0.0.1:{port}: no Ray cluster '
          'answers there'):
        train.main(['train'])
    with flagsaver.flagsaver(num_actors=1, ray_address='nowhere'):
      with self.assertRaisesRegex(app.UsageError, 'must be HOST:PORT'):
        train.main(['train'])

  def test_missing_ray_is_a_usage_error_naming_the_extra(self):
    with mock.patch.dict(sys.modules, {'ray': None}):
      with flagsaver.flagsaver(num_actors=2):
        with self.assertRaisesRegex(
            app.UsageError, r"needs Ray.*pip install -e '\.\[distributed\]'"):
          train.main(['train'])

  def test_helpfull_examples_keep_their_line_continuations(self):
    # A raw docstring: '\' + newline stays in the help text.
    self.assertIn('--data=synthetic \\\n', train.__doc__)

  def test_library_arguments_are_named_as_flags(self):
    for message, expected in (
        ('checkpoint_dir=/tmp/a=b is a file', '--checkpoint_dir=/tmp/a=b is a '
         'file'),
        ('turn XLA off (jit_compile=False).',
         'turn XLA off (--nojit_compile).'),
        ("(allow_config_changes=('batch_size', 'network.channels')).",
         '(--allow_config_changes=batch_size,network.channels).'),
        ("reanalyze_fraction=0.5 is not available with data='synthetic'",
         '--reanalyze_fraction=0.5 is not available with --data=synthetic'),
        ('lower config.network.channels or config.network.num_blocks',
         'lower --channels or --num_blocks'),
        ('lower config.window_size or config.discount',
         'lower --window_size or config.discount'),
        ('compute_dtype=mixed_bfloat16', '--mixed_precision=mixed_bfloat16'),
        # Bare words, dotted names, flags and names of no flag stay.
        ('batch_size: saved 128, now 64; network.channels: saved 8',
         'batch_size: saved 128, now 64; network.channels: saved 8'),
        ('--checkpoint_dir=/x and discount=0.9',
         '--checkpoint_dir=/x and discount=0.9'),
    ):
      self.assertEqual(common_flags.flag_names(message), expected)

  def test_a_usage_error_prints_its_message_first_and_no_native_noise(self):
    repo = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    environment = dict(os.environ)
    environment.pop('TF_CPP_MIN_LOG_LEVEL', None)
    result = subprocess.run(
        [sys.executable, '-m', 'launchers.train', '--batch_size=0'],
        cwd=repo, env=environment, capture_output=True, text=True,
        timeout=300, check=False)
    self.assertEqual(result.returncode, 1, result.stderr)
    lines = result.stderr.strip().splitlines()
    self.assertEqual(lines[0],
                     'train.py: error: --batch_size must be positive, got 0.')
    self.assertLen(lines, 2, result.stderr)
    self.assertEqual(result.stdout, '')

  @flagsaver.flagsaver(preset='tictactoe', batch_size=10**8)
  def test_a_batch_that_cannot_fit_in_memory_is_refused_before_work(self):
    with mock.patch.object(distribute, 'make_strategy') as make_strategy:
      with self.assertRaisesRegex(
          app.UsageError, r'needs about .* GB of memory.*--batch_size'):
        train.main(['train'])
    make_strategy.assert_not_called()

  @flagsaver.flagsaver(preset='tictactoe', channels=100_000)
  def test_a_network_that_cannot_fit_is_refused(self):
    with self.assertRaisesRegex(app.UsageError, r'network.*--channels'):
      train.main(['train'])

  def test_a_checkpoint_dir_that_is_a_file_is_refused(self):
    path = os.path.join(self.create_tempdir().full_path, 'a_file')
    with open(path, 'w') as f:
      f.write('not a directory')
    with flagsaver.flagsaver(checkpoint_dir=path):
      with self.assertRaisesRegex(
          app.UsageError, f'--checkpoint_dir={path} is a file'):
        train.main(['train'])
