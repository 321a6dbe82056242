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
"""Tests of the package's public face: `muzero_snt/__init__.py`."""

from absl.testing import absltest
import sonnet as snt

import muzero_snt
from muzero_snt.run import experiment
from muzero_snt.run import run_config

# The names a reader of the pseudocode looks for (its own spelling).
_PSEUDOCODE = ('MuZeroConfig', 'KnownBounds', 'make_board_game_config',
               'make_go_config', 'make_chess_config', 'make_shogi_config',
               'make_atari_config', 'NetworkOutput', 'scalar_loss',
               'update_weights', 'scale_gradient', 'MinMaxStats', 'Node',
               'run_mcts', 'ucb_score', 'backpropagate',
               'add_exploration_noise', 'select_action', 'select_child',
               'expand_node', 'ReplayBuffer', 'MAXIMUM_FLOAT_VALUE')


class PublicApiTest(absltest.TestCase):

  def test_every_exported_name_exists_once(self):
    self.assertLen(set(muzero_snt.__all__), len(muzero_snt.__all__))
    missing = [n for n in muzero_snt.__all__ if not hasattr(muzero_snt, n)]
    self.assertEqual(missing, [])

  def test_the_pseudocodes_names_are_exported(self):
    self.assertEqual(
        [n for n in _PSEUDOCODE if n not in muzero_snt.__all__], [])
    self.assertIs(muzero_snt.scale_gradient, snt.scale_gradient)

  def test_the_run_is_one_entry_point_and_its_settings(self):
    self.assertIs(muzero_snt.train, experiment.run)
    self.assertIs(muzero_snt.RunConfig, run_config.RunConfig)
    # The machinery itself is reached through its subpackage.
    for name in ('TrainingLoop', 'SelfPlay', 'SyntheticBatches',
                 'FixedReplay', 'make_strategy', 'experiment'):
      self.assertNotIn(name, muzero_snt.__all__)

  def test_exported_names_are_sorted_for_readers(self):
    self.assertEqual(list(muzero_snt.__all__),
                     sorted(muzero_snt.__all__))


if __name__ == '__main__':
  absltest.main()
