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
"""Damaged checkpoint directories: every case falls back or stops clearly.

Three checkpoints (1, 2, 3) with their own weights and replay buffers; the
newest is damaged in each way a disk, a user or a crash can damage it, and
the run must come back to checkpoint 2 with a warning naming the damage,
never to step 0 and never with a raw TensorFlow or zipfile error.
"""

import glob
import os
import tempfile
from unittest import mock

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np
import tensorflow as tf

from muzero_snt.run import checkpointing
from tests.reliability import checkpoint_fixtures


def _truncate(path, keep_fraction=0.5):
  size = os.path.getsize(path)
  with open(path, 'r+b') as f:
    f.truncate(int(size * keep_fraction))


def _flip_byte(path, offset):
  with open(path, 'r+b') as f:
    f.seek(offset)
    byte = f.read(1)
    f.seek(offset)
    f.write(bytes([byte[0] ^ 0xFF]))


class DamagedCheckpointTest(parameterized.TestCase, tf.test.TestCase):

  def setUp(self):
    super().setUp()
    self.directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    self.config = checkpoint_fixtures.tiny_config()
    self.weights = tf.Variable(tf.zeros([64]))
    self.counters = checkpointing.counters(games=0)
    checkpointer = self._checkpointer()
    for number in (1, 2, 3):
      self.weights.assign(tf.fill([64], float(number)))
      self.counters['games'].assign(number)
      checkpointer.save(number, checkpoint_fixtures.replay(self.config, number))
    self.weights.assign(tf.fill([64], -1.))
    self.counters['games'].assign(-1)

  def _checkpointer(self):
    return checkpointing.Checkpointer(self.directory, weights=self.weights,
                                      **self.counters)

  def _path(self, name):
    return os.path.join(self.directory, name)

  def _listing(self):
    return sorted(os.listdir(self.directory))

  def assertRestoredCheckpoint(self, number, replay):
    self.assertAllEqual(self.weights, tf.fill([64], float(number)))
    self.assertEqual(int(self.counters['games'].numpy()), number)
    self.assertLen(replay.game_ids, number)

  def _damage(self, how):
    if how == 'truncated_data':
      _truncate(self._path('ckpt-3.data-00000-of-00001'))
    elif how == 'bit_flipped_data':
      # Inside the weights' bytes: 64 floats of value 3.
      data = self._path('ckpt-3.data-00000-of-00001')
      with open(data, 'rb') as f:
        offset = f.read().index(np.float32(3.).tobytes() * 4)
      _flip_byte(data, offset + 2)
    elif how == 'truncated_index':
      _truncate(self._path('ckpt-3.index'))
    elif how == 'missing_replay':
      os.remove(self._path('replay-3.npz'))
    elif how == 'truncated_replay':
      _truncate(self._path('replay-3.npz'))
    elif how == 'bit_flipped_replay':
      path = self._path('replay-3.npz')
      _flip_byte(path, os.path.getsize(path) // 3)
    elif how == 'unreadable_replay':
      os.chmod(self._path('replay-3.npz'), 0)
    else:
      raise ValueError(how)

  @parameterized.parameters('truncated_data', 'bit_flipped_data',
                            'truncated_index', 'missing_replay',
                            'truncated_replay', 'bit_flipped_replay',
                            'unreadable_replay')
  def test_a_damaged_newest_checkpoint_falls_back_to_the_previous(self, how):
    self._damage(how)
    if how == 'unreadable_replay' and os.access(self._path('replay-3.npz'),
                                                os.R_OK):
      self.skipTest('Running as root: file modes do not bind.')
    with self.assertLogs(level='WARNING') as logs:
      replay = self._checkpointer().restore(self.config)
    self.assertRestoredCheckpoint(2, replay)
    warning = '\n'.join(logs.output)
    self.assertIn('Checkpoint(s) [3]', warning)
    self.assertIn('ckpt-3' if 'replay' not in how else 'replay-3.npz',
                  warning)
    # The damaged files are kept, aside; the index names what is intact.
    damaged = os.path.join(self.directory, 'damaged')
    self.assertIn('ckpt-3.index' if how != 'missing_replay' else
                  'ckpt-3.index', os.listdir(damaged))
    self.assertEqual(tf.train.latest_checkpoint(self.directory),
                     self._path('ckpt-2'))
    # The run goes on: its next checkpoint is intact and restorable.
    self.weights.assign(tf.fill([64], 4.))
    self.counters['games'].assign(4)
    checkpointer = self._checkpointer()
    checkpointer.restore(self.config)
    self.weights.assign(tf.fill([64], 4.))
    self.counters['games'].assign(4)
    checkpointer.save(4, checkpoint_fixtures.replay(self.config, 4))
    self.assertRestoredCheckpoint(4, self._checkpointer().restore(self.config))

  def test_a_garbled_index_file_resumes_from_the_newest_checkpoint(self):
    with open(self._path('checkpoint'), 'w') as f:
      f.write('model_checkpoint_path: "ckpt-3\x00\x01 garbage {{{')
    with self.assertLogs(level='WARNING') as logs:
      replay = self._checkpointer().restore(self.config)
    self.assertRestoredCheckpoint(3, replay)
    self.assertIn('index file', '\n'.join(logs.output))
    self.assertIn('unreadable', '\n'.join(logs.output))
    # Rewritten: TensorFlow's own reader finds the newest again.
    self.assertEqual(tf.train.latest_checkpoint(self.directory),
                     self._path('ckpt-3'))

  def test_a_deleted_index_file_loses_nothing(self):
    os.remove(self._path('checkpoint'))
    self.assertRestoredCheckpoint(
        3, self._checkpointer().restore(self.config))

  def test_no_intact_checkpoint_stops_and_changes_nothing(self):
    for number in (1, 2, 3):
      os.remove(self._path(f'replay-{number}.npz'))
    before = self._listing()
    with self.assertRaisesRegex(
        checkpointing.CheckpointError,
        r'No intact checkpoint in .*checkpoint 3: .*replay-3\.npz is missing'
        r'.*checkpoint 1: .*Nothing was moved or deleted'):
      self._checkpointer().restore(self.config)
    self.assertEqual(self._listing(), before)
    self.assertAllEqual(self.weights, tf.fill([64], -1.))

  def test_read_only_restore_skips_damage_without_moving_it(self):
    _truncate(self._path('ckpt-3.data-00000-of-00001'))
    before = self._listing()
    with self.assertLogs(level='WARNING'):
      checkpointing.Checkpointer(self.directory, weights=self.weights).restore(
          read_only=True)
    self.assertAllEqual(self.weights, tf.fill([64], 2.))
    self.assertEqual(self._listing(), before)

  def test_another_runs_checkpoint_is_a_clear_error(self):
    other = checkpointing.Checkpointer(self.directory,
                                       weights=tf.Variable(tf.zeros([5])),
                                       **self.counters)
    with self.assertRaisesRegex(checkpointing.CheckpointError,
                                'does not fit this run'):
      other.restore()

  def test_retention_keeps_the_newest_and_never_an_unverified_save(self):
    checkpointer = self._checkpointer()
    checkpointer.restore(self.config)
    # A save that does not read back (a failing disk) keeps the old ones.
    with mock.patch.object(checkpointer, 'verify',
                           return_value=('simulated bad read', None)):
      with self.assertRaisesRegex(checkpointing.CheckpointError,
                                  'did not read back intact'):
        checkpointer.save(4, checkpoint_fixtures.replay(self.config, 4))
    self.assertContainsSubset(
        ['ckpt-1.index', 'ckpt-2.index', 'ckpt-3.index'], self._listing())
    self.assertEqual(tf.train.latest_checkpoint(self.directory),
                     self._path('ckpt-3'))
    # Intact saves keep the three newest.
    checkpointer.save(5, checkpoint_fixtures.replay(self.config, 5))
    indexes = sorted(os.path.basename(p) for p in glob.glob(
        self._path('ckpt-*.index')))
    self.assertEqual(indexes, ['ckpt-3.index', 'ckpt-4.index',
                               'ckpt-5.index'])


if __name__ == '__main__':
  absltest.main()
