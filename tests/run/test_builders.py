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
"""Tests of the run factories and their checks."""

import dataclasses
import types

import tensorflow as tf

from examples import corridor
from examples import nim
from muzero_snt.run import builders
from muzero_snt import config as config_lib
from muzero_snt import environments
from muzero_snt import presets
from muzero_snt.run import run_config
from tests import testing


def _tiny_config(**changes) -> config_lib.MuZeroConfig:
  return testing.tiny_mlp_config(21, batch_size=8).replace(**changes)


def _fake_strategy(num_replicas: int):
  """Stands in for a strategy of `num_replicas` (not a TPU's)."""
  return types.SimpleNamespace(
      num_replicas_in_sync=num_replicas,
      extended=types.SimpleNamespace(
          worker_devices=[f'/device:CPU:{i}' for i in range(num_replicas)]))


def _not_an_environment(seed):
  del seed  # Unused.
  return 3


class OwnEnvironmentTest(testing.TestCase):

  def test_a_factory_or_its_import_string_builds_checked_environments(self):
    config = presets.config_for_environment(nim.Nim())
    for environment in (nim.Nim, 'examples.nim:Nim'):
      made = builders.make_environment_factory(None, config,
                                               environment=environment)(3)
      self.assertIsInstance(made, environments.CheckedEnvironment)
      self.assertIsInstance(made.environment.environment, nim.Nim)
      self.assertEqual(made.num_players, 2)
      made.reset()
      made.step(2)
      self.assertEqual(made.to_play(), 1)

  def test_check_environment_names_the_factory_and_the_fault(self):
    config = presets.config_for_environment(corridor.Corridor())
    builders.check_environment(None, config, environment=corridor.Corridor)
    with self.assertRaisesRegex(
        ValueError, r"^environment='examples\.corridor:Corridor': "
        r'observation_spec\(\) of Corridor returned Array\(shape=\(5,\).*, '
        r'which does not match the configuration: expected shape \(6,\)'):
      builders.check_environment(
          None, config.replace(observation_shape=(6,)),
          environment=corridor.Corridor)
    with self.assertRaisesRegex(
        ValueError, r"^environment='tests\.run\.test_builders:"
        r"_not_an_environment': The environment factory "
        r'tests\.run\.test_builders:_not_an_environment returned 3 for seed '
        r'0; expected a dm_env\.Environment\.$'):
      builders.check_environment(None, config,
                                 environment=_not_an_environment)

  def test_the_config_s_action_repeat_holds_each_move(self):
    config = presets.get_preset('cartpole').replace(action_repeat=2)
    made = builders.make_environment_factory('cartpole', config)(3)
    made.reset()
    # CartPole rewards 1 a step; its first two steps never end the episode.
    self.assertEqual(float(made.step(0).reward), 2.)
    self.assertEqual(made.environment.frames, 2)

  def test_only_an_own_environment_is_built_for_its_frame_stack(self):
    self.assertIsNone(builders.frame_stack(None, corridor.Corridor))
    self.assertIsNone(builders.frame_stack('tictactoe'))


class CheckStrategyTest(testing.TestCase):

  def test_batch_not_divisible_by_the_replicas_is_refused(self):
    with self.assertRaisesRegex(
        ValueError, r'^batch_size=8 does not split among the 3 replicas of '
        r'the strategy \(on CPU:0, CPU:1, CPU:2\): use a multiple of 3, '
        r'e\.g\. batch_size=6 or batch_size=9\.$'):
      builders.check_strategy(_tiny_config(), _fake_strategy(3),
                           jit_compile=False)
    builders.check_strategy(_tiny_config(), _fake_strategy(4), jit_compile=False)

  def test_jit_compile_on_several_replicas_is_refused(self):
    with self.assertRaisesRegex(
        ValueError, r'jit_compile needs one replica.*2 replicas: turn XLA '
        r'off \(jit_compile=False\)\.'):
      builders.check_strategy(_tiny_config(), _fake_strategy(2),
                           jit_compile=True)
    builders.check_strategy(_tiny_config(), _fake_strategy(1), jit_compile=True)


if __name__ == '__main__':
  tf.test.main()


class SelfPlaySearchTest(testing.TestCase):

  def _rows_searched(self, pad_rounds: bool):
    """One round of 3 tic-tac-toe games: the rows the round's searches ran
    (padded rows included), and the games' lengths."""
    preset = presets.make_tictactoe_config()
    config = preset.replace(
        num_simulations=2, batch_size=8, num_unroll_steps=2,
        network=dataclasses.replace(preset.network, channels=4,
                                    prediction_blocks=0))
    settings = run_config.RunConfig(
        preset='tictactoe', num_envs=3, train_ratio=1., search='graph',
        pad_rounds=pad_rounds,
        # The actor then searches the learner's network, counted here.
        overlap_learning=False)
    learner = builders.make_learner(config, jit_compile=False)
    network = learner.network
    rows = tf.Variable(0)
    initial_inference = network.initial_inference

    def counting_initial_inference(observation):
      if not tf.executing_eagerly():  # The search's program, not set-up.
        rows.assign_add(tf.shape(observation)[0])
      return initial_inference(observation)

    network.initial_inference = counting_initial_inference
    source = builders.make_source(
        settings.replace(config=config).resolved(), learner)
    source.run_round(lambda: True, lambda: 0)
    return int(rows.numpy()), [result.length for result in
                               source.last_results]

  def test_pad_rounds_searches_every_move_with_every_row(self):
    rows, lengths = self._rows_searched(pad_rounds=True)
    self.assertLen(lengths, 3)
    # Every move searched 4 rows: the 3 games padded to a power of two,
    # the ended games' rows kept.
    self.assertEqual(rows, 4 * max(lengths))
    rows, lengths = self._rows_searched(pad_rounds=False)
    # Without: each move's games in play, padded to a power of two.
    in_play = [sum(length > move for length in lengths)
               for move in range(max(lengths))]
    padded = {1: 1, 2: 2, 3: 4}
    self.assertEqual(rows, sum(padded[games] for games in in_play))
