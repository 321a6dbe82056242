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
"""Types that cross module boundaries: network outputs, batches, losses."""

from typing import NamedTuple, Optional, Union

import numpy as np
import tensorflow as tf

Array = Union[np.ndarray, tf.Tensor]


class NetworkOutput(NamedTuple):
  """What `initial_inference` and `recurrent_inference` return: the
  pseudocode's `NetworkOutput`, then the categorical heads' logits for the
  loss (appendix F).

  Attributes:
    value: `[B]` predicted value.
    reward: `[B]` predicted reward; zeros for the initial step.
    policy_logits: `[B, A]` policy logits.
    hidden_state: `[B, ...]` the next hidden state, min-max normalised.
    value_logits: `[B, S]` logits over the value support, or `None`.
    reward_logits: `[B, S]` logits over the reward support, or `None` (also
      after `initial_inference`).
  """
  value: tf.Tensor
  reward: tf.Tensor
  policy_logits: tf.Tensor
  hidden_state: tf.Tensor
  value_logits: Optional[tf.Tensor] = None
  reward_logits: Optional[tf.Tensor] = None


class Batch(NamedTuple):
  """A batch of K-step training windows, the learner's input.

  Step 0 is the real observation; step k follows the k-th action, whose
  reward is `target_reward[:, k-1]` (docs/pseudocode.md, defect 4).

  Attributes:
    observation: `[B, *observation_shape]` the observation at step 0.
    action: `[B, K]` int32 actions taken at steps 0..K-1.
    target_value: `[B, K+1]` value targets (0 past the end of the game).
    target_reward: `[B, K]` reward targets (0 past the end of the game).
    target_policy: `[B, K+1, A]` search visit distributions (0 where masked).
    policy_mask: `[B, K+1]` 1 inside the game, 0 past its end.
    weight: `[B]` importance-sampling weights (1 for uniform replay).
    next_observation: `[B, K, *observation_shape]` the real observations at
      steps 1..K (zeros past the end), for the consistency loss; else None.
  """
  observation: Array
  action: Array
  target_value: Array
  target_reward: Array
  target_policy: Array
  policy_mask: Array
  weight: Array
  next_observation: Optional[Array] = None


class LossExtra(NamedTuple):
  """Parts of the unrolled loss, for logging and prioritised replay.

  Attributes:
    per_example: `[B]` each example's importance-weighted data loss.
    regularization: `[]` the L2 weight-decay term.
    value_loss: `[K+1]` batch-mean value loss per unroll step.
    reward_loss: `[K]` batch-mean reward loss per recurrent step.
    policy_loss: `[K+1]` batch-mean policy loss per unroll step.
    priority: `[B]` |predicted root value - value target at step 0|.
    consistency_loss: `[K]` batch-mean consistency loss per recurrent step,
      or None when it is off.
  """
  per_example: tf.Tensor
  regularization: tf.Tensor
  value_loss: tf.Tensor
  reward_loss: tf.Tensor
  policy_loss: tf.Tensor
  priority: tf.Tensor
  consistency_loss: Optional[tf.Tensor] = None


class LossOutput(NamedTuple):
  """`[]` `loss` = mean of `extra.per_example` + regularization; its parts."""
  loss: tf.Tensor
  extra: LossExtra
