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
"""A distributed run on a Ray cluster of three nodes on this machine.

`ray_testing.start_cluster` starts a head and two more nodes, each a
raylet of its own with its CPUs and a custom resource naming it, every
server on the loopback interface; the run joins it by `ray_address`, as
on a real cluster. The head has no CPU for Ray's processes: it holds the
learner (this process), the replay service and the weight store, which
take none. One run serves every test: where each process landed, and a
node lost mid-run (its processes killed with kill -9, as a machine that
is switched off): the run goes on, Ray starts its actor again on the node
left, with the newest weights, and the logs say what was lost.
"""

import os

# Before Ray is imported: every node on the loopback interface.
os.environ['RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'] = '0'

# pylint: disable=g-import-not-at-top,wrong-import-position
import logging
import socket
import time
from unittest import mock

import pytest

from muzero_snt.distributed import health
from muzero_snt.distributed import replay_source
from muzero_snt.run import experiment
from muzero_snt.run import run_config
from tests import testing
from tests.distributed import ray_testing
from tests.distributed import test_distributed_run

ray = pytest.importorskip('ray')
# pylint: enable=g-import-not-at-top,wrong-import-position

# Each node's CPUs for Ray's processes, the head's first.
_CPUS = {'head': 0, 'node_a': 2, 'node_b': 3}
# Give up (the test fails) after this many learner steps.
_MAX_STEPS = 2000
# Learner steps after the placement is seen, before node_a is removed; and
# after the actor restarted on node_b, before the run stops.
_REMOVE_AFTER, _RUN_AFTER = 10, 10
# Ray's checks of its nodes, every 0.5 s (3 s by default), a node dead
# after 3 failed ones (5): a killed node is noticed within seconds.
_HEALTH_CHECKS = {'health_check_period_ms': 500,
                  'health_check_failure_threshold': 3}


def _node_id(unused_self) -> str:
  """Run by an actor (`__ray_call__`): its node's id."""
  return ray.get_runtime_context().get_node_id()


class _Lines(logging.Handler):
  """Keeps the messages of the warnings logged."""

  def __init__(self):
    super().__init__(logging.WARNING)
    self.lines = []

  def emit(self, record):
    self.lines.append(record.getMessage())


class _Observer:
  """`on_round` of the run: records where every process runs, removes
  node_a, and stops the run once the actor that ran there plays again."""

  def __init__(self, cluster, nodes, lines):
    self.cluster, self.nodes, self.lines = cluster, nodes, lines
    self.placed = None  # {process: node id}
    self.raylets = 0  # This machine's raylets: one per node.
    self.listeners = None
    self.removed_at = None  # (learner step, newest published version)
    self.moved = None  # The actor that ran on node_a.
    self.restarted = None  # (learner step, its status) once it plays.
    self.pids = None  # Each actor's process id before the removal.
    self.placed_at = None  # Learner step.

  def _named(self, source):
    return ([(f'actor {i}', h) for i, h in enumerate(source.workers)] +
            [(f'reanalyser {i}', h)
             for i, h in enumerate(source.reanalyse_workers)] +
            [('evaluator', source.evaluator)])

  def __call__(self, loop) -> bool:
    source, steps = loop.source, loop.learner.steps
    if steps % 5:
      return False
    if self.placed is None:
      named = self._named(source)
      statuses = ray_testing.statuses([h for _, h in named])
      if statuses is None:
        return False  # Still starting.
      self.placed = {name: s['node'] for (name, _), s in zip(named, statuses)}
      self.pids = [s['pid'] for s in statuses[:len(source.workers)]]
      for name, handle in (('service', source.service),
                           ('weight store', source.weight_store)):
        self.placed[name] = ray.get(handle.__ray_call__.remote(_node_id))
      self.placed['learner'] = ray.get_runtime_context().get_node_id()
      processes = ray_testing.descendants(os.getpid())
      self.raylets = sum('raylet' in c.split()[0] for c in processes.values())
      self.listeners = ray_testing.wildcard_listeners(
          [os.getpid()] + [pid for pid, _ in processes])
      self.placed_at = steps
    elif self.removed_at is None:
      if steps >= self.placed_at + _REMOVE_AFTER:
        node_a = self.nodes['node_a'].node_id
        self.moved = [self.placed[f'actor {i}']
                      for i in range(len(self.pids))].index(node_a)
        self.removed_at = (steps, source.published_version)
        self.cluster.remove_node(self.nodes['node_a'], allow_graceful=False)
    elif self.restarted is None:
      status = ray_testing.statuses([source.workers[self.moved]])
      if status and status[0]['pid'] != self.pids[self.moved] and (
          status[0]['games']):
        self.restarted = (steps, status[0])
    else:
      # On until the learner's own checks (every 2 s) have said both: the
      # actor's new process and the evaluator's silence.
      said = ('The evaluator has not answered',
              f'Self-play actor {self.moved} runs again')
      return steps >= self.restarted[0] + _RUN_AFTER and all(
          any(line.startswith(start) for line in self.lines.lines)
          for start in said)
    return False


class ClusterRunTest(testing.TestCase):

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    cls.start = time.time()
    cls.cluster, cls.nodes = ray_testing.start_cluster(
        _CPUS, _system_config=_HEALTH_CHECKS)
    cls.lines = _Lines()
    cls.observer = _Observer(cls.cluster, cls.nodes, cls.lines)
    config = test_distributed_run.tiny_tictactoe_config(
        reanalyze_fraction=0.5, training_steps=_MAX_STEPS)
    logger = logging.getLogger('absl')
    logger.addHandler(cls.lines)
    try:
      # The learner looks at its workers every 2 s (10), and says so of
      # one silent for 5 s (30).
      with mock.patch.object(replay_source, '_CHECK_INTERVAL', 2.), \
          mock.patch.object(health, 'SILENT_SECONDS', 5.):
        cls.loop = experiment.run(
            run_config.RunConfig(
                config=config, preset='tictactoe', num_actors=2, num_envs=4,
                train_ratio=0.5, continuous_selfplay=True, search='graph',
                jit_compile=False, publish_interval=5, log_every=20,
                ray_address=cls.cluster.address, num_reanalyze_workers=1,
                reanalyze_placement='resource:node_b', eval_interval=1000,
                eval_games=1, evaluator_placement='resource:node_a'),
            on_round=cls.observer)
    finally:
      logger.removeHandler(cls.lines)
    cls.seconds = time.time() - cls.start

  @classmethod
  def tearDownClass(cls):
    ray.shutdown()
    cls.cluster.shutdown()
    super().tearDownClass()

  def test_every_process_runs_where_its_placement_says(self):
    node = {name: n.node_id for name, n in self.nodes.items()}
    placed = self.observer.placed
    # The learner joined the head (Ray's choice among this machine's
    # nodes), and the service and the store run beside it.
    for process in ('learner', 'service', 'weight store'):
      self.assertEqual(placed[process], node['head'], process)
    # Spread: one actor on each node with CPUs (the head has none).
    self.assertCountEqual([placed['actor 0'], placed['actor 1']],
                          [node['node_a'], node['node_b']])
    self.assertEqual(placed['reanalyser 0'], node['node_b'])
    self.assertEqual(placed['evaluator'], node['node_a'])

  def test_a_lost_node_s_actor_plays_again_on_the_node_left(self):
    node = {name: n.node_id for name, n in self.nodes.items()}
    observer = self.observer
    removed_step, published = observer.removed_at
    restarted_step, status = observer.restarted
    self.assertEqual(status['node'], node['node_b'])
    # Its new process took weights no older than the newest at the removal.
    self.assertGreaterEqual(status['version'], published)
    # The learner never stopped: it went on while the node was lost and
    # Ray started the actor again, and after.
    self.assertGreater(restarted_step, removed_step)
    self.assertGreaterEqual(self.loop.learner.steps,
                            restarted_step + _RUN_AFTER)
    self.assertLess(self.loop.learner.steps, _MAX_STEPS)

  def test_what_a_lost_node_held_is_logged(self):
    lines = self.lines.lines
    moved = f'Self-play actor {self.observer.moved}'
    lost = [line for line in lines if line.startswith('Ray lost node ')]
    self.assertLen(lost, 1)
    self.assertIn(f'node {self.nodes["node_a"].node_id[:8]} (127.0.0.1)',
                  lost[0])
    self.assertIn(f'{moved} and the evaluator ran there', lost[0])
    again = [line for line in lines if line.startswith(f'{moved} runs again')]
    self.assertLen(again, 1)
    self.assertIn(f'node {self.nodes["node_b"].node_id[:8]}', again[0])
    self.assertIn('Lost: the games it was playing', again[0])
    # No node has resource node_a any more: the evaluator waits, said once.
    silent = [line for line in lines
              if line.startswith('The evaluator has not answered')]
    self.assertLen(silent, 1)
    self.assertIn(f'node {self.nodes["node_a"].node_id[:8]} (127.0.0.1), '
                  'now gone, died', silent[0])
    self.assertIn('evaluator_placement', silent[0])

  def test_no_process_of_the_cluster_listens_beyond_the_loopback(self):
    self.assertEqual(self.observer.raylets, len(_CPUS))
    self.assertEqual(self.observer.listeners, {})
    self.assertLess(self.loop.learner.steps, _MAX_STEPS)
    # What the check would have found: a socket on every interface.
    with socket.socket() as probe:
      probe.bind(('0.0.0.0', 0))
      probe.listen()
      port = probe.getsockname()[1]
      self.assertEqual(ray_testing.wildcard_listeners([os.getpid()]),
                       {os.getpid(): [f'0.0.0.0:{port}']})
