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

A concrete function's call binds the arguments in Python, a large share of
a small program's call (a search's, a learner step's); the private
`ConcreteFunction._call_flat` takes the tensors as a flat list instead.
"""

from typing import Any, Callable, Dict, Tuple

import tensorflow as tf


def flat_caller(concrete: Any) -> Callable[..., Any]:
  """`call(*tensors)`, as `concrete(*tensors)` but without checking dtypes
  and shapes, for a concrete function whose arguments are all tensors (no
  Python values, no nests); `concrete` itself without the flat entry point.
  """
  call_flat = getattr(concrete, '_call_flat', None)
  if call_flat is None or not hasattr(concrete, 'captured_inputs'):
    return concrete

  def call(*tensors: tf.Tensor) -> Any:
    # The captures (the variables' handles) are read each call: a deferred
    # capture is a function evaluated then, as the public call does.
    return call_flat(list(tensors), concrete.captured_inputs)
  return call


class FlatFunction:
  """A `tf.function` called by flat call, one trace per argument signature.

  Nests of tensors (None leaves allowed) are keyed by their leaves' dtypes
  and shapes; anything else goes through the `tf.function`'s own call.
  """

  def __init__(self, function: Any):
    self._function = function
    self._calls: Dict[Tuple[Any, ...], Callable[..., Any]] = {}

  def __call__(self, *args: Any) -> Any:
    leaves = tf.nest.flatten(args)
    if not all(leaf is None or isinstance(leaf, tf.Tensor)
               for leaf in leaves):
      return self._function(*args)
    key = tuple(None if leaf is None else (leaf.dtype, tuple(leaf.shape))
                for leaf in leaves)
    call = self._calls.get(key)
    if call is None:
      concrete = self._function.get_concrete_function(*args)
      call = flat_caller(concrete)
      if call is concrete:  # No flat entry point: the public call.
        call = None
      self._calls[key] = call
    if call is None:
      return self._function(*args)
    return call(*[leaf for leaf in leaves if leaf is not None])

  @property
  def num_signatures(self) -> int:
    """How many argument signatures have been called."""
    return len(self._calls)
