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
"""Tests for muzero_snt.losses against hand and NumPy computations."""

import re

import numpy as np
import sonnet as snt
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import losses
from muzero_snt.networks import make_network
from tests import testing

NUM_UNROLL_STEPS = 3
BATCH_SIZE = 6


def _tiny_config(support_size: int = 0, value_loss_weight: float = 1.0):
  """Cartpole-shaped config (4 inputs, 2 actions) with a tiny MLP network."""
  return testing.tiny_mlp_config(
      support_size, num_unroll_steps=NUM_UNROLL_STEPS,
      value_loss_weight=value_loss_weight)


# NumPy versions of the maths, written from the paper (appendix F), not from
# the library's code.


def _np_log_softmax(logits):
  logits = np.asarray(logits, np.float64)
  shifted = logits - logits.max(axis=-1, keepdims=True)
  return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _np_h(x):
  x = np.asarray(x, np.float64)
  return np.sign(x) * (np.sqrt(np.abs(x) + 1.) - 1.) + 1e-3 * x


def _np_two_hot(x, support_size):
  """Two-hot over the integers -n..n, one row per element of `x`."""
  n = (support_size - 1) // 2
  x = np.clip(np.asarray(x, np.float64), -n, n)
  out = np.zeros(x.shape + (support_size,))
  for index in np.ndindex(x.shape):
    low = int(np.floor(x[index]))
    upper = x[index] - low
    out[index + (low + n,)] += 1. - upper
    if upper > 0.:
      out[index + (low + n + 1,)] += upper
  return out


def _np_scalar_loss(prediction, target):
  prediction = np.asarray(prediction, np.float64)
  target = np.asarray(target, np.float64)
  if prediction.ndim == target.ndim:
    return (prediction - target)**2
  probs = _np_two_hot(_np_h(target), prediction.shape[-1])
  return -(probs * _np_log_softmax(prediction)).sum(axis=-1)


def _np_policy_loss(logits, target, mask):
  ce = -(np.asarray(target, np.float64) * _np_log_softmax(logits)).sum(-1)
  return ce * np.asarray(mask, np.float64)


def _unroll_eagerly(network, batch):
  """Outputs of steps 0..K, calling the network one step at a time."""
  output = network.initial_inference(batch.observation, is_training=True)
  outputs = [output]
  for k in range(batch.action.shape[1]):
    output = network.recurrent_inference(
        output.hidden_state, tf.constant(batch.action[:, k]),
        is_training=True)
    outputs.append(output)
  return outputs


def _np_step_losses(outputs, batch):
  """Per-step, per-example value, reward and policy losses in NumPy.

  Returns:
    value `[K+1, B]`, reward `[K, B]` (step k's reward is
    `target_reward[:, k-1]`; step 0 has none) and policy `[K+1, B]`.
  """
  value, reward, policy = [], [], []
  for k, output in enumerate(outputs):
    value_pred = (output.value if output.value_logits is None
                  else output.value_logits)
    value.append(_np_scalar_loss(value_pred.numpy(),
                                 batch.target_value[:, k]))
    policy.append(_np_policy_loss(output.policy_logits.numpy(),
                                  batch.target_policy[:, k],
                                  batch.policy_mask[:, k]))
    if k > 0:
      reward_pred = (output.reward if output.reward_logits is None
                     else output.reward_logits)
      reward.append(_np_scalar_loss(reward_pred.numpy(),
                                    batch.target_reward[:, k - 1]))
  return np.stack(value), np.stack(reward), np.stack(policy)


def _np_l2(network, weight_decay):
  return weight_decay * 0.5 * sum(
      np.sum(np.square(v.numpy().astype(np.float64)))
      for v in network.trainable_variables)


class ScalarLossTest(testing.TestCase):

  def test_squared_error_by_hand(self):
    loss = losses.scalar_loss(tf.constant([1., -2.]), tf.constant([0.5, 1.]))
    # (1 - 0.5)^2 = 0.25 and (-2 - 1)^2 = 9.
    self.assertAllClose(loss, [0.25, 9.], rtol=0., atol=0.)

  def test_categorical_cross_entropy_by_hand(self):
    # Support of 5 atoms, -2..2; the prediction is a known distribution p.
    p = np.array([0.1, 0.2, 0.3, 0.25, 0.15])
    logits = tf.constant(np.log(p)[None], tf.float32)  # [1, 5]
    # h(1.3) = sqrt(2.3) - 1 + 0.0013 = 0.5178751...: between atoms 0 and 1,
    # so two-hot puts 1 - 0.5178751 on atom 0 (index 2), 0.5178751 on atom 1.
    h = np.sqrt(2.3) - 1. + 0.0013
    self.assertAllClose(_np_h(1.3), h, atol=1e-12, rtol=0.)
    self.assertAllClose(h, 0.5178751, atol=1e-7, rtol=0.)
    expected = -((1. - h) * np.log(0.3) + h * np.log(0.25))  # 1.29839...
    loss = losses.scalar_loss(logits, tf.constant([1.3]))
    self.assertEqual(loss.shape, [1])
    self.assertAllClose(loss, [expected], atol=1e-6, rtol=1e-6)
    self.assertAllClose(expected, 1.2984, atol=1e-4, rtol=0.)

  def test_categorical_matches_numpy_over_the_support(self):
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(7, 21)).astype(np.float32)
    # Both signs, an atom exactly, and targets beyond the support (clipped).
    target = np.array([-150., -3.7, -0.2, 0., 0.9, 8., 500.], np.float32)
    loss = losses.scalar_loss(tf.constant(logits), tf.constant(target))
    self.assertAllClose(loss, _np_scalar_loss(logits, target), atol=1e-5,
                        rtol=1e-5)

  def test_scalar_shape_mismatch_names_the_shapes(self):
    with self.assertRaisesRegex(ValueError, re.escape('(3,)') + '.*' +
                                re.escape('(4,)')):
      losses.scalar_loss(tf.zeros([3]), tf.zeros([4]))

  def test_logits_shape_mismatch_names_the_shapes(self):
    with self.assertRaisesRegex(ValueError, re.escape('(3, 5)') + '.*' +
                                re.escape('(4,)')):
      losses.scalar_loss(tf.zeros([3, 5]), tf.zeros([4]))

  def test_unrelated_ranks_name_the_shapes(self):
    with self.assertRaisesRegex(ValueError, re.escape('(3, 5, 2)') + '.*' +
                                re.escape('(3,)')):
      losses.scalar_loss(tf.zeros([3, 5, 2]), tf.zeros([3]))

  def test_even_support_raises(self):
    with self.assertRaisesRegex(ValueError, 'odd integer >= 3, got 4'):
      losses.scalar_loss(tf.zeros([3, 4]), tf.zeros([3]))


class PolicyLossTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    self.logits = np.array([[1., 2., 0.5],
                            [0.3, -1., 2.],
                            [2., 0., -2.],
                            [0., 1., 0.]], np.float32)
    self.target = np.array([[0.2, 0.5, 0.3],
                            [0., 0., 0.],  # Absorbing: zero target.
                            [0.6, 0.4, 0.],  # A real target, but masked.
                            [0., 0., 0.]], np.float32)  # Zero and masked.
    self.mask = np.array([1., 1., 0., 0.], np.float32)

  def test_matches_numpy_cross_entropy(self):
    loss = losses.policy_loss(self.logits, self.target, self.mask)
    expected = _np_policy_loss(self.logits, self.target, self.mask)
    self.assertAllClose(loss, expected, atol=1e-6, rtol=1e-6)
    self.assertAllEqual(loss[1:], [0., 0., 0.])
    self.assertGreater(float(loss[0]), 0.)

  def test_masked_and_zero_targets_have_exactly_zero_gradient(self):
    logits = tf.constant(self.logits)
    with tf.GradientTape() as tape:
      tape.watch(logits)
      loss = tf.reduce_sum(losses.policy_loss(logits, self.target, self.mask))
    gradient = tape.gradient(loss, logits).numpy()
    # d/dz of -sum(t log softmax(z)) = softmax(z) sum(t) - t.
    softmax = np.exp(_np_log_softmax(self.logits[0]))
    self.assertAllClose(gradient[0], softmax - self.target[0], atol=1e-6,
                        rtol=1e-6)
    self.assertAllEqual(gradient[1:], np.zeros([3, 3]))

  def test_tf_softmax_cross_entropy_leaks_gradient_for_zero_targets(self):
    # Why the library writes its own: TF's op has gradient softmax - labels,
    # which is softmax(logits) != 0 for an all-zero (absorbing) label, even
    # though its loss there is 0.
    logits = tf.constant(self.logits[1:2])
    with tf.GradientTape() as tape:
      tape.watch(logits)
      loss = tf.nn.softmax_cross_entropy_with_logits(
          labels=tf.zeros([1, 3]), logits=logits)
    gradient = tape.gradient(loss, logits).numpy()
    self.assertAllClose(loss, [0.])
    self.assertAllClose(gradient[0], np.exp(_np_log_softmax(self.logits[1])),
                        atol=1e-6, rtol=1e-6)
    self.assertGreater(np.abs(gradient).sum(), 0.9)


class _TwoVariables(snt.Module):

  def __init__(self):
    super().__init__(name='two_variables')
    self.a = tf.Variable([1., 2.])
    self.b = tf.Variable([[3.]])
    self.frozen = tf.Variable(5., trainable=False)


class L2RegularizationTest(testing.TestCase):

  def test_by_hand(self):
    # 0.1 * 0.5 * (1 + 4 + 9) = 0.7; the non-trainable variable is left out.
    self.assertAllClose(losses.l2_regularization(_TwoVariables(), 0.1), 0.7,
                        atol=1e-7, rtol=0.)

  def test_network_matches_numpy(self):
    network = make_network(_tiny_config())
    network.create_variables()
    self.assertAllClose(losses.l2_regularization(network, 3e-4),
                        _np_l2(network, 3e-4), atol=1e-9, rtol=1e-5)


class UnrolledLossTest(testing.TestCase):

  def _network_and_batch(self, support_size=0, value_loss_weight=1.0):
    config = _tiny_config(support_size, value_loss_weight)
    network = make_network(config)
    network.create_variables()
    batch = testing.random_batch(config, BATCH_SIZE, seed=7)
    return network, batch

  def test_loss_is_mean_of_per_example_plus_regularization(self):
    network, batch = self._network_and_batch()
    output = losses.unrolled_loss(network, batch, weight_decay=1e-3)
    self.assertAllClose(
        output.loss,
        np.mean(output.extra.per_example.numpy()) +
        output.extra.regularization.numpy(), atol=1e-6, rtol=1e-6)
    self.assertAllClose(output.extra.regularization, _np_l2(network, 1e-3),
                        atol=1e-8, rtol=1e-5)

  @parameterized.named_parameters(
      ('scalar_heads', 0, 1.0, 1.0),
      ('support_heads', 21, 1.0, 1.0),
      ('support_heads_reanalyze_weight', 21, 0.25, 1.0),
      ('support_heads_reward_weight', 21, 1.0, 5.0),
  )
  def test_matches_step_by_step_numpy(self, support_size, value_loss_weight,
                                      reward_loss_weight):
    network, batch = self._network_and_batch(support_size, value_loss_weight)
    output = losses.unrolled_loss(network, batch, weight_decay=1e-3,
                                  value_loss_weight=value_loss_weight,
                                  reward_loss_weight=reward_loss_weight)
    value, reward, policy = _np_step_losses(
        _unroll_eagerly(network, batch), batch)
    k = NUM_UNROLL_STEPS
    self.assertEqual(output.extra.value_loss.shape, [k + 1])
    self.assertEqual(output.extra.reward_loss.shape, [k])
    self.assertEqual(output.extra.policy_loss.shape, [k + 1])
    self.assertAllClose(output.extra.value_loss, value.mean(axis=1),
                        atol=1e-5, rtol=1e-5)
    self.assertAllClose(output.extra.reward_loss, reward.mean(axis=1),
                        atol=1e-5, rtol=1e-5)
    self.assertAllClose(output.extra.policy_loss, policy.mean(axis=1),
                        atol=1e-5, rtol=1e-5)
    # scale_gradient is the identity forward: the value of each example's
    # loss is the plain (importance-weighted) sum of its step losses.
    per_example = batch.weight * (value_loss_weight * value.sum(axis=0) +
                                  reward_loss_weight * reward.sum(axis=0) +
                                  policy.sum(axis=0))
    self.assertAllClose(output.extra.per_example, per_example, atol=1e-5,
                        rtol=1e-5)
    self.assertAllClose(output.loss,
                        per_example.mean() + _np_l2(network, 1e-3),
                        atol=1e-5, rtol=1e-5)

  def test_reward_weight_scales_only_the_reward_heads_gradient(self):
    # The reward head is trained by the reward loss alone and the value and
    # policy heads never see it: weighting the reward term by 5 must multiply
    # the reward head's gradient by exactly 5 and leave the prediction
    # heads' gradients as they were.
    network, batch = self._network_and_batch(support_size=21)

    def gradients(reward_loss_weight):
      with tf.GradientTape() as tape:
        loss = losses.unrolled_loss(
            network, batch, weight_decay=0.,
            reward_loss_weight=reward_loss_weight).loss
      variables = network.trainable_variables
      return {v.name: g for v, g in
              zip(variables, tape.gradient(loss, variables))}

    base, weighted = gradients(1.0), gradients(5.0)
    reward_head = [n for n in base if '/reward_head/' in n]
    prediction_heads = [n for n in base
                        if '/value_head/' in n or '/policy_head/' in n]
    self.assertNotEmpty(reward_head)
    self.assertNotEmpty(prediction_heads)
    for name in reward_head:
      self.assertGreater(np.abs(base[name].numpy()).max(), 0., name)
      self.assertAllClose(weighted[name], 5. * base[name].numpy(),
                          atol=1e-6, rtol=1e-5, msg=name)
    for name in prediction_heads:
      self.assertAllClose(weighted[name], base[name], atol=1e-7, rtol=1e-6,
                          msg=name)
    # The torso of the dynamics feeds the reward: its gradient changes.
    torso = 'dynamics/torso/linear_0/w:0'
    self.assertGreater(
        np.abs(weighted[torso].numpy() - base[torso].numpy()).max(), 1e-6)

  def test_importance_weight_scales_only_its_example(self):
    network, batch = self._network_and_batch()
    base = losses.unrolled_loss(network, batch, 0.).extra.per_example.numpy()
    weight = batch.weight.copy()
    weight[2] *= 2.
    doubled = losses.unrolled_loss(network, batch._replace(weight=weight),
                                   0.).extra.per_example.numpy()
    self.assertAllClose(doubled[2], 2. * base[2], atol=1e-6, rtol=1e-6)
    others = [i for i in range(BATCH_SIZE) if i != 2]
    self.assertAllClose(doubled[others], base[others], atol=0., rtol=0.)
    ones = losses.unrolled_loss(
        network, batch._replace(weight=np.ones(BATCH_SIZE, np.float32)),
        0.).extra.per_example.numpy()
    self.assertAllClose(base, batch.weight * ones, atol=1e-6, rtol=1e-6)

  @parameterized.named_parameters(('scalar_heads', 0), ('support_heads', 21))
  def test_priority_is_root_value_error(self, support_size):
    network, batch = self._network_and_batch(support_size)
    root_value = network.initial_inference(batch.observation).value.numpy()
    output = losses.unrolled_loss(network, batch, 0.)
    self.assertAllClose(output.extra.priority,
                        np.abs(root_value - batch.target_value[:, 0]),
                        atol=1e-6, rtol=1e-6)

  def test_no_reward_loss_at_step_zero(self):
    network, batch = self._network_and_batch()
    base = losses.unrolled_loss(network, batch, 0.).extra
    target_reward = batch.target_reward.copy()
    target_reward[:, 0] += 1.5
    changed = losses.unrolled_loss(
        network, batch._replace(target_reward=target_reward), 0.).extra
    # target_reward[:, 0] is the reward of the first action: it is predicted
    # by recurrent step 1 and appears in reward_loss[0] only.
    self.assertAllEqual(changed.value_loss, base.value_loss)
    self.assertAllEqual(changed.policy_loss, base.policy_loss)
    self.assertAllEqual(changed.reward_loss[1:], base.reward_loss[1:])
    outputs = _unroll_eagerly(network, batch)
    expected = np.mean((outputs[1].reward.numpy() - target_reward[:, 0])**2)
    self.assertAllClose(changed.reward_loss[0], expected, atol=1e-5,
                        rtol=1e-5)
    self.assertNotAllClose(changed.reward_loss[0], base.reward_loss[0])

  def test_check_batch_wrong_unroll_length_names_num_unroll_steps(self):
    _, batch = self._network_and_batch()
    with self.assertRaisesRegex(ValueError, 'num_unroll_steps = 4'):
      losses.check_batch(batch, 2, num_unroll_steps=NUM_UNROLL_STEPS + 1)
    losses.check_batch(batch, 2, num_unroll_steps=NUM_UNROLL_STEPS)

  @parameterized.named_parameters(
      ('action_rank', 'action', lambda x: x[:, 0]),
      ('policy_width', 'target_policy',
       lambda x: np.concatenate([x, x[..., :1]], axis=-1)),
      ('value_length', 'target_value', lambda x: x[:, 1:]),
      ('reward_length', 'target_reward',
       lambda x: np.concatenate([x, x[:, :1]], axis=1)),
      ('mask_length', 'policy_mask', lambda x: x[:, 1:]),
      ('weight_rank', 'weight', lambda x: x[:, None, None]),
  )
  def test_bad_batch_names_the_field(self, field, corrupt):
    network, batch = self._network_and_batch()
    bad = batch._replace(**{field: corrupt(getattr(batch, field))})
    with self.assertRaisesRegex(ValueError, f'Batch.{field} '):
      losses.check_batch(bad, 2)
    with self.assertRaisesRegex(ValueError, f'Batch.{field} '):
      losses.unrolled_loss(network, bad, 0.)


if __name__ == '__main__':
  tf.test.main()
