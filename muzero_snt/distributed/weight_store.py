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
"""Weight publication: the learner's newest weights as NumPy arrays.

The learner puts the network's variables, as a list of NumPy arrays (no
pickled TensorFlow objects), into Ray's object store and hands the
reference to a `WeightStore` actor with a version number (the learner step).
Actors ask the store for the version between moves (at most every 0.05 s)
and fetch the arrays only when it is newer than theirs. The store keeps
only the newest reference, so older weights leave the object store once
no actor reads them.
"""

from typing import Any, List, Optional, Sequence, Tuple
import weakref

import numpy as np
import tensorflow as tf

# No weights published yet.
NO_VERSION = -1

class _Transfer:
  """A network's variables, read and written in one TensorFlow call each.

  Made once per network (its variables must all exist by then): Sonnet's
  `variables` walks the module tree at every access, and one eager read
  (assignment) per variable took 6 ms (9 ms) for the 109 variables of the
  tic-tac-toe network, where actors take weights after every move.
  """

  def __init__(self, network: tf.Module):
    self.variables = tuple(network.variables)
    self.dtypes = sorted({v.dtype for v in self.variables},
                         key=lambda d: d.name)
    self.read = tf.function(
        lambda: [tf.identity(v) for v in self.variables], autograph=False)
    self.write = tf.function(self._write, input_signature=[
        tf.TensorSpec([None], dtype) for dtype in self.dtypes],
        autograph=False)

  def _write(self, *flats):
    """Assigns the variables from one flat array per dtype in `dtypes`
    (their values in order, raveled and concatenated)."""
    for dtype, flat in zip(self.dtypes, flats):
      members = [v for v in self.variables if v.dtype == dtype]
      sizes = [v.shape.num_elements() for v in members]
      for variable, value in zip(members, tf.split(flat, sizes)):
        variable.assign(tf.reshape(value, variable.shape), read_value=False)

  def flats(self, arrays: Sequence[np.ndarray]) -> List[np.ndarray]:
    """The arrays as `_write` takes them."""
    return [np.concatenate([
        np.ravel(array).astype(dtype.as_numpy_dtype, copy=False)
        for v, array in zip(self.variables, arrays) if v.dtype == dtype])
            for dtype in self.dtypes]


_TRANSFERS: 'weakref.WeakKeyDictionary[tf.Module, _Transfer]' = (
    weakref.WeakKeyDictionary())


def _transfer(network: tf.Module) -> _Transfer:
  transfer = _TRANSFERS.get(network)
  if transfer is None:
    transfer = _TRANSFERS[network] = _Transfer(network)
  return transfer


def network_arrays(network: tf.Module) -> List[np.ndarray]:
  """Every variable of `network` (trainable and not), in its order, as
  NumPy arrays (copies), read in one TensorFlow call."""
  return [np.array(value) for value in _transfer(network).read()]


def assign_arrays(network: tf.Module, arrays: Sequence[np.ndarray]) -> None:
  """Sets `network`'s variables from `network_arrays` of an equal network,
  in one TensorFlow call.

  Raises:
    ValueError: if the number or a shape of the arrays does not match.
  """
  transfer = _transfer(network)
  variables = transfer.variables
  if len(arrays) != len(variables):
    raise ValueError(f'Got {len(arrays)} weight arrays for a network of '
                     f'{len(variables)} variables: another network config?')
  for variable, array in zip(variables, arrays):
    if tuple(variable.shape) != np.shape(array):
      raise ValueError(f'Weight array of shape {list(np.shape(array))} for '
                       f'variable {variable.name} of shape '
                       f'{variable.shape.as_list()}.')
  transfer.write(*transfer.flats(arrays))


class WeightStore:
  """Holds the newest published weights' reference and version (a Ray
  actor in `runner.py`)."""

  def __init__(self):
    self._version = NO_VERSION
    self._reference: Optional[Any] = None

  def publish(self, version: int, reference: List[Any]) -> int:
    """Takes `[ObjectRef]` of the arrays (in a list, so that Ray passes the
    reference, not the arrays); older or equal versions are ignored.

    Returns:
      The version held before (`NO_VERSION` in a store Ray restarted, which
      tells the learner that the store's process died).
    """
    held = self._version
    if version > self._version:
      self._version, self._reference = version, reference[0]
    return held

  def version(self) -> int:
    return self._version

  def latest(self) -> Tuple[int, List[Any]]:
    """(version, [ObjectRef]) of the newest weights; (NO_VERSION, [None])
    before the first publication."""
    return self._version, [self._reference]
