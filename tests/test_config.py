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
"""Tests for muzero_snt.config: temperatures, validation, immutability."""

import dataclasses
import re

import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import config as config_lib
from tests import testing

KnownBounds = config_lib.KnownBounds
MuZeroConfig = config_lib.MuZeroConfig
NetworkConfig = config_lib.NetworkConfig


def _valid_kwargs(**changes):
  """Every field of a small valid MuZeroConfig, with `changes` applied."""
  kwargs = dict(
      action_space_size=4,
      max_moves=20,
      discount=0.99,
      root_dirichlet_alpha=0.25,
      num_simulations=8,
      batch_size=16,
      td_steps=5,
      lr_init=0.01,
      lr_decay_steps=1000.,
      visit_softmax_temperature_fn=config_lib.MoveCountTemperature(10),
      known_bounds=None,
      root_exploration_fraction=0.25,
      pb_c_base=19652,
      pb_c_init=1.25,
      training_steps=100,
      checkpoint_interval=10,
      window_size=50,
      num_unroll_steps=3,
      weight_decay=1e-4,
      momentum=0.9,
      lr_decay_rate=0.1,
      observation_shape=(6,),
      num_players=1,
      network=NetworkConfig(),
      optimizer='momentum',
      value_loss_weight=1.0,
      prioritized_replay=False,
      priority_alpha=1.0,
      priority_beta=1.0,
  )
  kwargs.update(changes)
  return kwargs


def _field_and_value(name, value):
  """A regex matching a message that names `name` and then `value`."""
  return re.escape(name) + '.*' + re.escape(repr(value))


class MoveCountTemperatureTest(testing.TestCase):

  @parameterized.parameters(
      (0, 0, 1.0),
      (29, 0, 1.0),
      (29, 10**7, 1.0),
      (30, 0, 0.0),
      (30, 10**7, 0.0),
      (31, 500_000, 0.0),
      (1000, 0, 0.0),
  )
  def test_thirty_moves(self, num_moves, training_steps, expected):
    temperature = config_lib.MoveCountTemperature(30)
    self.assertEqual(temperature(num_moves, training_steps), expected)

  def test_default_is_thirty_moves(self):
    temperature = config_lib.MoveCountTemperature()
    self.assertEqual(temperature(29, 0), 1.0)
    self.assertEqual(temperature(30, 0), 0.0)

  def test_other_move_count(self):
    temperature = config_lib.MoveCountTemperature(moves=4)
    self.assertEqual([temperature(m, 0) for m in range(6)],
                     [1.0, 1.0, 1.0, 1.0, 0.0, 0.0])


class TrainingStepTemperatureTest(testing.TestCase):

  @parameterized.parameters(
      (0, 1.0),
      (499_999, 1.0),
      (500_000, 0.5),
      (749_999, 0.5),
      (750_000, 0.25),
      (10**7, 0.25),
  )
  def test_pseudocode_schedule(self, training_steps, expected):
    temperature = config_lib.TrainingStepTemperature()
    for num_moves in (0, 30, 10_000):
      self.assertEqual(temperature(num_moves, training_steps), expected)

  def test_custom_schedule(self):
    temperature = config_lib.TrainingStepTemperature(
        boundaries=(10,), values=(2.0, 0.1))
    self.assertEqual(temperature(0, 9), 2.0)
    self.assertEqual(temperature(0, 10), 0.1)

  def test_no_boundaries_is_constant(self):
    temperature = config_lib.TrainingStepTemperature(
        boundaries=(), values=(0.7,))
    self.assertEqual(temperature(0, 0), 0.7)
    self.assertEqual(temperature(0, 10**9), 0.7)

  @parameterized.named_parameters(
      ('too_few_values', (500e3, 750e3), (1.0, 0.5)),
      ('too_many_values', (500e3,), (1.0, 0.5, 0.25)),
      ('no_values', (), ()),
      ('decreasing_boundaries', (750e3, 500e3), (1.0, 0.5, 0.25)),
  )
  def test_invalid_schedule_raises(self, boundaries, values):
    with self.assertRaisesRegex(ValueError, 'TrainingStepTemperature'):
      config_lib.TrainingStepTemperature(boundaries=boundaries, values=values)


class MuZeroConfigValidationTest(testing.TestCase):

  def test_valid_config_keeps_its_values(self):
    config = MuZeroConfig(**_valid_kwargs())
    for name, value in _valid_kwargs().items():
      self.assertEqual(getattr(config, name), value, msg=name)

  def test_pseudocode_defaults(self):
    # The pseudocode's MuZeroConfig constructor sets these for every game.
    required = ('action_space_size', 'max_moves', 'discount',
                'root_dirichlet_alpha', 'num_simulations', 'batch_size',
                'td_steps', 'lr_init', 'lr_decay_steps',
                'visit_softmax_temperature_fn')
    kwargs = _valid_kwargs()
    config = MuZeroConfig(**{name: kwargs[name] for name in required})
    self.assertIsNone(config.known_bounds)
    self.assertEqual(config.root_exploration_fraction, 0.25)
    self.assertEqual(config.pb_c_base, 19652)
    self.assertEqual(config.pb_c_init, 1.25)
    self.assertEqual(config.training_steps, 1_000_000)
    self.assertEqual(config.checkpoint_interval, 1_000)
    self.assertEqual(config.window_size, 1_000_000)
    self.assertEqual(config.num_unroll_steps, 5)
    self.assertEqual(config.weight_decay, 1e-4)
    self.assertEqual(config.momentum, 0.9)
    self.assertEqual(config.lr_decay_rate, 0.1)

  @parameterized.named_parameters(
      ('action_space_size_zero', 'action_space_size', 0),
      ('action_space_size_float', 'action_space_size', 4.0),
      ('action_space_size_bool', 'action_space_size', True),
      ('max_moves_negative', 'max_moves', -1),
      ('num_simulations_zero', 'num_simulations', 0),
      ('batch_size_zero', 'batch_size', 0),
      ('batch_size_float', 'batch_size', 1.5),
      ('td_steps_zero', 'td_steps', 0),
      ('training_steps_zero', 'training_steps', 0),
      ('training_steps_float', 'training_steps', 1e6),
      ('checkpoint_interval_zero', 'checkpoint_interval', 0),
      ('window_size_negative', 'window_size', -5),
      ('num_unroll_steps_zero', 'num_unroll_steps', 0),
      ('root_dirichlet_alpha_zero', 'root_dirichlet_alpha', 0.),
      ('root_dirichlet_alpha_string', 'root_dirichlet_alpha', '0.3'),
      ('lr_init_negative', 'lr_init', -0.1),
      ('lr_decay_steps_zero', 'lr_decay_steps', 0.),
      ('pb_c_base_zero', 'pb_c_base', 0),
      ('value_loss_weight_negative', 'value_loss_weight', -1.),
      ('reward_loss_weight_zero', 'reward_loss_weight', 0.),
      ('discount_zero', 'discount', 0.),
      ('discount_above_one', 'discount', 1.01),
      ('discount_nan', 'discount', float('nan')),
      ('temperature_not_callable', 'visit_softmax_temperature_fn', 1.0),
      ('known_bounds_reversed', 'known_bounds', KnownBounds(1., -1.)),
      ('known_bounds_empty', 'known_bounds', KnownBounds(0., 0.)),
      ('known_bounds_tuple', 'known_bounds', (-1., 1.)),
      ('root_exploration_fraction_negative', 'root_exploration_fraction',
       -0.1),
      ('root_exploration_fraction_above_one', 'root_exploration_fraction',
       1.5),
      ('pb_c_init_negative', 'pb_c_init', -1.25),
      ('weight_decay_negative', 'weight_decay', -1e-4),
      ('momentum_one', 'momentum', 1.0),
      ('momentum_negative', 'momentum', -0.1),
      ('lr_decay_rate_zero', 'lr_decay_rate', 0.),
      ('lr_decay_rate_above_one', 'lr_decay_rate', 1.5),
      ('observation_shape_empty', 'observation_shape', ()),
      ('observation_shape_zero', 'observation_shape', (3, 0)),
      ('observation_shape_list', 'observation_shape', [6]),
      ('observation_shape_float', 'observation_shape', (6.,)),
      ('num_players_zero', 'num_players', 0),
      ('num_players_three', 'num_players', 3),
      ('network_string', 'network', 'mlp'),
      ('optimizer_unknown', 'optimizer', 'sgd'),
      ('unvisited_q_unknown', 'unvisited_q', 'mean'),
      ('search_policy_unknown', 'search_policy', 'alphazero'),
      ('gumbel_max_considered_actions_zero',
       'gumbel_max_considered_actions', 0),
      ('gumbel_max_considered_actions_float',
       'gumbel_max_considered_actions', 16.),
      ('gumbel_c_visit_negative', 'gumbel_c_visit', -50.),
      ('gumbel_c_scale_negative', 'gumbel_c_scale', -1.),
      ('priority_alpha_negative', 'priority_alpha', -1.),
      ('priority_beta_negative', 'priority_beta', -0.5),
      ('priority_beta_string', 'priority_beta', '1'),
      ('reanalyze_fraction_above_one', 'reanalyze_fraction', 1.5),
      ('reanalyze_fraction_negative', 'reanalyze_fraction', -0.1),
      ('reanalyze_fraction_string', 'reanalyze_fraction', '0.8'),
      ('target_update_interval_zero', 'target_update_interval', 0),
      ('reanalyze_policy_int', 'reanalyze_policy', 0),
      ('target_update_interval_float', 'target_update_interval', 10.),
      ('prioritized_replay_int', 'prioritized_replay', 1),
      ('lr_init_bool', 'lr_init', True),
      ('momentum_string', 'momentum', '0.9'),
      ('weight_decay_none', 'weight_decay', None),
      ('pb_c_init_string', 'pb_c_init', '1.25'),
      ('lr_decay_rate_string', 'lr_decay_rate', '0.1'),
      ('lr_warmup_steps_negative', 'lr_warmup_steps', -1),
      ('lr_warmup_steps_float', 'lr_warmup_steps', 100.),
      ('random_opening_moves_negative', 'random_opening_moves', -1),
      ('random_opening_moves_float', 'random_opening_moves', 1.5),
      ('action_repeat_zero', 'action_repeat', 0),
      ('action_repeat_float', 'action_repeat', 2.),
  )
  def test_bad_field_raises(self, name, value):
    with self.assertRaisesRegex(ValueError, _field_and_value(name, value)):
      MuZeroConfig(**_valid_kwargs(**{name: value}))

  def test_action_repeat_is_for_one_player(self):
    MuZeroConfig(**_valid_kwargs(action_repeat=4))
    with self.assertRaisesRegex(
        ValueError,
        r'^action_repeat must be 1 in a two-player game, got 4\.$'):
      MuZeroConfig(**_valid_kwargs(action_repeat=4, num_players=2))

  def test_value_only_reanalysis_needs_a_bootstrap_inside_the_game(self):
    # td_steps 20 >= max_moves 20: every value target is the game's result,
    # so reanalysing values alone would change nothing.
    with self.assertRaisesRegex(ValueError, 'reanalyze_policy.*td_steps 20'):
      MuZeroConfig(**_valid_kwargs(td_steps=20, reanalyze_fraction=0.5,
                                   reanalyze_policy=False))
    MuZeroConfig(**_valid_kwargs(td_steps=19, reanalyze_fraction=0.5,
                                 reanalyze_policy=False))
    MuZeroConfig(**_valid_kwargs(td_steps=20, reanalyze_fraction=0.,
                                 reanalyze_policy=False))

  @parameterized.named_parameters(
      ('kind', 'kind', 'conv'),
      ('hidden_size_zero', 'hidden_size', 0),
      ('hidden_size_float', 'hidden_size', 64.),
      ('mlp_layers_zero', 'mlp_layers', (64, 0)),
      ('mlp_layers_list', 'mlp_layers', [64, 64]),
      ('head_layers_negative', 'head_layers', (-1,)),
      ('channels_zero', 'channels', 0),
      ('num_blocks_negative', 'num_blocks', -1),
      ('prediction_blocks_negative', 'prediction_blocks', -1),
      ('action_encoding', 'action_encoding', 'planes'),
      ('value_support_size_even', 'value_support_size', 20),
      ('value_support_size_one', 'value_support_size', 1),
      ('value_support_size_negative', 'value_support_size', -3),
      ('value_support_size_float', 'value_support_size', 21.),
      ('reward_support_size_even', 'reward_support_size', 600),
      ('reward_support_size_two', 'reward_support_size', 2),
      ('hidden_size_bool', 'hidden_size', True),
      ('channels_bool', 'channels', True),
      ('num_blocks_bool', 'num_blocks', False),
      ('prediction_blocks_bool', 'prediction_blocks', True),
      ('downsample_int', 'downsample', 1),
      ('batch_norm_string', 'batch_norm', 'yes'),
      ('zero_init_residual_int', 'zero_init_residual', 1),
      ('conv_as_matmul_string', 'conv_as_matmul', 'true'),
  )
  def test_bad_network_field_raises(self, name, value):
    pattern = _field_and_value('network.' + name, value)
    with self.assertRaisesRegex(ValueError, pattern):
      NetworkConfig(**{name: value})

  @parameterized.parameters(0, 3, 21, 601)
  def test_valid_support_sizes(self, size):
    network = NetworkConfig(value_support_size=size, reward_support_size=size)
    self.assertEqual(network.value_support_size, size)
    self.assertEqual(network.reward_support_size, size)

  def test_edge_values_are_valid(self):
    config = MuZeroConfig(**_valid_kwargs(
        discount=1.0, root_exploration_fraction=0., momentum=0.,
        lr_decay_rate=1.0, pb_c_init=0., weight_decay=0., priority_alpha=0.,
        priority_beta=0., num_players=2, known_bounds=KnownBounds(-1, 1)))
    self.assertEqual(config.known_bounds, KnownBounds(-1, 1))
    config = MuZeroConfig(**_valid_kwargs(root_exploration_fraction=1.))
    self.assertEqual(config.root_exploration_fraction, 1.)
    network = NetworkConfig(num_blocks=0, prediction_blocks=0, mlp_layers=(),
                            head_layers=())
    self.assertEqual(network.num_blocks, 0)

  def test_residual_network_needs_rank_three_observation(self):
    residual = NetworkConfig(kind='residual')
    with self.assertRaisesRegex(
        ValueError, _field_and_value('observation_shape', (6,))):
      MuZeroConfig(**_valid_kwargs(network=residual, observation_shape=(6,)))
    with self.assertRaisesRegex(
        ValueError, _field_and_value('observation_shape', (6, 6))):
      MuZeroConfig(**_valid_kwargs(network=residual,
                                   observation_shape=(6, 6)))
    config = MuZeroConfig(**_valid_kwargs(network=residual,
                                          observation_shape=(3, 3, 2)))
    self.assertEqual(config.observation_shape, (3, 3, 2))

  def test_column_encoding_needs_one_action_per_column(self):
    column = NetworkConfig(kind='residual', action_encoding='column')
    # Connect four: 7 actions, 7 columns.
    config = MuZeroConfig(**_valid_kwargs(
        network=column, observation_shape=(6, 7, 4), action_space_size=7))
    self.assertEqual(config.network.action_encoding, 'column')
    with self.assertRaisesRegex(
        ValueError, "action_space_size must be one action per column of the "
        r"observation's width 6 .*got 7\."):
      MuZeroConfig(**_valid_kwargs(
          network=column, observation_shape=(7, 6, 4), action_space_size=7))


class MuZeroConfigReplaceTest(testing.TestCase):

  def test_replace_returns_changed_copy(self):
    config = MuZeroConfig(**_valid_kwargs())
    changed = config.replace(num_simulations=50, discount=0.5)
    self.assertIsInstance(changed, MuZeroConfig)
    self.assertEqual(changed.num_simulations, 50)
    self.assertEqual(changed.discount, 0.5)
    self.assertEqual(config.num_simulations, 8)
    self.assertEqual(config.discount, 0.99)
    self.assertEqual(changed, MuZeroConfig(**_valid_kwargs(
        num_simulations=50, discount=0.5)))

  def test_replace_validates(self):
    config = MuZeroConfig(**_valid_kwargs())
    with self.assertRaisesRegex(ValueError,
                                _field_and_value('num_simulations', 0)):
      config.replace(num_simulations=0)
    with self.assertRaisesRegex(ValueError,
                                _field_and_value('observation_shape', (6,))):
      config.replace(network=NetworkConfig(kind='residual'))
    self.assertEqual(config.num_simulations, 8)

  def test_replace_unknown_field_raises(self):
    config = MuZeroConfig(**_valid_kwargs())
    with self.assertRaises(TypeError):
      config.replace(num_simulation=3)

  def test_configs_are_frozen(self):
    config = MuZeroConfig(**_valid_kwargs())
    with self.assertRaises(dataclasses.FrozenInstanceError):
      config.num_simulations = 3
    with self.assertRaises(dataclasses.FrozenInstanceError):
      config.network.channels = 3
    with self.assertRaises(dataclasses.FrozenInstanceError):
      config.visit_softmax_temperature_fn.moves = 3
    temperature = config_lib.TrainingStepTemperature()
    with self.assertRaises(dataclasses.FrozenInstanceError):
      temperature.values = (1.0,)
    self.assertEqual(config.num_simulations, 8)
    self.assertEqual(config.network.channels, 16)


if __name__ == '__main__':
  tf.test.main()
