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
"""Validation of a game's recorded moves, naming the bad value and move."""

import math
from typing import Dict, Optional, Tuple

import numpy as np

# Visit distributions must sum to one within this tolerance.
POLICY_SUM_TOLERANCE = 1e-5


def is_int(value) -> bool:
  return isinstance(value, (int, np.integer)) and not isinstance(
      value, (bool, np.bool_))


def check_count(name: str, value, minimum: int):
  if not is_int(value) or value < minimum:
    raise ValueError(f'{name} must be an integer >= {minimum}, got {value!r}.')


def check_game(action_space_size, num_players, discount) -> None:
  """A game's settings: A >= 1, 1 or 2 players, a discount in (0, 1]."""
  check_count('action_space_size', action_space_size, 1)
  if num_players not in (1, 2):
    raise ValueError(f'num_players must be 1 or 2, got {num_players!r}.')
  if (not isinstance(discount, (int, float, np.floating)) or
      isinstance(discount, bool) or not 0. < discount <= 1.):
    raise ValueError(f'discount must be in (0, 1], got {discount!r}.')


def check_ending(terminal, bootstrap_value) -> None:
  """A game's end: a bool, and a finite bootstrap value, 0 if terminal."""
  if not isinstance(terminal, (bool, np.bool_)):
    raise ValueError(f'terminal must be True or False, got {terminal!r}.')
  if not math.isfinite(bootstrap_value):
    raise ValueError(f'bootstrap_value must be finite, got '
                     f'{bootstrap_value!r}.')
  if terminal and bootstrap_value != 0:
    raise ValueError(f'bootstrap_value must be 0 after a terminal state '
                     f'(its value is 0), got {bootstrap_value!r}.')


def _first_bad(bad: np.ndarray) -> Optional[int]:
  """Index of the first True in a boolean `[T]` array, or None."""
  indices = np.flatnonzero(bad)
  return int(indices[0]) if indices.size else None


def check_observations(first: int, observations,
                       expected_shape: Optional[Tuple[int, ...]]
                      ) -> np.ndarray:
  """A copy of `[T, *obs]` numeric observations of moves from `first`; a
  `ValueError` if they are not numeric, finite and of `expected_shape`
  (when given)."""
  # A copy: environments may reuse their observation buffer in place.
  observations = np.array(observations)
  n = observations.shape[0] if observations.ndim else -1
  if not np.issubdtype(observations.dtype, np.number) and not (
      observations.dtype == np.bool_):
    raise ValueError(f'observation must be a numeric array, got dtype '
                     f'{observations.dtype} at move {first}.')
  if expected_shape is not None and observations.shape[1:] != expected_shape:
    raise ValueError(f'observation at move {first} has shape '
                     f'{list(observations.shape[1:])}, expected '
                     f'{list(expected_shape)} as at move 0.')
  if np.issubdtype(observations.dtype, np.floating):
    bad = _first_bad(~np.isfinite(observations.reshape(n, -1)).all(-1))
    if bad is not None:
      raise ValueError(f'observation at move {first + bad} is not finite.')
  return observations


def check_moves(first: int, num_moves: int, action_space_size: int,
                num_players: int, to_play, actions, rewards, policies,
                root_values, legal_actions) -> Dict[str, np.ndarray]:
  """Validates `[T, ...]` arrays of moves numbered from `first`: integer
  players and actions in range, finite rewards and root values, `[T, A]`
  distributions and bool masks holding each move's action; a `ValueError`
  names the first bad value and its move.

  Returns:
    The arrays by `Trajectory` property name, to_play and actions int64,
    rewards and root values float64, policies float32.
  """
  n = num_moves
  arrays = {}
  for name, value in (('to_play', to_play), ('actions', actions),
                      ('rewards', rewards), ('root_values', root_values)):
    value = np.asarray(value)
    if value.shape != (n,):
      raise ValueError(f'{name} must have shape [{n}] (one per move), got '
                       f'{list(value.shape)}.')
    arrays[name] = value
  policies = np.asarray(policies)
  if policies.shape != (n, action_space_size):
    raise ValueError(f'policy must have shape [{action_space_size}] (the '
                     f'full action space) at every move, got '
                     f'{list(policies.shape[1:])} at move {first}.')
  for name in ('to_play', 'actions'):
    value = arrays[name]
    if n and not np.issubdtype(value.dtype, np.integer):
      raise ValueError(f'{name} must hold integers, got {value[0]!r} at '
                       f'move {first}.')
  checks = (
      ('to_play', (arrays['to_play'] < 0) | (arrays['to_play'] >= num_players),
       arrays['to_play'], f'a player in [0, {num_players})'),
      ('action',
       (arrays['actions'] < 0) | (arrays['actions'] >= action_space_size),
       arrays['actions'], f'in [0, {action_space_size})'),
      ('reward', ~np.isfinite(arrays['rewards']), arrays['rewards'],
       'a finite number'),
      ('root_value', ~np.isfinite(arrays['root_values']),
       arrays['root_values'], 'a finite number'),
  )
  for name, bad, value, expected in checks:
    index = _first_bad(bad)
    if index is not None:
      raise ValueError(f'{name} at move {first + index} must be {expected}, '
                       f'got {value[index].item()!r}.')
  index = _first_bad(~np.isfinite(policies).all(-1) | (policies < 0).any(-1))
  if index is not None:
    raise ValueError(f'policy at move {first + index} must be finite and '
                     f'non-negative, got {policies[index].tolist()}.')
  sums = policies.sum(-1, dtype=np.float64)
  index = _first_bad(np.abs(sums - 1.) > POLICY_SUM_TOLERANCE)
  if index is not None:
    raise ValueError(f'policy at move {first + index} must sum to 1 (within '
                     f'{POLICY_SUM_TOLERANCE}), got a sum of '
                     f'{sums[index]!r}.')
  legal_actions = np.asarray(legal_actions)
  if legal_actions.shape != (n, action_space_size) or (
      legal_actions.dtype != np.bool_):
    raise ValueError(f'legal_actions must be a bool mask of shape '
                     f'[{action_space_size}] at every move, got dtype '
                     f'{legal_actions.dtype} and shape '
                     f'{list(legal_actions.shape[1:])} at move {first}.')
  index = _first_bad(~legal_actions[np.arange(n), arrays['actions']])
  if index is not None:
    raise ValueError(f'action {arrays["actions"][index].item()} at move '
                     f'{first + index} is not in its legal_actions mask.')
  arrays['legal_actions'] = legal_actions
  arrays['to_play'] = arrays['to_play'].astype(np.int64)
  arrays['actions'] = arrays['actions'].astype(np.int64)
  arrays['rewards'] = arrays['rewards'].astype(np.float64)
  arrays['root_values'] = arrays['root_values'].astype(np.float64)
  arrays['policies'] = policies.astype(np.float32)
  return arrays
