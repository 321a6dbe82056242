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
try:
  import ale_py  # pylint: disable=g-import-not-at-top
except ImportError:
  ale_py = None
try:
  import pyspiel  # pylint: disable=g-import-not-at-top
except ImportError:
  pyspiel = None
try:
  import minatar  # pylint: disable=g-import-not-at-top
except ImportError:
  minatar = None

# The package each environment needs, by its `pip install` extra.
_PACKAGES = {'envs': gymnasium, 'atari': ale_py, 'openspiel': pyspiel,
             'minatar': minatar}


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

  def test_every_preset_has_an_environment(self):
    self.assertCountEqual(environments.ENVIRONMENTS, presets.preset_names())

  def test_every_environment_fits_its_preset(self):
    # The presets write their shapes out (they must import without the
    # optional packages); the adapters compute them from the games.
    for name, entry in environments.ENVIRONMENTS.items():
      with self.subTest(name):
        if entry.extra and _PACKAGES[entry.extra] is None:
          self.skipTest(f'{name} needs the {entry.extra!r} extra.')
        env = environments.make_environment(name, seed=1)
        config = presets.get_preset(name)
        checked = environments.CheckedEnvironment.from_config(env, config)
        self.assertEqual(checked.num_players, config.num_players)
        self.assertEqual(env.action_spec().num_values,
                         config.action_space_size)
        env.close()

  @absltest.skipIf(ale_py is None, 'ale-py is not installed.')
  def test_a_title_chooses_the_atari_game(self):
    env = environments.make_environment('atari_small', 3, title='Breakout')
    self.assertEqual(env.game, 'breakout')
    self.assertEqual(env.num_stacked_frames, 4)
    self.assertEqual(environments.make_environment('atari', 3).game, 'pong')

  @absltest.skipIf(minatar is None, 'minatar is not installed.')
  def test_a_title_chooses_the_minatar_game(self):
    config = presets.get_preset('minatar')
    env = environments.make_environment('minatar')
    self.assertEqual(env.game, 'breakout')
    # Episodes are cut at the preset's max_moves, so evaluations end.
    self.assertEqual(env.max_episode_steps, config.max_moves)
    for title, game in (('asterix', 'asterix'), ('Freeway', 'freeway'),
                        ('seaquest', 'seaquest'),
                        ('SpaceInvaders', 'space_invaders')):
      env = environments.make_environment('minatar', 3, title=title)
      self.assertEqual(env.game, game)
      # Every game padded to one shape, the preset's.
      environments.CheckedEnvironment.from_config(env, config)

  def test_board_games_take_no_title(self):
    with self.assertRaisesRegex(
        ValueError, r"Environment 'connect4' takes no title, got 'Pong'; "
        r"titles choose the game of \['atari', 'atari_small', 'cartpole', "
        r"'gymnasium', 'minatar', 'openspiel'\]"):
      environments.make_environment('connect4', title='Pong')

  def test_an_unknown_name_lists_the_known_ones(self):
    with self.assertRaisesRegex(
        ValueError, r"Unknown environment 'checkers'; expected one of "
        r"\['atari', 'atari_small', 'cartpole', 'chess', 'connect4', 'go', "
        r"'go9', 'gymnasium', 'minatar', 'openspiel', 'shogi', 'tictactoe'\]"):
      environments.make_environment('checkers')


class PublicNamesTest(absltest.TestCase):

  def test_all_lists_the_public_names(self):
    public = {name for name in dir(environments)
              if not name.startswith('_') and name not in (
                  # Submodules and typing helpers, not part of the API.
                  'action_repeat', 'atari', 'base', 'checks', 'factories',
                  'gym_adapter',
                  'minatar_adapter', 'openspiel', 'openspiel_players',
                  'registry', 'tictactoe', 'tictactoe_players')}
    self.assertEqual(set(environments.__all__), public)
    self.assertEqual(list(environments.__all__),
                     sorted(environments.__all__))


if __name__ == '__main__':
  absltest.main()
