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
"""Model: what the search calls, and NetworkModel around a MuZeroNetwork."""

from typing import Protocol, Tuple, runtime_checkable

import numpy as np
import tensorflow as tf

from muzero_snt import types
from muzero_snt.networks import muzero_network


@runtime_checkable
class Model(Protocol):
  """The pseudocode's `Network` as the search sees it: NumPy in, NumPy out.

  Both calls take and return batches. They return `types.NetworkOutput` of
  NumPy arrays: `value` `[B]`, `reward` `[B]` (zeros after
  `initial_inference`), `policy_logits` `[B, A]`, `hidden_state` `[B, ...]`;
  `value_logits` and `reward_logits` may be None.

  Perspectives (the library's two-player conventions): the value is for the
  player to move at the resulting state; the reward of `recurrent_inference`
  is for the player who took `action` (the player to move at `hidden_state`).
  """

  def initial_inference(self,
                        observation: np.ndarray) -> types.NetworkOutput:
    """Representation + prediction of `[B, *observation_shape]` inputs."""

  def recurrent_inference(self, hidden_state: np.ndarray,
                          action: np.ndarray) -> types.NetworkOutput:
    """Dynamics + prediction of `[B, ...]` states and `[B]` int actions."""


class NetworkModel:
  """A `Model` that runs a `MuZeroNetwork` in two compiled functions.

  Each inference is one `tf.function` with a batch-agnostic input signature
  (the batch dimension is None), traced once in the constructor, whatever
  the batch sizes later. The functions capture the network's variables, not
  their values: a learner that updates the same network in this process is
  seen by the next call, without copies and without retracing. Inference
  runs with `is_training=False` (batch norm uses its moving statistics).
  """

  def __init__(self, network: muzero_network.MuZeroNetwork):
    """Creates the model and traces both inference functions.

    Args:
      network: the network to run. Its variables are created here (eagerly)
        if they do not exist yet, before tracing.

    Raises:
      TypeError: if `network` is not a `MuZeroNetwork`.
    """
    if not isinstance(network, muzero_network.MuZeroNetwork):
      raise TypeError(f'NetworkModel expects a MuZeroNetwork, got '
                      f'{type(network).__name__}.')
    self._network = network
    # Every variable must exist before tracing, or the first trace creates
    # them and tf.function traces again. The eager pass runs with
    # is_training=False: it changes no variable of a built network.
    network.create_variables()
    observation_spec = tf.TensorSpec(
        (None,) + tuple(network.observation_shape), tf.float32,
        name='observation')
    self._initial_inference = tf.function(
        self._initial, input_signature=[observation_spec], autograph=False)
    initial = self._initial_inference.get_concrete_function()
    hidden_state_shape = initial.structured_outputs.hidden_state.shape[1:]
    hidden_state_spec = tf.TensorSpec(
        [None] + hidden_state_shape.as_list(), tf.float32, name='hidden_state')
    action_spec = tf.TensorSpec([None], tf.int32, name='action')
    self._recurrent_inference = tf.function(
        self._recurrent, input_signature=[hidden_state_spec, action_spec],
        autograph=False)
    self._recurrent_inference.get_concrete_function()

  @property
  def network(self) -> muzero_network.MuZeroNetwork:
    """The wrapped network."""
    return self._network

  @property
  def tracing_counts(self) -> Tuple[int, int]:
    """How often (initial, recurrent) inference has been traced: (1, 1)."""
    return (self._initial_inference.experimental_get_tracing_count(),
            self._recurrent_inference.experimental_get_tracing_count())

  def _initial(self, observation: tf.Tensor) -> types.NetworkOutput:
    output = self._network.initial_inference(observation)
    return _search_fields(output)

  def _recurrent(self, hidden_state: tf.Tensor,
                 action: tf.Tensor) -> types.NetworkOutput:
    output = self._network.recurrent_inference(hidden_state, action)
    return _search_fields(output)

  def initial_inference(self,
                        observation: np.ndarray) -> types.NetworkOutput:
    """Representation + prediction.

    Args:
      observation: `[B, *observation_shape]` observations.

    Returns:
      `NetworkOutput` of float32 NumPy arrays: `value` `[B]`, `reward` `[B]`
      (zeros), `policy_logits` `[B, A]`, `hidden_state` `[B, ...]`; the
      logits fields are None.
    """
    observation = np.asarray(observation, np.float32)
    return _to_numpy(self._initial_inference(observation))

  def recurrent_inference(self, hidden_state: np.ndarray,
                          action: np.ndarray) -> types.NetworkOutput:
    """Dynamics + prediction.

    Args:
      hidden_state: `[B, ...]` hidden states.
      action: `[B]` integer actions in [0, A).

    Returns:
      `NetworkOutput` of float32 NumPy arrays, as `initial_inference`.
    """
    hidden_state = np.asarray(hidden_state, np.float32)
    action = np.asarray(action, np.int32)
    return _to_numpy(self._recurrent_inference(hidden_state, action))


def _search_fields(output: types.NetworkOutput) -> types.NetworkOutput:
  """The four fields the search reads, as float32 (no logits)."""
  return types.NetworkOutput(
      value=tf.cast(output.value, tf.float32),
      reward=tf.cast(output.reward, tf.float32),
      policy_logits=tf.cast(output.policy_logits, tf.float32),
      hidden_state=tf.cast(output.hidden_state, tf.float32))


def _to_numpy(output: types.NetworkOutput) -> types.NetworkOutput:
  return types.NetworkOutput(
      value=output.value.numpy(),
      reward=output.reward.numpy(),
      policy_logits=output.policy_logits.numpy(),
      hidden_state=output.hidden_state.numpy())
