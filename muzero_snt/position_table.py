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
"""PositionTable: per-position columns of a window of games, one array each."""

from typing import Dict

import numpy as np


class PositionTable:
  """Named columns of rows appended at the back and dropped from the front.

  The replay buffer's row per stored position, gathered by index arrays.
  The arrays keep spare room (doubling, and compacting once half is
  dropped), so appending or dropping n rows costs amortised O(n) copies.
  """

  def __init__(self):
    self._arrays: Dict[str, np.ndarray] = {}
    self._start = 0  # First live row in the arrays.
    self._stop = 0  # One past the last live row.

  def __len__(self) -> int:
    return self._stop - self._start

  @property
  def names(self):
    """The columns' names, in the order of the first `append`."""
    return tuple(self._arrays)

  def column(self, name: str) -> np.ndarray:
    """`[len(self), ...]` the live rows of column `name` (a read-only view,
    valid until the next `append` or `drop_front`); a `KeyError` if unknown."""
    if name not in self._arrays:
      raise KeyError(f'No column {name!r}; the table has {self.names}.')
    view = self._arrays[name][self._start:self._stop]
    view.flags.writeable = False
    return view

  def append(self, **columns: np.ndarray) -> None:
    """Appends n rows: `[n, ...]` per column, every column of the table
    (the first call fixes their names, dtypes and row shapes). A `ValueError`
    if the columns differ from the table's, do not all have n rows, or a
    row's shape differs."""
    if not columns:
      raise ValueError('append needs at least one column.')
    arrays = {name: np.asarray(value) for name, value in columns.items()}
    for name, array in arrays.items():
      if array.ndim == 0:
        raise ValueError(f'Column {name!r} must be [n, ...] rows, got a '
                         'scalar.')
    counts = {len(array) for array in arrays.values()}
    if len(counts) != 1:
      raise ValueError('Every column must have the same number of rows, got '
                       + ', '.join(f'{name}: {len(array)}'
                                   for name, array in arrays.items()) + '.')
    if not self._arrays:
      self._arrays = {
          name: np.empty((0,) + array.shape[1:], array.dtype)
          for name, array in arrays.items()}
    if set(arrays) != set(self._arrays):
      raise ValueError(f'append expects the columns {sorted(self._arrays)}, '
                       f'got {sorted(arrays)}.')
    for name, array in arrays.items():
      row_shape = self._arrays[name].shape[1:]
      if array.shape[1:] != row_shape:
        raise ValueError(f'Column {name!r} has rows of shape '
                         f'{list(row_shape)}; got {list(array.shape[1:])}.')
    n = counts.pop()
    self._reserve(n)
    for name, array in arrays.items():
      self._arrays[name][self._stop:self._stop + n] = array
    self._stop += n

  def drop_front(self, n: int) -> None:
    """Drops the first n live rows (a `ValueError` if n < 0 or n > len)."""
    if not 0 <= n <= len(self):
      raise ValueError(f'drop_front({n}): expected 0 to {len(self)} rows.')
    self._start += n
    if self._start == self._stop:
      self._start = self._stop = 0

  def __getstate__(self):
    """The live rows alone: a pickled table carries no spare room."""
    return {name: array[self._start:self._stop]
            for name, array in self._arrays.items()}

  def __setstate__(self, state) -> None:
    # Copies: arrays unpickled from shared memory (Ray's object store) are
    # read-only, and `append` writes into them.
    self._arrays = {name: np.array(array, copy=True)
                    for name, array in state.items()}
    self._start = 0
    self._stop = len(next(iter(self._arrays.values()))) if self._arrays else 0

  def _reserve(self, n: int) -> None:
    """Room for n more rows after the live ones."""
    capacity = len(next(iter(self._arrays.values())))
    if self._stop + n <= capacity:
      return
    live = len(self)
    if live + n <= capacity // 2:
      # Room once the dropped rows are reclaimed: compact in place.
      for array in self._arrays.values():
        array[:live] = array[self._start:self._stop]
    else:
      new_capacity = max(2 * capacity, live + n, 16)
      for name, array in self._arrays.items():
        grown = np.empty((new_capacity,) + array.shape[1:], array.dtype)
        grown[:live] = array[self._start:self._stop]
        self._arrays[name] = grown
    self._start, self._stop = 0, live
