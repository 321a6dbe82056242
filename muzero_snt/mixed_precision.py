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
"""bfloat16 compute with float32 variables, for the learner's forward pass.

Sonnet 2 has no dtype policy: inside `compute_dtype_scope` the float32
weights of `snt.Linear` and `snt.Conv2D` (nearly all the FLOPs) are cast on
read, differentiably; batch norm runs in float32 (`networks/tower.py`) and
outputs leave as float32, so the losses and `snt.scale_gradient` see float32.
"""

import contextlib
from typing import Iterator, Sequence

import sonnet as snt
import tensorflow as tf

from muzero_snt import types

COMPUTE_DTYPES = {'float32': tf.float32, 'bfloat16': tf.bfloat16}

# Modules whose weights are cast: the matmuls and convolutions.
_CAST_MODULES = (snt.Linear, snt.Conv2D)


def get_compute_dtype(name: str) -> tf.DType:
  """'float32' or 'bfloat16' -> the `tf.DType`; a `ValueError` otherwise."""
  if name not in COMPUTE_DTYPES:
    raise ValueError(f'Unknown compute dtype {name!r}; expected one of '
                     f'{sorted(COMPUTE_DTYPES)}.')
  return COMPUTE_DTYPES[name]


@contextlib.contextmanager
def compute_dtype_scope(dtype: tf.DType) -> Iterator[None]:
  """Linear and convolution weights are read as `dtype` inside the scope."""
  if dtype == tf.float32:
    yield
    return

  def cast(value):
    if isinstance(value, tf.Variable) and value.dtype == tf.float32:
      return tf.cast(value, dtype)
    return value

  with snt.custom_variable_getter(cast, classes=_CAST_MODULES):
    yield


class ComputeDtypeNetwork:
  """A `MuZeroNetwork` computing in `dtype`, with float32 inputs and outputs;
  its `trainable_variables` are the wrapped network's."""

  def __init__(self, network, dtype: tf.DType):
    if dtype not in COMPUTE_DTYPES.values():
      raise ValueError(f'Unsupported compute dtype {dtype!r}; expected one '
                       f'of {sorted(COMPUTE_DTYPES)}.')
    self._network = network
    self._dtype = dtype

  @property
  def num_actions(self) -> int:
    return self._network.num_actions

  @property
  def compute_dtype(self) -> tf.DType:
    return self._dtype

  @property
  def submodules(self) -> Sequence[snt.Module]:
    """The wrapped network's modules, for `board_conv.assembled_weights`."""
    return self._network.submodules

  @property
  def trainable_variables(self) -> Sequence[tf.Variable]:
    return self._network.trainable_variables

  def _run(self, method: str, inputs: tf.Tensor, *args):
    """The network's `method` on `inputs` cast to the compute dtype, with
    every output cast to float32."""
    with compute_dtype_scope(self._dtype):
      output = getattr(self._network, method)(
          tf.cast(inputs, self._dtype), *args)
    return tf.nest.map_structure(
        lambda x: None if x is None else tf.cast(x, tf.float32), output)

  def initial_inference(self, observation: tf.Tensor,
                        is_training: bool = False) -> types.NetworkOutput:
    return self._run('initial_inference', observation, is_training)

  def represent(self, observation: tf.Tensor,
                is_training: bool = False) -> tf.Tensor:
    return self._run('represent', observation, is_training)

  def project(self, hidden_state: tf.Tensor,
              with_head: bool = False) -> tf.Tensor:
    return self._run('project', hidden_state, with_head)

  def recurrent_inference(self, hidden_state: tf.Tensor, action: tf.Tensor,
                          is_training: bool = False) -> types.NetworkOutput:
    return self._run('recurrent_inference', hidden_state, action,
                     is_training)
