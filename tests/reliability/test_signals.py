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
import re
import signal
import tempfile

from absl.testing import absltest
import tensorflow as tf

from muzero_snt.run import data_sources
from muzero_snt.run import experiment
from muzero_snt.run import stopping
from muzero_snt.run import training_loop
from tests import launcher_runs
from tests import testing


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

  def test_a_signal_during_start_up_stops_at_the_next_stage(self):
    with stopping.StopOnSignals() as stop:
      stop.begin('building the learner')
      stop.begin('restoring the checkpoint')  # Nothing asked: goes on.
      os.kill(os.getpid(), signal.SIGINT)
      self.assertEqual(stop.stage, 'restoring the checkpoint')
      with self.assertRaises(stopping.Stopped) as raised:
        stop.begin('compiling')
    self.assertEqual((raised.exception.signal_name, raised.exception.stage),
                     ('SIGINT', 'restoring the checkpoint'))
    self.assertEqual(str(raised.exception),
                     'Stopped by SIGINT while restoring the checkpoint, '
                     'before the first learner step: nothing was saved.')

  def test_an_inner_block_keeps_the_request_and_the_handlers(self):
    before = {s: signal.getsignal(s) for s in stopping.SIGNALS}
    stop = stopping.StopOnSignals()
    with stop:
      stop.begin('starting Ray and the actors')
      os.kill(os.getpid(), signal.SIGTERM)
      with stop:  # The training loop's block.
        self.assertTrue(stop())
        with self.assertRaisesRegex(stopping.Stopped, 'while starting Ray'):
          stop.check()
      installed = {s: signal.getsignal(s) for s in stopping.SIGNALS}
      self.assertNotEqual(installed, before)
    self.assertEqual({s: signal.getsignal(s) for s in stopping.SIGNALS},
                     before)

  def test_keep_handlers_ignores_a_library_replacing_them(self):
    replaced = []
    with stopping.StopOnSignals() as stop:
      ours = signal.getsignal(signal.SIGTERM)
      with stopping.keep_handlers():
        # What ray.init does.
        previous = signal.signal(signal.SIGTERM, lambda *_: replaced.append(1))
        self.assertIs(previous, ours)
        self.assertIs(signal.getsignal(signal.SIGTERM), ours)
      os.kill(os.getpid(), signal.SIGTERM)
      self.assertEqual(stop.signal_name, 'SIGTERM')
    self.assertEqual(replaced, [])
    # Without a StopOnSignals installed the block changes nothing.
    usr1 = signal.getsignal(signal.SIGUSR1)
    with stopping.keep_handlers():
      signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    self.assertEqual(signal.getsignal(signal.SIGUSR1), signal.SIG_IGN)
    signal.signal(signal.SIGUSR1, usr1)


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


# What `experiment.run` and the launcher call their start-up stages.
_STAGES = ('checking the run', 'checking the checkpoint directory',
           'building the learner', 'building the environments and the search',
           'restoring the checkpoint', 'compiling')


class LauncherSignalTest(testing.TestCase):

  def test_sigterm_stops_after_a_step_with_a_final_checkpoint(self):
    directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    run = os.path.join(directory, 'run')
    first = []

    def after_a_checkpoint(unused_directory, unused_pid):
      first[:] = _numbers(run)
      return bool(first)

    returncode, output = launcher_runs.signal_launcher(
        directory, signal.SIGTERM, after_a_checkpoint)
    self.assertEqual(returncode, 0, output[-3000:])
    self.assertNotIn('Traceback', output)
    latest = tf.train.latest_checkpoint(run)
    step = int(latest.rsplit('-', 1)[1])
    self.assertTrue(first, output[-3000:])
    self.assertGreaterEqual(step, max(first))
    self.assertIn(f'Stopped by SIGTERM at learner step {step}; checkpoint '
                  f'{latest}', output)
    self.assertIn(f'Stopped by SIGTERM: {step} learner steps', output)

  def _check_stopped_during_start_up(self, signum):
    directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    # The first line `experiment.run` logs: the launcher's checks are done,
    # the lock, the learner and the environments are next.
    returncode, output = launcher_runs.signal_launcher(
        directory, signum, launcher_runs.printed('Run:'))
    name = signal.Signals(signum).name
    self.assertEqual(returncode, 0, output[-3000:])
    self.assertNotIn('Traceback', output)
    stages = re.findall(rf'Stopped by {name} while ([a-z ]+), before the '
                        r'first learner step: nothing was saved\.$', output,
                        re.MULTILINE)
    self.assertLen(stages, 1, output[-3000:])
    self.assertIn(stages[0], _STAGES)
    self.assertNotIn('learner step 0/', output)  # The loop never began.
    run = os.path.join(directory, 'run')
    # No lock left, no checkpoint: at most the run's configuration, if the
    # stop came after the lock was taken.
    self.assertContainsSubset(
        os.listdir(run) if os.path.exists(run) else [], ['run_config.json'])

  def test_sigterm_during_start_up_stops_naming_the_stage(self):
    self._check_stopped_during_start_up(signal.SIGTERM)

  def test_sigint_during_start_up_stops_naming_the_stage(self):
    self._check_stopped_during_start_up(signal.SIGINT)


if __name__ == '__main__':
  absltest.main()
