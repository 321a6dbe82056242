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
"""Tests for muzero_snt.optimizers against TF1's optimizer and NumPy.

The distributed test needs two logical CPU devices, which can only be set up
before TensorFlow initialises its devices. This module asks for them when it
is imported (pytest imports every test module before running any test); if
another module has already initialised TensorFlow in the same process, the
request fails and only that test is skipped. Run this file alone to be sure
it runs.
"""

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import optimizers
from tests import testing


def _request_two_logical_cpus() -> bool:
  cpu = tf.config.list_physical_devices('CPU')[0]
  try:
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
  except RuntimeError:  # TensorFlow has already initialised its devices.
    return False
  return True


_REQUESTED_TWO_CPUS = _request_two_logical_cpus()

SHAPES = ([3, 2], [4], [])


def _variables(seed: int = 0):
  rng = np.random.default_rng(seed)
  return [tf.Variable(rng.normal(size=shape).astype(np.float32))
          for shape in SHAPES]


def _gradients(num_steps: int, seed: int = 1):
  """`num_steps` lists of random float32 gradients, one per variable."""
  rng = np.random.default_rng(seed)
  return [[rng.normal(size=shape).astype(np.float32) for shape in SHAPES]
          for _ in range(num_steps)]


def _np_adam(parameters, gradients, learning_rate, beta1=0.9, beta2=0.999,
             epsilon=1e-8):
  """Adam (Kingma and Ba 2015, algorithm 1) in float64 NumPy."""
  parameters = [np.asarray(p, np.float64) for p in parameters]
  m = [np.zeros_like(p) for p in parameters]
  v = [np.zeros_like(p) for p in parameters]
  for t, step_gradients in enumerate(gradients, start=1):
    for i, g in enumerate(step_gradients):
      m[i] = beta1 * m[i] + (1. - beta1) * g
      v[i] = beta2 * v[i] + (1. - beta2) * g * g
      m_hat = m[i] / (1. - beta1**t)
      v_hat = v[i] / (1. - beta2**t)
      parameters[i] = parameters[i] - learning_rate * m_hat / (
          np.sqrt(v_hat) + epsilon)
  return parameters, m, v


class MomentumTest(testing.TestCase):

  def test_by_hand(self):
    variable = tf.Variable(1.)
    optimizer = optimizers.Momentum(0.1, momentum=0.9)
    optimizer.apply([tf.constant(0.5)], [variable])
    # accumulation = 0.5; variable = 1 - 0.1 * 0.5 = 0.95.
    self.assertAllClose(variable, 0.95, atol=1e-7, rtol=0.)
    optimizer.apply([tf.constant(0.5)], [variable])
    # accumulation = 0.9 * 0.5 + 0.5 = 0.95; variable = 0.95 - 0.095.
    self.assertAllClose(optimizer.accumulation[0], 0.95, atol=1e-7, rtol=0.)
    self.assertAllClose(variable, 0.855, atol=1e-7, rtol=0.)

  def test_matches_tf1_momentum_optimizer(self):
    ours, theirs = _variables(), _variables()
    optimizer = optimizers.Momentum(0.05, momentum=0.9)
    tf1_optimizer = tf.compat.v1.train.MomentumOptimizer(0.05, momentum=0.9)
    for step, gradients in enumerate(_gradients(3)):
      optimizer.apply([tf.constant(g) for g in gradients], ours)
      tf1_optimizer.apply_gradients(
          zip([tf.constant(g) for g in gradients], theirs))
      for i, (a, b) in enumerate(zip(ours, theirs)):
        self.assertAllClose(a, b, atol=1e-6, rtol=1e-6,
                            msg=f'step {step}, variable {i}')
        self.assertAllClose(optimizer.accumulation[i],
                            tf1_optimizer.get_slot(b, 'momentum'),
                            atol=1e-6, rtol=1e-6)
    self.assertNotAllClose(ours[0], _variables()[0])

  def test_learning_rate_variable_is_read_at_each_step(self):
    learning_rate = tf.Variable(0.1)
    variable = tf.Variable(1.)
    optimizer = optimizers.Momentum(learning_rate, momentum=0.5)
    optimizer.apply([tf.constant(1.)], [variable])  # 1 - 0.1 * 1 = 0.9.
    learning_rate.assign(0.01)
    # accumulation = 0.5 * 1 + 1 = 1.5; 0.9 - 0.01 * 1.5 = 0.885.
    optimizer.apply([tf.constant(1.)], [variable])
    self.assertAllClose(variable, 0.885, atol=1e-7, rtol=0.)

  def test_none_gradient_leaves_its_variable(self):
    variables = _variables()
    before = variables[1].numpy()
    gradients = [tf.constant(g) for g in _gradients(1)[0]]
    gradients[1] = None
    optimizers.Momentum(0.1).apply(gradients, variables)
    self.assertAllEqual(variables[1], before)


class AdamTest(testing.TestCase):

  def test_matches_numpy_adam(self):
    variables = _variables()
    initial = [v.numpy() for v in variables]
    gradients = _gradients(3)
    optimizer = optimizers.Adam(0.01)
    for step_gradients in gradients:
      optimizer.apply([tf.constant(g) for g in step_gradients], variables)
    expected, m, v = _np_adam(initial, gradients, 0.01)
    for i in range(len(SHAPES)):
      self.assertAllClose(variables[i], expected[i], atol=1e-6, rtol=1e-6)
      self.assertAllClose(optimizer.m[i], m[i], atol=1e-6, rtol=1e-6)
      self.assertAllClose(optimizer.v[i], v[i], atol=1e-6, rtol=1e-6)
    self.assertEqual(int(optimizer.step.numpy()), 3)

  def test_first_step_moves_by_learning_rate(self):
    # With bias correction, step 1 is lr * g / (|g| + eps): -lr sign(g).
    variable = tf.Variable([1., 1.])
    optimizers.Adam(0.01).apply([tf.constant([3., -1e-3])], [variable])
    self.assertAllClose(variable, [0.99, 1.01], atol=1e-5, rtol=0.)


class ApplyUpdatesTest(testing.TestCase):

  @parameterized.named_parameters(
      ('momentum', lambda: optimizers.Momentum(0.1, 0.9)),
      ('adam', lambda: optimizers.Adam(0.1)),
  )
  def test_false_keeps_variables_and_slots(self, make_optimizer):
    optimizer = make_optimizer()
    variables = _variables()
    gradients = _gradients(2)
    optimizer.apply([tf.constant(g) for g in gradients[0]], variables)

    def state():
      slots = (optimizer.accumulation if hasattr(optimizer, 'accumulation')
               else optimizer.m + optimizer.v + [optimizer.step])
      return [v.numpy() for v in variables + list(slots)]

    before = state()
    # Non-finite gradients, as the learner passes them on a bad step.
    bad = [np.full_like(g, np.nan) for g in gradients[1]]
    optimizer.apply([tf.constant(g) for g in bad], variables,
                    apply_updates=tf.constant(False))
    optimizer.apply([tf.constant(g) for g in gradients[1]], variables,
                    apply_updates=False)
    for a, b in zip(state(), before):
      self.assertAllEqual(a, b)
    optimizer.apply([tf.constant(g) for g in gradients[1]], variables,
                    apply_updates=True)
    self.assertNotAllClose(state()[0], before[0])

  def test_mismatched_lengths_raise(self):
    variables = _variables()
    gradients = [tf.constant(g) for g in _gradients(1)[0]]
    for optimizer in (optimizers.Momentum(0.1), optimizers.Adam(0.1)):
      with self.assertRaisesRegex(ValueError, '2 updates for 3 parameters'):
        optimizer.apply(gradients[:2], variables)


class MirroredStrategyTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not _REQUESTED_TWO_CPUS or len(
        tf.config.list_logical_devices('CPU')) < 2:
      self.skipTest('Two logical CPUs could not be configured: TensorFlow '
                    'was initialised before this module; run it alone.')

  @parameterized.named_parameters(
      ('momentum_eager', lambda: optimizers.Momentum(0.05, 0.9), False),
      ('momentum_function', lambda: optimizers.Momentum(0.05, 0.9), True),
      ('adam_function', lambda: optimizers.Adam(0.05), True),
  )
  def test_replica_update_equals_single_device_update(self, make_optimizer,
                                                      use_function):
    strategy = tf.distribute.MirroredStrategy(['/cpu:0', '/cpu:1'])
    self.assertEqual(strategy.num_replicas_in_sync, 2)
    with strategy.scope():
      distributed = _variables()
      optimizer = make_optimizer()
      optimizer.initialize(distributed)
    single = _variables()
    single_optimizer = make_optimizer()
    gradients = _gradients(3)

    def step(step_gradients):
      # In each replica, the same (already all-reduced) gradients.
      strategy.run(lambda: optimizer.apply(step_gradients, distributed))

    if use_function:
      step = tf.function(step)
    for step_gradients in gradients:
      step([tf.constant(g) for g in step_gradients])
      single_optimizer.apply([tf.constant(g) for g in step_gradients],
                             single)
    for d, s in zip(distributed, single):
      self.assertLen(d.values, 2)
      for replica_value in d.values:
        self.assertAllClose(replica_value, s, atol=1e-6, rtol=1e-6)
    self.assertNotAllClose(single[0], _variables()[0])


if __name__ == '__main__':
  tf.test.main()
