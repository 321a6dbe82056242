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
"""Parity of the batched, compiled learner with the pseudocode's loop.

The reference is `reference.update_weights`, the pseudocode's function
written out literally: a Python loop over the examples, one at a time,
`scale_gradient` at the pseudocode's places, and TF1's `MomentumOptimizer`.
Two networks start from the same variables; one is trained by `Learner`
(with `loss_reduction='sum'`, the pseudocode's reduction, and importance
weights of 1, which the pseudocode does not have), the other by the
reference. Loss, gradients, variables and momentum accumulators must agree
after one and after two steps, for MLP and residual networks, scalar and
categorical heads, and batches with and without absorbing states.

Batch normalisation in training mode cannot match the loop, and is compared
in inference mode only. In training mode a batch-norm layer normalises with
the mean and variance of the batch it is given. The pseudocode calls the
network on one example at a time, so each example is normalised with its own
statistics (over the spatial positions of a single example, or over a single
row for a dense layer, where the variance is 0), while the batched learner
normalises with the statistics of all B examples: they are different
functions of the inputs, not two roundings of one, and the loop would also
update the moving averages B times per step instead of once. In inference
mode the layer uses its moving averages, which do not depend on the batch,
so the two must agree.
"""

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import learning
from muzero_snt import losses
from muzero_snt import presets
from muzero_snt import reference
from muzero_snt.config import NetworkConfig
from muzero_snt.networks import make_network
from tests import testing

NUM_UNROLL_STEPS = 3
BATCH_SIZE = 4
# Visible decay between the two steps: lr_init * 0.1 ** (1 / 2) at step 1.
LR_DECAY_STEPS = 2


def _config(kind: str, support_size: int, batch_norm: bool = False):
  """A tiny MLP on CartPole's shapes, or a tiny residual on tic-tac-toe's."""
  if kind == 'mlp':
    return presets.make_cartpole_config().replace(
        num_unroll_steps=NUM_UNROLL_STEPS,
        lr_decay_steps=LR_DECAY_STEPS,
        network=NetworkConfig(
            kind='mlp',
            hidden_size=8,
            mlp_layers=(16,),
            head_layers=(8,),
            value_support_size=support_size,
            reward_support_size=support_size))
  return presets.make_tictactoe_config().replace(
      num_unroll_steps=NUM_UNROLL_STEPS,
      lr_decay_steps=LR_DECAY_STEPS,
      network=NetworkConfig(
          kind='residual',
          channels=4,
          num_blocks=1,
          prediction_blocks=0,  # The paper's prediction: AlphaZero's heads.
          head_layers=(8,),
          action_encoding='board',
          value_support_size=support_size,
          reward_support_size=support_size,
          batch_norm=batch_norm))


def _batch(config, seed, absorbing_tail=True):
  batch = testing.random_batch(config, BATCH_SIZE, seed=seed,
                               absorbing_tail=absorbing_tail)
  # The pseudocode has no importance weights.
  return batch._replace(weight=np.ones([BATCH_SIZE], np.float32))


def _twin_networks(config):
  """Two networks of `config` with identical variables."""
  network_a = make_network(config)
  network_b = make_network(config)
  network_a.create_variables()
  network_b.create_variables()
  assert len(network_a.variables) == len(network_b.variables)
  for a, b in zip(network_a.variables, network_b.variables):
    assert a.shape == b.shape, (a.name, b.name)
    b.assign(a)
  return network_a, network_b


def _np_learning_rate(config, step):
  """The pseudocode's schedule, by hand."""
  return config.lr_init * config.lr_decay_rate**(step / config.lr_decay_steps)


class ReferenceParityTest(testing.TestCase):

  def assertRelativelyClose(self, actual, expected, rtol, msg=''):
    """max |actual - expected| <= rtol * max |expected|, over one tensor."""
    actual = np.asarray(actual, np.float64)
    expected = np.asarray(expected, np.float64)
    self.assertEqual(actual.shape, expected.shape, msg)
    scale = max(np.max(np.abs(expected)), 1e-6)
    self.assertLessEqual(np.max(np.abs(actual - expected)), rtol * scale,
                         f'{msg}: max |difference| beyond {rtol} * {scale}')

  def assertVariablesMatch(self, network_a, network_b, msg):
    for a, b in zip(network_a.trainable_variables,
                    network_b.trainable_variables):
      self.assertAllClose(a, b, rtol=1e-5, atol=1e-6, msg=f'{msg}: {a.name}')

  def _reference_step(self, optimizer, learning_rate, network, batch, config,
                      step):
    """The pseudocode's update, at the schedule's learning rate for `step`."""
    learning_rate.assign(_np_learning_rate(config, step))
    return reference.update_weights(
        optimizer, reference.PseudocodeNetwork(network),
        reference.pseudocode_batch(batch), config.weight_decay)

  @parameterized.named_parameters(
      ('mlp_scalar', 'mlp', 0),
      ('mlp_support', 'mlp', 21),
      ('residual_scalar', 'residual', 0),
      ('residual_support', 'residual', 21),
  )
  def test_two_steps_match_the_pseudocode(self, kind, support_size):
    config = _config(kind, support_size)
    network_a, network_b = _twin_networks(config)
    learner = learning.Learner(network_a, config, loss_reduction='sum')
    learning_rate = tf.Variable(config.lr_init)
    optimizer = tf.compat.v1.train.MomentumOptimizer(
        learning_rate, config.momentum)
    # Step 1 with absorbing states past the end of some games (their policy
    # masked, the pseudocode's empty target); step 2 without.
    batches = [_batch(config, seed=1, absorbing_tail=True),
               _batch(config, seed=2, absorbing_tail=False)]
    self.assertLess(np.min(batches[0].policy_mask), 1.)
    self.assertEqual(np.min(batches[1].policy_mask), 1.)
    for step, batch in enumerate(batches):
      # The learner's own loss and gradients (the function that its compiled
      # step wraps in `tf.function`), run eagerly before the step; the
      # compiled ones are checked through the step's gradient norm and the
      # updated variables.
      _, replica_loss, gradients = learner._loss_and_gradients(
          learning._as_batch_of_tensors(batch))
      metrics = learner.step(batch)
      ref_loss, ref_gradients = self._reference_step(
          optimizer, learning_rate, network_b, batch, config, step)

      self.assertAllClose(replica_loss, ref_loss, rtol=1e-5, atol=0.)
      self.assertLen(gradients, len(ref_gradients))
      for variable, g, r in zip(network_a.trainable_variables, gradients,
                                ref_gradients):
        self.assertRelativelyClose(g, r, 1e-4,
                                   f'step {step + 1}: {variable.name}')
      self._assert_step_matches(metrics, step, ref_loss, ref_gradients,
                                learner, optimizer, network_b, config)
    self.assertEqual(metrics['step'], 2)

  def _assert_step_matches(self, metrics, step, ref_loss, ref_gradients,
                           learner, optimizer, network_b, config):
    """The step's learning rate, loss and gradient norm are the
    reference's, and so are the weights and momenta after it."""
    self.assertAllClose(metrics['learning_rate'],
                        _np_learning_rate(config, step), rtol=1e-6, atol=0.)
    self.assertAllClose(metrics['loss'], ref_loss, rtol=1e-5, atol=0.)
    # The compiled step's own gradients, through their global norm.
    ref_norm = np.sqrt(sum(np.sum(np.square(r.numpy(), dtype=np.float64))
                           for r in ref_gradients))
    self.assertAllClose(metrics['gradient_norm'], ref_norm, rtol=1e-5,
                        atol=0.)
    self.assertVariablesMatch(learner.network, network_b,
                              f'step {step + 1}')
    for variable, accumulation in zip(network_b.trainable_variables,
                                      learner.optimizer.accumulation):
      self.assertAllClose(accumulation,
                          optimizer.get_slot(variable, 'momentum'),
                          rtol=1e-5, atol=1e-6, msg=variable.name)

  def test_jit_compiled_learner_matches_the_pseudocode(self):
    config = _config('mlp', 0)
    network_a, network_b = _twin_networks(config)
    learner = learning.Learner(network_a, config, jit_compile=True,
                               loss_reduction='sum')
    learning_rate = tf.Variable(config.lr_init)
    optimizer = tf.compat.v1.train.MomentumOptimizer(
        learning_rate, config.momentum)
    # With one replica the whole step (loss, gradients, momentum update,
    # counter and learning rate) is one XLA program: two steps, so that the
    # second update reads the momentum the first one wrote.
    for step, seed in enumerate((3, 7)):
      batch = _batch(config, seed=seed)
      metrics = learner.step(batch)
      ref_loss, ref_gradients = self._reference_step(
          optimizer, learning_rate, network_b, batch, config, step)
      self._assert_step_matches(metrics, step, ref_loss, ref_gradients,
                                learner, optimizer, network_b, config)
    self.assertEqual(metrics['step'], 2)

  def test_mean_reduction_is_data_gradient_over_batch_plus_l2(self):
    config = _config('mlp', 21).replace(weight_decay=1e-2)
    network_a, network_b = _twin_networks(config)
    learner = learning.Learner(network_a, config, loss_reduction='mean')
    batch = _batch(config, seed=4)
    _, _, gradients = learner._loss_and_gradients(
        learning._as_batch_of_tensors(batch))
    # The reference without weight decay gives the data gradient, summed
    # over the batch; d/dw of wd * 0.5 |w|^2 is wd * w.
    weights = [v.numpy() for v in network_b.trainable_variables]
    _, data_gradients = reference.update_weights(
        tf.compat.v1.train.GradientDescentOptimizer(0.),
        reference.PseudocodeNetwork(network_b),
        reference.pseudocode_batch(batch), 0.)
    for variable, g, d, w in zip(network_a.trainable_variables, gradients,
                                 data_gradients, weights):
      self.assertRelativelyClose(
          g, d.numpy() / BATCH_SIZE + config.weight_decay * w, 1e-4,
          variable.name)

  def test_batch_norm_inference_mode_matches_the_pseudocode(self):
    config = _config('residual', 21, batch_norm=True)
    network = make_network(config)
    network.create_variables()
    batch = _batch(config, seed=5)
    moving = [v for v in network.variables if 'moving' in v.name]
    self.assertNotEmpty(moving)
    before = [v.numpy() for v in moving]
    # One training-mode pass, so that the moving statistics are not trivial.
    losses.unrolled_loss(network, _batch(config, seed=6), 0.,
                         is_training=True)
    self.assertTrue(any(not np.allclose(b, v.numpy())
                        for b, v in zip(before, moving)))

    weight_decay = config.weight_decay
    with tf.GradientTape() as tape:
      output = losses.unrolled_loss(network, batch, weight_decay,
                                    is_training=False)
      loss = tf.reduce_sum(output.extra.per_example) + (
          output.extra.regularization)
    gradients = tape.gradient(loss, network.trainable_variables)
    # The reference applies its gradients: with a zero learning rate, so
    # that the network stays as it is.
    ref_loss, ref_gradients = reference.update_weights(
        tf.compat.v1.train.GradientDescentOptimizer(0.),
        reference.PseudocodeNetwork(network, is_training=False),
        reference.pseudocode_batch(batch), weight_decay)
    self.assertAllClose(loss, ref_loss, rtol=1e-5, atol=0.)
    for variable, g, r in zip(network.trainable_variables, gradients,
                              ref_gradients):
      self.assertRelativelyClose(g, r, 1e-4, variable.name)

    # In training mode, statistics over B examples are not those of one
    # example (see the module docstring): the batched root values differ
    # from the pseudocode's one-example-at-a-time ones.
    batched = network.initial_inference(batch.observation, is_training=True)
    one_by_one = [
        network.initial_inference(batch.observation[i:i + 1],
                                  is_training=True).value[0]
        for i in range(BATCH_SIZE)
    ]
    self.assertNotAllClose(batched.value, one_by_one, rtol=1e-3, atol=1e-3)


if __name__ == '__main__':
  tf.test.main()
