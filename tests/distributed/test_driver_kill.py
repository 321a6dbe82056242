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
"""A distributed run whose driver is killed (kill -9) or stopped (SIGTERM).

In `DriverKillTest` the driver (`experiment.run` with one actor, in a
child process) joins a Ray cluster of two nodes this test starts on this
machine through `ray_address`: the head, with the driver, the replay
service and the weight store, and a node for the actor. It is killed with
the whole cluster, as when the head machine is lost, and the second run
resumes from the last checkpoint on a fresh cluster: the learner's step
and the replay service's games (the file the service wrote) carry on.

In `PrivateInstanceTest` the launcher starts a Ray instance of its own, as
`--num_actors` without `--ray_address` does: stopped by SIGTERM during its
start-up or killed with kill -9, it leaves no Ray process behind.
"""

import os

# Before Ray is imported: a private instance on the loopback interface.
os.environ['RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'] = '0'

# pylint: disable=g-import-not-at-top,wrong-import-position
import glob
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

from muzero_snt import replay as replay_lib
from muzero_snt import presets
from tests import launcher_runs
from tests import testing
from tests.distributed import ray_testing

ray = pytest.importorskip('ray')
# pylint: enable=g-import-not-at-top,wrong-import-position

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_STEPS = 100

# The driver: argv[1] is the Ray address, argv[2] the checkpoint directory.
_DRIVER = f"""
import dataclasses
import sys
from absl import logging
from muzero_snt import presets
from muzero_snt.run import experiment
from muzero_snt.run import run_config
logging.set_verbosity(logging.INFO)
config = presets.get_preset('tictactoe')
config = config.replace(
    batch_size=8, num_unroll_steps=2, num_simulations=4,
    training_steps={_STEPS}, checkpoint_interval=20,
    network=dataclasses.replace(config.network, channels=4))
experiment.run(run_config.RunConfig(
    config=config, preset='tictactoe', num_actors=1, ray_address=sys.argv[1],
    checkpoint_dir=sys.argv[2], num_envs=4, train_ratio=0.5,
    search='graph', jit_compile=False, log_every=10, publish_interval=5))
"""


def _config():
  """The configuration the flags below give (to read the replay files)."""
  return presets.get_preset('tictactoe').replace(batch_size=8,
                                                  num_unroll_steps=2)


# The cluster's nodes and their CPUs: none on the head, one for the actor.
_CLUSTER = {'head': 0, 'node_a': 1}


class DriverKillTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    self.cluster, _ = ray_testing.start_cluster(_CLUSTER)
    self.address = self.cluster.address
    self.directory = self.create_tempdir().full_path

  def tearDown(self):
    self.cluster.shutdown()
    super().tearDown()

  def _command(self):
    return [sys.executable, '-c', _DRIVER, self.address,
            os.path.join(self.directory, 'run')]

  def _environment(self):
    return dict(os.environ, PYTHONPATH=_REPO, TF_CPP_MIN_LOG_LEVEL='2',
                CUDA_VISIBLE_DEVICES='')

  def test_a_killed_driver_resumes_from_its_last_checkpoint(self):
    run = os.path.join(self.directory, 'run')
    first = subprocess.Popen(self._command(), cwd=_REPO,
                             env=self._environment(),
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    # Killed as soon as the index file names a first checkpoint, so the run
    # is far from its end on a fast machine too. The deadline only bounds a
    # hung run: a loaded 2-core machine took over 240 s to start Ray's actor
    # and write the first checkpoint.
    deadline = time.time() + 600
    while not os.path.exists(os.path.join(run, 'checkpoint')):
      self.assertIsNone(first.poll(), 'the first run ended early')
      self.assertLess(time.time(), deadline, 'no checkpoint in 600 s')
      time.sleep(0.02)
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=60)
    # The head machine is lost: its Ray servers go, and the other nodes'
    # with them; the run resumes on a new cluster.
    self.cluster.shutdown()
    self.cluster, _ = ray_testing.start_cluster(_CLUSTER)
    self.address = self.cluster.address
    numbers = sorted(int(re.search(r'ckpt-(\d+)\.index', p).group(1))
                     for p in glob.glob(os.path.join(run, 'ckpt-*.index')))
    last = numbers[-1]
    self.assertLess(last, _STEPS)
    saved = os.path.join(self.directory, 'saved.npz')
    shutil.copy(os.path.join(run, f'replay-{last}.npz'), saved)

    second = subprocess.run(self._command(), cwd=_REPO,
                            env=self._environment(), capture_output=True,
                            text=True, timeout=300, check=False)
    self.assertEqual(second.returncode, 0, second.stderr[-3000:])
    self.assertRegex(second.stderr,
                     rf'Resumed from \S*ckpt-{last} at learner step {last}')
    self.assertIn(f'Done: {_STEPS} learner steps', second.stderr)
    self.assertIn(f'on the cluster at {self.address}', second.stderr)
    before = replay_lib.ReplayBuffer.restore(_config(), saved)
    after = replay_lib.ReplayBuffer.restore(
        _config(), os.path.join(run, f'replay-{_STEPS}.npz'))
    # The service continued from the checkpoint's games: the same first
    # games, and more of them.
    self.assertGreater(after.games_saved, before.games_saved)
    self.assertGreater(before.num_games, 0)
    for game_id in before.game_ids:
      np.testing.assert_array_equal(after.game(game_id).observations,
                                    before.game(game_id).observations)
      np.testing.assert_array_equal(after.game(game_id).actions,
                                    before.game(game_id).actions)


# Seconds a process of the run may outlive its driver (before the reaper:
# Ray's dashboard and runtime-env agents, 60-70 s).
_OUTLIVE_SECONDS = 10
# One actor, searching without XLA: Ray starts in seconds, not minutes.
_DISTRIBUTED = ('--num_actors=1', '--search=graph', '--train_ratio=0.5')
_AGENTS = ('ray::DashboardAgent', 'ray::RuntimeEnvAgent')


class PrivateInstanceTest(testing.TestCase):
  """The launcher's own Ray instance goes with it, however it ends."""

  def setUp(self):
    super().setUp()
    self.directory = tempfile.mkdtemp(dir=self.get_temp_dir())
    # Every process the run has started, by (pid, start time).
    self.started = {}

  def _follow(self, pid):
    self.started.update(ray_testing.descendants(pid))
    return ' '.join(self.started.values())

  def _survivors(self):
    """The run's processes still running `_OUTLIVE_SECONDS` after it."""
    deadline = time.time() + _OUTLIVE_SECONDS
    while True:
      alive = ray_testing.running(self.started)
      if not alive or time.time() > deadline:
        return alive
      time.sleep(0.1)

  def test_sigterm_during_start_up_stops_ray_with_the_run(self):

    def actors_asked_for(directory, pid):
      self._follow(pid)
      # Printed once the actors are asked for: Ray's core worker, with its
      # C++ SIGTERM handler (an abort, before), is in the driver now.
      return launcher_runs.printed('Ray:')(directory)

    returncode, output = launcher_runs.signal_launcher(
        self.directory, signal.SIGTERM, actors_asked_for, _DISTRIBUTED)
    self.assertEqual(returncode, 0, output[-3000:])
    # Whichever phase the signal comes in ('starting Ray and the actors' on
    # a loaded machine, a later one otherwise).
    self.assertRegex(output, r'Stopped by SIGTERM while [A-Za-z ]+, before the '
                     'first learner step: nothing was saved.')
    self.assertNotIn('Traceback', output)
    self.assertNotIn('*** SIGTERM received', output)
    self.assertNotIn('LOCK', os.listdir(os.path.join(self.directory, 'run')))
    self.assertIn('raylet', ' '.join(self.started.values()))
    self.assertEqual(self._survivors(), {})

  def test_kill_9_of_the_driver_leaves_no_ray_process(self):

    def agents_started(unused_directory, pid):
      # They outlived the driver. They start within seconds of the raylet
      # (on a loaded machine after the actors are asked for).
      commands = self._follow(pid)
      return all(agent in commands for agent in _AGENTS)

    returncode, output = launcher_runs.signal_launcher(
        self.directory, signal.SIGKILL, agents_started, _DISTRIBUTED)
    self.assertEqual(returncode, -signal.SIGKILL, output[-3000:])
    commands = ' '.join(self.started.values())
    for process in ('raylet', 'gcs_server') + _AGENTS:
      self.assertIn(process, commands)  # What is checked below existed.
    self.assertEqual(self._survivors(), {})
