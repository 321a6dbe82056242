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
"""Calling a traced function on tensors without matching its arguments.

Calling a `tf.function`'s concrete function binds the arguments to its
signature in Python (the function type's binding, one `TensorSpec` cast per
argument) before the program runs: on this project's machines 50-200 us a
call, a fifth to a half of a one-root search (docs/benchmarks.md, "The
search's call"). A caller that builds the tensors itself, in the order,
dtypes and shapes of the signature, can skip that step and hand them to the
function as a flat list, as the concrete function does after binding.

That entry point (`ConcreteFunction._call_flat`) is not part of
TensorFlow's public API. `flat_caller` uses it where it exists and falls
back to the public call otherwise, so a TensorFlow without it is slower,
not wrong.
"""

from typing import Any, Callable, Optional, Sequence

import tensorflow as tf


def flat_caller(concrete: Any,
                structure: Optional[Sequence[Any]] = None) -> Callable[..., Any]:
  """A function calling `concrete` on its argument tensors, flattened.

  Args:
    concrete: a `tf.function`'s concrete function.
    structure: the positional arguments of `concrete`'s trace (nests of
      tensors, e.g. a `Batch` whose absent fields are None), or None if they
      are the tensors themselves. The flat tensors are the structure's
      tensors in `tf.nest.flatten` order, the None leaves left out; only
      the fallback packs them back.

  Returns:
    `call(*tensors)`, returning what `concrete` returns on the arguments
    the tensors flatten. The tensors must have the trace's dtypes and
    compatible shapes: unlike the public call, the fast path does not check
    them.
  """
  call_flat = getattr(concrete, '_call_flat', None)
  if call_flat is None or not hasattr(concrete, 'captured_inputs'):
    if structure is None:
      return concrete

    def public(*tensors: tf.Tensor) -> Any:
      remaining = iter(tensors)
      args = tf.nest.map_structure(
          lambda leaf: None if leaf is None else next(remaining),
          list(structure))
      return concrete(*args)
    return public

  def call(*tensors: tf.Tensor) -> Any:
    # The captures (the variables' handles) are read each call: a deferred
    # capture is a function evaluated then, as the public call does.
    return call_flat(list(tensors), concrete.captured_inputs)
  return call
