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
"""Checkpoints of a whole run: learner, counters and replay buffer.

Checkpoint n is written as `replay-n.npz` (atomic), `ckpt-n.*` (its index
file last), then the `checkpoint` index (atomic): a run killed at any
moment, even by SIGKILL, leaves complete checkpoints. Restoring checks every
tensor and the replay file, moving a damaged checkpoint into `damaged/`;
retention deletes old checkpoints only once the new one reads back intact.
"""

import errno
import os
import re
import shutil
from typing import Any, Dict, List, Optional, Tuple

from absl import logging
import tensorflow as tf

from muzero_snt import atomic_files
from muzero_snt import config as config_lib
from muzero_snt import replay as replay_lib

_PREFIX = 'ckpt'
_REPLAY_FILE = 'replay-{}.npz'
_REPLAY_PATTERN = re.compile(r'^replay-(\d+)\.npz$')
_INDEX_PATTERN = re.compile(r'^ckpt-(\d+)\.index$')
# Left by a write that was interrupted (`atomic_files`).
_TEMPORARY_PATTERN = re.compile(
    r'^\.?(replay-\d+\.npz|checkpoint|run_config\.json)\..+\.tmp$')
DAMAGED_DIRECTORY = 'damaged'
# The checkpoints retention keeps (`Checkpointer`'s default).
MAX_TO_KEEP = 3


class CheckpointError(RuntimeError):
  """A checkpoint directory that cannot be resumed from as it is."""


def _number(path: str) -> int:
  return int(path.rsplit('-', 1)[1])


def _reason(error: Exception) -> str:
  """An error's type and the OS's words, on one line (without TensorFlow's
  `{{function_node ...}} <file>;` and `[Op:X]`)."""
  if isinstance(error, OSError) and error.strerror:
    text = f'[Errno {error.errno}] {error.strerror}'
  else:
    text = (str(error).strip() or '?').splitlines()[0]
    text = re.sub(r'\s*\[Op:\w+\]$', '', text).rsplit('; ', 1)[-1]
  return f'{type(error).__name__}: {text}'


def _size(path: str) -> int:
  """Bytes of a file, or of the files under a directory."""
  if not os.path.isdir(path):
    return os.path.getsize(path)
  return sum(os.path.getsize(os.path.join(root, name))
             for root, _, names in os.walk(path) for name in names)


class Checkpointer:
  """Saves, verifies and restores everything a run needs to continue: the
  `trackables` (the learner's `state`, the run's counters) and the replay
  buffer passed to `save` and returned by `restore`."""

  def __init__(self, directory: str, max_to_keep: int = MAX_TO_KEEP,
               **trackables: Any):
    if not directory:
      raise ValueError(f'directory must be a non-empty path, got '
                       f'{directory!r}.')
    if (isinstance(max_to_keep, bool) or not isinstance(max_to_keep, int) or
        max_to_keep < 1):
      raise ValueError(f'max_to_keep must be a positive integer, got '
                       f'{max_to_keep!r}.')
    self._directory = directory
    self._max_to_keep = max_to_keep
    self._checkpoint = tf.train.Checkpoint(**trackables)
    numbers, _ = self._candidates()
    self._latest: Optional[int] = numbers[0] if numbers else None

  @property
  def latest_number(self) -> Optional[int]:
    """The newest checkpoint's number, or the one last restored or saved."""
    return self._latest

  @property
  def latest_path(self) -> Optional[str]:
    return None if self._latest is None else self._prefix(self._latest)

  def _prefix(self, number: int) -> str:
    return os.path.join(self._directory, f'{_PREFIX}-{number}')

  def _replay_path(self, number: int) -> str:
    return os.path.join(self._directory, _REPLAY_FILE.format(number))

  def _candidates(self) -> Tuple[List[int], Optional[str]]:
    """Checkpoint numbers, newest first (those the index file names and
    those with a `ckpt-n.index`), and a problem with the index file."""
    if not os.path.isdir(self._directory):
      return [], None
    numbers, problem = set(), None
    index = os.path.join(self._directory, 'checkpoint')
    try:
      # TensorFlow logs a parse error and returns None for a garbled file.
      state = tf.train.get_checkpoint_state(self._directory)
      if state is None and os.path.exists(index):
        raise ValueError('not a CheckpointState text proto')
      if state is not None:
        numbers.update(_number(p) for p in state.all_model_checkpoint_paths)
        if state.model_checkpoint_path:
          numbers.add(_number(state.model_checkpoint_path))
    except Exception as e:  # pylint: disable=broad-except
      problem = f'the index file {index} is unreadable ({e})'
    for name in os.listdir(self._directory):
      match = _INDEX_PATTERN.match(name)
      if match:
        numbers.add(int(match.group(1)))
    return sorted(numbers, reverse=True), problem

  def verify(self, number: int,
             config: Optional[config_lib.MuZeroConfig] = None
            ) -> Tuple[Optional[str], Optional[replay_lib.ReplayBuffer]]:
    """Reads checkpoint `number` back (with `config`, its replay file too):
    (problem or None, replay)."""
    prefix = self._prefix(number)
    try:
      reader = tf.train.load_checkpoint(prefix)
      for name in reader.get_variable_to_shape_map():
        reader.get_tensor(name)
    except Exception as e:  # pylint: disable=broad-except
      first_line = (str(e).strip().splitlines() or [''])[0]
      return f'{prefix}: {type(e).__name__}: {first_line}', None
    if config is None:
      return None, None
    path = self._replay_path(number)
    if not os.path.exists(path):
      return f'{path} is missing', None
    try:
      return None, replay_lib.ReplayBuffer.restore(config, path)
    except Exception as e:  # pylint: disable=broad-except
      return f'{path}: {type(e).__name__}: {e}', None

  def _write_index(self, numbers: List[int]) -> None:
    """Points the `checkpoint` index file at `numbers` (newest first), in
    TensorFlow's `CheckpointState` text format, atomically."""
    if not numbers:
      return
    lines = [f'model_checkpoint_path: "{_PREFIX}-{numbers[0]}"']
    lines += [f'all_model_checkpoint_paths: "{_PREFIX}-{n}"'
              for n in reversed(numbers)]
    atomic_files.write_text(os.path.join(self._directory, 'checkpoint'),
                            '\n'.join(lines) + '\n')

  def save(self, number: int,
           replay: Optional[replay_lib.ReplayBuffer] = None) -> str:
    """Writes checkpoint `number`; returns the TensorFlow checkpoint's path.

    Raises:
      CheckpointError: if a write fails (its partial files are removed) or
        the checkpoint does not read back intact; the older checkpoints and
        the index file stay as they were.
    """
    os.makedirs(self._directory, exist_ok=True)
    try:
      if replay is not None:
        replay.save(self._replay_path(number))
      path = self._checkpoint.write(self._prefix(number))
      problem, _ = self.verify(number)
      if problem:
        raise CheckpointError(
            f'Checkpoint {number} did not read back intact ({problem}); the '
            'older checkpoints are kept. Check the disk holding '
            f'{self._directory}.')
      numbers, _ = self._candidates()
      kept = [n for n in numbers if n <= number][:self._max_to_keep]
      # Before older ones go, so that the index never names a deleted one.
      self._write_index(kept)
    except (OSError, tf.errors.OpError) as e:
      raise self._write_failed(number, e) from e
    for old in numbers:
      if old < kept[-1]:
        self._delete(old)
    self._latest = number
    # Replay files of no kept checkpoint (older than the newest kept one, or
    # of a save that died before its TensorFlow checkpoint); temporary files.
    names = os.listdir(self._directory)
    for name in names:
      match = _REPLAY_PATTERN.match(name)
      found = int(match.group(1)) if match else None
      stale = match and found not in kept and (
          found < kept[0] or f'{_PREFIX}-{found}.index' not in names)
      if stale or _TEMPORARY_PATTERN.match(name):
        os.remove(os.path.join(self._directory, name))
    return path

  def _files(self, number: int) -> List[str]:
    """Paths of checkpoint `number`'s files, written, partial or temporary
    (TensorFlow's `ckpt-n_temp/`, `atomic_files`' `.replay-n.npz.*.tmp`)."""
    replay = _REPLAY_FILE.format(number)
    stems = (f'{_PREFIX}-{number}.', f'{_PREFIX}-{number}_temp', replay,
             f'.{replay}.')
    return [os.path.join(self._directory, name)
            for name in os.listdir(self._directory) if name.startswith(stems)]

  def _write_failed(self, number: int, error: Exception) -> CheckpointError:
    """Removes checkpoint `number`'s partial files; the error to raise."""
    older = [n for n in self._candidates()[0] if n < number]
    partial = sum(_size(path) for path in self._files(number))
    self._delete(number)
    free = shutil.disk_usage(self._directory).free
    previous = sum(_size(p) for p in self._files(older[0])) if older else 0
    if previous > partial:
      needs = (f'about {previous:,} bytes (the size of checkpoint '
               f'{older[0]}), and {free:,} bytes are free there')
    elif partial:
      needs = (f'more than the {partial:,} bytes it wrote, and {free:,} '
               'bytes are free there')
    else:
      needs = f'more than the {free:,} bytes free there'
    if older:
      resume = f'the run resumes from checkpoint {older[0]}, which is intact'
    else:
      resume = 'there is no earlier checkpoint: the run starts over'
    full = (isinstance(error, tf.errors.ResourceExhaustedError) or
            getattr(error, 'errno', None) in (errno.ENOSPC, errno.EDQUOT))
    return CheckpointError(
        f'Checkpoint {number} could not be written to {self._directory} '
        f'({_reason(error)}): it needs {needs}. Its partial files were '
        f'removed; {resume}. ' +
        ('Free space and resume.' if full else 'Fix the disk and resume.'))

  def _delete(self, number: int) -> None:
    for path in self._files(number):
      if os.path.isdir(path):
        shutil.rmtree(path)
      else:
        os.remove(path)

  def restore(
      self, config: Optional[config_lib.MuZeroConfig] = None,
      read_only: bool = False,
  ) -> Optional[replay_lib.ReplayBuffer]:
    """Restores the newest intact checkpoint into the trackables; returns
    its replay buffer, if any.

    Args:
      config: to read and verify the replay buffer with (None: no buffer).
      read_only: change nothing in the directory (an evaluation beside a
        running training): damaged checkpoints are skipped, not moved, and
        the trackables may be part of the checkpoint (the network alone).

    Raises:
      CheckpointError: if checkpoints exist and none is intact (nothing is
        moved then), or the intact one does not fit the trackables.
    """
    numbers, index_problem = self._candidates()
    if index_problem:
      logging.warning('%s; the checkpoints are found by their files.',
                      index_problem)
    if not numbers:
      return None
    problems: Dict[int, str] = {}
    chosen, replay = None, None
    for number in numbers:
      problem, replay = self.verify(number, config)
      if problem is None:
        chosen = number
        break
      problems[number] = problem
    if chosen is None:
      raise CheckpointError(
          f'No intact checkpoint in {self._directory}: ' + '; '.join(
              f'checkpoint {n}: {p}' for n, p in problems.items()) +
          '. Nothing was moved or deleted. Restore the files from a backup, '
          'or start a new run in another directory.')
    if problems and read_only:
      logging.warning(
          'Checkpoint(s) %s in %s are damaged (%s); using checkpoint %d.',
          sorted(problems), self._directory, '; '.join(problems.values()),
          chosen)
    elif problems:
      damaged = os.path.join(self._directory, DAMAGED_DIRECTORY)
      os.makedirs(damaged, exist_ok=True)
      for number in problems:
        for name in os.listdir(self._directory):
          if (name.startswith(f'{_PREFIX}-{number}.') or
              name == _REPLAY_FILE.format(number)):
            shutil.move(os.path.join(self._directory, name),
                        os.path.join(damaged, name))
      logging.warning(
          'Checkpoint(s) %s in %s are damaged (%s); moved them to %s and '
          'resuming from checkpoint %d.', sorted(problems), self._directory,
          '; '.join(problems.values()), damaged, chosen)
    if (problems or index_problem) and not read_only:
      self._write_index([n for n in numbers if n not in problems])
    try:
      status = self._checkpoint.read(self._prefix(chosen))
      if read_only:
        status.expect_partial().assert_existing_objects_matched()
      else:
        status.assert_consumed()
    except (AssertionError, ValueError, tf.errors.OpError) as e:
      raise CheckpointError(
          f'Checkpoint {self._prefix(chosen)} does not fit this run\'s '
          f'network, optimizer or counters ({type(e).__name__}: '
          f'{str(e)[:500]}). Is {self._directory} another run\'s directory?'
      ) from e
    self._latest = chosen
    logging.info('Restored %s.', self._prefix(chosen))
    return replay


def saved_names(directory: str) -> List[str]:
  """The top-level names (`trackables`) of the newest readable checkpoint
  in `directory`, e.g. `network` and the counters."""
  if not os.path.isdir(directory):
    return []
  numbers = sorted((int(m.group(1)) for m in map(
      _INDEX_PATTERN.match, os.listdir(directory)) if m), reverse=True)
  for number in numbers:
    try:
      variables = tf.train.list_variables(
          os.path.join(directory, f'{_PREFIX}-{number}'))
    except (tf.errors.OpError, ValueError):
      continue
    return sorted({name.split('/', 1)[0] for name, _ in variables})
  return []


def counters(**initial: int) -> Dict[str, tf.Variable]:
  """int64 `tf.Variable` counters a checkpoint saves, e.g. games played."""
  return {
      name: tf.Variable(value, dtype=tf.int64, trainable=False, name=name)
      for name, value in initial.items()
  }
