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
"""The pseudocode's `update_weights`, written out literally.

The learner of arXiv:1911.08265's pseudocode, line for line, run eagerly
on the same `MuZeroNetwork` as the compiled learner: a Python loop over the
batch's examples, `scale_gradient` where the pseudocode calls
`tf.scale_gradient` (never in TensorFlow; Sonnet's `snt.scale_gradient`),
and TF1's `MomentumOptimizer`. Slow on purpose: it is read next to the
pseudocode, and tests/test_reference.py proves the compiled learner
computes the same loss, gradients and update. Unlike the library
(docs/pseudocode.md) it sums over the batch, has no importance weights, and
pairs unroll step 0 with a reward target, which `pseudocode_batch` sets to
0 (as the initial inference's reward, so that term is 0 too).
"""

from typing import List, Sequence, Tuple

import numpy as np
import sonnet as snt
import tensorflow as tf

from muzero_snt import losses
from muzero_snt import types
from muzero_snt.networks import muzero_network

# The pseudocode's name for Sonnet's function.
scale_gradient = snt.scale_gradient
scalar_loss = losses.scalar_loss

Target = Tuple[float, float, np.ndarray]  # (value, reward, policy)
Example = Tuple[np.ndarray, List[int], List[Target]]


class PseudocodeNetwork:
  """A `MuZeroNetwork` seen one example at a time, as the pseudocode sees it.

  `initial_inference(image)` and `recurrent_inference(hidden_state, action)`
  return the pseudocode's 4-tuple for one example: value and reward are what
  `scalar_loss` takes (scalars, or logits over the support), and a hidden
  state keeps its batch axis of 1.
  """

  def __init__(self,
               network: muzero_network.MuZeroNetwork,
               is_training: bool = True):
    self._network = network
    self._is_training = is_training

  def _unbatch(self, output: types.NetworkOutput):
    value = output.value if output.value_logits is None else output.value_logits
    reward = (output.reward if output.reward_logits is None
              else output.reward_logits)
    return value[0], reward[0], output.policy_logits[0], output.hidden_state

  def initial_inference(self, image):
    return self._unbatch(self._network.initial_inference(
        tf.convert_to_tensor(image)[None], is_training=self._is_training))

  def recurrent_inference(self, hidden_state, action):
    return self._unbatch(self._network.recurrent_inference(
        hidden_state, tf.constant([action], tf.int32),
        is_training=self._is_training))

  def get_weights(self) -> Sequence[tf.Variable]:
    return self._network.get_weights()


def pseudocode_batch(batch: types.Batch) -> List[Example]:
  """A `Batch` as the pseudocode's list of `(image, actions, targets)`,
  without importance weights.

  `targets[k]` is `(value, reward, policy)` for unroll step k; the reward at
  step 0 is 0 and step k's reward is `batch.target_reward[:, k - 1]`; the
  policy of a masked position is empty, as the pseudocode's `make_target`
  leaves it past the end of the game.
  """
  observation = np.asarray(batch.observation)
  action = np.asarray(batch.action)
  target_value = np.asarray(batch.target_value, np.float32)
  target_reward = np.asarray(batch.target_reward, np.float32)
  target_policy = np.asarray(batch.target_policy, np.float32)
  policy_mask = np.asarray(batch.policy_mask)
  empty_policy = np.zeros([0], np.float32)
  examples = []
  for i in range(action.shape[0]):
    rewards = np.concatenate([[0.], target_reward[i]]).astype(np.float32)
    targets = [(target_value[i, k], rewards[k],
                target_policy[i, k] if policy_mask[i, k] else empty_policy)
               for k in range(action.shape[1] + 1)]
    examples.append((observation[i], [int(a) for a in action[i]], targets))
  return examples


def update_weights(optimizer: tf.compat.v1.train.Optimizer,
                   network: PseudocodeNetwork,
                   batch: List[Example],
                   weight_decay: float):
  """The pseudocode's `update_weights`, with e.g. a
  `tf.compat.v1.train.MomentumOptimizer(lr, 0.9)` and a `batch` from
  `pseudocode_batch`; returns the loss and the gradients as applied."""
  with tf.GradientTape() as tape:
    loss = 0
    for image, actions, targets in batch:
      # Initial step, from the real observation.
      value, reward, policy_logits, hidden_state = network.initial_inference(
          image)
      predictions = [(1.0, value, reward, policy_logits)]

      # Recurrent steps, from action and previous hidden state.
      for action in actions:
        value, reward, policy_logits, hidden_state = (
            network.recurrent_inference(hidden_state, action))
        predictions.append((1.0 / len(actions), value, reward, policy_logits))

        hidden_state = scale_gradient(hidden_state, 0.5)

      for prediction, target in zip(predictions, targets):
        gradient_scale, value, reward, policy_logits = prediction
        target_value, target_reward, target_policy = target

        l = (
            scalar_loss(value, target_value) +
            scalar_loss(reward, target_reward))
        # Past the end of the game the pseudocode's policy target is empty
        # and its loss undefined (docs/pseudocode.md, defect 5): no term.
        if len(target_policy):
          l += tf.nn.softmax_cross_entropy_with_logits(
              logits=policy_logits, labels=target_policy)

        loss += scale_gradient(l, gradient_scale)

    for weights in network.get_weights():
      loss += weight_decay * tf.nn.l2_loss(weights)

  # `optimizer.minimize(loss)`, with the gradients kept for the tests.
  weights = network.get_weights()
  gradients = tape.gradient(loss, weights)
  optimizer.apply_gradients(zip(gradients, weights))
  return loss, gradients
