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
"""What the pseudocode's `tf.scale_gradient` is, and where it acts.

The question that started the project: `tf.scale_gradient` never existed in
TensorFlow. The paper's author answered that it is Sonnet's
`snt.scale_gradient`, equal to `t * s + tf.stop_gradient(t) * (1 - s)`. These
tests show, with numbers worked out by hand, that it is the identity forward
and multiplies the gradient by `s` backward; that it is not gradient
clipping; and that in the unrolled loss it halves the gradient at each
crossing of a recurrent step's output (not the representation's output:
defect 6 of the pseudocode, reproduced) and scales each recurrent step's loss
gradient by 1/K.
"""

from unittest import mock

import numpy as np
import sonnet as snt
import tensorflow as tf
from absl.testing import parameterized

import muzero_snt
from muzero_snt import losses
from muzero_snt.networks import make_network
from tests import testing

NUM_UNROLL_STEPS = 3
BATCH_SIZE = 5


def author_scale_gradient(tensor, scale):
  """The paper author's definition (answer to the seeds' question)."""
  return tensor * scale + tf.stop_gradient(tensor) * (1 - scale)


def _tiny_config():
  return testing.tiny_mlp_config(num_unroll_steps=NUM_UNROLL_STEPS)


class _Recorder:
  """A network seen by `unrolled_loss`, recording the tensors it exchanges."""

  def __init__(self, network):
    self._network = network
    self.num_actions = network.num_actions
    self.initial_outputs = []
    self.recurrent_inputs = []

  @property
  def trainable_variables(self):
    return self._network.trainable_variables

  def initial_inference(self, observation, is_training=False):
    output = self._network.initial_inference(observation, is_training)
    self.initial_outputs.append(output)
    return output

  def recurrent_inference(self, hidden_state, action, is_training=False):
    self.recurrent_inputs.append(hidden_state)
    return self._network.recurrent_inference(hidden_state, action,
                                             is_training)


class ScaleGradientFunctionTest(testing.TestCase):

  def test_is_sonnets_function(self):
    self.assertIs(muzero_snt.scale_gradient, snt.scale_gradient)

  @parameterized.parameters(0.5, 0.2, 0., 1.)
  def test_identity_forward(self, scale):
    x = tf.random.normal([4, 3, 2], seed=1) * 100.
    self.assertAllEqual(snt.scale_gradient(x, scale), x)

  @parameterized.parameters(0.5, 0.2, 0., 1.)
  def test_gradient_is_multiplied_by_scale(self, scale):
    x = tf.constant([-3., 0.5, 2.])
    with tf.GradientTape() as tape:
      tape.watch(x)
      y = tf.reduce_sum(snt.scale_gradient(x**2, scale))
    # d/dx x^2 = 2x, times the scale.
    expected = 2. * np.array([-3., 0.5, 2.]) * scale
    self.assertAllClose(tape.gradient(y, x), expected, atol=0., rtol=1e-7)

  @parameterized.parameters(0.5, 0.2, 0., 1.)
  def test_equals_authors_formula(self, scale):
    x = tf.random.normal([6], seed=2)
    with tf.GradientTape(persistent=True) as tape:
      tape.watch(x)
      ours = snt.scale_gradient(tf.sin(x), scale)
      theirs = author_scale_gradient(tf.sin(x), scale)
      weights = tf.range(1., 7.)
      ours_sum = tf.reduce_sum(weights * ours)
      theirs_sum = tf.reduce_sum(weights * theirs)
    self.assertAllClose(ours, theirs, atol=1e-7, rtol=1e-6)
    self.assertAllClose(tape.gradient(ours_sum, x),
                        tape.gradient(theirs_sum, x), atol=1e-7, rtol=1e-6)
    # And both are scale * cos(x) * weight.
    self.assertAllClose(tape.gradient(ours_sum, x),
                        scale * np.cos(x.numpy()) * np.arange(1., 7.),
                        atol=1e-6, rtol=1e-6)


class NotClippingTest(testing.TestCase):

  def _scaled_gradient(self, upstream, scale):
    x = tf.zeros_like(upstream)
    with tf.GradientTape() as tape:
      tape.watch(x)
      y = tf.reduce_sum(upstream * snt.scale_gradient(x, scale))
    return tape.gradient(y, x).numpy()

  @parameterized.parameters(1e6, 1e-6, 1.)
  def test_scales_any_magnitude_by_exactly_scale(self, magnitude):
    upstream = tf.constant([1., -2., 3.]) * magnitude
    gradient = self._scaled_gradient(upstream, 0.5)
    # Halving is exact in floating point: nothing is bounded or renormalised.
    self.assertAllEqual(gradient, 0.5 * upstream.numpy())

  def test_differs_from_clipping_by_norm(self):
    upstream = tf.constant([1e6, -2e6, 3e6])
    scaled = self._scaled_gradient(upstream, 0.5)
    clipped = tf.clip_by_norm(upstream, 1.).numpy()
    # clipnorm bounds the norm to 1 (here: upstream / |upstream|) ...
    self.assertAllClose(np.linalg.norm(clipped), 1., atol=1e-6, rtol=0.)
    # ... scale_gradient keeps half of it: a norm of 0.5 * sqrt(14) * 1e6.
    self.assertAllClose(np.linalg.norm(scaled), 0.5 * np.sqrt(14.) * 1e6,
                        atol=0., rtol=1e-6)
    self.assertNotAllClose(scaled, clipped)
    # A small gradient passes clipping untouched, yet is still halved.
    small = tf.constant([1e-6, 0., 0.])
    self.assertAllEqual(tf.clip_by_norm(small, 1.), small)
    self.assertAllEqual(self._scaled_gradient(small, 0.5),
                        0.5 * small.numpy())

  def test_each_call_site_has_its_own_scale(self):
    # An optimizer's clipnorm applies one bound to the whole gradient; here
    # two call sites in one loss scale their own paths by 0.5 and 1/3.
    a = tf.constant(2.)
    b = tf.constant(2.)
    with tf.GradientTape() as tape:
      tape.watch([a, b])
      loss = (snt.scale_gradient(a * a, 0.5) +
              snt.scale_gradient(10. * b, 1. / 3.))
    grad_a, grad_b = tape.gradient(loss, [a, b])
    self.assertAllClose(grad_a, 0.5 * 4., atol=0., rtol=1e-7)  # 0.5 d(a^2)
    self.assertAllClose(grad_b, 10. / 3., atol=0., rtol=1e-7)  # 1/3 d(10b)


class PseudocodeRecurrenceTest(testing.TestCase):
  """The pseudocode's unroll with a scalar linear model, by hand.

  Representation output s0; dynamics g(s) = w s; step k's "prediction" is its
  state s_k; the loss of step k is s_k. As in `update_weights`:

      s = s0;  for k in 1..K:  s = g(s); keep s_k = s; s = scale(s, 0.5)
      loss = s0 + sum_k scale(s_k, 1/K)

  With w = 3, s0 = 2 and K = 3.
  """

  def _unroll(self, s0, w, halve_representation_output=False):
    k_steps = 3
    s = s0
    if halve_representation_output:  # Not the pseudocode's placement.
      s = snt.scale_gradient(s, 0.5)
    states = [s0]
    for _ in range(k_steps):
      s = w * s
      states.append(s)
      s = snt.scale_gradient(s, 0.5)
    total = states[0] + tf.add_n(
        [snt.scale_gradient(state, 1. / k_steps) for state in states[1:]])
    return states, total

  def test_step_gradients_by_hand(self):
    s0 = tf.constant(2., tf.float64)
    w = tf.constant(3., tf.float64)
    with tf.GradientTape(persistent=True) as tape:
      tape.watch([s0, w])
      states, total = self._unroll(s0, w)
    # Forward: no scaling at all, s_k = w^k s0 = 2, 6, 18, 54.
    self.assertAllEqual([s.numpy() for s in states], [2., 6., 18., 54.])
    self.assertAllEqual(total, 2. + 6. + 18. + 54.)
    # d s_k / d s0 = w^k 0.5^(k-1): the first dynamics input (the
    # representation's output) is not halved, each later crossing is.
    self.assertEqual(tape.gradient(states[1], s0).numpy(), 3.)
    self.assertEqual(tape.gradient(states[2], s0).numpy(), 9. * 0.5)
    self.assertEqual(tape.gradient(states[3], s0).numpy(), 27. * 0.25)
    # d total / d s0 = 1 + (1/3)(3 + 4.5 + 6.75) = 5.75.
    self.assertAllClose(tape.gradient(total, s0), 5.75, atol=1e-12, rtol=0.)
    # d s_k / d w: the use of w at step j is seen through k - j halvings.
    # s1 = w s0: 2.  s2: 6 + 0.5 * 3 * 2 = 9.
    # s3: 18 + 0.5 * 3 * 6 + 0.25 * 9 * 2 = 31.5.
    self.assertAllClose(tape.gradient(states[1], w), 2., atol=1e-12, rtol=0.)
    self.assertAllClose(tape.gradient(states[2], w), 9., atol=1e-12, rtol=0.)
    self.assertAllClose(tape.gradient(states[3], w), 31.5, atol=1e-12,
                        rtol=0.)
    self.assertAllClose(tape.gradient(total, w), (2. + 9. + 31.5) / 3.,
                        atol=1e-12, rtol=0.)

  def test_halving_the_representation_output_would_differ(self):
    s0 = tf.constant(2., tf.float64)
    w = tf.constant(3., tf.float64)
    with tf.GradientTape() as tape:
      tape.watch(s0)
      _, total = self._unroll(s0, w, halve_representation_output=True)
    # 1 + (1/3)(1.5 + 2.25 + 3.375) = 3.375, not the pseudocode's 5.75.
    self.assertAllClose(tape.gradient(total, s0), 3.375, atol=1e-12, rtol=0.)


class UnrolledLossScalingTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    config = _tiny_config()
    self.network = make_network(config)
    self.network.create_variables()
    self.batch = testing.random_batch(config, BATCH_SIZE, seed=11)

  def _loss_and_gradients(self):
    with tf.GradientTape() as tape:
      output = losses.unrolled_loss(self.network, self.batch, 1e-4)
    return output, tape.gradient(output.loss,
                                 self.network.trainable_variables)

  def test_call_sites_and_scales(self):
    scales = []
    real_scale_gradient = snt.scale_gradient

    def spy(tensor, scale):
      scales.append(scale)
      return real_scale_gradient(tensor, scale)

    with mock.patch.object(losses.snt, 'scale_gradient', spy):
      losses.unrolled_loss(self.network, self.batch, 1e-4)
    k = NUM_UNROLL_STEPS
    # K hidden-state halvings during the unroll, then one scale per step
    # loss: 1 for the initial step, 1/K for each recurrent step.
    self.assertEqual(scales, [0.5] * k + [1.0] + [1. / k] * k)

  def test_identity_instead_changes_gradients_not_loss(self):
    output, gradients = self._loss_and_gradients()
    with mock.patch.object(losses.snt, 'scale_gradient', lambda t, s: t):
      plain_output, plain_gradients = self._loss_and_gradients()
    self.assertAllEqual(output.loss, plain_output.loss)
    self.assertAllEqual(output.extra.per_example,
                        plain_output.extra.per_example)
    names = [v.name for v in self.network.trainable_variables]
    differing = [
        name for name, g, p in zip(names, gradients, plain_gradients)
        if not np.allclose(g, p, rtol=1e-3, atol=1e-7)
    ]
    for part in ('representation', 'dynamics', 'prediction'):
      with self.subTest(part=part):
        self.assertTrue(any(part in name for name in differing), differing)

  def test_authors_formula_gives_the_same_gradients(self):
    output, gradients = self._loss_and_gradients()
    with mock.patch.object(losses.snt, 'scale_gradient',
                           author_scale_gradient):
      author_output, author_gradients = self._loss_and_gradients()
    self.assertAllClose(output.loss, author_output.loss, atol=1e-6,
                        rtol=1e-6)
    for g, a in zip(gradients, author_gradients):
      self.assertAllClose(g, a, atol=1e-6, rtol=1e-5)

  def test_gradient_into_representation_output_by_hand(self):
    network, batch = self.network, self.batch
    k_steps = NUM_UNROLL_STEPS
    recorder = _Recorder(network)
    with tf.GradientTape() as tape:
      output = losses.unrolled_loss(recorder, batch, 0.)
      total = tf.reduce_sum(output.extra.per_example)
    s0 = recorder.initial_outputs[0].hidden_state
    # Defect 6, reproduced: the first dynamics input is the representation's
    # output itself, not a gradient-scaled copy of it.
    self.assertIs(recorder.recurrent_inputs[0], s0)
    gradient = tape.gradient(total, s0).numpy()

    # Unscaled per-step gradients g_k = d(sum_b w_b l_k[b]) / d s0, from an
    # unroll written here, with step losses written by hand.
    weight = tf.constant(batch.weight)
    with tf.GradientTape(persistent=True) as step_tape:
      step = network.initial_inference(batch.observation, is_training=True)
      own_s0 = step.hidden_state
      step_losses = []
      for k in range(k_steps + 1):
        if k > 0:
          step = network.recurrent_inference(
              step.hidden_state, tf.constant(batch.action[:, k - 1]),
              is_training=True)
        l = tf.square(step.value - batch.target_value[:, k])
        l -= batch.policy_mask[:, k] * tf.reduce_sum(
            batch.target_policy[:, k] * tf.nn.log_softmax(step.policy_logits),
            axis=-1)
        if k > 0:
          l += tf.square(step.reward - batch.target_reward[:, k - 1])
        step_losses.append(tf.reduce_sum(weight * l))
    g = [step_tape.gradient(l, own_s0).numpy() for l in step_losses]
    self.assertAllClose(np.sum([l.numpy() for l in step_losses]), total,
                        atol=1e-5, rtol=1e-5)

    # Step k >= 1 reaches s0 through k - 1 halvings, with weight 1/K.
    expected = g[0] + sum(0.5**(k - 1) / k_steps * g[k]
                          for k in range(1, k_steps + 1))
    self.assertAllClose(gradient, expected, atol=1e-6, rtol=1e-5)
    # Neither the "improved" placement (k halvings) nor no scaling at all.
    improved = g[0] + sum(0.5**k / k_steps * g[k]
                          for k in range(1, k_steps + 1))
    self.assertNotAllClose(gradient, improved, atol=1e-6, rtol=1e-4)
    self.assertNotAllClose(gradient, sum(g), atol=1e-6, rtol=1e-4)


if __name__ == '__main__':
  tf.test.main()
