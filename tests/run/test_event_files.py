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
"""Tests of dropping a killed run's events after its last checkpoint."""

import collections
import os
import tempfile

from absl.testing import absltest
import tensorflow as tf

from muzero_snt.run import event_files
from muzero_snt.run import experiment
from tests import testing


def _loss_steps(logdir):
  """How many 'loss' events each step has, over every event file."""
  counts = collections.Counter()
  for path in event_files.event_files(logdir):
    for event in tf.compat.v1.train.summary_iterator(path):
      for value in event.summary.value:
        if value.tag == 'loss':
          counts[event.step] += 1
  return dict(counts)


def _write(logdir, steps):
  writer = tf.summary.create_file_writer(logdir)
  with writer.as_default():
    for step in steps:
      tf.summary.scalar('loss', float(step), step=step)
  writer.close()


class DropEventsTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    self.logdir = tempfile.mkdtemp(dir=self.get_temp_dir())

  def test_events_after_the_step_are_dropped(self):
    _write(self.logdir, [1, 2, 3, 4, 5])
    self.assertEqual(event_files.drop_events_after(self.logdir, 3), 2)
    self.assertEqual(_loss_steps(self.logdir), {1: 1, 2: 1, 3: 1})
    # Nothing left to drop: the file stays as it is.
    path, = event_files.event_files(self.logdir)
    mtime = os.path.getmtime(path)
    self.assertEqual(event_files.drop_events_after(self.logdir, 3), 0)
    self.assertEqual(os.path.getmtime(path), mtime)

  def test_a_torn_file_keeps_its_complete_records(self):
    _write(self.logdir, [1, 2, 3])
    path, = event_files.event_files(self.logdir)
    with open(path, 'r+b') as f:
      f.truncate(os.path.getsize(path) - 5)  # Into the last record.
    with self.assertLogs(level='WARNING'):
      event_files.drop_events_after(self.logdir, 10)
    self.assertEqual(_loss_steps(self.logdir), {1: 1, 2: 1})

  def test_a_resumed_run_logs_every_step_once(self):
    config = testing.tiny_mlp_config(21, batch_size=8, num_unroll_steps=2,
                                     checkpoint_interval=2, training_steps=5)
    directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    settings = dict(jit_compile=False, checkpoint_dir=directory,
                    logdir=self.logdir, log_every=1)
    experiment.run_synthetic(config, **settings)
    # As if killed after logging step 5 and before checkpointing it.
    for name in os.listdir(directory):
      if name.startswith('ckpt-5.'):
        os.remove(os.path.join(directory, name))
    self.assertEqual(_loss_steps(self.logdir), {s: 1 for s in range(1, 6)})
    experiment.run_synthetic(config.replace(training_steps=6), **settings)
    self.assertEqual(_loss_steps(self.logdir), {s: 1 for s in range(1, 7)})


if __name__ == '__main__':
  absltest.main()
