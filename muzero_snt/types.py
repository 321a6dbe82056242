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
  loss (appendix F), None for a scalar head (and initial reward)."""
  value: tf.Tensor  # [B]
  reward: tf.Tensor  # [B], zeros for the initial step.
  policy_logits: tf.Tensor  # [B, A]
  hidden_state: tf.Tensor  # [B, ...] the next hidden state, min-max normalised.
  value_logits: Optional[tf.Tensor] = None  # [B, S]
  reward_logits: Optional[tf.Tensor] = None  # [B, S]


class Batch(NamedTuple):
  """A batch of K-step training windows, the learner's input.

  Step 0 is the real observation; step k follows the k-th action, whose
  reward is `target_reward[:, k-1]` (docs/pseudocode.md, defect 4). Past
  the end of the game targets are 0.
  """
  observation: Array  # [B, *observation_shape] at step 0.
  action: Array  # [B, K] int32 actions taken at steps 0..K-1.
  target_value: Array  # [B, K+1]
  target_reward: Array  # [B, K]
  target_policy: Array  # [B, K+1, A] the search's visit distributions.
  policy_mask: Array  # [B, K+1] 1 inside the game, 0 past its end.
  weight: Array  # [B] importance-sampling weights (1 for uniform replay).
  # [B, K, *observation_shape] the real observations at steps 1..K (zeros
  # past the end), for the consistency loss; else None.
  next_observation: Optional[Array] = None


class LossExtra(NamedTuple):
  """Parts of the unrolled loss, for logging and prioritised replay; the
  per-step losses are batch means."""
  per_example: tf.Tensor  # [B] each importance-weighted data loss.
  regularization: tf.Tensor  # [] the L2 weight-decay term.
  value_loss: tf.Tensor  # [K+1] per unroll step.
  reward_loss: tf.Tensor  # [K] per recurrent step.
  policy_loss: tf.Tensor  # [K+1] per unroll step.
  priority: tf.Tensor  # [B] |predicted root value - value target at step 0|.
  consistency_loss: Optional[tf.Tensor] = None  # [K]; None when it is off.


class LossOutput(NamedTuple):
  """`[]` `loss` = mean of `extra.per_example` + regularization; its parts."""
  loss: tf.Tensor
  extra: LossExtra
