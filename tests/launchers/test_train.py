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
"""Smoke tests of the training launcher through its `run()` and flags."""

import os

from absl import app
from absl import flags
from absl.testing import flagsaver
import numpy as np

from launchers import train
from muzero_snt import config as config_lib
from tests import testing

FLAGS = flags.FLAGS


def _tiny_config(**changes) -> config_lib.MuZeroConfig:
  config = testing.tiny_mlp_config(
      21, batch_size=8, num_unroll_steps=3, training_steps=4,
      checkpoint_interval=2)
  return config.replace(**changes)


class TrainTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not FLAGS.is_parsed():
      FLAGS.mark_as_parsed()

  def test_run_advances_the_learner(self):
    learner = train.run(_tiny_config(), jit_compile=False, log_every=2)
    self.assertEqual(learner.steps, 4)

  def test_resume_continues_from_the_checkpoint(self):
    directory = self.create_tempdir().full_path
    first = train.run(_tiny_config(training_steps=2), jit_compile=False,
                      checkpoint_dir=directory)
    self.assertEqual(first.steps, 2)
    self.assertNotEmpty([f for f in os.listdir(directory) if 'ckpt-2' in f])
    resumed = train.run(_tiny_config(training_steps=4), jit_compile=False,
                        checkpoint_dir=directory)
    self.assertEqual(resumed.steps, 4)

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

  def test_loss_falls_on_synthetic_batches(self):
    config = _tiny_config(training_steps=1, lr_init=0.05)
    learner = train.run(config, jit_compile=False)
    from muzero_snt import synthetic  # pylint: disable=g-import-not-at-top
    batch = next(synthetic.SyntheticBatches(config, 32, seed=1))
    before = learner.step(batch)['loss']
    for _ in range(60):
      after = learner.step(batch)['loss']
    self.assertTrue(np.isfinite(after))
    self.assertLess(after, 0.8 * before)
