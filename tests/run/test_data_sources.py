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
"""Tests for muzero_snt.run.data_sources: training on a saved replay file."""

import os
import re
import tempfile

import numpy as np
import tensorflow as tf

from muzero_snt.run import data_sources
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import search as search_lib
from muzero_snt.run import training_loop
from tests import test_reanalysis
from tests import testing


def _config(**changes):
  fields = dict(training_steps=6, checkpoint_interval=2,
                prioritized_replay=True, reanalyze_fraction=1.0,
                target_update_interval=2)
  fields.update(changes)
  return test_reanalysis._config(**fields)  # pylint: disable=protected-access


def _replay_file(config, directory):
  buffer = replay_lib.ReplayBuffer(config, seed=7)
  for i, length in enumerate((5, 8, 6, 4)):
    buffer.save_game(test_reanalysis._game(  # pylint: disable=protected-access
        length, seed=i))
  path = os.path.join(directory, 'replay.npz')
  buffer.save(path)
  return path


def _run(config, path, checkpoint_dir, init_seed=0):
  """A learner on the file with reanalysis, restored from the directory."""
  tf.random.set_seed(init_seed)
  network = networks.make_network(config)
  learner = learning.Learner(network, config)
  reanalyser = reanalysis.Reanalyser(
      config, network, search_lib.make_search(config, network, 'graph'),
      lambda: learner.steps, seed=3)
  source = data_sources.FixedReplay(config, path, seed=3,
                                     reanalyser=reanalyser)
  loop = training_loop.TrainingLoop(config, learner, source,
                                    checkpoint_dir=checkpoint_dir)
  return learner, loop


class FixedReplayTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    self.directory = tempfile.mkdtemp(dir=self.get_temp_dir())

  def test_resumed_run_with_reanalysis_equals_an_uninterrupted_one(self):
    config = _config()
    path = _replay_file(config, self.directory)
    unbroken, unbroken_loop = _run(config, path, None)
    unbroken_loop.run()
    self.assertEqual(unbroken.steps, 6)
    checkpoints = os.path.join(self.directory, 'checkpoints')
    _, first_loop = _run(config.replace(training_steps=3), path, checkpoints)
    first_loop.run()
    # Another process: other initial weights, the checkpoint restores all.
    resumed, resumed_loop = _run(config, path, checkpoints, init_seed=1)
    self.assertEqual(resumed.steps, 3)
    resumed_loop.run()
    for x, y in zip(unbroken.network.variables, resumed.network.variables):
      self.assertAllEqual(x, y)
    for x, y in zip(unbroken.optimizer.variables,
                    resumed.optimizer.variables):
      self.assertAllEqual(x, y)
    a, b = unbroken_loop.source.counters(), resumed_loop.source.counters()
    for x, y in zip(a['reanalyse_target_network'].variables,
                    b['reanalyse_target_network'].variables):
      self.assertAllEqual(x, y)
    self.assertEqual(int(b['reanalyse_target_network_step']), 4)
    keys = [(g, t) for g in unbroken_loop.replay.game_ids
            for t in range(unbroken_loop.replay.game(g).length)]
    self.assertAllEqual(unbroken_loop.replay.get_priorities(keys),
                        resumed_loop.replay.get_priorities(keys))
    self.assertEqual(unbroken_loop.games, 0)  # No game was ever played.

  def test_without_reanalysis_batches_are_the_files(self):
    config = _config(reanalyze_fraction=0.)
    path = _replay_file(config, self.directory)
    source = data_sources.FixedReplay(config, path, seed=9)
    twin = replay_lib.ReplayBuffer.restore(config, path, seed=9)
    for _ in range(2):
      batch, keys = source.sample()
      expected, expected_keys = twin.sample_batch()
      self.assertAllEqual(keys, expected_keys)
      for field, value in expected._asdict().items():
        self.assertAllEqual(getattr(batch, field), value)

  def test_files_that_do_not_fit_are_named(self):
    config = _config()
    path = _replay_file(config, self.directory)
    with self.assertRaisesRegex(
        ValueError, re.escape(path) + ' holds data for action_space_size = '
        '3, but the config has 2'):
      data_sources.load_replay(config.replace(action_space_size=2), path)
    empty = os.path.join(self.directory, 'empty.npz')
    replay_lib.ReplayBuffer(config).save(empty)
    with self.assertRaisesRegex(ValueError, re.escape(empty) +
                                ' holds no games'):
      data_sources.FixedReplay(config, empty)
    with self.assertRaisesRegex(ValueError, 'is not a readable replay file'):
      data_sources.FixedReplay(config, os.path.join(self.directory, 'none'))


if __name__ == '__main__':
  tf.test.main()
