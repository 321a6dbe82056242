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

import dataclasses
import tempfile
import threading

import numpy as np
import tensorflow as tf

from muzero_snt import learning
from muzero_snt import losses
from muzero_snt import presets
from muzero_snt.run import synthetic
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

  def test_warmup_by_hand(self):
    # Update n takes min(1, (n + 1) / 4) of the decayed rate; the decay
    # over the first steps is 0.1 ** (n / 400e3) = 1 - n * 5.76e-6.
    config = _config(lr_init=0.1, lr_decay_steps=400e3, lr_warmup_steps=4)
    for step, expected in ((0, 0.025), (1, 0.05 * (1 - 5.7565e-6)),
                           (2, 0.075 * (1 - 2 * 5.7565e-6)),
                           (3, 0.1 * (1 - 3 * 5.7565e-6)),
                           (4, 0.1 * (1 - 4 * 5.7565e-6)),
                           (400e3, 0.01)):
      with self.subTest(step=step):
        self.assertAllClose(learning.learning_rate_schedule(config, step),
                            expected, atol=0., rtol=1e-6)

  def test_no_warmup_is_the_pseudocode_schedule_exactly(self):
    plain = _config(lr_init=0.1, lr_decay_steps=400e3)
    one = _config(lr_init=0.1, lr_decay_steps=400e3, lr_warmup_steps=1)
    for step in (0, 1, 7, 123_456):
      expected = learning.learning_rate_schedule(plain, step).numpy()
      self.assertEqual(plain.lr_warmup_steps, 0)
      # A warm-up of one update multiplies by min(1, n + 1) = 1.
      self.assertEqual(
          learning.learning_rate_schedule(one, step).numpy(), expected)
      self.assertAllClose(expected, 0.1 * 0.1**(step / 400e3), atol=0.,
                          rtol=1e-6)


# At batch 16 or 32 this network still diverged at lr 0.08-0.1 after a
# warm-up of 10 (the scalar heads; docs/benchmarks.md); at 128 it trains.
_PAPER_SHAPED_BATCH = 128


def _paper_shaped_config(zero_init_residual, lr_warmup_steps):
  """The paper's board network at 8 planes on a 3x3 board, lr 0.1."""
  network = dataclasses.replace(
      presets.PAPER_BOARD_NETWORK, channels=8,
      zero_init_residual=zero_init_residual)
  return presets.make_board_game_config(
      action_space_size=9, max_moves=9, dirichlet_alpha=0.3, lr_init=0.1,
      observation_shape=(3, 3, 3), network=network).replace(
          batch_size=_PAPER_SHAPED_BATCH, lr_warmup_steps=lr_warmup_steps)


class PaperTowerFromScratchTest(testing.TestCase):
  """16 residual blocks per tower, trained from a fresh network."""

  def _first_gradient_norm(self, zero_init_residual):
    # Eagerly: tracing a 16-block learner step takes a minute on 2 cores.
    tf.random.set_seed(0)
    config = _paper_shaped_config(zero_init_residual, lr_warmup_steps=1)
    network = make_network(config)
    network.create_variables()
    batch = tf.nest.map_structure(
        lambda x: None if x is None else tf.convert_to_tensor(x), next(
        synthetic.SyntheticBatches(config, _PAPER_SHAPED_BATCH,
                                   value_scale=1.)))
    with tf.GradientTape() as tape:
      output = losses.unrolled_loss(network, batch, config.weight_decay)
      loss = tf.reduce_mean(output.extra.per_example)
    towers = [v for v in network.trainable_variables if '/tower/' in v.name]
    return float(tf.linalg.global_norm(tape.gradient(loss, towers)))

  def test_zero_init_shrinks_the_towers_first_gradient(self):
    # The towers' share of the first gradient: 16 blocks that each add a
    # unit-variance branch against 16 identity blocks, whose only non-zero
    # gradients are the last scales' and offsets'.
    plain = self._first_gradient_norm(False)
    zero_init = self._first_gradient_norm(True)
    self.assertGreater(plain, 5 * zero_init)

  def test_trains_finite_at_the_paper_rate_after_warmup(self):
    tf.random.set_seed(0)
    config = _paper_shaped_config(True, lr_warmup_steps=10)
    learner = _learner(config)
    batches = synthetic.SyntheticBatches(config, _PAPER_SHAPED_BATCH,
                                         value_scale=1.)
    rates, loss_values = [], []
    for _ in range(20):
      batch = next(batches)
      metrics = learner.step(batch)  # Raises on a non-finite loss.
      rates.append(float(metrics['learning_rate']))
      loss_values.append(float(metrics['loss']))
      # What the next search sees: finite, bounded outputs in inference
      # mode (the largest |value| measured was 17, at update 6).
      output = learner.network.initial_inference(batch.observation)
      output = learner.network.recurrent_inference(output.hidden_state,
                                                   batch.action[:, 0])
      for name in ('value', 'reward', 'policy_logits'):
        self.assertLess(np.abs(getattr(output, name).numpy()).max(), 100.,
                        name)
    # 0.1 * (n + 1) / 10, then 0.1 (the decay over 20 of 400e3 steps is
    # below 1.2e-4 of it).
    self.assertAllClose(rates, [0.01 * (n + 1) for n in range(10)] +
                        [0.1] * 10, rtol=2e-4)
    self.assertEqual(learner.steps, 20)
    self.assertLess(np.mean(loss_values[-5:]), 0.6 * loss_values[0])


def _residual_config():
  """Tic-tac-toe's residual network (batch norm) at 4 planes, batch 8,
  K = 1 (a smaller program to compile)."""
  config = presets.make_tictactoe_config().replace(
      batch_size=8, num_unroll_steps=1)
  return config.replace(network=dataclasses.replace(
      config.network, channels=4, prediction_blocks=0))


def _every_variable(learner):
  """The network's variables (batch-norm statistics too), the optimizer's,
  the counter."""
  return [v.numpy() for v in
          list(learner.network.variables) +
          list(learner.optimizer.variables) + [learner.state['step']]]


class WarmUpTest(testing.TestCase):

  def test_warm_up_compiles_and_leaves_the_learner_as_it_was(self):
    config = _residual_config()
    learners = []
    for _ in range(2):
      tf.random.set_seed(5)
      learners.append(_learner(config, jit_compile=True))
    warm, cold = learners
    before = _every_variable(warm)
    self.assertTrue(warm.warm_up())
    # Traced (and compiled) once, and every variable bit for bit as before:
    # the zero batch's step moved the batch-norm statistics, the momentum
    # and the counter, and all were written back.
    traces = warm._compiled_step.experimental_get_tracing_count()  # pylint: disable=protected-access
    self.assertEqual(traces, 1)
    for after, expected in zip(_every_variable(warm), before):
      self.assertAllEqual(after, expected)
    self.assertEqual(warm.steps, 0)
    # A replay-like batch runs the program the warm-up traced, and the steps
    # are those of a learner that did not warm up.
    for seed in range(2):
      batch = testing.random_batch(config, config.batch_size, seed=seed)
      warm_metrics, cold_metrics = warm.step(batch), cold.step(batch)
      for name, value in cold_metrics.items():
        self.assertAllEqual(warm_metrics[name], value, msg=name)
    self.assertEqual(
        warm._compiled_step.experimental_get_tracing_count(), 1)  # pylint: disable=protected-access
    for a, b in zip(_every_variable(warm), _every_variable(cold)):
      self.assertAllEqual(a, b)

  def test_compile_function_traces_in_the_caller_and_compiles_elsewhere(self):
    # The trace's name keys XLA's persistent cache, so it is made in the
    # calling thread; the returned function, in another thread, only
    # compiles (no second trace) and leaves the variables as they were.
    learner = _learner(_residual_config(), jit_compile=True)
    step = learner._compiled_step  # pylint: disable=protected-access
    before = _every_variable(learner)
    compile_step = learner.compile_function()
    self.assertEqual(step.experimental_get_tracing_count(), 1)
    thread = threading.Thread(target=compile_step)
    thread.start()
    thread.join()
    self.assertEqual(step.experimental_get_tracing_count(), 1)
    for after, expected in zip(_every_variable(learner), before):
      self.assertAllEqual(after, expected)
    self.assertEqual(learner.steps, 0)


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

  def test_prepare_then_step_prepared_is_step(self):
    # The split a learner thread uses (`overlapped_learning.py`): checks
    # and conversion first, the update later, the same update and metrics.
    config = _config()
    tf.random.set_seed(5)
    whole = _learner(config)
    tf.random.set_seed(5)
    split = _learner(config, validate_batches=True)
    for step in range(2):
      batch = testing.random_batch(config, BATCH_SIZE, seed=step)
      expected = whole.step(batch)
      metrics = split.step_prepared(split.prepare(batch))
      self.assertNotIn('step', metrics)
      self.assertEqual(split.steps, expected['step'])
      for name, value in metrics.items():
        self.assertAllEqual(value, expected[name], msg=name)
    for a, b in zip(_snapshot(split), _snapshot(whole)):
      self.assertAllEqual(a, b)

    # `prepare` refuses what `step` refuses, before anything changes.
    before = _snapshot(split)
    action = batch.action.copy()
    action[0, 0] = 2
    with self.assertRaisesRegex(ValueError, r'Batch\.action.* 2'):
      split.prepare(batch._replace(action=action))
    # `step_prepared` raises for a non-finite loss, the update skipped.
    observation = batch.observation.copy()
    observation[1, 0] = np.inf
    unchecked = _learner(config, validate_batches=False)
    unchecked_before = _snapshot(unchecked)
    with self.assertRaisesRegex(FloatingPointError,
                                'Non-finite loss .* learner step 0'):
      unchecked.step_prepared(
          unchecked.prepare(batch._replace(observation=observation)))
    for a, b in zip(_snapshot(unchecked), unchecked_before):
      self.assertAllEqual(a, b)
    for a, b in zip(_snapshot(split), before):
      self.assertAllEqual(a, b)

  def test_the_flat_call_is_tf_functions_call(self):
    # `step` calls the step's concrete function by flat call; the same
    # updates through the tf.function's own call, bit for bit, for two
    # batch sizes (one trace each) and with the consistency loss's
    # `next_observation` present (the Batch's last field, absent above).
    for config in (_config(), _config(consistency_loss_weight=0.5)):
      tf.random.set_seed(3)
      flat = _learner(config)
      tf.random.set_seed(3)
      public = _learner(config)
      for step, size in enumerate((BATCH_SIZE, 2 * BATCH_SIZE, BATCH_SIZE)):
        batch = testing.random_batch(config, size, seed=step)
        if config.consistency_loss_weight:
          rng = np.random.default_rng(step)
          batch = batch._replace(next_observation=rng.uniform(
              size=(size, NUM_UNROLL_STEPS) + config.observation_shape
          ).astype(np.float32))
        metrics = flat.step(batch)
        expected = public._compiled_step(public.prepare(batch))  # pylint: disable=protected-access
        with self.subTest(consistency=config.consistency_loss_weight,
                          step=step):
          self.assertTrue(bool(expected.pop('finite').numpy()))
          for name, value in expected.items():
            self.assertAllEqual(metrics[name], value.numpy(), msg=name)
          for a, b in zip(_snapshot(flat), _snapshot(public)):
            self.assertAllEqual(a, b)
      self.assertEqual(flat._flat_step.num_signatures, 2)  # pylint: disable=protected-access

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
