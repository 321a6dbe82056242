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
"""Resources checked before work: memory from a config (so a run too large
is refused before anything allocates), output directories."""

import math
import os
import re
import shutil
import tempfile
from typing import NamedTuple, Optional

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import frames
from muzero_snt.run import network_size

_FLOAT32 = 4  # Bytes of float32 and int32.
_WIDE = 8  # Bytes of the int64 and float64 arrays of replay.
_OPTIMIZER_SLOTS = {'momentum': 1, 'adam': 2}
# A replay file's per-game int64 length, bool terminal and float64 bootstrap.
_GAME_BYTES = 8 + 1 + 8
# A checkpoint's bytes beyond its arrays: object graph, index, zip and .npy
# headers and metadata (38 KB for the tic-tac-toe preset).
_CHECKPOINT_OVERHEAD = 1 << 16
# run_config.json and the `checkpoint` index file, with a temporary copy of
# each while it is replaced, and a block of slack per file.
_SMALL_FILES = 1 << 16
_CHECKPOINT_FILE = re.compile(r'^(ckpt-\d+\..+|replay-\d+\.npz)$')
# cgroup v1 reports "no limit" as a number near 2**63.
_NO_CGROUP_LIMIT = 1 << 60
DEFAULT_MEMORY_FRACTION = 0.9


class ResourceError(ValueError):
  """The run would not fit: memory, disk space or an unusable directory."""


class MemoryEstimate(NamedTuple):
  """Bytes of memory a run needs at its peak, by part (`estimate_memory`)."""
  network: int
  batch: int
  unroll: int
  replay: int

  @property
  def total(self) -> int:
    return self.network + self.batch + self.unroll + self.replay


def replay_position_bytes(
    config: config_lib.MuZeroConfig,
    frame_stack: Optional[frames.FrameStack] = None) -> int:
  """Bytes one stored position takes in `ReplayBuffer`: a move's arrays,
  its float64 value target, priorities p and p^alpha and, with prioritised
  replay, their cumulative sum."""
  position = _move_bytes(config, frame_stack) + _WIDE  # Value targets.
  position += 2 * _WIDE  # Priorities and their power alpha.
  if config.prioritized_replay:
    position += _WIDE
  return position


def _move_bytes(config: config_lib.MuZeroConfig,
                frame_stack: Optional[frames.FrameStack] = None) -> int:
  """Bytes of one move's arrays in a `Trajectory`: a float32 observation
  (with a `frame_stack`, one frame in its dtype), a float32 policy [A], a
  bool legal mask [A], and 8-byte to-play, action, reward and root value."""
  if frame_stack is None:
    observation = math.prod(config.observation_shape) * _FLOAT32
  else:
    observation = (math.prod(frame_stack.frame_shape) *
                   np.dtype(frame_stack.frame_dtype).itemsize)
  mask = config.action_space_size  # One byte per action.
  return observation + config.action_space_size * _FLOAT32 + mask + 4 * _WIDE


def checkpoint_bytes(config: config_lib.MuZeroConfig,
                     frame_stack: Optional[frames.FrameStack] = None) -> int:
  """Disk bytes of one checkpoint with a full replay window: every move's
  arrays, a float64 priority per position, each game's `_GAME_BYTES`, the
  variables and optimizer slots, and `_CHECKPOINT_OVERHEAD`."""
  positions = config.window_size * config.max_moves
  count = network_size.parameter_count(config)
  slots = _OPTIMIZER_SLOTS[config.optimizer]
  variables = (count.trainable * (1 + slots) + count.non_trainable)
  return (positions * (_move_bytes(config, frame_stack) + _WIDE) +
          config.window_size * _GAME_BYTES + variables * _FLOAT32 +
          _CHECKPOINT_OVERHEAD)


def checkpoint_space_needed(config: config_lib.MuZeroConfig, directory: str,
                            max_to_keep: int,
                            frame_stack: Optional[frames.FrameStack] = None
                           ) -> int:
  """Free disk bytes a run's checkpoint `directory` needs at its peak:
  `max_to_keep + 1` checkpoints (the next is written before the oldest is
  deleted), less those already there, but at least the next one's."""
  one = checkpoint_bytes(config, frame_stack)
  held = 0
  if os.path.isdir(directory):
    held = sum(os.path.getsize(os.path.join(directory, name))
               for name in os.listdir(directory)
               if _CHECKPOINT_FILE.match(name))
  return max((max_to_keep + 1) * one + _SMALL_FILES - held, one)


def estimate_memory(config: config_lib.MuZeroConfig,
                    games_in_flight: int = 0,
                    with_replay: bool = True,
                    replay_save_copy: bool = True,
                    frame_stack: Optional[frames.FrameStack] = None
                   ) -> MemoryEstimate:
  """The memory of a training run at its peak, from the config alone.

  - network: 4 bytes per variable element, plus per trainable element one
    optimizer slot (momentum) or two (Adam) and one gradient.
  - batch: 4 bytes per element of the `Batch` (`[B, *obs]` observations,
    `[B, K]` actions and rewards, `[B, K+1]` values, policy mask, ...).
  - unroll: 4 bytes x B x `network_size.activation_count(config)`.
  - replay (if `with_replay`): `window_size` games of `max_moves` positions
    at `replay_position_bytes`, the moves' arrays again while
    `ReplayBuffer.save` concatenates them (if `replay_save_copy`), and the
    `games_in_flight` (one frame a position with a `frame_stack`).
  """
  count = network_size.parameter_count(config)
  slots = _OPTIMIZER_SLOTS[config.optimizer]
  network = _FLOAT32 * (count.trainable * (2 + slots) + count.non_trainable)
  b, k, a = config.batch_size, config.num_unroll_steps, config.action_space_size
  per_example = (math.prod(config.observation_shape) + 2 * k +
                 (k + 1) * (a + 2) + 1)
  batch = _FLOAT32 * b * per_example
  unroll = _FLOAT32 * b * network_size.activation_count(config)
  replay = 0
  if with_replay:
    games, moves = config.window_size, config.max_moves
    replay = games * moves * replay_position_bytes(config, frame_stack)
    copies = games if replay_save_copy else 0
    replay += ((copies + games_in_flight) * moves *
               _move_bytes(config, frame_stack))
  return MemoryEstimate(network, batch, unroll, replay)


def _gb(num_bytes: float) -> str:
  return f'{num_bytes / 1e9:.2f} GB'


def _advice(part: str, config: config_lib.MuZeroConfig,
            frame_stack: Optional[frames.FrameStack]) -> str:
  """What the part holds and which setting makes it smaller."""
  b, k = config.batch_size, config.num_unroll_steps
  if part == 'network':
    count = network_size.parameter_count(config)
    fields = ('config.network.channels or config.network.num_blocks'
              if config.network.kind == 'residual' else
              'config.network.hidden_size or config.network.mlp_layers')
    return (f'{count.trainable:,} weights with their {config.optimizer} '
            f'slots and gradients; lower {fields}')
  if part == 'batch':
    return (f'{b} examples of observations {list(config.observation_shape)} '
            f'and targets for K = {k}; lower config.batch_size')
  if part == 'unroll':
    return (f'activations of {b} examples over K + 1 = {k + 1} steps kept '
            f'for the backward pass; lower config.num_unroll_steps or '
            f'config.batch_size')
  return (f'{config.window_size} games of up to {config.max_moves} moves at '
          f'{replay_position_bytes(config, frame_stack):,} bytes a position; '
          f'lower config.window_size (games kept) or config.max_moves')


def check_memory(config: config_lib.MuZeroConfig,
                 available_bytes: Optional[int] = None,
                 fraction: float = DEFAULT_MEMORY_FRACTION,
                 **estimate_kwargs) -> MemoryEstimate:
  """`estimate_memory(config, **estimate_kwargs)`; a `ResourceError` if it
  exceeds `fraction` of `available_bytes` (`available_memory_bytes()`),
  naming the largest part, the estimate, the limit and the setting to lower.
  """
  if not (isinstance(fraction, (int, float)) and 0 < fraction <= 1):
    raise ValueError(f'fraction must be in (0, 1], got {fraction!r}.')
  estimate = estimate_memory(config, **estimate_kwargs)
  if available_bytes is None:
    available_bytes = available_memory_bytes()
  limit = fraction * available_bytes
  if estimate.total <= limit:
    return estimate
  parts = estimate._asdict()
  largest = max(parts, key=parts.get)
  advice = _advice(largest, config, estimate_kwargs.get('frame_stack'))
  raise ResourceError(
      f'The run needs about {_gb(estimate.total)} of memory, more than the '
      f'{_gb(limit)} it may use ({fraction:.0%} of {_gb(available_bytes)} '
      f'available). The largest part is the {largest}, '
      f'{_gb(parts[largest])}: {advice}. All parts: ' +
      ', '.join(f'{name} {_gb(value)}' for name, value in parts.items()) +
      '.')


def _read_int(path: str, key: Optional[str] = None) -> Optional[int]:
  """The integer in `path`, or after `key` on one of its lines; else None."""
  try:
    with open(path) as f:
      lines = f.read().splitlines()
  except OSError:
    return None
  for line in lines:
    fields = line.replace(':', ' ').split()
    if key is None and fields:
      return int(fields[0]) if fields[0].isdigit() else None
    if len(fields) >= 2 and fields[0] == key and fields[1].isdigit():
      return int(fields[1])
  return None


def _cgroup_available(cgroup_dir: str) -> Optional[int]:
  """Memory left under the cgroup's limit (v2, else v1), None if no limit;
  usage excludes inactive file cache, which the kernel reclaims before it
  hits the limit (as `docker stats` counts it)."""
  for limit_file, usage_file, stat_file, inactive in (
      ('memory.max', 'memory.current', 'memory.stat', 'inactive_file'),
      ('memory/memory.limit_in_bytes', 'memory/memory.usage_in_bytes',
       'memory/memory.stat', 'total_inactive_file')):
    limit = _read_int(os.path.join(cgroup_dir, limit_file))
    if limit is None or limit >= _NO_CGROUP_LIMIT:
      continue  # Missing, 'max' or a v1 "no limit".
    usage = _read_int(os.path.join(cgroup_dir, usage_file)) or 0
    cache = _read_int(os.path.join(cgroup_dir, stat_file), inactive) or 0
    return max(limit - max(usage - cache, 0), 0)
  return None


def available_memory_bytes(meminfo_path: str = '/proc/meminfo',
                           cgroup_dir: str = '/sys/fs/cgroup') -> int:
  """Bytes a new allocation can get: the smaller of the machine's
  MemAvailable in `meminfo_path` (else its free pages) and what is left
  under the limit of the cgroup at `cgroup_dir`, if it has one."""
  kilobytes = _read_int(meminfo_path, 'MemAvailable')
  if kilobytes is not None:
    available = kilobytes * 1024
  else:
    available = os.sysconf('SC_AVPHYS_PAGES') * os.sysconf('SC_PAGE_SIZE')
  cgroup = _cgroup_available(cgroup_dir)
  return available if cgroup is None else min(available, cgroup)


def check_output_directory(path: str, what: str, min_free_bytes: int = 0,
                           needed_for: str = '') -> None:
  """Creates `path` if missing; checks it is writable (by creating a file:
  permission bits do not bind root) with `min_free_bytes` free for
  `needed_for`; a `ResourceError` names `what`, the argument that named
  `path`, if it is unusable."""
  where = f'{what}={path}'
  if not path:
    raise ResourceError(f'{what} is empty: give a directory path.')
  if os.path.exists(path) and not os.path.isdir(path):
    raise ResourceError(f'{where} is a file, not a directory: give a '
                        f'directory path, or move the file away.')
  try:
    os.makedirs(path, exist_ok=True)
  except OSError as e:
    raise ResourceError(
        f'{where} cannot be created ({e.strerror}): create it by hand or '
        f'choose a path under a writable directory.') from e
  try:
    fd, probe = tempfile.mkstemp(dir=path, prefix='.write_test.')
    os.close(fd)
    os.remove(probe)
  except OSError as e:
    raise ResourceError(
        f'{where} is not writable ({e.strerror}): fix its permissions or '
        f'choose another directory.') from e
  free = shutil.disk_usage(path).free
  if free < min_free_bytes:
    raise ResourceError(
        f'{where} has {free:,} bytes ({_gb(free)}) of disk free, less than '
        f'the {min_free_bytes:,} bytes ({_gb(min_free_bytes)}) needed'
        f'{f" ({needed_for})" if needed_for else ""}: free some space or '
        f'choose a directory on another disk.')
