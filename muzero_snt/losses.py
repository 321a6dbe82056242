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
"""MuZero's losses: scalar_loss, the policy loss and the unrolled loss.

Section 3 and appendix G of arXiv:1911.08265; the pseudocode's
`update_weights` batched (`reference.py` has the literal loop).
"""

from typing import Optional

import sonnet as snt
import tensorflow as tf

from muzero_snt import types
from muzero_snt import value_transforms
from muzero_snt.networks import board_conv
from muzero_snt.networks import muzero_network

# The pseudocode's two gradient scales (see docs/pseudocode.md).
HIDDEN_STATE_GRADIENT_SCALE = 0.5


def scalar_loss(prediction: tf.Tensor, target: tf.Tensor) -> tf.Tensor:
  """The pseudocode's `scalar_loss`: `[...]` squared errors of `[...]` scalar
  predictions, or cross entropies of `[..., S]` logits against
  `scalar_to_support(target)`, for `[...]` untransformed targets.

  Raises:
    ValueError: if the shapes fit neither case, or S is not odd and >= 3.
  """
  prediction = tf.cast(prediction, tf.float32)
  target = tf.cast(target, tf.float32)
  if prediction.shape.rank == target.shape.rank:
    if not prediction.shape.is_compatible_with(target.shape):
      raise ValueError(f'scalar_loss: prediction shape {prediction.shape} '
                       f'does not match target shape {target.shape}.')
    return tf.square(prediction - target)
  if prediction.shape.rank == target.shape.rank + 1:
    if not prediction.shape[:-1].is_compatible_with(target.shape):
      raise ValueError(f'scalar_loss: logits of shape {prediction.shape} do '
                       f'not fit targets of shape {target.shape}.')
    target_probs = value_transforms.scalar_to_support(
        target, prediction.shape[-1])
    return tf.nn.softmax_cross_entropy_with_logits(
        labels=target_probs, logits=prediction)
  raise ValueError(
      'scalar_loss expects a prediction of the target\'s shape (scalar head) '
      'or with one more axis of support logits, got prediction shape '
      f'{prediction.shape} and target shape {target.shape}.')


def policy_loss(policy_logits: tf.Tensor, target_policy: tf.Tensor,
                mask: tf.Tensor) -> tf.Tensor:
  """`[...]` cross entropies of `[..., A]` logits against the search's
  visit distributions, zero where the `[...]` mask is 0 (past the end).
  Not `tf.nn.softmax_cross_entropy_with_logits`: its gradient assumes the
  target sums to 1, so an absorbing state's zero target would get a loss of
  0 with a non-zero gradient."""
  log_policy = tf.nn.log_softmax(tf.cast(policy_logits, tf.float32), axis=-1)
  loss = -tf.reduce_sum(tf.cast(target_policy, tf.float32) * log_policy, -1)
  return loss * tf.cast(mask, tf.float32)


def consistency_loss(prediction: tf.Tensor, target: tf.Tensor,
                     mask: tf.Tensor) -> tf.Tensor:
  """EfficientZero's consistency loss: `[...]` -<p / |p|, t / |t|> of
  `[..., D]` projections of the dynamics' hidden states p and of the real
  observations' states t (no gradient into t); 0 where `mask` is 0."""
  prediction = tf.math.l2_normalize(tf.cast(prediction, tf.float32), -1)
  target = tf.math.l2_normalize(
      tf.stop_gradient(tf.cast(target, tf.float32)), -1)
  return -tf.reduce_sum(prediction * target, -1) * tf.cast(mask, tf.float32)


def l2_regularization(network: snt.Module, weight_decay: float) -> tf.Tensor:
  """`weight_decay * sum(l2_loss(w))` over the trainable variables."""
  return weight_decay * tf.add_n(
      [tf.nn.l2_loss(tf.cast(w, tf.float32))
       for w in network.trainable_variables])


def check_batch(batch: types.Batch,
                num_actions: int,
                num_unroll_steps: Optional[int] = None) -> None:
  """Raises a `ValueError` naming the field if `batch` is not a K-step batch
  of A = `num_actions` (K = `num_unroll_steps`, None: `batch.action`'s);
  static shapes only, so free inside a `tf.function`."""
  action_shape = tf.TensorShape(batch.action.shape)
  if action_shape.rank != 2:
    raise ValueError('Batch.action must be [B, K], got shape '
                     f'{action_shape.as_list()}.')
  if num_unroll_steps is not None and action_shape[1] != num_unroll_steps:
    raise ValueError(
        f'Batch.action must be [B, K] with K = num_unroll_steps = '
        f'{num_unroll_steps}, got shape {action_shape.as_list()}.')
  b, k = action_shape
  expected = {
      'target_value': [b, k + 1],
      'target_reward': [b, k],
      'target_policy': [b, k + 1, num_actions],
      'policy_mask': [b, k + 1],
      'weight': [b],
  }
  if batch.next_observation is not None:
    observation_shape = tf.TensorShape(batch.observation.shape)[1:]
    expected['next_observation'] = [b, k] + observation_shape.as_list()
  for field, shape in expected.items():
    actual = tf.TensorShape(getattr(batch, field).shape)
    if not actual.is_compatible_with(shape):
      raise ValueError(f'Batch.{field} must have shape {shape} (B = {b}, '
                       f'K = {k}, A = {num_actions}), got '
                       f'{actual.as_list()}.')


def unrolled_loss(network: muzero_network.MuZeroNetwork,
                  batch: types.Batch,
                  weight_decay: float,
                  value_loss_weight: float = 1.0,
                  reward_loss_weight: float = 1.0,
                  is_training: bool = True,
                  consistency_loss_weight: float = 0.0) -> types.LossOutput:
  """The MuZero loss of `update_weights`, over a whole batch at once.

  As the pseudocode, the gradient into each next hidden state is halved and
  each recurrent step's loss gradient scaled by 1/K. Deviations, each in
  docs/pseudocode.md: step 0 has no reward loss; policies past the end are
  masked; losses are importance-weighted; the batch is averaged, not summed.

  Args:
    batch: a `Batch` of B K-step windows.
    weight_decay: coefficient of the L2 term.
    value_loss_weight: weight of the value loss (0.25 with Reanalyze).
    reward_loss_weight: weight of each recurrent step's reward loss.
    is_training: whether batch norm uses and updates batch statistics.
    consistency_loss_weight: weight of `consistency_loss` against
      `batch.next_observation` (0, the paper's loss, computes none of it).

  Returns:
    `LossOutput`, whose `extra` lets a distributed learner reduce itself.

  Raises:
    ValueError: if the batch's shapes do not fit the network, or the
      consistency loss is asked of a batch without `next_observation`.
  """
  check_batch(batch, network.num_actions)
  if consistency_loss_weight and batch.next_observation is None:
    raise ValueError(
        f'consistency_loss_weight {consistency_loss_weight} needs '
        'Batch.next_observation (a replay of a config with '
        'consistency_loss_weight > 0 samples it); the batch has None.')
  action = tf.convert_to_tensor(batch.action)  # [B, K]
  num_unroll_steps = action.shape[1]
  target_value = tf.cast(batch.target_value, tf.float32)  # [B, K+1]
  target_reward = tf.cast(batch.target_reward, tf.float32)  # [B, K]
  target_policy = tf.cast(batch.target_policy, tf.float32)  # [B, K+1, A]
  policy_mask = tf.cast(batch.policy_mask, tf.float32)  # [B, K+1]

  # Initial step, from the real observation.
  output = network.initial_inference(batch.observation, is_training=is_training)
  root_value = output.value
  predictions = [(1.0, output)]
  hidden_state = output.hidden_state
  recurrent_states = []

  # Recurrent steps; small boards' matmul weights are made once for all K.
  with board_conv.assembled_weights(
      network, hidden_state.shape,
      getattr(network, 'compute_dtype', hidden_state.dtype)):
    for k in range(num_unroll_steps):
      output = network.recurrent_inference(
          hidden_state, action[:, k], is_training=is_training)
      predictions.append((1.0 / num_unroll_steps, output))
      recurrent_states.append(output.hidden_state)
      hidden_state = snt.scale_gradient(output.hidden_state,
                                        HIDDEN_STATE_GRADIENT_SCALE)

  # The K + 1 steps' losses at once, then the pseudocode's loop over the
  # steps for its one scale_gradient per step.
  outputs = [prediction for _, prediction in predictions]
  value_loss = scalar_loss(
      tf.stack([o.value if o.value_logits is None else o.value_logits
                for o in outputs], axis=1), target_value)  # [B, K+1]
  step_policy_loss = policy_loss(
      tf.stack([o.policy_logits for o in outputs], axis=1), target_policy,
      policy_mask)  # [B, K+1]
  reward_loss = scalar_loss(
      tf.stack([o.reward if o.reward_logits is None else o.reward_logits
                for o in outputs[1:]], axis=1), target_reward)  # [B, K]
  step_loss = value_loss_weight * value_loss + step_policy_loss
  step_consistency = None
  if consistency_loss_weight:
    step_consistency = _unrolled_consistency(
        network, batch.next_observation, recurrent_states,
        policy_mask[:, 1:], is_training)  # [B, K]
  per_example = 0.
  for k, (gradient_scale, _) in enumerate(predictions):
    l = step_loss[:, k]
    if k > 0:
      l += reward_loss_weight * reward_loss[:, k - 1]
      if step_consistency is not None:
        l += consistency_loss_weight * step_consistency[:, k - 1]
    per_example += snt.scale_gradient(l, gradient_scale)

  per_example *= tf.cast(batch.weight, tf.float32)  # [B]
  regularization = l2_regularization(network, weight_decay)
  priority = tf.abs(tf.stop_gradient(tf.cast(root_value, tf.float32)) -
                    target_value[:, 0])  # [B]
  extra = types.LossExtra(
      per_example=per_example,
      regularization=regularization,
      value_loss=tf.reduce_mean(value_loss, axis=0),
      reward_loss=tf.reduce_mean(reward_loss, axis=0),
      policy_loss=tf.reduce_mean(step_policy_loss, axis=0),
      priority=priority,
      consistency_loss=(None if step_consistency is None else
                        tf.reduce_mean(step_consistency, axis=0)))
  return types.LossOutput(
      loss=tf.reduce_mean(per_example) + regularization, extra=extra)


def _unrolled_consistency(network, next_observation, recurrent_states,
                          mask: tf.Tensor, is_training: bool) -> tf.Tensor:
  """`[B, K]` consistency losses of the K recurrent steps, as B * K rows."""
  next_observation = tf.convert_to_tensor(next_observation)
  num_steps = len(recurrent_states)
  observation_shape = next_observation.shape[2:].as_list()
  batch_size = tf.shape(next_observation)[0]
  # Step-major rows (k, b), as the hidden states are concatenated.
  observations = tf.reshape(
      tf.transpose(next_observation,
                   [1, 0] + list(range(2, 2 + len(observation_shape)))),
      [-1] + observation_shape)
  target = network.project(
      network.represent(observations, is_training=is_training),
      with_head=False)
  prediction = network.project(
      tf.concat(recurrent_states, axis=0), with_head=True)
  size = prediction.shape[-1]
  target = tf.transpose(tf.reshape(target, [num_steps, batch_size, size]),
                        [1, 0, 2])
  prediction = tf.transpose(
      tf.reshape(prediction, [num_steps, batch_size, size]), [1, 0, 2])
  return consistency_loss(prediction, target, mask)
