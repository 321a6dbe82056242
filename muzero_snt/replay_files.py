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
"""The replay buffer's file: every stored game in one `.npz`, no pickles,
the moves' arrays (whole observations or frames) concatenated over games."""

import json
import zipfile
from typing import Any, Dict, List, NamedTuple, Optional

import numpy as np

from muzero_snt import atomic_files
from muzero_snt import config as config_lib
from muzero_snt import frames as frames_lib
from muzero_snt import trajectory as trajectory_lib

# Version 2 added the legal-action masks, version 3 the frames stored once.
FORMAT_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)

# Config fields that define the stored data; a restore must match them.
DATA_FIELDS = ('action_space_size', 'observation_shape', 'num_players',
               'discount', 'priority_alpha')

_MOVE_ARRAYS = trajectory_lib.MOVE_ARRAYS
_GAME_ARRAYS = ('lengths', 'terminal', 'bootstrap_values', 'priorities')


class Contents(NamedTuple):
  """What a replay file holds."""
  games: List[trajectory_lib.Trajectory]
  lengths: np.ndarray  # [G] int64 moves per game.
  priorities: np.ndarray  # [N] float64, N = sum of lengths.
  meta: Dict[str, Any]  # Counters, config fields, generator state.
  frame_stack: Optional[frames_lib.FrameStack]


def config_fields(config: config_lib.MuZeroConfig) -> Dict[str, Any]:
  """The config fields a replay file records (JSON-serialisable)."""
  return {
      'action_space_size': config.action_space_size,
      'observation_shape': list(config.observation_shape),
      'num_players': config.num_players,
      'discount': config.discount,
      'priority_alpha': config.priority_alpha,
      'window_size': config.window_size,
  }


def write(path: str, config: config_lib.MuZeroConfig,
          games: List[trajectory_lib.Trajectory],
          frame_stack: Optional[frames_lib.FrameStack],
          priorities: np.ndarray, meta: Dict[str, Any]) -> None:
  """Writes to `path` (no suffix added) atomically the finished `games`,
  oldest first, of one `frame_stack` layout (None: whole observations),
  their positions' `[N]` priorities and more `meta` data (counters, the
  generator's state)."""
  a = config.action_space_size
  if frame_stack is None:
    key = 'observations'
    empty = np.zeros((0,) + tuple(config.observation_shape), np.float32)
  else:
    key = 'frames'
    empty = np.zeros((0,) + frame_stack.frame_shape, frame_stack.frame_dtype)
  empties = {
      key: empty, 'to_play': np.zeros(0, np.int64),
      'actions': np.zeros(0, np.int64), 'rewards': np.zeros(0, np.float64),
      'policies': np.zeros((0, a), np.float32),
      'root_values': np.zeros(0, np.float64),
      'legal_actions': np.zeros((0, a), np.bool_)}
  arrays = {name: (np.concatenate([getattr(g, name) for g in games])
                   if games else value) for name, value in empties.items()}
  arrays['lengths'] = np.array([g.length for g in games], np.int64)
  arrays['terminal'] = np.array([g.terminal for g in games], np.bool_)
  arrays['bootstrap_values'] = np.array(
      [g.bootstrap_value for g in games], np.float64)
  arrays['priorities'] = priorities
  meta = dict(meta, format_version=FORMAT_VERSION,
              config=config_fields(config),
              frame_stack=None if frame_stack is None else
              frame_stack.to_json())
  arrays['meta'] = np.array(json.dumps(meta))
  atomic_files.write(
      path, lambda f: np.savez(f, allow_pickle=False, **arrays))


def _load(path: str):
  """The arrays and the metadata of a replay file; ValueError naming `path`
  if it is missing, damaged or lacks what `write` writes."""
  try:
    with np.load(path, allow_pickle=False) as data:
      arrays = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays.pop('meta')))
    if not isinstance(meta, dict):
      raise ValueError(f'metadata is {type(meta).__name__}, not a dict')
    missing = [name for name in _MOVE_ARRAYS + _GAME_ARRAYS
               if name not in arrays and name != 'legal_actions']
    if 'observations' not in arrays and 'frames' not in arrays:
      missing.append('observations')
    missing += [name for name in ('format_version', 'games_saved', 'config',
                                  'rng_state') if name not in meta]
    if missing:
      raise ValueError(f'it lacks {missing}')
  except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
    raise ValueError(f'{path} is not a readable replay file '
                     f'({type(e).__name__}: {e}).') from e
  return arrays, meta


def _frame_stack(path: str, arrays, meta, version: int,
                 config: config_lib.MuZeroConfig
                ) -> Optional[frames_lib.FrameStack]:
  """The file's frame layout (None: whole observations), checked."""
  saved = meta.get('frame_stack') if version >= 3 else None
  key = 'observations' if saved is None else 'frames'
  if key not in arrays:
    raise ValueError(f'{path}: a replay file of format {version} whose '
                     f'frame_stack is {saved!r} must hold {key!r}.')
  if saved is None:
    return None
  try:
    if not isinstance(saved, dict):
      raise ValueError(f'it is {type(saved).__name__}, not a dict')
    stack = frames_lib.make_frame_stack(**saved)
  except (TypeError, ValueError) as e:
    raise ValueError(f'{path}: its frame_stack {saved!r} is not valid: '
                     f'{e}') from e
  if stack.observation_shape != tuple(config.observation_shape):
    raise ValueError(f'{path} stacks frames into observations of shape '
                     f'{list(stack.observation_shape)}, but the config has '
                     f'{list(config.observation_shape)}.')
  return stack


def read(path: str, config: config_lib.MuZeroConfig) -> Contents:
  """Reads and checks a replay file against `config`; a `ValueError` names
  `path` if the file's format or data do not fit it.

  Format 1 has no legal-action masks: every action is read as legal, exact
  for the library's one-player games; two-player files are refused for
  reanalysis, which searches with the masks.
  """
  arrays, meta = _load(path)
  version = meta.get('format_version')
  if version not in READABLE_VERSIONS:
    raise ValueError(f'{path}: replay format version {version!r}, expected '
                     f'one of {READABLE_VERSIONS}; a file written by a newer '
                     'muzero_snt needs that version to read it.')
  if version == 1:
    if config.num_players > 1 and config.reanalyze_fraction > 0:
      raise ValueError(
          f'{path} is a replay file of format 1, without legal-action '
          'masks: its two-player positions cannot be reanalysed '
          f'(reanalyze_fraction {config.reanalyze_fraction}). Train from '
          'it with reanalyze_fraction 0.')
    arrays['legal_actions'] = np.ones(
        (len(arrays['actions']), config.action_space_size), np.bool_)
  elif 'legal_actions' not in arrays:
    raise ValueError(f'{path}: a replay file of format {version} without '
                     'its legal_actions array.')
  expected = config_fields(config)
  for name in DATA_FIELDS:
    saved = meta['config'].get(name)
    if saved != expected[name]:
      raise ValueError(f'{path} holds data for {name} = {saved!r}, but '
                       f'the config has {expected[name]!r}.')
  stack = _frame_stack(path, arrays, meta, version, config)
  lengths = arrays['lengths'].astype(np.int64)
  if len(lengths) > config.window_size:
    raise ValueError(f'{path} holds {len(lengths)} games, more than the '
                     f'config\'s window_size {config.window_size}.')
  bounds = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
  key = 'observations' if stack is None else 'frames'
  games = []
  for i in range(len(lengths)):
    moves = {name: arrays[name][bounds[i]:bounds[i + 1]]
             for name in _MOVE_ARRAYS + (key,)}
    try:
      games.append(trajectory_lib.Trajectory.from_arrays(
          config.action_space_size, config.num_players, config.discount,
          terminal=bool(arrays['terminal'][i]),
          bootstrap_value=float(arrays['bootstrap_values'][i]),
          frame_stack=stack, observations=moves.pop('observations', None),
          **moves))
    except (ValueError, IndexError) as e:
      raise ValueError(f'{path}: game {i} of the file is not valid: '
                       f'{e}') from e
  priorities = arrays['priorities'].astype(np.float64)
  if priorities.shape != (bounds[-1],) or not np.all(priorities > 0):
    raise ValueError(f'{path}: priorities must be {bounds[-1]} positive '
                     f'numbers, got shape {list(priorities.shape)}.')
  return Contents(games, lengths, priorities, meta, stack)
