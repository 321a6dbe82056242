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
"""Output heads for values and rewards: a scalar, or logits over a support."""

from typing import Optional, Sequence

import sonnet as snt
import tensorflow as tf


class ValueHead(snt.Module):
  """An MLP that ends in a scalar or in logits over a categorical support.

  Used for the value (prediction) and the reward (dynamics) alike.
  """

  def __init__(self,
               hidden_sizes: Sequence[int],
               support_size: int,
               name: Optional[str] = None):
    """Constructs a `ValueHead`.

    Args:
      hidden_sizes: sizes of the hidden layers, each followed by a ReLU.
      support_size: 0 for a scalar output, else the number of atoms S.
      name: name of the module.

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
