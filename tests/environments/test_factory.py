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
"""Tests of the environments package: make_environment and public names."""

from absl.testing import absltest
import numpy as np

from muzero_snt import environments
from muzero_snt import presets

try:
  import gymnasium  # pylint: disable=g-import-not-at-top
except ImportError:
  gymnasium = None


class MakeEnvironmentTest(absltest.TestCase):

  def test_tictactoe_fits_its_preset(self):
    env = environments.make_environment('tictactoe', seed=5)
    self.assertIsInstance(env, environments.TicTacToe)
    # The checks raise if the specs differ from the preset's.
    checked = environments.CheckedEnvironment.from_config(
        env, presets.make_tictactoe_config())
    self.assertEqual(checked.num_players,
                     presets.make_tictactoe_config().num_players)

  @absltest.skipIf(gymnasium is None,
                   "gymnasium is not installed (pip install -e '.[envs]').")
  def test_cartpole_fits_its_preset_and_takes_the_seed(self):
    env = environments.make_environment('cartpole', seed=5)
    self.assertIsInstance(env, environments.GymnasiumEnvironment)
    environments.CheckedEnvironment.from_config(
        env, presets.make_cartpole_config())
    expected, _ = gymnasium.make('CartPole-v1').reset(seed=5)
    np.testing.assert_array_equal(env.reset().observation, expected)
    self.assertEqual(env.gymnasium_env.spec.max_episode_steps,
                     presets.make_cartpole_config().max_moves)

  def test_every_name_has_a_preset(self):
    self.assertContainsSubset(environments.ENVIRONMENTS, presets.PRESETS)

  def test_an_unknown_name_lists_the_known_ones(self):
    with self.assertRaisesRegex(
        ValueError, r"Unknown environment 'chess'; expected one of "
        r"\['cartpole', 'tictactoe'\]"):
      environments.make_environment('chess')


class PublicNamesTest(absltest.TestCase):

  def test_all_lists_the_public_names(self):
    public = {name for name in dir(environments)
              if not name.startswith('_') and name not in (
                  # Submodules and typing helpers, not part of the API.
                  'base', 'checks', 'gym_adapter', 'tictactoe',
                  'tictactoe_players', 'Callable', 'Dict')}
    self.assertEqual(set(environments.__all__), public)
    self.assertEqual(list(environments.__all__),
                     sorted(environments.__all__))


if __name__ == '__main__':
  absltest.main()
