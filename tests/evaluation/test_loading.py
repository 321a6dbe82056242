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


if __name__ == '__main__':
  absltest.main()
