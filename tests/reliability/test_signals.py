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
"""SIGINT and SIGTERM stop a run cleanly; time-based checkpoints."""

import glob
import os
import signal
import subprocess
import sys
import tempfile
import time

from absl.testing import absltest
import tensorflow as tf

from muzero_snt.run import data_sources
from muzero_snt.run import experiment
from muzero_snt.run import stopping
from muzero_snt.run import training_loop
from tests import testing

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _numbers(directory):
  """Numbers of the checkpoints whose files exist."""
  return [int(os.path.basename(p)[len('ckpt-'):-len('.index')])
          for p in glob.glob(os.path.join(directory, 'ckpt-*.index'))]


class StopOnSignalsTest(absltest.TestCase):

  def test_first_signal_requests_a_stop_and_the_second_interrupts(self):
    stop = stopping.StopOnSignals()
    before = {s: signal.getsignal(s) for s in stopping.SIGNALS}
    with stop:
      self.assertFalse(stop())
      os.kill(os.getpid(), signal.SIGTERM)
      self.assertTrue(stop())
      self.assertEqual(stop.signal_name, 'SIGTERM')
      with self.assertRaisesRegex(KeyboardInterrupt, 'Second signal'):
        os.kill(os.getpid(), signal.SIGINT)
    # The previous handlers are back (pytest-xdist's workers ignore SIGINT,
    # a plain interpreter raises KeyboardInterrupt: whichever was there).
    self.assertEqual({s: signal.getsignal(s) for s in stopping.SIGNALS},
                     before)


class TimedCheckpointTest(testing.TestCase):

  def test_checkpoints_follow_wall_time_when_the_interval_is_far(self):
    config = testing.tiny_mlp_config(21, batch_size=8, num_unroll_steps=2,
                                     training_steps=4,
                                     checkpoint_interval=1000)
    directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    learner = experiment.builders.make_learner(config, jit_compile=False)
    loop = training_loop.TrainingLoop(
        config, learner, data_sources.SyntheticBatches(config, learner),
        checkpoint_dir=directory, checkpoint_seconds=1e-6)
    loop.run()
    self.assertEqual(sorted(_numbers(directory)), [2, 3, 4])  # Three kept, one per step.

  def test_non_positive_checkpoint_seconds_is_refused(self):
    with self.assertRaisesRegex(ValueError, 'checkpoint_seconds must be '
                                'positive, got 0'):
      training_loop.TrainingLoop(None, None, None, checkpoint_seconds=0)


class LauncherSignalTest(testing.TestCase):

  def test_sigterm_stops_after_a_step_with_a_final_checkpoint(self):
    directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    command = [
        sys.executable, '-m', 'launchers.train', '--preset=tictactoe',
        f'--checkpoint_dir={directory}', '--training_steps=100000',
        '--checkpoint_interval=20', '--batch_size=8', '--num_unroll_steps=2',
        '--channels=4', '--num_simulations=4', '--nojit_compile',
        '--num_envs=2', '--train_ratio=1', '--log_every=1000']
    log_path = os.path.join(directory, 'log.txt')
    with open(log_path, 'w') as log:
      process = subprocess.Popen(
          command, cwd=_REPO, stdout=log, stderr=subprocess.STDOUT,
          env=dict(os.environ, PYTHONPATH=_REPO, CUDA_VISIBLE_DEVICES=''))
      try:
        deadline = time.time() + 300
        while (process.poll() is None and time.time() < deadline and
               not glob.glob(os.path.join(directory, 'ckpt-*.index'))):
          time.sleep(0.05)
        first = max(_numbers(directory), default=None)
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=120)
      finally:
        if process.poll() is None:
          process.kill()
          process.wait()
    with open(log_path) as f:
      output = f.read()
    self.assertEqual(process.returncode, 0, output[-3000:])
    self.assertNotIn('Traceback', output)
    latest = tf.train.latest_checkpoint(directory)
    step = int(latest.rsplit('-', 1)[1])
    self.assertIsNotNone(first, output[-3000:])
    self.assertGreaterEqual(step, first)
    self.assertIn(f'Stopped by SIGTERM at learner step {step}; checkpoint '
                  f'{latest}', output)
    self.assertIn(f'Stopped by SIGTERM: {step} learner steps', output)


if __name__ == '__main__':
  absltest.main()
