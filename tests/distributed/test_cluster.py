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
take none. One run serves every test: where each process landed.
"""

import os

# Before Ray is imported: every node on the loopback interface.
os.environ['RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'] = '0'

# pylint: disable=g-import-not-at-top,wrong-import-position
import socket
import time

import pytest

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


def _node_id(unused_self) -> str:
  """Run by an actor (`__ray_call__`): its node's id."""
  return ray.get_runtime_context().get_node_id()


class _Observer:
  """`on_round` of the run: records where every process runs."""

  def __init__(self):
    self.placed = None  # {process: node id}
    self.raylets = 0  # This machine's raylets: one per node.
    self.listeners = None

  def __call__(self, loop) -> bool:
    source, steps = loop.source, loop.learner.steps
    if self.placed is None and steps % 5 == 0:
      named = ([(f'actor {i}', h) for i, h in enumerate(source.workers)] +
               [(f'reanalyser {i}', h)
                for i, h in enumerate(source.reanalyse_workers)] +
               [('evaluator', source.evaluator)])
      statuses = ray_testing.statuses([h for _, h in named])
      if statuses is None:
        return False  # Still starting.
      self.placed = {name: s['node'] for (name, _), s in zip(named, statuses)}
      for name, handle in (('service', source.service),
                           ('weight store', source.weight_store)):
        self.placed[name] = ray.get(handle.__ray_call__.remote(_node_id))
      self.placed['learner'] = ray.get_runtime_context().get_node_id()
      processes = ray_testing.descendants(os.getpid())
      self.raylets = sum('raylet' in c.split()[0] for c in processes.values())
      self.listeners = ray_testing.wildcard_listeners(
          [os.getpid()] + [pid for pid, _ in processes])
    return self.placed is not None and steps >= 20


class ClusterRunTest(testing.TestCase):

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    cls.start = time.time()
    cls.cluster, cls.nodes = ray_testing.start_cluster(_CPUS)
    cls.observer = _Observer()
    config = test_distributed_run.tiny_tictactoe_config(
        reanalyze_fraction=0.5, training_steps=_MAX_STEPS)
    cls.loop = experiment.run(
        run_config.RunConfig(
            config=config, preset='tictactoe', num_actors=2, num_envs=4,
            train_ratio=0.5, continuous_selfplay=True, search='graph',
            jit_compile=False, publish_interval=5, log_every=20,
            ray_address=cls.cluster.address, num_reanalyze_workers=1,
            reanalyze_placement='resource:node_b', eval_interval=1000,
            eval_games=1, evaluator_placement='resource:node_a'),
        on_round=cls.observer)
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
