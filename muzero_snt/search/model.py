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
"""Model: what the reference search calls; NetworkModel runs a MuZeroNetwork."""

from typing import Protocol, Tuple, runtime_checkable

import numpy as np
import tensorflow as tf

from muzero_snt import types
from muzero_snt.networks import muzero_network


@runtime_checkable
class Model(Protocol):
  """The pseudocode's `Network` as the search sees it: batches of NumPy
  arrays in, `types.NetworkOutput` of NumPy arrays out. The value is for the
  player to move at the resulting state, the reward for the one who moved."""

  def initial_inference(self,
                        observation: np.ndarray) -> types.NetworkOutput:
    """Representation + prediction of `[B, *observation_shape]` inputs."""

  def recurrent_inference(self, hidden_state: np.ndarray,
                          action: np.ndarray) -> types.NetworkOutput:
    """Dynamics + prediction of `[B, ...]` states and `[B]` int actions."""


class NetworkModel:
  """A `Model` running a `MuZeroNetwork` in two batch-agnostic tf.functions,
  traced once here; they read the network's variables at each call, so a
  learner updating the same network is seen by the next call."""

  def __init__(self, network: muzero_network.MuZeroNetwork):
    """Raises TypeError if `network` is not a `MuZeroNetwork`."""
    if not isinstance(network, muzero_network.MuZeroNetwork):
      raise TypeError(f'NetworkModel expects a MuZeroNetwork, got '
                      f'{type(network).__name__}.')
    # Variables made eagerly, or the first trace would make them and retrace.
    network.create_variables()
    observation_spec = tf.TensorSpec(
        (None,) + tuple(network.observation_shape), tf.float32)
    self._initial_inference = tf.function(
        lambda o: _search_fields(network.initial_inference(o)),
        input_signature=[observation_spec], autograph=False)
    initial = self._initial_inference.get_concrete_function()
    hidden_state_shape = initial.structured_outputs.hidden_state.shape[1:]
    self._recurrent_inference = tf.function(
        lambda h, a: _search_fields(network.recurrent_inference(h, a)),
        input_signature=[
            tf.TensorSpec([None] + hidden_state_shape.as_list(), tf.float32),
            tf.TensorSpec([None], tf.int32)], autograph=False)
    self._recurrent_inference.get_concrete_function()

  @property
  def tracing_counts(self) -> Tuple[int, int]:
    """How often (initial, recurrent) inference has been traced: (1, 1)."""
    return (self._initial_inference.experimental_get_tracing_count(),
            self._recurrent_inference.experimental_get_tracing_count())

  def initial_inference(self,
                        observation: np.ndarray) -> types.NetworkOutput:
    """`NetworkOutput` of float32 arrays (no logits) of `[B, ...]` inputs."""
    return _to_numpy(self._initial_inference(
        np.asarray(observation, np.float32)))

  def recurrent_inference(self, hidden_state: np.ndarray,
                          action: np.ndarray) -> types.NetworkOutput:
    return _to_numpy(self._recurrent_inference(
        np.asarray(hidden_state, np.float32), np.asarray(action, np.int32)))


def _search_fields(output: types.NetworkOutput) -> types.NetworkOutput:
  """The four fields the search reads, as float32."""
  return types.NetworkOutput(*(tf.cast(x, tf.float32) for x in output[:4]))


def _to_numpy(output: types.NetworkOutput) -> types.NetworkOutput:
  return types.NetworkOutput(*(x.numpy() for x in output[:4]))
