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

import glob
import os
import types

from absl import app
from absl import flags
from absl.testing import flagsaver
import numpy as np
import tensorflow as tf

from launchers import train
from muzero_snt import config as config_lib
from muzero_snt import distribute
from tests import testing

FLAGS = flags.FLAGS


def _tiny_config(**changes) -> config_lib.MuZeroConfig:
  config = testing.tiny_mlp_config(
      21, batch_size=8, num_unroll_steps=3, training_steps=4,
      checkpoint_interval=2)
  return config.replace(**changes)


def _fake_strategy(num_replicas: int):
  """Stands in for a strategy of `num_replicas` (not a TPU's)."""
  return types.SimpleNamespace(num_replicas_in_sync=num_replicas)


def _read_scalars(logdir: str):
  """{tag: [(step, value)]} of every scalar of the events files in logdir."""
  scalars = {}
  for path in glob.glob(os.path.join(logdir, 'events.out.tfevents*')):
    for event in tf.compat.v1.train.summary_iterator(path):
      for value in event.summary.value:
        scalars.setdefault(value.tag, []).append(
            (event.step, float(tf.make_ndarray(value.tensor))))
  return scalars


class TrainTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not FLAGS.is_parsed():
      FLAGS.mark_as_parsed()

  def test_run_advances_the_learner(self):
    learner = train.run_synthetic(_tiny_config(), jit_compile=False, log_every=2)
    self.assertEqual(learner.steps, 4)

  def test_resume_continues_from_the_checkpoint(self):
    directory = self.create_tempdir().full_path
    first = train.run_synthetic(_tiny_config(training_steps=2), jit_compile=False,
                      checkpoint_dir=directory)
    self.assertEqual(first.steps, 2)
    self.assertNotEmpty([f for f in os.listdir(directory) if 'ckpt-2' in f])
    resumed = train.run_synthetic(_tiny_config(training_steps=4), jit_compile=False,
                        checkpoint_dir=directory)
    self.assertEqual(resumed.steps, 4)

  def test_resumed_run_equals_an_uninterrupted_one(self):
    # N steps, stop, N more from the checkpoint == 2N steps in one go:
    # network variables and optimizer slots to 1e-6.
    config = _tiny_config(checkpoint_interval=3)
    directory = self.create_tempdir().full_path
    train.run_synthetic(config.replace(training_steps=3), jit_compile=False,
              checkpoint_dir=directory, seed=5)
    resumed = train.run_synthetic(config.replace(training_steps=6), jit_compile=False,
                        checkpoint_dir=directory, seed=5)
    uninterrupted = train.run_synthetic(config.replace(training_steps=6),
                              jit_compile=False, seed=5)
    self.assertEqual(resumed.steps, 6)
    self.assertEqual(uninterrupted.steps, 6)
    for a, b in zip(resumed.network.variables,
                    uninterrupted.network.variables):
      self.assertAllClose(a, b, atol=1e-6, rtol=0., msg=a.name)
    slots = [v for v in resumed.optimizer.variables if v.dtype.is_floating]
    self.assertNotEmpty(slots)
    for a, b in zip(resumed.optimizer.variables,
                    uninterrupted.optimizer.variables):
      self.assertAllClose(a, b, atol=1e-6, rtol=0., msg=a.name)
    # Not trivially equal: training moved the variables.
    fresh = train.run_synthetic(config.replace(training_steps=3), jit_compile=False,
                      seed=5)
    self.assertNotAllClose(fresh.network.trainable_variables[0],
                           resumed.network.trainable_variables[0])

  def test_export_dir_gets_a_saved_model_of_the_trained_network(self):
    export_dir = os.path.join(self.create_tempdir().full_path, 'model')
    learner = train.run_synthetic(_tiny_config(), jit_compile=False,
                        export_dir=export_dir)
    loaded = tf.saved_model.load(export_dir)
    observation = np.random.default_rng(0).uniform(
        size=(3, 4)).astype(np.float32)
    expected = learner.network.initial_inference(observation)
    actual = loaded.initial_inference(observation)
    self.assertAllClose(actual['value'], expected.value, atol=1e-5)
    self.assertAllClose(actual['policy_logits'], expected.policy_logits,
                        atol=1e-5)

  def test_bfloat16_run_keeps_float32_variables(self):
    learner = train.run_synthetic(_tiny_config(), jit_compile=False,
                        compute_dtype='bfloat16')
    self.assertEqual(learner.steps, 4)
    self.assertEqual({v.dtype for v in learner.network.trainable_variables},
                     {tf.float32})

  @flagsaver.flagsaver(preset='cartpole', td_steps=7, weight_decay=0.,
                       lr_decay_steps=100., lr_decay_rate=0.5, hidden_size=12,
                       num_blocks=2, support_size=0)
  def test_flags_override_tuned_fields(self):
    config = train.make_config()
    self.assertEqual(config.td_steps, 7)
    self.assertEqual(config.weight_decay, 0.)
    self.assertEqual(config.lr_decay_steps, 100.)
    self.assertEqual(config.lr_decay_rate, 0.5)
    self.assertEqual(config.network.hidden_size, 12)
    self.assertEqual(config.network.num_blocks, 2)
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

  def test_logdir_gets_the_metrics_at_the_logged_steps(self):
    logdir = self.create_tempdir().full_path
    strategy = distribute.make_strategy('cpu')
    learner = train.run_synthetic(_tiny_config(), jit_compile=False, log_every=3,
                        strategy=strategy, logdir=logdir)
    self.assertIs(learner.strategy, strategy)
    self.assertLen(glob.glob(os.path.join(logdir, 'events.out.tfevents*')),
                   1)
    scalars = _read_scalars(logdir)
    # Every 3 steps, and the last of the 4.
    loss_steps = [step for step, _ in scalars['loss']]
    self.assertEqual(loss_steps, [3, 4])
    self.assertTrue(all(np.isfinite(v) and v > 0 for _, v in scalars['loss']))
    k = 3
    expected = {'loss/value', 'loss/reward', 'loss/policy',
                'loss/regularization', 'learning_rate', 'gradient_norm',
                'steps_per_second', 'samples_per_second'}
    expected |= {f'loss/value_step_{i}' for i in range(k + 1)}
    expected |= {f'loss/policy_step_{i}' for i in range(k + 1)}
    expected |= {f'loss/reward_step_{i}' for i in range(1, k + 1)}
    self.assertContainsSubset(expected, set(scalars))
    self.assertNotIn('loss/reward_step_0', scalars)
    for tag in expected:
      self.assertEqual([step for step, _ in scalars[tag]], [3, 4], tag)
    value_mean = scalars['loss/value'][-1][1]
    value_steps = [scalars[f'loss/value_step_{i}'][-1][1]
                   for i in range(k + 1)]
    self.assertAllClose(value_mean, np.mean(value_steps), rtol=1e-5)
    steps_per_second = scalars['steps_per_second'][-1][1]
    samples_per_second = scalars['samples_per_second'][-1][1]
    self.assertAllClose(samples_per_second, 8 * steps_per_second)

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

  @flagsaver.flagsaver(strategy='mirrored', tpu='local')
  def test_tpu_without_tpu_strategy_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--tpu=local.*mirrored'):
      train.validate_flags()

  def test_unknown_strategy_is_rejected_by_the_flag(self):
    with self.assertRaisesRegex(flags.IllegalFlagValueError, 'bogus'):
      FLAGS['strategy'].parse('bogus')

  def test_batch_not_divisible_by_the_replicas_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError,
                                r'--batch_size=8 .*the 3 replicas'):
      train.check_strategy(_tiny_config(), _fake_strategy(3),
                           jit_compile=False)
    train.check_strategy(_tiny_config(), _fake_strategy(4), jit_compile=False)

  def test_jit_compile_on_several_replicas_is_a_usage_error(self):
    with self.assertRaisesRegex(app.UsageError, '--jit_compile.*2 replicas'):
      train.check_strategy(_tiny_config(), _fake_strategy(2),
                           jit_compile=True)
    train.check_strategy(_tiny_config(), _fake_strategy(1), jit_compile=True)

  def test_loss_falls_on_synthetic_batches(self):
    config = _tiny_config(training_steps=1, lr_init=0.05)
    learner = train.run_synthetic(config, jit_compile=False)
    from muzero_snt import synthetic  # pylint: disable=g-import-not-at-top
    batch = next(synthetic.SyntheticBatches(config, 32, seed=1))
    before = learner.step(batch)['loss']
    for _ in range(60):
      after = learner.step(batch)['loss']
    self.assertTrue(np.isfinite(after))
    self.assertLess(after, 0.8 * before)
