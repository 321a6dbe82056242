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
"""The projection of hidden states for the consistency loss: EfficientZero's
SimSiam-style projection and prediction head (Ye et al. 2021,
arXiv:2111.00210, section 4.1), with layer norm in batch norm's place (it
keeps no statistics to make replica-local under `tf.distribute`)."""

from typing import Optional

import sonnet as snt
import tensorflow as tf


class Projection(snt.Module):
  """Projects hidden states `[B, ...]` to vectors `[B, projection_size]`."""

  def __init__(self,
               hidden_size: int,
               projection_size: int,
               head_hidden_size: int,
               name: Optional[str] = None):
    """`hidden_size` is the width of the projection's two hidden layers,
    `head_hidden_size` that of the prediction head's one, `projection_size`
    the size of the projection and of the head's output."""
    super().__init__(name=name)
    self.projection_size = projection_size
    self._to_vector = snt.Flatten()
    self._projection = [
        snt.Linear(size, name=f'projection_{i}') for i, size in enumerate(
            (hidden_size, hidden_size, projection_size), start=1)
    ]
    self._projection_norms = [
        snt.LayerNorm(-1, create_scale=True, create_offset=True,
                      name=f'projection_norm_{i}') for i in (1, 2, 3)
    ]
    self._head = [
        snt.Linear(head_hidden_size, name='head_1'),
        snt.Linear(projection_size, name='head_2'),
    ]
    self._head_norm = snt.LayerNorm(-1, create_scale=True, create_offset=True,
                                    name='head_norm')

  def __call__(self, hidden_state: tf.Tensor,
               with_head: bool = False) -> tf.Tensor:
    """`[B, ...]` hidden states -> `[B, projection_size]`; `with_head` for
    the online branch (the dynamics' prediction), not the target's."""
    x = self._to_vector(hidden_state)
    dtype = x.dtype
    for i, (linear, norm) in enumerate(
        zip(self._projection, self._projection_norms)):
      x = _normalized(norm, linear(x), dtype)
      if i < 2:
        x = tf.nn.relu(x)
    if with_head:
      x = tf.nn.relu(_normalized(self._head_norm, self._head[0](x), dtype))
      x = self._head[1](x)
    return x


def _normalized(norm: snt.LayerNorm, x: tf.Tensor,
                dtype: tf.DType) -> tf.Tensor:
  """`norm(x)` in float32, its variables' dtype, returned in `dtype`."""
  return tf.cast(norm(tf.cast(x, tf.float32)), dtype)
