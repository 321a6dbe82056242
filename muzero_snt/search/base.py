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
"""Search: the interface self-play and evaluation call, and its input form.

Every search takes B positions as NumPy arrays: `observations`
`[B, *observation_shape]` floating point and finite (cast to float32),
`to_play` `[B]` integers in [0, num_players), and `legal_actions_mask`
`[B, A]` bool, True at the legal actions (OpenSpiel's sense; mctx passes
the inverse), at least one per row (`legal_actions_to_mask`).
"""

import reprlib
from typing import NamedTuple, Optional, Protocol, Sequence, runtime_checkable

import numpy as np

from muzero_snt import config as config_lib


class SearchOutput(NamedTuple):
  """Root statistics of B searches: `[B, A]` int32 `visit_counts`; `[B, A]`
  float32 `policy` target (the normalised visits as
  `store_search_statistics`, or Gumbel MuZero's improved policy); `[B]`
  float32 `root_value` for the player to move; `[B]` int32 `action` if the
  search chooses it (Gumbel MuZero), else None."""
  visit_counts: np.ndarray
  policy: np.ndarray
  root_value: np.ndarray
  action: Optional[np.ndarray] = None


@runtime_checkable
class Search(Protocol):
  """A MuZero search from each of B positions (inputs as the module says):
  the search part of the pseudocode's `play_game`, with root noise drawn
  from `rng` if `add_noise` (self-play: yes; evaluation: no)."""

  def __call__(self,
               observations: np.ndarray,
               to_play: np.ndarray,
               legal_actions_mask: np.ndarray,
               rng: np.random.Generator,
               add_noise: bool = True) -> SearchOutput:
    ...


def check_rng(rng) -> None:
  """Raises TypeError unless `rng` is a `np.random.Generator`."""
  if not isinstance(rng, np.random.Generator):
    raise TypeError(f'rng must be a np.random.Generator (e.g. '
                    f'np.random.default_rng(seed)), got '
                    f'{type(rng).__name__}.')


class SearchInputs(NamedTuple):
  """`check_inputs`' result: float32 observations, int32 players."""
  observation: np.ndarray
  to_play: np.ndarray
  legal: np.ndarray


def legal_actions_to_mask(legal_actions: Sequence[Sequence[int]],
                          num_actions: int) -> np.ndarray:
  """The `[B, A]` bool mask of B non-empty rows of distinct action ids in
  [0, A) (what the pseudocode's `legal_actions()` returns).

  Raises:
    TypeError: if a row is not a 1-D sequence of integers.
    ValueError: if a row is empty, holds an action outside [0, A) or
      repeats one.
  """
  rows = [np.asarray(row) for row in legal_actions]
  for i, row in enumerate(rows):
    if row.ndim != 1 or (row.size and row.dtype.kind not in 'iu'):
      raise TypeError(f'legal_actions[{i}] must be a 1-D sequence of integer '
                      f'action ids, got {reprlib.repr(row.tolist())} of '
                      f'dtype {row.dtype.name}.')
  lengths = np.array([row.size for row in rows], np.int64)
  flat = (np.concatenate(rows).astype(np.int64) if rows else
          np.zeros(0, np.int64))
  inside = (flat >= 0) & (flat < num_actions)
  mask = np.zeros((len(rows), num_actions), bool)
  mask[np.repeat(np.arange(len(rows)), lengths)[inside], flat[inside]] = True
  # A faulty row is empty or sets fewer entries than it has ids.
  for i in np.flatnonzero((lengths == 0) | (mask.sum(axis=1) != lengths))[:1]:
    row = rows[i].astype(np.int64)
    if not row.size:
      raise ValueError(f'legal_actions[{i}] is empty; a searched position '
                       'needs at least one legal action.')
    outside = row[(row < 0) | (row >= num_actions)]
    if outside.size:
      raise ValueError(f'legal_actions[{i}] holds action {int(outside[0])}, '
                       f'outside the action space [0, {num_actions}).')
    raise ValueError(f'legal_actions[{i}] repeats an action: '
                     f'{row.tolist()}.')
  return mask


def _array(name: str, value, expected: str) -> np.ndarray:
  try:
    return np.asarray(value)
  except ValueError:
    raise ValueError(f'{name} must be {expected}, got the ragged '
                     f'{reprlib.repr(value)}.') from None


def _check_observations(given, observation_shape) -> np.ndarray:
  shape = ', '.join(str(n) for n in observation_shape)
  given = _array('observations', given, f'[B, {shape}]')
  if given.dtype.kind != 'f':
    raise TypeError(
        f'observations must be float32 (floating arrays are cast to it), '
        f'got dtype {given.dtype.name}; convert them as the environment '
        'does for training, e.g. np.asarray(x, np.float32), scaled as its '
        'observations are (uint8 frames to [0, 1]).')
  if given.ndim < 1 or given.shape[1:] != tuple(observation_shape) or (
      not given.shape[0]):
    raise ValueError(f'observations must have shape [B, {shape}] with '
                     f'B > 0, got {list(given.shape)}.')
  with np.errstate(over='ignore'):  # Reported below, with the value.
    observation = given.astype(np.float32, copy=False)
  if not np.isfinite(observation).all():
    index = tuple(np.argwhere(~np.isfinite(observation))[0].tolist())
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


def check_inputs(config: config_lib.MuZeroConfig, observations, to_play,
                 legal_actions_mask) -> SearchInputs:
  """The searches' inputs (module docstring), checked against `config`.

  Raises:
    TypeError: if an input has the wrong dtype.
    ValueError: naming the argument and value, if an input has the wrong
      shape or value.
  """
  observation = _check_observations(observations, config.observation_shape)
  num_actions = config.action_space_size
  players = _array('to_play', to_play, 'a [B] integer array')
  legal = _array('legal_actions_mask', legal_actions_mask,
                 f'a [B, {num_actions}] bool array')
  sizes = [len(observation)] + [len(x) if x.ndim else 0
                                for x in (players, legal)]
  if sizes[1:] != sizes[:1] * 2:
    raise ValueError(
        f'observations, to_play and legal_actions_mask must have the same '
        f'batch size, got {sizes[0]}, {sizes[1]} and {sizes[2]}.')
  if players.dtype.kind not in 'iu':
    raise TypeError(f'to_play must be a [B] integer array, got dtype '
                    f'{players.dtype.name}: {reprlib.repr(players.tolist())}.')
  if players.ndim != 1:
    raise ValueError(f'to_play must be a [B] integer array, got shape '
                     f'{list(players.shape)}.')
  outside = np.flatnonzero((players < 0) | (players >= config.num_players))
  if outside.size:
    i = int(outside[0])
    raise ValueError(f'to_play[{i}] must be a player in '
                     f'[0, {config.num_players}), got {int(players[i])}.')
  if legal.dtype != bool:
    raise TypeError(
        f'legal_actions_mask must be a [B, {num_actions}] bool array, got '
        f'dtype {legal.dtype.name}; convert lists of legal action ids with '
        f'search.legal_actions_to_mask(legal_actions, {num_actions}), a 0/1 '
        'mask with .astype(bool).')
  if legal.shape[1:] != (num_actions,):
    raise ValueError(f'legal_actions_mask must have shape [B, {num_actions}]'
                     f', got {list(legal.shape)}.')
  empty = np.flatnonzero(~legal.any(axis=1))
  if empty.size:
    raise ValueError(f'legal_actions_mask[{int(empty[0])}] has no legal '
                     'action; a searched position needs at least one.')
  return SearchInputs(observation, players.astype(np.int32, copy=False), legal)
