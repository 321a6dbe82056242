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
"""A distributed run whose replay service and weight store die (kill -9).

One run on a local Ray, one actor, a checkpoint every 20 learner steps. The
replay service's process is killed after the checkpoint at step 20, once it
holds games admitted since; the weight store's after the one at step 40.
Ray restarts both; the learner restores the service from the checkpoint's
replay and says so in one line, and the run goes on to its last step with
checkpoints whose replay agrees with their counters.
"""

import os

# Before Ray is imported: a private instance on the loopback interface.
os.environ['RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'] = '0'

# pylint: disable=g-import-not-at-top,wrong-import-position
import logging
import re
import shutil
import signal
import tempfile

import numpy as np
import pytest
import tensorflow as tf

from muzero_snt.run import checkpointing
from muzero_snt.run import experiment
from muzero_snt.run import run_config
from muzero_snt import replay as replay_lib
from tests import testing
from tests.distributed import ray_testing
from tests.distributed import test_distributed_run

ray = pytest.importorskip('ray')
# pylint: enable=g-import-not-at-top,wrong-import-position

_STEPS, _INTERVAL = 60, 20
_SERVICE_LINE = re.compile(
    r"The replay service's process died; Ray restarted it with the replay "
    r'of the checkpoint at learner step (\d+) \((\d+) games, (\d+) '
    r'positions\)\. Lost: the games admitted since \(at least (\d+), of '
    r'(\d+) positions\); the learner waits at step (\d+) ')
_STORE_LINE = re.compile(
    r"The weight store's process died; Ray restarted it, and it holds the "
    r'weights of learner step (\d+) again')


def _kill(title: str) -> int:
  """Kills the run's one process titled `title` with kill -9."""
  pids = ray_testing.processes(title)
  assert len(pids) == 1, (title, pids)
  os.kill(pids[0], signal.SIGKILL)
  return pids[0]


class _Killer:
  """`on_round` of the run: kills the service, then the weight store."""

  def __init__(self, directory):
    self.directory = directory
    self.service_killed_at = None  # Learner step.
    self.store_killed_at = None
    self.games_before_kill = None  # The service's count then.

  def __call__(self, loop) -> bool:
    steps, source = loop.learner.steps, loop.source
    if (self.service_killed_at is None and
        _INTERVAL < steps < 2 * _INTERVAL):
      stats = source.stats()
      saved = int(source.counters()['distributed_games'].numpy())
      if stats['games'] > saved:  # Games a kill loses.
        # Kept: retention may delete the file before the run ends.
        shutil.copy(os.path.join(self.directory, f'replay-{_INTERVAL}.npz'),
                    os.path.join(self.directory, 'saved.npz'))
        _kill('ray::ReplayService')
        self.service_killed_at, self.games_before_kill = steps, stats['games']
    elif (self.service_killed_at is not None and
          self.store_killed_at is None and steps > 2 * _INTERVAL):
      _kill('ray::WeightStore')
      self.store_killed_at = steps
    return False


class _Warnings(logging.Handler):
  """Keeps the messages of the warnings logged."""

  def __init__(self):
    super().__init__(level=logging.WARNING)
    self.messages = []

  def emit(self, record):
    self.messages.append(record.getMessage())


class ServiceKillTest(testing.TestCase):

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    ray_testing.start_ray()
    cls.directory = tempfile.mkdtemp()
    cls.killer = _Killer(cls.directory)
    cls.config = test_distributed_run.tiny_tictactoe_config(
        training_steps=_STEPS, checkpoint_interval=_INTERVAL)
    warnings = _Warnings()
    logging.getLogger('absl').addHandler(warnings)
    try:
      cls.loop = experiment.run(
          run_config.RunConfig(
              config=cls.config,
              preset='tictactoe', num_actors=1, num_envs=4, train_ratio=0.5,
              search='graph', jit_compile=False, publish_interval=5,
              log_every=10, checkpoint_dir=cls.directory),
          on_round=cls.killer)
    finally:
      logging.getLogger('absl').removeHandler(warnings)
    cls.warnings = warnings.messages

  @classmethod
  def tearDownClass(cls):
    shutil.rmtree(cls.directory, ignore_errors=True)
    ray.shutdown()
    super().tearDownClass()

  def _lines(self, pattern):
    return [m for m in map(pattern.search, self.warnings) if m]

  def test_the_run_goes_on_to_its_last_step(self):
    self.assertIsNotNone(self.killer.store_killed_at)
    self.assertEqual(self.loop.learner.steps, _STEPS)
    self.assertEqual(self.loop.last_checkpoint,
                     os.path.join(self.directory, f'ckpt-{_STEPS}'))

  def test_one_line_names_the_dead_service_and_what_was_lost(self):
    (line,) = self._lines(_SERVICE_LINE)
    step, games, positions, lost, lost_positions, waits = map(
        int, line.groups())
    self.assertEqual(step, _INTERVAL)
    saved = replay_lib.ReplayBuffer.restore(
        self.config, os.path.join(self.directory, 'saved.npz'))
    self.assertEqual((games, positions),
                     (saved.num_games, saved.num_positions))
    # Every game the service had admitted when it was killed is counted.
    self.assertGreaterEqual(lost, self.killer.games_before_kill -
                            saved.games_saved)
    self.assertGreaterEqual(lost_positions, 5 * lost)  # 5 moves at least.
    self.assertBetween(waits, self.killer.service_killed_at,
                       self.killer.service_killed_at + 1)

  def test_the_service_went_on_from_the_checkpoints_replay(self):
    saved = replay_lib.ReplayBuffer.restore(
        self.config, os.path.join(self.directory, 'saved.npz'))
    final = replay_lib.ReplayBuffer.restore(
        self.config, os.path.join(self.directory, f'replay-{_STEPS}.npz'))
    self.assertGreater(final.games_saved, saved.games_saved)
    for game_id in saved.game_ids:
      np.testing.assert_array_equal(final.game(game_id).observations,
                                    saved.game(game_id).observations)
      np.testing.assert_array_equal(final.game(game_id).actions,
                                    saved.game(game_id).actions)

  def test_the_last_checkpoint_is_intact_and_its_replay_fits_its_counts(self):
    checkpointer = checkpointing.Checkpointer(self.directory)
    problem, replay = checkpointer.verify(_STEPS, self.config)
    self.assertIsNone(problem)
    reader = tf.train.load_checkpoint(
        os.path.join(self.directory, f'ckpt-{_STEPS}'))

    def counter(name):
      return int(reader.get_tensor(
          f'distributed_{name}/.ATTRIBUTES/VARIABLE_VALUE'))

    # The counts restarted from the checkpoint's, as its games did.
    self.assertEqual(counter('games'), replay.games_saved)
    self.assertEqual(counter('env_steps'), replay.num_positions)
    # The service's grants follow the learner's steps (one batch ahead).
    self.assertIn(counter('learner_steps') - _STEPS, (0, 1))

  def test_one_line_names_the_dead_weight_store(self):
    (line,) = self._lines(_STORE_LINE)
    version = int(line.group(1))
    # The publication the dead store had taken last, or the next one.
    self.assertBetween(version, self.killer.store_killed_at - 5,
                       self.killer.store_killed_at + 5)
