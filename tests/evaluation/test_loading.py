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
"""Tests of loading: a training checkpoint's network, restored alone."""

import dataclasses
import os
import tempfile

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt.run import checkpointing
from muzero_snt.evaluation import loading
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt.run import run_config
from tests import testing

TICTACTOE = presets.make_tictactoe_config()


def _new_dir(test: tf.test.TestCase) -> str:
  """A new empty directory under the test's temporary directory."""
  return tempfile.mkdtemp(dir=test.get_temp_dir())


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
    loaded, step = loading.load_network(config, directory)
    self.assertEqual(step, 1234)
    self.assertIsNot(loaded, network)
    output = loaded.initial_inference(observation.astype(np.float32))
    self.assertAllEqual(output.value, expected.value)
    self.assertAllEqual(output.policy_logits, expected.policy_logits)
    self.assertAllEqual(output.hidden_state, expected.hidden_state)

  def test_missing_checkpoint_names_the_directory(self):
    missing = os.path.join(_new_dir(self), 'nowhere')
    with self.assertRaisesRegex(FileNotFoundError, 'nowhere'):
      loading.load_network(TICTACTOE, missing)

  def test_a_file_or_an_empty_directory_is_named_as_such(self):
    directory = _new_dir(self)
    with self.assertRaisesRegex(
        FileNotFoundError, f'checkpoint_dir={directory} holds no checkpoint '
        r'\(it is empty\)'):
      loading.load_network(TICTACTOE, directory)
    a_file = os.path.join(directory, 'a_file')
    with open(a_file, 'w') as f:
      f.write('x')
    with self.assertRaisesRegex(
        FileNotFoundError, r'holds no checkpoint \(no ckpt-N.index file\)'):
      loading.load_network(TICTACTOE, directory)
    with self.assertRaisesRegex(
        NotADirectoryError,
        f'checkpoint_dir={a_file} is a file, not a directory'):
      loading.load_network(TICTACTOE, a_file)

  def test_a_checkpoint_of_another_network_is_rejected(self):
    config = testing.tiny_mlp_config()
    directory = _new_dir(self)
    tf.train.Checkpoint(network=self._trained_network(config),
                        step=tf.Variable(1, dtype=tf.int64)).save(
                            os.path.join(directory, 'ckpt'))
    wider = config.replace(
        network=dataclasses.replace(config.network, hidden_size=12))
    with self.assertRaisesRegex(ValueError,
                                'fits the config.*network.*incompatible'):
      loading.load_network(wider, directory)
    step_only = _new_dir(self)
    tf.train.Checkpoint(step=tf.Variable(1, dtype=tf.int64)).save(
        os.path.join(step_only, 'ckpt'))
    with self.assertRaisesRegex(ValueError,
                                'fits the config.*not bound'):
      loading.load_network(config, step_only)



class RunToEvaluateTest(testing.TestCase):

  def _save(self, preset='cartpole', config=None, **settings):
    directory = _new_dir(self)
    run_config.save(directory, run_config.RunConfig(
        preset, config or presets.get_preset(preset), **settings))
    return directory

  def test_the_saved_runs_preset_env_and_config(self):
    # A run trained with --preset=cartpole --env=Acrobot-v1
    # --config=observation_shape=[6],action_space_size=3.
    acrobot = presets.get_preset('cartpole').replace(
        observation_shape=(6,), action_space_size=3)
    directory = self._save(config=acrobot, env='Acrobot-v1')
    evaluated = loading.run_to_evaluate(directory)
    self.assertEqual((evaluated.run.preset, evaluated.run.env),
                     ('cartpole', 'Acrobot-v1'))
    self.assertEqual(evaluated.run.config, acrobot)
    self.assertEqual(evaluated.run.checkpoint_dir, directory)
    self.assertEqual(
        evaluated.describe(),
        f'Evaluating the run in {directory}: preset cartpole, env '
        'Acrobot-v1, 2 config changes from the preset (action_space_size, '
        'observation_shape)')
    # The same values given again agree with it.
    again = loading.run_to_evaluate(
        directory, 'cartpole', 'Acrobot-v1',
        config_overrides=['observation_shape=[6]', 'action_space_size=3'])
    self.assertEqual(again, evaluated)

  def test_the_search_may_differ_from_the_runs(self):
    directory = self._save('tictactoe', TICTACTOE.replace(lr_init=0.5))
    evaluated = loading.run_to_evaluate(
        directory, config_values={'num_simulations': 7},
        config_overrides=['unvisited_q=parent', 'max_moves=5',
                          'network.conv_as_matmul=true'])
    self.assertEqual(evaluated.run.config, TICTACTOE.replace(
        lr_init=0.5, num_simulations=7, unvisited_q='parent', max_moves=5,
        network=dataclasses.replace(TICTACTOE.network,
                                    conv_as_matmul=True)))
    self.assertEqual(
        evaluated.describe(),
        f'Evaluating the run in {directory}: preset tictactoe, 1 config '
        'change from the preset (lr_init); evaluated with max_moves=5, '
        'network.conv_as_matmul=true, num_simulations=7, '
        "unvisited_q='parent'")

  def test_a_preset_or_env_other_than_the_runs_names_both(self):
    directory = self._save(env='CartPole-v0')
    with self.assertRaisesRegex(
        run_config.RunConfigError,
        f"^env='CartPole-v1' disagrees with the run in {directory}, "
        "trained with env='CartPole-v0' "):
      loading.run_to_evaluate(directory, env='CartPole-v1')
    with self.assertRaisesRegex(
        run_config.RunConfigError,
        f"^preset='connect4' disagrees with the run in {directory}, "
        "trained with preset='cartpole' "):
      loading.run_to_evaluate(directory, preset='connect4')
    # A run saved without an env played the preset's default title.
    default = self._save()
    self.assertEqual(
        loading.run_to_evaluate(default, env='CartPole-v1').run.env,
        'CartPole-v1')
    with self.assertRaisesRegex(run_config.RunConfigError,
                                "trained with env='CartPole-v1'"):
      loading.run_to_evaluate(default, env='CartPole-v0')

  def test_a_run_without_self_play_recorded_no_game(self):
    directory = self._save(data='synthetic')
    self.assertEqual(
        loading.run_to_evaluate(directory, env='CartPole-v0').run.env,
        'CartPole-v0')

  def test_a_config_other_than_the_runs_names_both_values(self):
    directory = self._save('tictactoe', TICTACTOE)
    with self.assertRaisesRegex(
        run_config.RunConfigError,
        r'^config.lr_init=0.5 \(trained: 0.2\), config.network.channels=8 '
        r'\(trained: 16\) disagree with the run in .*; an evaluation may '
        'change only'):
      loading.run_to_evaluate(directory,
                              config_values={'network.channels': 8},
                              config_overrides=['lr_init=0.5'])
    with self.assertRaisesRegex(
        ValueError, r"^config_overrides=\('nope=1',\): Override 'nope=1' "
        'names no configuration'):
      loading.run_to_evaluate(directory, config_overrides=['nope=1'])

  def test_without_a_saved_run_the_arguments_say_what(self):
    for directory in (None, _new_dir(self)):
      evaluated = loading.run_to_evaluate(
          directory, 'cartpole', 'Acrobot-v1',
          config_values={'num_simulations': 3},
          config_overrides=['observation_shape=[6]', 'action_space_size=3'])
      self.assertIsNone(evaluated.saved)
      self.assertEqual((evaluated.run.preset, evaluated.run.env),
                       ('cartpole', 'Acrobot-v1'))
      self.assertEqual(evaluated.run.config,
                       presets.get_preset('cartpole').replace(
                           num_simulations=3, observation_shape=(6,),
                           action_space_size=3))
    self.assertEqual(loading.run_to_evaluate(None).run.preset, 'tictactoe')
    self.assertEqual(
        loading.run_to_evaluate(directory).describe(),
        f'{directory} holds no run_config.json: evaluating preset '
        'tictactoe, no config changes from the preset, as given')


if __name__ == '__main__':
  absltest.main()
