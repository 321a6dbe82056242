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
"""Two replay shards on a Ray cluster of three nodes on this machine.

Shard 0 runs on the head beside the learner's source (this process), shard
1 on node_b (`resource:node_b`), every server on the loopback interface.
The source samples both and sends each batch's priorities back to the
shard it came from; then node_b is removed and the source goes on from
shard 0, logging what shard 1 held.
"""

import os

# Before Ray is imported: every node on the loopback interface.
os.environ['RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'] = '0'

# pylint: disable=g-import-not-at-top,wrong-import-position
import pickle
import time
import types
from unittest import mock

import numpy as np
import pytest

from muzero_snt import replay as replay_lib
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import replay_source
from muzero_snt.distributed import runner
from muzero_snt.distributed import ray_support
from tests import testing
from tests.distributed import ray_testing

ray = pytest.importorskip('ray')
# pylint: enable=g-import-not-at-top,wrong-import-position

# Ray's checks of its nodes, every 0.5 s, a node dead after 3 failed ones.
_HEALTH_CHECKS = {'health_check_period_ms': 500,
                  'health_check_failure_threshold': 3}


def _game(length, seed):
  game = testing.random_game(length, seed)
  return replay_service.Game(game, 0.)


def _node_id(unused_self) -> str:
  """Run by an actor (`__ray_call__`): its node's id."""
  return ray.get_runtime_context().get_node_id()


class ShardClusterTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    self.cluster, self.nodes = ray_testing.start_cluster(
        {'head': 0, 'node_a': 1, 'node_b': 1},
        _system_config=_HEALTH_CHECKS)
    self.addCleanup(self.cluster.shutdown)
    ray_support.connect(self.cluster.address)
    self.addCleanup(ray.shutdown)

  def test_batches_from_both_shards_then_from_the_one_left(self):
    config = testing.tiny_mlp_config(
        window_size=10, batch_size=4, num_unroll_steps=2, td_steps=2,
        discount=0.5, prioritized_replay=True)
    shards = []
    for k, placement in enumerate(('learner', 'resource:node_b')):
      settings = types.SimpleNamespace(
          replay_placement=placement, actor_placement='spread',
          reanalyze_placement='spread', evaluator_placement='learner')
      shards.append(runner._actor(
          ray, replay_service.ReplayService, settings).remote(
              config, 4., 0, max_ahead=200, wait_for_restore=True, shard=k,
              num_shards=2))
    ray.get([s.restore.remote(None, replay_service.NO_COUNTS)
             for s in shards])
    self.assertEqual(
        [ray.get(s.__ray_call__.remote(_node_id)) for s in shards],
        [self.nodes['head'].node_id, self.nodes['node_b'].node_id])
    # 30 and 10 positions; with r = 4 the counted games owe 80 and 20
    # learner steps (a shard's first game, below a batch, owes none).
    ray.get(shards[0].insert.remote(0, [_game(10, s) for s in range(3)]))
    ray.get(shards[1].insert.remote(1, [_game(5, s) for s in (3, 4)]))
    learner = types.SimpleNamespace(steps=0, network=None)
    source = replay_source.ReplayServiceSource(
        config, learner, shards, weights=None, publish_interval=1)
    self.assertEqual(source.stats()['positions'], 40)
    while None in source._masses:  # Both shards' first answers.
      source._poll_masses()
      time.sleep(0.1)
    updated = ([], [])  # Keys updated in each shard.
    for i in range(30):  # Shard 1's 1/4 of the batches, one at least.
      if i >= 12 and updated[1]:
        break
      _, keys = source.sample()
      shard = source._drawn[0]
      source.update_priorities(keys, np.full(len(keys), 7.))
      updated[shard].extend(map(tuple, keys.tolist()))
    ray.get(source._pending_update[1])
    self.assertTrue(updated[0] and updated[1], updated)
    for shard, keys in zip(shards, updated):
      buffer = pickle.loads(ray.get(shard.snapshot.remote())[0])
      stored = [(g, t) for g in buffer.game_ids
                for t in range(buffer.game(g).length)]
      priorities = dict(zip(stored, buffer.get_priorities(stored)))
      for key in stored:  # 7 where updated here, never elsewhere.
        self.assertEqual(priorities[key] == 7. + replay_lib.PRIORITY_EPSILON,
                         key in keys, key)
    self.cluster.remove_node(self.nodes['node_b'], allow_graceful=False)
    with mock.patch.object(replay_source, '_BATCH_GRACE', 1.), \
        mock.patch.object(replay_source, '_SILENT_SECONDS', 1.), \
        self.assertLogs('absl', level='WARNING') as logs:
      # Until shard 1 is out (a batch or a question it leaves unanswered),
      # then batches from shard 0 only.
      for _ in range(20):
        source.sample()
        if 1 in source._lost:
          break
        time.sleep(0.2)
      for _ in range(4):
        source.sample()
        self.assertEqual(source._drawn[0], 0)
    lost = [line for line in logs.output if 'Replay shard 1 (of 2)' in line]
    self.assertLen(lost, 1)
    self.assertIn('Lost from the sampling: its 10 positions (2 games)',
                  lost[0])
    self.assertIn('replay_placement', lost[0])
