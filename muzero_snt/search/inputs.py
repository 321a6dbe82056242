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
"""The checks of a search's NumPy inputs, shared by both searches.

`ReferenceSearch` and `CompiledSearch` read their inputs through
`check_inputs`, so that they accept the same forms and refuse the same
misuse with the same message. The rules:

Observations: `[B, *observation_shape]`, every entry finite. A floating
array (float16, float32, float64: what `np.zeros` and Python floats give)
is cast to float32, which only rounds; any other dtype (uint8 frames,
integer boards, bools) is refused, since the network was trained on the
environment's float32 observations and a cast would hide, e.g., frames not
scaled to [0, 1].

Players: B integers (Python or NumPy ints) in [0, num_players). Bools and
floats are refused, integral floats such as 1.0 included: a float player
is a value from somewhere else.

Legal actions, in one of two forms:

* a mask: a `[B, A]` `np.ndarray` of dtype bool, or of an integer dtype
  whose entries are all 0 or 1 (OpenSpiel's `legal_actions_mask()` rows
  stacked by `np.array`), row b true at the legal actions of position b;
* indices: B rows of distinct action indices in [0, A), each a 1-D integer
  `np.ndarray` (what `Environment.legal_actions()` returns) or a list or
  tuple of Python or NumPy ints; a 2-D integer array that is not a mask is
  read as such rows.

A row of A zeros and ones reads both ways, so it is refused unless its form
says which it is: as a list or tuple it is refused whatever its type (pass
masks as a bool `np.ndarray`, indices as an integer `np.ndarray`), and in an
integer `[B, A]` array it is refused when it is also valid as indices
(A <= 2: the row [0, 1] is every action as indices, action 1 as a mask).
Bools in a row of indices, float indices (integral ones included) and
repeated actions are refused. Every position needs a legal action.
"""

from typing import NamedTuple, Optional, Sequence

import numpy as np

from muzero_snt import config as config_lib


class SearchInputs(NamedTuple):
  """A search's inputs after `check_inputs`.

  Attributes:
    observation: `[B, *observation_shape]` float32, finite.
    to_play: `[B]` int32 players in [0, num_players).
    legal: `[B, A]` bool, each row with at least one legal action.
  """
  observation: np.ndarray
  to_play: np.ndarray
  legal: np.ndarray


def _as_int(value) -> Optional[int]:
  """`value` as a Python int if it is an integer scalar (not a bool)."""
  if isinstance(value, (bool, np.bool_)):
    return None
  if isinstance(value, (int, np.integer)):
    return int(value)
  if (isinstance(value, np.ndarray) and value.shape == () and
      np.issubdtype(value.dtype, np.integer)):
    return int(value)
  return None


def _kind(value) -> str:
  """`value`'s type for messages: 'a bool', 'a float', 'of type str'..."""
  if isinstance(value, (bool, np.bool_)):
    return 'a bool'
  if isinstance(value, (float, np.floating)):
    return 'a float'
  return f'of type {type(value).__name__}'


def _first_non_finite(array: np.ndarray) -> tuple:
  """The index of `array`'s first non-finite entry (row-major order)."""
  return tuple(np.argwhere(~np.isfinite(array))[0].tolist())


def check_observations(observations,
                       observation_shape: Sequence[int]) -> np.ndarray:
  """`[B, *observation_shape]` float32 observations, finite; see the module.

  Args:
    observations: `[B, *observation_shape]` array (or nested sequence) of
      floats, B > 0.
    observation_shape: the configuration's observation shape.

  Returns:
    The observations as a float32 array.

  Raises:
    TypeError: if the observations are not floating point.
    ValueError: if their shape is not `[B, *observation_shape]` with B > 0,
      or an entry is NaN or infinite (naming the row and the index).
  """
  shape_text = ', '.join(str(n) for n in observation_shape)
  try:
    given = np.asarray(observations)
  except ValueError as error:  # A ragged nested sequence.
    raise ValueError(f'observations must have shape [B, {shape_text}]: '
                     f'{error}') from None
  if not np.issubdtype(given.dtype, np.floating):
    raise TypeError(
        f'observations must be float32 (floating arrays are cast to it), '
        f'got dtype {given.dtype.name}; convert them as the environment '
        'does for training, e.g. np.asarray(x, np.float32), scaled as its '
        'observations are (uint8 frames to [0, 1]).')
  batch_size = given.shape[0] if given.ndim else 0
  expected = (batch_size,) + tuple(observation_shape)
  if given.shape != expected or not batch_size:
    raise ValueError(f'observations must have shape [B, {shape_text}] with '
                     f'B > 0, got {list(given.shape)}.')
  with np.errstate(over='ignore'):  # Reported below, with the value.
    observation = given.astype(np.float32, copy=False)
  if not np.all(np.isfinite(observation)):
    index = _first_non_finite(observation)
    value = float(given[index])
    where = f'observations[{index[0]}]'
    if np.isfinite(value):
      problem = (f'{where} holds {value!r} at index {list(index[1:])}, '
                 'beyond the float32 range.')
    else:
      problem = (f'{where} is not finite: {value} at index '
                 f'{list(index[1:])}.')
    raise ValueError(
        f'{problem} A search needs finite observations; check the '
        'environment (environments.CheckedEnvironment names the step).')
  return observation


def check_players(to_play, batch_size: int, num_players: int) -> np.ndarray:
  """`[B]` int32 players; see the module.

  An integer array, or a list of Python ints, is checked in one pass (this
  runs at every search, on hundreds of rows for reanalysis); anything else
  entry by entry, so that the first faulty entry is named either way.

  Args:
    to_play: B players, a sequence or a 1-D integer array.
    batch_size: B.
    num_players: 1 or 2.

  Returns:
    The players as an int32 array.

  Raises:
    TypeError: if a player is not an integer (bools and floats included).
    ValueError: if there are not B players or one is out of range.
  """
  if isinstance(to_play, np.ndarray):
    if to_play.ndim != 1:
      raise ValueError(f'to_play must be a 1-D sequence of players, got '
                       f'shape {list(to_play.shape)}.')
    if np.issubdtype(to_play.dtype, np.integer):
      _check_count(len(to_play), batch_size)
      outside = np.flatnonzero((to_play < 0) | (to_play >= num_players))
      if outside.size:
        raise _player_range_error(int(outside[0]), int(to_play[outside[0]]),
                                  num_players)
      return to_play.astype(np.int32)
    values = list(to_play)
  else:
    try:
      values = list(to_play)
    except TypeError:
      raise TypeError(f'to_play must be a sequence of {batch_size} '
                      f'players, got {to_play!r}.') from None
  _check_count(len(values), batch_size)
  # `type(v) is int` leaves out bools (and NumPy scalars, checked below).
  if (values and all(type(value) is int for value in values) and
      0 <= min(values) and max(values) < num_players):
    return np.array(values, np.int32)
  players = []
  for i, value in enumerate(values):
    player = _as_int(value)
    if player is None:
      raise TypeError(f'to_play[{i}] is {value!r}, {_kind(value)}; players '
                      f'are integers in [0, {num_players}).')
    if not 0 <= player < num_players:
      raise _player_range_error(i, player, num_players)
    players.append(player)
  return np.array(players, np.int32)


def _check_count(count: int, batch_size: int) -> None:
  if count != batch_size:
    raise ValueError(f'to_play must have one player per observation: '
                     f'{batch_size}, got {count}.')


def _player_range_error(i: int, player: int, num_players: int) -> ValueError:
  return ValueError(f'to_play[{i}] must be a player in [0, {num_players}), '
                    f'got {player}.')


def _ambiguous(i: int, row: Sequence[int], num_actions: int) -> ValueError:
  """The error for a row of A zeros and ones, with both of its readings."""
  row = list(row)
  mask_reading = [a for a, bit in enumerate(row) if bit]
  return ValueError(
      f'legal_actions[{i}] is {row}: {num_actions} zeros and ones, which '
      f'read as action indices are the actions {sorted(set(row))} and read '
      f'as a mask are the actions {mask_reading}. Pass masks as a '
      f'[B, {num_actions}] np.ndarray of dtype bool (np.asarray(masks, '
      'bool)), and indices as 1-D integer np.ndarrays (np.flatnonzero(mask) '
      'gives them).')


def _row_actions(i: int, row, num_actions: int) -> np.ndarray:
  """Row i of indices as an integer array, its types checked; see module."""
  if isinstance(row, np.ndarray):
    if row.dtype == bool:
      raise TypeError(
          f'legal_actions[{i}] holds booleans {row.tolist()}; a mask must '
          f'be one [B, {num_actions}] bool np.ndarray for the whole batch, '
          'rows of indices integers.')
    if row.ndim != 1 or not np.issubdtype(row.dtype, np.integer):
      shown = row.tolist()
      raise TypeError(
          f'legal_actions[{i}] is {shown!r} of dtype {row.dtype.name}; '
          f'expected a 1-D integer array of action indices.')
    return row
  try:
    values = list(row)
  except TypeError:
    raise TypeError(f'legal_actions[{i}] is {row!r}, {_kind(row)}; '
                    'expected a sequence of action indices.') from None
  if values and all(isinstance(v, (bool, np.bool_)) for v in values):
    raise TypeError(
        f'legal_actions[{i}] holds booleans {values}; a mask must be one '
        f'[B, {num_actions}] bool np.ndarray for the whole batch, rows of '
        'indices integers.')
  actions = []
  for value in values:
    action = _as_int(value)
    if action is None:
      raise TypeError(
          f'legal_actions[{i}] holds {value!r}, {_kind(value)}; action '
          'indices are integers (floats are refused, integral ones too).')
    actions.append(action)
  if len(actions) == num_actions and set(actions) <= {0, 1}:
    raise _ambiguous(i, actions, num_actions)
  return np.asarray(actions, np.int64)


def _row_value_error(i: int, actions: np.ndarray,
                     num_actions: int) -> Optional[ValueError]:
  """The error of row i of indices if it is empty, out of range or repeats."""
  if not actions.size:
    return ValueError(f'legal_actions[{i}] is empty; a searched position '
                      'needs at least one legal action.')
  outside = actions[(actions < 0) | (actions >= num_actions)]
  if outside.size:
    return ValueError(f'legal_actions[{i}] holds action {int(outside[0])}, '
                      f'outside the action space [0, {num_actions}).')
  if np.unique(actions).size != actions.size:
    message = f'legal_actions[{i}] repeats an action: {actions.tolist()}.'
    if actions.size == num_actions and np.all(actions <= 1):
      mask_reading = np.flatnonzero(actions).tolist()
      message += (f' Read as a mask it would be the actions {mask_reading}:'
                  f' pass masks as a [B, {num_actions}] np.ndarray of dtype '
                  'bool.')
    return ValueError(message)
  return None


def _index_mask(rows: Sequence, num_actions: int) -> np.ndarray:
  """`[B, A]` mask of B rows of indices, checked; see the module.

  The values of all rows are checked at once in NumPy (a batch of Go
  positions holds ~10^5 indices); the first faulty row is then named.
  """
  actions = [_row_actions(i, row, num_actions) for i, row in enumerate(rows)]
  lengths = np.array([row.size for row in actions], np.int64)
  flat = (np.concatenate(actions).astype(np.int64) if actions else
          np.zeros(0, np.int64))
  row_of = np.repeat(np.arange(len(actions)), lengths)
  inside = (flat >= 0) & (flat < num_actions)
  mask = np.zeros((len(actions), num_actions), bool)
  mask[row_of[inside], flat[inside]] = True
  # A row is faulty if empty, with an action outside, or with a repeat (it
  # then sets fewer entries than it has actions).
  faulty = (lengths == 0) | (mask.sum(axis=1) != lengths)
  for i in np.flatnonzero(faulty)[:1]:
    raise _row_value_error(int(i), np.asarray(actions[i], np.int64),
                           num_actions)
  return mask


def _array_mask(legal_actions: np.ndarray,
                num_actions: int) -> Optional[np.ndarray]:
  """The mask a 2-D array stands for, or None if it holds indices."""
  if legal_actions.dtype == bool:
    if legal_actions.shape[1] != num_actions:
      raise ValueError(
          f'legal_actions as a bool mask must be [B, {num_actions}], got '
          f'{list(legal_actions.shape)}.')
    return legal_actions
  if not np.issubdtype(legal_actions.dtype, np.integer):
    raise TypeError(
        f'legal_actions has dtype {legal_actions.dtype.name} '
        f'({legal_actions[:1].tolist()} first); expected a [B, '
        f'{num_actions}] bool mask or integer action indices (floats are '
        'refused, integral ones too).')
  if (legal_actions.shape[1] != num_actions or
      not np.all((legal_actions == 0) | (legal_actions == 1))):
    return None
  if num_actions <= 2:  # Only then can a row of zeros and ones not repeat.
    for i, row in enumerate(legal_actions):
      if np.unique(row).size == row.size:  # Valid as indices too.
        raise _ambiguous(i, row.tolist(), num_actions)
  return legal_actions.astype(bool)


def legal_mask(legal_actions, num_actions: int) -> np.ndarray:
  """`[B, A]` bool mask of legal actions in either form; see the module.

  Args:
    legal_actions: a `[B, A]` bool (or 0/1 integer) `np.ndarray` mask, or
      B rows of action indices.
    num_actions: A, the size of the action space.

  Returns:
    The `[B, A]` bool mask (each row with a legal action).

  Raises:
    TypeError: if an index is not an integer (floats and bools included).
    ValueError: if a row is ambiguous, empty, repeats an action or holds one
      out of range, or a mask has another width or a row without a legal
      action.
  """
  mask = None
  if isinstance(legal_actions, np.ndarray) and legal_actions.ndim == 2:
    mask = _array_mask(legal_actions, num_actions)
  if mask is None:
    try:
      rows = list(legal_actions)
    except TypeError:
      raise TypeError(f'legal_actions must be a [B, {num_actions}] bool '
                      f'mask or B rows of action indices, got '
                      f'{legal_actions!r}.') from None
    mask = _index_mask(rows, num_actions)
  empty = np.flatnonzero(~mask.any(axis=1))
  if empty.size:
    raise ValueError(f'legal_actions[{int(empty[0])}] has no legal action; '
                     'a searched position needs at least one.')
  return mask


def check_inputs(config: config_lib.MuZeroConfig, observations, to_play,
                 legal_actions) -> SearchInputs:
  """A search's inputs, checked against `config` and each other.

  Args:
    config: supplies `observation_shape`, `num_players` and
      `action_space_size`.
    observations: `[B, *observation_shape]` floating observations.
    to_play: `[B]` integer players to move.
    legal_actions: the legal actions, as a mask or as indices (see the
      module docstring for the rules).

  Returns:
    `SearchInputs`.

  Raises:
    TypeError: if an input has the wrong type (see `check_observations`,
      `check_players`, `legal_mask`).
    ValueError: if an input has the wrong shape or value, or the batch
      sizes differ.
  """
  observation = check_observations(observations, config.observation_shape)
  lengths = [len(observation)]
  for name, value in (('to_play', to_play), ('legal_actions', legal_actions)):
    try:
      lengths.append(len(value))
    except TypeError:
      raise TypeError(f'{name} must be a sequence with one entry per '
                      f'observation, got {value!r}.') from None
  if lengths[1:] != lengths[:1] * 2:
    raise ValueError(
        f'observations, to_play and legal_actions must have the same batch '
        f'length, got {lengths[0]}, {lengths[1]} and {lengths[2]}.')
  players = check_players(to_play, lengths[0], config.num_players)
  legal = legal_mask(legal_actions, config.action_space_size)
  return SearchInputs(observation, players, legal)
