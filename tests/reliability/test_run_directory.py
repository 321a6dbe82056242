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
"""A whole run on a damaged directory: it resumes where it can, or stops."""

import os
import subprocess
import sys
import tempfile

from absl.testing import absltest
import tensorflow as tf

from muzero_snt.run import checkpointing
from muzero_snt.run import experiment
from muzero_snt.run import run_config
from muzero_snt.run import run_lock
from tests import testing


def _config(**changes):
  return testing.tiny_mlp_config(
      21, batch_size=8, num_unroll_steps=2, checkpoint_interval=2,
      training_steps=4).replace(**changes)


class RunDirectoryTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    self.directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    experiment.run_synthetic(_config(), jit_compile=False,
                             checkpoint_dir=self.directory)

  def _resume(self, training_steps):
    first_steps = []
    experiment.run(
        run_config.RunConfig(config=_config(training_steps=training_steps),
                             data='synthetic', jit_compile=False,
                               checkpoint_dir=self.directory),
        on_round=lambda loop: first_steps.append(loop.learner.steps))
    return first_steps

  def test_a_garbled_index_file_never_restarts_from_step_0(self):
    with open(os.path.join(self.directory, 'checkpoint'), 'w') as f:
      f.write('garbage {{{')
    with self.assertLogs(level='WARNING'):
      first_steps = self._resume(6)
    self.assertEqual(first_steps, [5, 6])  # From checkpoint 4 on.

  def test_a_damaged_newest_checkpoint_resumes_from_the_one_before(self):
    data = os.path.join(self.directory, 'ckpt-4.data-00000-of-00001')
    with open(data, 'r+b') as f:
      f.truncate(os.path.getsize(data) // 2)
    with self.assertLogs(level='WARNING') as logs:
      first_steps = self._resume(6)
    self.assertEqual(first_steps, [3, 4, 5, 6])  # From checkpoint 2 on.
    self.assertIn('ckpt-4', '\n'.join(logs.output))
    self.assertEqual(tf.train.latest_checkpoint(self.directory),
                     os.path.join(self.directory, 'ckpt-6'))

  def test_no_intact_checkpoint_stops_the_run_and_keeps_the_files(self):
    for name in os.listdir(self.directory):
      if name.endswith('.index'):
        with open(os.path.join(self.directory, name), 'wb') as f:
          f.write(b'\x00' * 7)
    before = {name: os.path.getsize(os.path.join(self.directory, name))
              for name in os.listdir(self.directory)}
    with self.assertRaisesRegex(checkpointing.CheckpointError,
                                'No intact checkpoint'):
      self._resume(6)
    self.assertEqual(
        {name: os.path.getsize(os.path.join(self.directory, name))
         for name in os.listdir(self.directory)}, before)


  def test_a_second_writer_is_refused_naming_the_owner(self):
    repo = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    holder = subprocess.Popen(
        [sys.executable, '-c',
         'import sys, time\n'
         'from muzero_snt.run import run_lock\n'
         f'run_lock.RunLock({self.directory!r}).acquire()\n'
         'print("held", flush=True)\n'
         'time.sleep(120)\n'],
        cwd=repo, env=dict(os.environ, PYTHONPATH=repo,
                           TF_CPP_MIN_LOG_LEVEL='3'),
        stdout=subprocess.PIPE, text=True)
    try:
      self.assertEqual(holder.stdout.readline().strip(), 'held')
      before = sorted(os.listdir(self.directory))
      with self.assertRaisesRegex(run_lock.RunLockError,
                                  f'in use by another run: process {holder.pid}'):
        self._resume(6)
      # Nothing written, not even the lock's reclaim guard file.
      self.assertEqual(sorted(os.listdir(self.directory)), before)
    finally:
      holder.kill()
      holder.wait()
    # The owner died without releasing: the lock is reclaimed.
    with self.assertLogs(level='WARNING'):
      self.assertEqual(self._resume(6), [5, 6])


if __name__ == '__main__':
  absltest.main()
