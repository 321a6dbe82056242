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
"""Fully connected networks: value heads, and the representation, dynamics
and prediction for vector observations (CartPole and the like).

The hidden state is a vector `[B, H]`; the dynamics sees the action as a
one-hot vector appended to it.
"""

from typing import Optional, Sequence, Tuple

import sonnet as snt
import tensorflow as tf

from muzero_snt.networks import hidden_state as hidden_state_lib
from muzero_snt.networks import tower


class ValueHead(snt.Module):
  """An MLP that ends in a scalar or in logits over a categorical support:
  the value head of the predictions and the reward head of the dynamics."""

  def __init__(self,
               hidden_sizes: Sequence[int],
               support_size: int,
               name: Optional[str] = None):
    """Constructs a `ValueHead`.

    Args:
      hidden_sizes: sizes of the hidden layers, each followed by a ReLU.
      support_size: 0 for a scalar output, else the number of atoms S.

    Raises:
      ValueError: if `support_size` is neither 0 nor an odd integer >= 3.
    """
    super().__init__(name=name)
    if support_size != 0 and (support_size < 3 or support_size % 2 == 0):
      raise ValueError('support_size must be 0 or an odd integer >= 3, got '
                       f'{support_size!r}.')
    self._support_size = support_size
    self._mlp = snt.nets.MLP(
        list(hidden_sizes) + [support_size or 1], name='mlp')

  def __call__(self, inputs: tf.Tensor) -> tf.Tensor:
    """`[B, D]` features -> `[B]` scalars, or `[B, S]` logits."""
    outputs = self._mlp(inputs)
    return outputs if self._support_size else tf.squeeze(outputs, axis=-1)


class MLPRepresentation(snt.Module):
  """h: observation -> hidden state, an MLP on the flattened observation."""

  def __init__(self,
               hidden_size: int,
               hidden_sizes: Sequence[int],
               name: Optional[str] = None):
    """Constructs an `MLPRepresentation`.

    Args:
      hidden_size: size H of the hidden state.
      hidden_sizes: sizes of the torso's hidden layers.
    """
    super().__init__(name=name)
    tower.check_positive('hidden_size', hidden_size)
    self._to_vector = snt.Flatten()
    self._torso = snt.nets.MLP(
        list(hidden_sizes) + [hidden_size], name='torso')

  def __call__(self, observation: tf.Tensor,
               is_training: bool = False) -> tf.Tensor:
    """`[B, ...]` observations -> `[B, H]` hidden states scaled to [0, 1]."""
    del is_training  # No batch statistics in an MLP.
    flat = self._to_vector(observation)
    return hidden_state_lib.scale_hidden_state(self._torso(flat))


class MLPDynamics(snt.Module):
  """g: (hidden state, action) -> (next hidden state, reward)."""

  def __init__(self,
               num_actions: int,
               hidden_size: int,
               hidden_sizes: Sequence[int],
               head_sizes: Sequence[int],
               reward_support_size: int = 0,
               name: Optional[str] = None):
    """Constructs an `MLPDynamics`.

    Args:
      num_actions: size A of the action space.
      hidden_size: size H of the hidden state.
      hidden_sizes: sizes of the torso's hidden layers.
      head_sizes: sizes of the reward head's hidden layers.
      reward_support_size: 0 for a scalar reward, else its number of atoms.
    """
    super().__init__(name=name)
    tower.check_positive('num_actions', num_actions)
    tower.check_positive('hidden_size', hidden_size)
    self._num_actions = num_actions
    self._torso = snt.nets.MLP(
        list(hidden_sizes) + [hidden_size], name='torso')
    self._reward_head = ValueHead(
        head_sizes, reward_support_size, name='reward_head')

  def __call__(self,
               hidden_state: tf.Tensor,
               action: tf.Tensor,
               is_training: bool = False) -> Tuple[tf.Tensor, tf.Tensor]:
    """`[B, H]` states, `[B]` actions -> next states scaled to [0, 1] and
    `[B]` rewards or `[B, S]` reward logits."""
    del is_training
    encoded = hidden_state_lib.one_hot_vector(action, self._num_actions,
                                              hidden_state.dtype)
    next_state = self._torso(tf.concat([hidden_state, encoded], axis=-1))
    reward = self._reward_head(next_state)
    return hidden_state_lib.scale_hidden_state(next_state), reward


class MLPPrediction(snt.Module):
  """f: hidden state -> (policy logits, value)."""

  def __init__(self,
               num_actions: int,
               hidden_sizes: Sequence[int],
               head_sizes: Sequence[int],
               value_support_size: int = 0,
               name: Optional[str] = None):
    """Constructs an `MLPPrediction`.

    Args:
      num_actions: size A of the action space.
      hidden_sizes: sizes of the shared torso's layers (may be empty).
      head_sizes: sizes of the hidden layers of each head.
      value_support_size: 0 for a scalar value, else its number of atoms.
    """
    super().__init__(name=name)
    tower.check_positive('num_actions', num_actions)
    self._torso = snt.nets.MLP(
        list(hidden_sizes), activate_final=True, name='torso')
    self._policy_head = snt.nets.MLP(
        list(head_sizes) + [num_actions], name='policy_head')
    self._value_head = ValueHead(
        head_sizes, value_support_size, name='value_head')

  def __call__(self,
               hidden_state: tf.Tensor,
               is_training: bool = False) -> Tuple[tf.Tensor, tf.Tensor]:
    """`[B, H]` -> `[B, A]` policy logits and `[B]` or `[B, S]` values."""
    del is_training
    features = self._torso(hidden_state)
    return self._policy_head(features), self._value_head(features)
