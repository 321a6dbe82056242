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
"""A disk that fills while a checkpoint is written: one line, nothing lost.

Checkpoints 1 and 2 are written; the disk fills during checkpoint 3, in the
replay file (numpy's zip write raises `OSError` ENOSPC) or in TensorFlow's
SaveV2 (`ResourceExhaustedError`). The save must raise one line naming the
directory and the bytes, leave the directory as it was before the save, and
a restart must resume from checkpoint 2 and save again once space is free.
A tiny tmpfs gives the real errors where this process may mount one.
"""

import collections
import errno
import os
import re
import subprocess
import tempfile
from unittest import mock

from absl.testing import absltest
from absl.testing import parameterized
import tensorflow as tf

from muzero_snt import replay_files
from muzero_snt.run import checkpointing
from muzero_snt.run import experiment
from muzero_snt.run import run_config
from tests import testing
from tests.reliability import checkpoint_fixtures

_FREE = 4096  # What the faked disk has left after the failed save.
_NO_SPACE = os.strerror(errno.ENOSPC)


def _full_in_replay_write(f, **unused_arrays):
  """`np.savez` on a full disk: part of the zip written, then ENOSPC."""
  f.write(b'PK\x03\x04' + bytes(1000))
  raise OSError(errno.ENOSPC, _NO_SPACE)


def _full_in_save_v2(real_write):
  """`tf.train.Checkpoint.write` failing in SaveV2 as on a full disk."""

  def write(self, prefix, *args, **kwargs):
    if not prefix.endswith('ckpt-3'):
      return real_write(self, prefix, *args, **kwargs)
    # TensorFlow writes the data into `<prefix>_temp/` first.
    temporary = os.path.join(prefix + '_temp',
                             'part-00000-of-00001.data-00000-of-00001'
                             '.tempstate123')
    os.makedirs(os.path.dirname(temporary))
    with open(temporary, 'wb') as f:
      f.write(bytes(100))
    raise tf.errors.ResourceExhaustedError(
        None, None, '{{function_node __wrapped__SaveV2_dtypes_2_device_/'
        'job:localhost/replica:0/task:0/device:CPU:0}} '
        f'{temporary}; {_NO_SPACE} [Op:SaveV2]')

  return write


def _fake_disk_usage(path):
  del path
  return collections.namedtuple('usage', 'total used free')(
      10**9, 10**9 - _FREE, _FREE)


class FullDiskTest(parameterized.TestCase, tf.test.TestCase):

  def setUp(self):
    super().setUp()
    self.directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    self.config = checkpoint_fixtures.tiny_config()
    self.weights = tf.Variable(tf.zeros([64]))
    self.counters = checkpointing.counters(games=0)

  def _checkpointer(self):
    return checkpointing.Checkpointer(self.directory, weights=self.weights,
                                      **self.counters)

  def _save(self, checkpointer, number):
    """Saves checkpoint `number` of weights `number` and `number` games."""
    self.weights.assign(tf.fill([64], float(number)))
    self.counters['games'].assign(number)
    return checkpointer.save(
        number, checkpoint_fixtures.replay(self.config, number))

  def _sizes(self):
    return {name: os.path.getsize(os.path.join(self.directory, name))
            for name in os.listdir(self.directory)}

  def _checkpoint_size(self, number):
    return sum(size for name, size in self._sizes().items()
               if name.startswith(f'ckpt-{number}.') or
               name == f'replay-{number}.npz')

  def assertResumesFrom(self, number):
    """A new Checkpointer (a restart) restores checkpoint `number`."""
    self.weights.assign(tf.fill([64], -1.))
    self.counters['games'].assign(-1)
    checkpointer = self._checkpointer()
    replay = checkpointer.restore(self.config)
    self.assertEqual(checkpointer.latest_number, number)
    self.assertAllEqual(self.weights, tf.fill([64], float(number)))
    self.assertEqual(int(self.counters['games'].numpy()), number)
    self.assertEqual(replay.game_ids, list(range(number)))
    return checkpointer

  @parameterized.named_parameters(
      ('replay_file', 'OSError: [Errno 28] '),
      ('tensorflow_save_v2', 'ResourceExhaustedError: '))
  def test_a_full_disk_keeps_the_older_checkpoints_and_resumes(self, error):
    checkpointer = self._checkpointer()
    self._save(checkpointer, 1)
    self._save(checkpointer, 2)
    before = self._sizes()
    needed = self._checkpoint_size(2)
    if error.startswith('OSError'):
      full = mock.patch.object(replay_files.np, 'savez',
                               _full_in_replay_write)
    else:
      full = mock.patch.object(
          tf.train.Checkpoint, 'write',
          _full_in_save_v2(tf.train.Checkpoint.write))
    self.weights.assign(tf.fill([64], 3.))
    with full, mock.patch.object(checkpointing.shutil, 'disk_usage',
                                 _fake_disk_usage):
      with self.assertRaises(checkpointing.CheckpointError) as raised:
        # A replay file of checkpoint 2's size: what was written before
        # SaveV2 failed is less than checkpoint 2.
        checkpointer.save(3, checkpoint_fixtures.replay(self.config, 2))
    self.assertEqual(
        str(raised.exception),
        f'Checkpoint 3 could not be written to {self.directory} '
        f'({error}{_NO_SPACE}): it needs about {needed:,} bytes (the size '
        f'of checkpoint 2), and {_FREE:,} bytes are free there. Its partial '
        'files were removed; the run resumes from checkpoint 2, which is '
        'intact. Free space and resume.')
    # Every file as before the save: no partial checkpoint 3, no temporary
    # file, checkpoints 1 and 2 whole and the index naming checkpoint 2.
    self.assertEqual(self._sizes(), before)
    self.assertEqual(tf.train.latest_checkpoint(self.directory),
                     os.path.join(self.directory, 'ckpt-2'))
    # Space freed: a restart resumes from checkpoint 2 and saves again.
    self._save(self.assertResumesFrom(2), 3)
    self.assertResumesFrom(3)

  def test_a_full_disk_at_the_first_checkpoint_leaves_nothing(self):
    with mock.patch.object(replay_files.np, 'savez', _full_in_replay_write):
      with mock.patch.object(checkpointing.shutil, 'disk_usage',
                             _fake_disk_usage):
        with self.assertRaisesRegex(
            checkpointing.CheckpointError,
            r'\): it needs more than the 4,096 bytes free there. Its partial '
            'files were removed; there is no earlier checkpoint: the run '
            'starts over. Free space and resume.$'):
          self._save(self._checkpointer(), 1)
    self.assertEqual(os.listdir(self.directory), [])
    self.assertIsNone(self._checkpointer().restore(self.config))

  def test_another_write_error_says_to_fix_the_disk(self):
    checkpointer = self._checkpointer()
    self._save(checkpointer, 1)
    with mock.patch.object(
        replay_files.np, 'savez',
        side_effect=OSError(errno.EIO, os.strerror(errno.EIO))):
      with self.assertRaisesRegex(
          checkpointing.CheckpointError,
          r'\(OSError: \[Errno 5\] Input/output error\).*resumes from '
          'checkpoint 1, which is intact. Fix the disk and resume.$'):
        self._save(checkpointer, 2)

  def test_a_real_full_tmpfs(self):
    """The real errors of numpy and TensorFlow, on a 256 KiB tmpfs."""
    if os.geteuid() != 0:
      self.skipTest('mounting a tmpfs needs root')
    mounted = subprocess.run(
        ['mount', '-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', self.directory],
        capture_output=True, text=True, check=False)
    if mounted.returncode:
      self.skipTest(f'cannot mount a tmpfs: {mounted.stderr.strip()}')
    self.addCleanup(subprocess.run, ['umount', self.directory], check=False)
    checkpointer = self._checkpointer()
    self._save(checkpointer, 1)
    self._save(checkpointer, 2)
    before = self._sizes()
    filler = os.path.join(self.directory, 'filler')
    with open(filler, 'wb', buffering=0) as f:
      with self.assertRaises(OSError) as full:
        while True:
          f.write(bytes(4096))
    self.assertEqual(full.exception.errno, errno.ENOSPC)
    for files in ('replay', 'tensorflow'):
      with self.subTest(files):
        # Without a replay buffer the disk fills in SaveV2.
        self.weights.assign(tf.fill([64], 3.))
        with self.assertRaisesRegex(
            checkpointing.CheckpointError,
            f'^Checkpoint 3 could not be written to '
            f'{re.escape(self.directory)} '
            r'\((OSError: \[Errno 28\]|ResourceExhaustedError:) '
            f'{_NO_SPACE}\\): it needs about .*resumes from checkpoint 2'):
          checkpointer.save(3, checkpoint_fixtures.replay(self.config, 3)
                            if files == 'replay' else None)
        self.assertEqual(
            {k: v for k, v in self._sizes().items() if k != 'filler'},
            before)
    os.remove(filler)
    self._save(self.assertResumesFrom(2), 3)
    self.assertResumesFrom(3)


def _run_config(**changes):
  return testing.tiny_mlp_config(
      21, batch_size=8, num_unroll_steps=2, checkpoint_interval=2,
      training_steps=4).replace(**changes)


class FullDiskRunTest(testing.TestCase):

  def test_the_final_save_of_a_run_fails_in_one_line_and_resumes(self):
    directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    settings = run_config.RunConfig(data='synthetic', jit_compile=False,
                                      checkpoint_dir=directory)
    real_write = tf.train.Checkpoint.write

    def write(checkpoint, prefix, *args, **kwargs):
      if prefix.endswith('ckpt-4'):
        raise tf.errors.ResourceExhaustedError(
            None, None, f'{prefix}_temp/part; {_NO_SPACE} [Op:SaveV2]')
      return real_write(checkpoint, prefix, *args, **kwargs)

    with mock.patch.object(tf.train.Checkpoint, 'write', write):
      with self.assertRaisesRegex(
          checkpointing.CheckpointError,
          f'^Checkpoint 4 could not be written to {re.escape(directory)} '
          f'\\(ResourceExhaustedError: {_NO_SPACE}\\): .* the run resumes '
          'from checkpoint 2, which is intact. Free space and resume.$'):
        experiment.run(settings.replace(config=_run_config()))
    first_steps = []
    experiment.run(settings.replace(config=_run_config()),
                   on_round=lambda loop: first_steps.append(
                       loop.learner.steps))
    self.assertEqual(first_steps, [3, 4])


if __name__ == '__main__':
  absltest.main()
