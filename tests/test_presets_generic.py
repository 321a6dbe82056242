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
"""Tests of configurations derived from an environment's specs."""

from absl.testing import absltest
import dm_env
from dm_env import specs
import numpy as np

from examples import corridor
from examples import nim
from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt import presets_generic

try:
  import gymnasium  # pylint: disable=g-import-not-at-top
except ImportError:
  gymnasium = None
try:
  import pyspiel  # pylint: disable=g-import-not-at-top
except ImportError:
  pyspiel = None


class Screen(dm_env.Environment):
  """A one-player task with [H, W, C] uint8 observations and 4 actions."""

  def __init__(self, shape=(8, 8, 3)):
    self._shape = shape

  def observation_spec(self):
    return specs.BoundedArray(self._shape, np.uint8, 0, 255)

  def action_spec(self):
    return specs.DiscreteArray(4)

  def reset(self):
    return dm_env.restart(np.zeros(self._shape, np.uint8))

  def step(self, action):
    return dm_env.transition(0., np.zeros(self._shape, np.uint8))


class ConfigForEnvironmentTest(absltest.TestCase):

  def test_a_vector_one_player_game_gets_an_mlp_and_one_player_targets(self):
    config = presets.config_for_environment(corridor.Corridor())
    self.assertEqual(config.observation_shape, (corridor.LENGTH,))
    self.assertEqual(config.action_space_size, 2)
    self.assertEqual(config.num_players, 1)
    self.assertEqual(config.network.kind, 'mlp')
    self.assertEqual(config.network.value_support_size, 601)
    self.assertEqual(config.max_moves, 50)  # The corridor's max_moves.
    self.assertEqual(config.td_steps, 50)
    self.assertEqual(config.discount, 0.997)
    self.assertEqual(config.root_exploration_fraction, 0.5)
    self.assertEqual(config.unvisited_q, 'parent')
    self.assertIsNone(config.known_bounds)
    temperature = config.visit_softmax_temperature_fn
    self.assertEqual([temperature(0, step) for step in (4_999, 5_000, 7_500)],
                     [1.0, 0.5, 0.25])

  def test_a_two_player_game_gets_board_game_targets(self):
    config = presets.config_for_environment(nim.Nim())
    self.assertEqual((config.num_players, config.action_space_size),
                     (2, 3))
    self.assertEqual((config.discount, config.td_steps, config.max_moves),
                     (1.0, nim.STONES, nim.STONES))
    # Scalar heads, the pseudocode's for board games.
    self.assertEqual(config.network.value_support_size, 0)
    self.assertEqual(config.network.reward_support_size, 0)
    # Temperature 1 for the first 30 moves: every move of a 7-move game.
    self.assertEqual(config.visit_softmax_temperature_fn(6, 0), 1.0)
    # AlphaZero's 10 / (number of moves), at most 1.
    self.assertEqual(config.root_dirichlet_alpha, 1.0)

  def test_a_board_or_image_gets_a_residual_tower(self):
    config = presets.config_for_environment(Screen())
    self.assertEqual(config.observation_shape, (8, 8, 3))
    self.assertEqual(config.network.kind, 'residual')
    self.assertEqual(config.network.action_encoding, 'one_hot')
    self.assertFalse(config.network.downsample)
    big = presets.config_for_environment(Screen((96, 96, 3)))
    self.assertTrue(big.network.downsample)
    # 1,000 moves of 96 x 96 x 3 float32 observations: 2**31 bytes hold
    # 19 such games.
    self.assertEqual(big.window_size, 2**31 // (1_000 * 4 * 96 * 96 * 3))

  def test_overrides_set_config_and_network_fields(self):
    config = presets.config_for_environment(
        nim.Nim(), num_simulations=10, max_moves=20, hidden_size=16,
        known_bounds=config_lib.KnownBounds(-1, 1))
    self.assertEqual(config.num_simulations, 10)
    self.assertEqual(config.network.hidden_size, 16)
    self.assertEqual(config.known_bounds, (-1, 1))
    # What follows max_moves follows the override.
    self.assertEqual(config.td_steps, 20)

  def test_unknown_and_spec_fields_are_refused(self):
    with self.assertRaisesRegex(
        ValueError, r"config_for_environment got unknown settings "
        r"\['num_simulation'\]; expected fields of MuZeroConfig or "
        r'NetworkConfig\.'):
      presets.config_for_environment(nim.Nim(), num_simulation=3)
    with self.assertRaisesRegex(
        ValueError, r"config_for_environment got \['action_space_size'\], "
        r"which the environment's specs set"):
      presets.config_for_environment(nim.Nim(), action_space_size=4)
    with self.assertRaisesRegex(
        ValueError, r"max_moves must be a positive integer, got '9'\."):
      presets.config_for_environment(nim.Nim(), max_moves='9')

  def test_a_broken_spec_is_named(self):
    game = corridor.Corridor()
    game.action_spec = lambda: specs.BoundedArray((), np.int32, 0, 1)
    with self.assertRaisesRegex(
        ValueError, r'action_spec\(\) of Corridor returned BoundedArray'):
      presets.config_for_environment(game)


@absltest.skipIf(gymnasium is None, 'gymnasium is not installed.')
class GymnasiumFamilyTest(absltest.TestCase):

  def test_the_task_sets_shapes_and_episode_length(self):
    config = presets.get_preset('gymnasium', 'Acrobot-v1')
    self.assertEqual(config.observation_shape, (6,))
    self.assertEqual(config.action_space_size, 3)
    self.assertEqual(config.max_moves, 500)  # Acrobot-v1's time limit.
    self.assertEqual(config.network.kind, 'mlp')
    self.assertEqual(presets.get_preset('gymnasium').observation_shape, (4,))

  def test_an_action_repeat_counts_the_time_limit_in_moves(self):
    environment = presets_generic.registry.make_environment(
        'gymnasium', 0, 'Acrobot-v1')
    config = presets.config_for_environment(environment, action_repeat=3)
    # 500 steps are 166 moves of 3 and one of 2.
    self.assertEqual((config.action_repeat, config.max_moves), (3, 167))

  def test_the_schedules_follow_the_run_length(self):
    # A run 4 times the default 10,000 steps decays its learning rate over
    # 40,000 steps and lowers its temperature at a half and three quarters.
    config = presets.get_preset('gymnasium', 'Acrobot-v1',
                                training_steps=40_000)
    self.assertEqual(config.training_steps, 40_000)
    self.assertEqual(config.lr_decay_steps, 40_000)
    self.assertEqual(config.visit_softmax_temperature_fn.boundaries,
                     (20_000, 30_000))
    # A named preset keeps its tuned schedule; only the length changes.
    cartpole = presets.make_cartpole_config()
    longer = presets.get_preset('cartpole', training_steps=40_000)
    self.assertEqual(longer, cartpole.replace(training_steps=40_000))

  def test_the_cartpole_preset_keeps_its_tuned_numbers(self):
    self.assertEqual(presets.get_preset('cartpole', 'CartPole-v1'),
                     presets.make_cartpole_config())

  def test_continuous_actions_and_other_observations_are_refused(self):
    with self.assertRaisesRegex(
        ValueError, r'GymnasiumEnvironment needs a Discrete action space, '
        r'got Box\(-2\.0, 2\.0, \(1,\), float32\)\.'):
      presets.get_preset('gymnasium', 'Pendulum-v1')
    with self.assertRaisesRegex(
        ValueError, r'GymnasiumEnvironment needs a Box observation space, '
        r'got Tuple\(Discrete\(32\), Discrete\(11\), Discrete\(2\)\)\.'):
      presets.get_preset('gymnasium', 'Blackjack-v1')


@absltest.skipIf(pyspiel is None, 'open-spiel is not installed.')
class OpenSpielFamilyTest(absltest.TestCase):

  def test_the_game_sets_the_board_and_bounds(self):
    config = presets.get_preset('openspiel', 'connect_four')
    # OpenSpiel's 3 planes of 6 x 7 and the player to move.
    self.assertEqual(config.observation_shape, (6, 7, 4))
    self.assertEqual(config.action_space_size, 7)
    self.assertEqual(config.max_moves, 42)
    self.assertEqual(config.known_bounds, (-1., 1.))
    self.assertEqual(config.network.kind, 'residual')
    self.assertEqual(config.network.action_encoding, 'board')
    self.assertEqual(config.num_players, 2)

  def test_games_of_other_kinds_are_refused(self):
    for game, message in (
        ('goofspiel', r"needs a game with sequential moves; 'goofspiel' is "
         r'Dynamics\.SIMULTANEOUS\.'),
        ('dark_hex', r"needs a game with perfect information; 'dark_hex' "
         r'is Information\.IMPERFECT_INFORMATION\.'),
        ('kuhn_poker(players=3)', r"needs a game with two players; "
         r"'kuhn_poker' is a 3-player game\."),
        ('backgammon', r'needs a game with deterministic moves')):
      with self.subTest(game):
        with self.assertRaisesRegex(ValueError,
                                    'OpenSpielEnvironment ' + message):
          presets.get_preset('openspiel', game)


class FamiliesTest(absltest.TestCase):

  def test_every_family_is_a_preset_name_and_unknown_ones_are_listed(self):
    self.assertContainsSubset(presets_generic.FAMILIES,
                              presets.preset_names())
    with self.assertRaisesRegex(ValueError,
                                r"Unknown family 'atari'; expected one of"):
      presets_generic.family_config('atari')
    with self.assertRaisesRegex(
        ValueError, r"Unknown preset 'gym'; expected one of \['atari', "):
      presets.get_preset('gym')


if __name__ == '__main__':
  absltest.main()
