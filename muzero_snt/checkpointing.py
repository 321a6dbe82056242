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

A checkpoint numbered n is two files written in this order: the replay
buffer (`replay-n.npz`, atomic through `os.replace`), then the TensorFlow
checkpoint of the network, the optimizer slots and the counters, whose
`CheckpointManager` index is the commit point. A run killed at any moment,
even with SIGKILL, restarts from the last checkpoint the index names, and
that checkpoint's replay file always exists: older replay files are deleted
only after the index has moved past them.
"""

import os
import re
from typing import Any, Dict, Optional

from absl import logging
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import replay as replay_lib

_REPLAY_FILE = 'replay-{}.npz'
_REPLAY_PATTERN = re.compile(r'^replay-(\d+)\.npz$')
# What a save killed mid-write leaves (`ReplayBuffer.save`'s temporary file).
_TEMPORARY_PATTERN = re.compile(r'^replay-\d+\.npz\..+\.tmp$')


class Checkpointer:
  """Saves and restores everything a run needs to continue.

  Usage:

      checkpointer = Checkpointer(directory, network=..., optimizer=..., ...)
      replay = checkpointer.restore(config) or ReplayBuffer(config, seed)
      ...
      checkpointer.save(number, replay)
  """

  def __init__(self, directory: str, max_to_keep: int = 3,
               **trackables: Any):
    """Constructs a `Checkpointer`.

    Args:
      directory: where the checkpoints live.
      max_to_keep: checkpoints kept (older ones are deleted).
      **trackables: what `tf.train.Checkpoint` saves: the learner's `state`
        and the run's counters as `tf.Variable`s.
    """
    if not directory:
      raise ValueError(f'directory must be a non-empty path, got '
                       f'{directory!r}.')
    self._directory = directory
    self._checkpoint = tf.train.Checkpoint(**trackables)
    self._manager = tf.train.CheckpointManager(
        self._checkpoint, directory, max_to_keep=max_to_keep)

  @property
  def directory(self) -> str:
    return self._directory

  @property
  def latest_number(self) -> Optional[int]:
    """The number of the last complete checkpoint, None if there is none."""
    latest = self._manager.latest_checkpoint
    return None if latest is None else int(latest.rsplit('-', 1)[1])

  @property
  def latest_path(self) -> Optional[str]:
    """The TensorFlow path of the last complete checkpoint, if any."""
    return self._manager.latest_checkpoint

  def _replay_path(self, number: int) -> str:
    return os.path.join(self._directory, _REPLAY_FILE.format(number))

  def save(self, number: int,
           replay: Optional[replay_lib.ReplayBuffer] = None) -> str:
    """Writes checkpoint `number`; returns the TensorFlow checkpoint's path."""
    os.makedirs(self._directory, exist_ok=True)
    if replay is not None:
      replay.save(self._replay_path(number))
    path = self._manager.save(checkpoint_number=number)
    self._delete_stale_replay_files()
    return path

  def _delete_stale_replay_files(self):
    kept = {int(path.rsplit('-', 1)[1])
            for path in self._manager.checkpoints}
    for name in os.listdir(self._directory):
      match = _REPLAY_PATTERN.match(name)
      if (match and int(match.group(1)) not in kept) or (
          _TEMPORARY_PATTERN.match(name)):
        os.remove(os.path.join(self._directory, name))

  def restore(
      self, config: Optional[config_lib.MuZeroConfig] = None
  ) -> Optional[replay_lib.ReplayBuffer]:
    """Restores the last complete checkpoint into the trackables.

    Args:
      config: the run's config, to read the replay buffer back with; no
        replay buffer is read without it.

    Returns:
      The replay buffer saved with the checkpoint, or None if there is no
      checkpoint (or no config).

    Raises:
      FileNotFoundError: if the checkpoint's replay file is missing.
    """
    number = self.latest_number
    if number is None:
      return None
    self._checkpoint.restore(self._manager.latest_checkpoint).assert_consumed()
    logging.info('Restored %s.', self._manager.latest_checkpoint)
    if config is None:
      return None
    path = self._replay_path(number)
    if not os.path.exists(path):
      raise FileNotFoundError(
          f'Checkpoint {self._manager.latest_checkpoint} has no replay file '
          f'{path}: the run cannot continue exactly.')
    return replay_lib.ReplayBuffer.restore(config, path)


def counters(**initial: int) -> Dict[str, tf.Variable]:
  """int64 `tf.Variable` counters a checkpoint saves, e.g. games played."""
  return {
      name: tf.Variable(value, dtype=tf.int64, trainable=False, name=name)
      for name, value in initial.items()
  }
