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
"""Tests of a run's progress: its scalars, its line, its loggers and its
TensorBoard events after a resume."""

import collections
import contextlib
import io
import math
import os
import re
import tempfile

from absl import flags
from absl import logging
import tensorflow as tf

from muzero_snt.run import experiment
from muzero_snt.run import progress
from tests import testing

# A self-play log step before the first learner step, and the line the
# loop logged for it before the line was made of the scalars.
_SELF_PLAY_START = {
    'learner_step': 0, 'training_steps': 2, 'elapsed_seconds': 69.2,
    'selfplay/games': 32, 'selfplay/env_steps': 252,
    'selfplay/env_steps_per_second': 3.6, 'selfplay/episode_return': 0.38,
    'selfplay/game_length': 7.9, 'replay/positions': 252}
_SELF_PLAY_START_LINE = (
    'learner step 0/2  loss -  games 32  env steps 252  return 0.38  '
    'length 7.9  3.6 env steps/s  -  elapsed 69s  remaining unknown yet')
_LINE = re.compile(r'^learner step (\d+)/7  loss \d+\.\d{4}  ')


class FormatLineTest(testing.TestCase):

  def test_self_play_before_the_first_learner_step(self):
    self.assertEqual(progress.format_line(_SELF_PLAY_START),
                     _SELF_PLAY_START_LINE)

  def test_self_play_with_a_rate_and_no_game_ended(self):
    scalars = {
        'learner_step': 40, 'training_steps': 100, 'elapsed_seconds': 30.4,
        'steps_per_second': 2.5, 'remaining_seconds': 24.0,
        'loss': 1.23456, 'learning_rate': 0.1, 'selfplay/games': 32,
        'selfplay/env_steps': 250, 'selfplay/env_steps_per_second': 120.54,
        'reanalyse/rows': 12, 'reanalyse/seconds': 0.34}
    self.assertEqual(
        progress.format_line(scalars),
        'learner step 40/100  loss 1.2346  games 32  env steps 250  return '
        '-  length -  120.5 env steps/s  reanalysed 12 rows (0.3 s)  2.50 '
        'learner steps/s  elapsed 30s  remaining ~24s')

  def test_distributed_before_the_train_ratio_is_known(self):
    # `ReplayServiceSource.progress` after the first round, with two
    # reanalyse workers: the service granted fewer than two learner steps.
    scalars = {
        'learner_step': 1, 'training_steps': 500, 'elapsed_seconds': 41.7,
        'loss': 3.5, 'selfplay/games': 4, 'selfplay/env_steps': 36,
        'selfplay/env_steps_per_second': 0.86,
        'selfplay/episode_return': 0.25, 'selfplay/game_length': 9.,
        'replay/positions': 36, 'replay/queued_games': 0,
        'replay/train_ratio_window': 0, 'weights/version': 0,
        'reanalyse/batches': 0, 'reanalyse/workers': 2}
    self.assertEqual(
        progress.format_line(scalars),
        'learner step 1/500  loss 3.5000  games 4  env steps 36  return '
        '0.25  length 9.0  0.9 env steps/s  train ratio - over the last 0 '
        'steps  weights v0  reanalysed 0 batches by 2 worker(s)  -  elapsed '
        '42s  remaining unknown yet')

  def test_distributed_with_reanalyse_workers(self):
    scalars = {
        'learner_step': 250, 'training_steps': 500, 'elapsed_seconds': 100.2,
        'steps_per_second': 2.5, 'remaining_seconds': 100., 'loss': 1.23456,
        'learning_rate': 0.02, 'selfplay/games': 280,
        'selfplay/env_steps': 2500, 'selfplay/env_steps_per_second': 24.96,
        'selfplay/episode_return': 0.36, 'selfplay/game_length': 8.93,
        'replay/positions': 2500, 'replay/queued_games': 1,
        'replay/observed_train_ratio': 0.1, 'replay/train_ratio_window': 249,
        'replay/worst_train_ratio_deviation': 0.02, 'weights/version': 248,
        'reanalyse/batches': 60, 'reanalyse/workers': 2}
    self.assertEqual(
        progress.format_line(scalars),
        'learner step 250/500  loss 1.2346  games 280  env steps 2500  return '
        '0.36  length 8.9  25.0 env steps/s  train ratio 0.1000 over the last '
        '249 steps  weights v248  reanalysed 60 batches by 2 worker(s)  2.50 '
        'learner steps/s  elapsed 100s  remaining ~100s')

  def test_synthetic_batches(self):
    scalars = {'learner_step': 7, 'training_steps': 7, 'elapsed_seconds': 2.,
               'steps_per_second': 3.125, 'remaining_seconds': 0., 'loss': 2.}
    self.assertEqual(progress.format_line(scalars),
                     'learner step 7/7  loss 2.0000  3.12 learner steps/s  '
                     'elapsed 2s  remaining ~0s')

  def test_log_progress_logs_the_line_with_absl(self):
    with self.assertLogs(logger='absl', level='INFO') as logs:
      progress.log_progress(_SELF_PLAY_START)
    self.assertEqual([r.getMessage() for r in logs.records],
                     [_SELF_PLAY_START_LINE])


class RunLoggerTest(testing.TestCase):
  """7 synthetic learner steps (one a round), logged every 3.

  The loop logs after the first round (step 1), when the step count passes
  a multiple of 3 (steps 3 and 6) and at the end (step 7).
  """

  def setUp(self):
    super().setUp()
    if not flags.FLAGS.is_parsed():
      flags.FLAGS.mark_as_parsed()
    # absl's level as a Python program has it: nothing below WARNING.
    verbosity = logging.get_verbosity()
    logging.set_verbosity(logging.WARNING)
    self.addCleanup(logging.set_verbosity, verbosity)

  def _run(self, **kwargs):
    config = testing.tiny_mlp_config(
        21, batch_size=8, num_unroll_steps=3, training_steps=7,
        checkpoint_interval=100)
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
      learner = experiment.run_synthetic(config, jit_compile=False,
                                         log_every=3, **kwargs)
    self.assertEqual(learner.steps, 7)
    return stderr.getvalue()

  def test_default_prints_a_line_per_log_step(self):
    output = self._run()
    steps = [int(m[1]) for m in map(_LINE.match, output.splitlines()) if m]
    self.assertEqual(steps, [1, 3, 6, 7], output)

  def test_custom_logger_gets_the_scalars_of_each_log_step(self):
    logged = []
    output = self._run(logger=logged.append)
    self.assertEqual([s['learner_step'] for s in logged], [1, 3, 6, 7])
    self.assertEqual({s['training_steps'] for s in logged}, {7})
    # The rate is measured from the end of the first step: unknown there.
    self.assertNotIn('steps_per_second', logged[0])
    self.assertNotIn('remaining_seconds', logged[0])
    for scalars in logged[1:]:
      self.assertGreater(scalars['steps_per_second'], 0)
      self.assertAlmostEqual(
          scalars['remaining_seconds'],
          (7 - scalars['learner_step']) / scalars['steps_per_second'])
    for scalars in logged:
      for name in ('loss', 'loss/value', 'loss/reward', 'loss/policy',
                   'learning_rate', 'gradient_norm', 'elapsed_seconds'):
        self.assertTrue(math.isfinite(scalars[name]), (name, scalars))
    self.assertNotRegex(output, r'learner step \d')

  def test_no_logger_prints_nothing(self):
    self.assertNotRegex(self._run(logger=None), r'learner step \d')


def _loss_steps(logdir):
  """How many 'loss' events each step has, over every event file."""
  counts = collections.Counter()
  for path in progress.event_files(logdir):
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
    self.assertEqual(progress.drop_events_after(self.logdir, 3), 2)
    self.assertEqual(_loss_steps(self.logdir), {1: 1, 2: 1, 3: 1})
    # Nothing left to drop: the file stays as it is.
    path, = progress.event_files(self.logdir)
    mtime = os.path.getmtime(path)
    self.assertEqual(progress.drop_events_after(self.logdir, 3), 0)
    self.assertEqual(os.path.getmtime(path), mtime)

  def test_a_torn_file_keeps_its_complete_records(self):
    _write(self.logdir, [1, 2, 3])
    path, = progress.event_files(self.logdir)
    with open(path, 'r+b') as f:
      f.truncate(os.path.getsize(path) - 5)  # Into the last record.
    with self.assertLogs(level='WARNING'):
      progress.drop_events_after(self.logdir, 10)
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
