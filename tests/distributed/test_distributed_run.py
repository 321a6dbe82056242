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
"""A distributed run on a local Ray: actors -> replay -> learner -> actors.

One run with two self-play actors serves every test here (Ray and the
actors' TensorFlow take most of the time): the data flows, the actors see
newer weights, and an actor killed with kill -9 comes back. The actors play
continuously (a new game in each slot as its game ends, the games sent as
they end); the reanalysis and driver tests run actors that play rounds.
"""

import os

# Before Ray is imported: a private instance on the loopback interface.
os.environ['RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'] = '0'

# pylint: disable=g-import-not-at-top,wrong-import-position
import dataclasses
import glob
import shutil
import tempfile
import time

import pytest
import tensorflow as tf

from muzero_snt.run import experiment

from muzero_snt.run import run_config
from muzero_snt import presets
from muzero_snt.distributed import weight_store
from tests import testing
from tests.distributed import ray_testing

ray = pytest.importorskip('ray')
# pylint: enable=g-import-not-at-top,wrong-import-position

# The actor killed, and when (learner steps).
_KILLED, _KILL_AT = 0, 5
# Give up (the test fails) after this many learner steps.
_MAX_STEPS = 3000
# Games each actor plays at once.
_NUM_ENVS = 4
# Learner steps between evaluations; games per opponent and side.
_EVAL_INTERVAL, _EVAL_GAMES = 20, 6


def tiny_tictactoe_config(**changes):
  """Tic-tac-toe with a 4-channel tower and 4 simulations: fast actors."""
  config = presets.get_preset('tictactoe')
  network = dataclasses.replace(config.network, channels=4, head_layers=(8,),
                                prediction_blocks=0)
  fields = dict(network=network, batch_size=8, num_unroll_steps=2,
                td_steps=3, num_simulations=4, training_steps=_MAX_STEPS,
                checkpoint_interval=_MAX_STEPS)
  fields.update(changes)
  return config.replace(**fields)


class _Observer:
  """`on_round` of the run: kills an actor, records what the actors see,
  and stops the run once the killed actor has played again."""

  def __init__(self):
    self.versions = []  # [(learner step, [each actor's weights version])]
    self.killed_pid = None
    self.registrations = None
    self.stats = None
    self.evaluations = []
    self.statuses = []

  def __call__(self, loop) -> bool:
    source, steps = loop.source, loop.learner.steps
    workers = source.workers
    if steps == _KILL_AT and self.killed_pid is None:
      self.killed_pid = ray_testing.kill(workers[_KILLED])
    if steps % 10:
      return False
    statuses = ray_testing.statuses(workers)
    if statuses is None:
      return False  # The killed actor is restarting.
    self.versions.append((steps, [s['version'] for s in statuses]))
    self.registrations = ray.get(source.service.registrations.remote())
    restarted = (self.killed_pid is not None and
                 len(self.registrations[_KILLED]) == 2 and
                 statuses[_KILLED]['rounds'] >= 1)
    self.evaluations = ray.get(source.evaluator.results.remote())
    self.statuses = statuses
    if restarted and steps >= 60 and len(self.evaluations) >= 2:
      self.stats = source.stats()
      return True
    return False


class DistributedRunTest(testing.TestCase):

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    ray_testing.start_ray()
    cls.observer = _Observer()
    cls.start = time.time()
    cls.logdir = tempfile.mkdtemp()
    cls.loop = experiment.run(
        run_config.RunConfig(
            config=tiny_tictactoe_config(),
            preset='tictactoe', num_actors=2, num_envs=_NUM_ENVS,
            train_ratio=0.5, continuous_selfplay=True, search='graph', jit_compile=False, publish_interval=5,
            log_every=20, logdir=cls.logdir, eval_interval=_EVAL_INTERVAL,
            eval_games=_EVAL_GAMES),
        on_round=cls.observer)
    cls.seconds = time.time() - cls.start

  @classmethod
  def tearDownClass(cls):
    shutil.rmtree(cls.logdir, ignore_errors=True)
    ray.shutdown()
    super().tearDownClass()

  def test_the_learner_trains_on_the_actors_games(self):
    loop = self.loop
    self.assertBetween(loop.learner.steps, 60, _MAX_STEPS - 1)
    stats = self.observer.stats
    # Every learner step was owed by the admitted games at r = 0.5. The
    # service grants a step per batch handed out, and the learner asks for
    # the next batch as soon as it has one: one grant ahead at most.
    self.assertIn(stats['learner_steps'] - loop.learner.steps, (0, 1))
    self.assertGreaterEqual(0.5 * stats['counted_env_steps'],
                            stats['learner_steps'])
    self.assertGreater(stats['games'], 0)
    self.assertEqual(stats['positions'], stats['env_steps'])

  def test_continuous_actors_send_games_as_they_end(self):
    # Tic-tac-toe games started together end on different moves (5 to 9):
    # rounds would send _NUM_ENVS games per insert, these send them as
    # they end, fewer at a time, unless the service held the last insert.
    # One actor's few inserts can each carry _NUM_ENVS games (the restarted
    # actor's first games may end on one move), so the run's are counted.
    statuses = self.observer.statuses
    for status in statuses:
      self.assertGreater(status['inserts'], 0)
      # A `play_games` call ends once _NUM_ENVS games have ended.
      self.assertGreaterEqual(status['games'],
                              _NUM_ENVS * status['rounds'])
    self.assertLess(sum(s['games'] for s in statuses),
                    _NUM_ENVS * sum(s['inserts'] for s in statuses))
    stats = self.observer.stats
    # Only finished games reach the buffer, every position of each.
    self.assertEqual(stats['positions'], stats['env_steps'])

  def test_actors_play_with_newer_weights_as_the_learner_publishes(self):
    versions = self.observer.versions
    self.assertNotEmpty(versions)
    for steps, seen in versions:
      for version in seen:
        if version == weight_store.NO_VERSION:
          continue  # A restarted actor before its first look.
        # Published every 5 steps: a version is a learner step <= now.
        self.assertEqual(version % 5, 0)
        self.assertLessEqual(version, steps)
    newest = [max(seen) for _, seen in versions]
    self.assertEqual(newest, sorted(newest))
    self.assertGreater(newest[-1], newest[0])

  def test_a_killed_actor_is_restarted_and_plays_again(self):
    pids = self.observer.registrations[_KILLED]
    self.assertEqual(pids[0], self.observer.killed_pid)
    self.assertLen(pids, 2)
    self.assertNotEqual(pids[1], pids[0])
    # Its replacement registered again: the service saw both processes.
    self.assertLen(self.observer.registrations[1 - _KILLED], 1)

  def test_the_evaluator_writes_eval_scalars_of_published_weights(self):
    evaluations = self.observer.evaluations
    self.assertGreaterEqual(len(evaluations), 2)
    steps = [step for step, _ in evaluations]
    self.assertEqual(steps, sorted(steps))
    self.assertTrue(all(b - a >= _EVAL_INTERVAL
                        for a, b in zip(steps, steps[1:])))
    games = 2 * _EVAL_GAMES  # Per opponent, both sides.
    for _, scalars in evaluations:
      for opponent in ('perfect', 'random'):
        rates = [scalars[f'eval/{opponent}/{name}_rate']
                 for name in ('win', 'draw', 'loss')]
        self.assertAlmostEqual(sum(rates), 1.)
        for rate in rates:  # Whole games out of `games`.
          self.assertAlmostEqual(rate * games, round(rate * games))
      # A perfect player is never beaten.
      self.assertEqual(scalars['eval/perfect/win_rate'], 0.)
    written = {}
    for path in glob.glob(os.path.join(self.logdir, 'events.out.*')):
      for event in tf.compat.v1.train.summary_iterator(path):
        for value in event.summary.value:
          if value.tag == 'eval/random/win_rate':
            written[event.step] = float(tf.make_ndarray(value.tensor))
    for step, scalars in evaluations:
      self.assertAlmostEqual(written[step], scalars['eval/random/win_rate'])
