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
"""Tests for muzero_snt.learning: schedule, metrics, bad input, checkpoints."""

import tempfile

import numpy as np
import tensorflow as tf

from muzero_snt import learning
from muzero_snt.networks import make_network
from tests import testing

NUM_UNROLL_STEPS = 3
BATCH_SIZE = 4


def _config(**changes):
  """CartPole's shapes (4 inputs, 2 actions), a tiny MLP, 21-atom heads."""
  return testing.tiny_mlp_config(
      21, **{'num_unroll_steps': NUM_UNROLL_STEPS, **changes})


def _learner(config, **kwargs):
  return learning.Learner(make_network(config), config, **kwargs)


def _snapshot(learner):
  """Copies of every trainable variable, optimizer slot and the counter."""
  optimizer = learner.optimizer
  slots = getattr(optimizer, 'accumulation', None)
  if slots is None:
    slots = optimizer.m + optimizer.v + [optimizer.step]
  return [v.numpy() for v in
          list(learner.network.trainable_variables) + list(slots) +
          [learner.state['step']]]


class LearningRateScheduleTest(testing.TestCase):

  def test_by_hand(self):
    config = _config(lr_init=0.05, lr_decay_steps=350e3)
    for step, expected in ((0, 0.05), (175e3, 0.05 * 0.1**0.5),
                           (350e3, 0.005), (700e3, 0.0005)):
      with self.subTest(step=step):
        self.assertAllClose(learning.learning_rate_schedule(config, step),
                            expected, atol=0., rtol=1e-6)
    # 0.1 ** 0.5 = 0.31622776...
    self.assertAllClose(learning.learning_rate_schedule(config, 175e3),
                        0.05 * 0.31622776, atol=0., rtol=1e-6)


class LearnerTest(testing.TestCase):

  def test_metrics_then_a_non_finite_step_is_skipped(self):
    config = _config(lr_decay_steps=2)
    # Without the NumPy checks, so that a non-finite batch reaches the step.
    learner = _learner(config, validate_batches=False)
    for step in range(3):
      batch = testing.random_batch(config, BATCH_SIZE, seed=step)
      # Priorities come from the network before this step's update.
      root_value = learner.network.initial_inference(
          batch.observation, is_training=True).value.numpy()
      metrics = learner.step(batch)
      with self.subTest(step=step):
        self.assertAllClose(metrics['learning_rate'],
                            0.02 * 0.1**(step / 2), atol=0., rtol=1e-6)
        self.assertEqual(metrics['step'], step + 1)
        self.assertEqual(learner.steps, step + 1)
        self.assertEqual(metrics['priority'].shape, (BATCH_SIZE,))
        self.assertAllClose(metrics['priority'],
                            np.abs(root_value - batch.target_value[:, 0]),
                            atol=1e-5, rtol=1e-5)
        self.assertEqual(metrics['value_loss'].shape, (NUM_UNROLL_STEPS + 1,))
        self.assertEqual(metrics['reward_loss'].shape, (NUM_UNROLL_STEPS,))
        self.assertEqual(metrics['policy_loss'].shape,
                         (NUM_UNROLL_STEPS + 1,))
        self.assertTrue(np.isfinite(metrics['loss']))

    # A NaN observation makes the loss non-finite: the step raises and
    # leaves every variable, momentum accumulator and the counter as it was.
    before = _snapshot(learner)
    observation = batch.observation.copy()
    observation[0, 1] = np.nan
    with self.assertRaisesRegex(FloatingPointError,
                                'Non-finite loss .* learner step 3'):
      learner.step(batch._replace(observation=observation))
    for a, b in zip(_snapshot(learner), before):
      self.assertAllEqual(a, b)
    self.assertEqual(learner.steps, 3)
    # The learner is still usable, and the schedule did not advance.
    metrics = learner.step(batch)
    self.assertEqual(metrics['step'], 4)
    self.assertAllClose(metrics['learning_rate'], 0.02 * 0.1**(3 / 2),
                        atol=0., rtol=1e-6)

  def test_bad_batches_raise_before_anything_changes(self):
    config = _config()
    learner = _learner(config)
    before = _snapshot(learner)
    good = testing.random_batch(config, BATCH_SIZE)

    long_batch = testing.random_batch(
        config.replace(num_unroll_steps=NUM_UNROLL_STEPS + 1), BATCH_SIZE)
    with self.assertRaisesRegex(ValueError, 'num_unroll_steps'):
      learner.step(long_batch)

    action = good.action.copy()
    action[1, 2] = 7  # CartPole has actions 0 and 1.
    with self.assertRaisesRegex(ValueError, r'Batch\.action.* 7'):
      learner.step(good._replace(action=action))

    target_reward = good.target_reward.copy()
    target_reward[2, 1] = np.nan
    with self.assertRaisesRegex(ValueError,
                                r'Batch\.target_reward\[2, 1\] is nan'):
      learner.step(good._replace(target_reward=target_reward))

    for a, b in zip(_snapshot(learner), before):
      self.assertAllEqual(a, b)

  def test_unknown_loss_reduction_raises(self):
    with self.assertRaisesRegex(ValueError, "'bogus'"):
      _learner(_config(), loss_reduction='bogus')

  def test_checkpoint_restores_into_a_fresh_learner(self):
    config = _config()
    original = _learner(config)
    for seed in (0, 1):
      original.step(testing.random_batch(config, BATCH_SIZE, seed=seed))
    with tempfile.TemporaryDirectory() as directory:
      path = tf.train.Checkpoint(**original.state).save(directory + '/ckpt')
      restored = _learner(config)
      tf.train.Checkpoint(**restored.state).restore(path).assert_consumed()
    self.assertEqual(restored.steps, 2)

    batch = testing.random_batch(config, BATCH_SIZE, seed=2)
    original_metrics = original.step(batch)
    restored_metrics = restored.step(batch)
    # The same learning rate (from the restored step counter), loss and
    # update (the momentum accumulators were restored too).
    self.assertAllClose(restored_metrics['learning_rate'],
                        original_metrics['learning_rate'], atol=0., rtol=0.)
    self.assertAllClose(restored_metrics['loss'], original_metrics['loss'],
                        atol=1e-6, rtol=1e-6)
    for a, b in zip(restored.network.trainable_variables,
                    original.network.trainable_variables):
      self.assertAllClose(a, b, atol=1e-6, rtol=1e-6)
    for a, b in zip(restored.optimizer.accumulation,
                    original.optimizer.accumulation):
      self.assertAllClose(a, b, atol=1e-6, rtol=1e-6)

  def test_adam_trains_and_skips_non_finite_steps(self):
    config = _config(optimizer='adam', lr_init=0.01)
    learner = _learner(config, validate_batches=False)
    self.assertEqual(type(learner.optimizer).__name__, 'Adam')
    batch = testing.random_batch(config, BATCH_SIZE)
    first = learner.step(batch)['loss']
    for _ in range(29):
      last = learner.step(batch)['loss']
    self.assertLess(last, 0.5 * first)

    before = _snapshot(learner)
    observation = batch.observation.copy()
    observation[3, 0] = np.nan
    with self.assertRaises(FloatingPointError):
      learner.step(batch._replace(observation=observation))
    for a, b in zip(_snapshot(learner), before):
      self.assertAllEqual(a, b)
    self.assertEqual(int(learner.optimizer.step.numpy()), 30)


if __name__ == '__main__':
  tf.test.main()
