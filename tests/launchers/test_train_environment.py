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
"""Tests of the launcher with --environment and the derived presets."""

import importlib.util
import json
import os

from absl import app
from absl import flags
from absl.testing import absltest
from absl.testing import flagsaver

from examples import corridor
from launchers import train
from muzero_snt import presets
from muzero_snt.run import run_config
from tests import testing

FLAGS = flags.FLAGS
_GYMNASIUM = importlib.util.find_spec('gymnasium') is not None
_PYSPIEL = importlib.util.find_spec('pyspiel') is not None


class EnvironmentFlagTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not FLAGS.is_parsed():
      FLAGS.mark_as_parsed()

  @flagsaver.flagsaver(environment='examples.corridor:Corridor',
                       hidden_size=16, num_simulations=4)
  def test_the_factory_gives_the_game_and_the_flags_change_its_config(self):
    train.validate_flags()
    config = train.make_config()
    self.assertEqual(config, presets.config_for_environment(
        corridor.Corridor(), hidden_size=16, num_simulations=4))
    run = train.make_run(config)
    self.assertIsNone(run.preset)
    self.assertEqual(run.environment, 'examples.corridor:Corridor')

  def test_a_factory_that_does_not_load_is_one_line(self):
    for name, message in (
        ('my_games.nim:make', "--environment=my_games.nim:make: there is no "
         "module 'my_games' (is its package installed, or its directory on "
         'PYTHONPATH?).'),
        ('examples.nim:Nimm', "--environment=examples.nim:Nimm: module "
         "'examples.nim' has no attribute 'Nimm'."),
        ('examples.nim:STONES', '--environment=examples.nim:STONES is 7, not '
         'a callable; expected a factory seed -> dm_env.Environment.'),
        ('examples.nim', "--environment=examples.nim is not an import "
         "string; expected 'package.module:factory'.")):
      with self.subTest(name), flagsaver.flagsaver(environment=name):
        with self.assertRaises(app.UsageError) as raised:
          train.validate_flags()
        self.assertEqual(str(raised.exception), message)

  def test_a_preset_or_a_title_beside_it_is_refused(self):
    with flagsaver.flagsaver(environment='examples.nim:Nim', preset='go9'):
      with self.assertRaisesRegex(
          app.UsageError, r'--preset=go9 and --environment=examples.nim:Nim '
          r'both name the game; give one\.'):
        train.validate_flags()
    with flagsaver.flagsaver(environment='examples.nim:Nim', env='Pong'):
      with self.assertRaisesRegex(
          app.UsageError, r'--env=Pong chooses the game of a titled preset; '
          r'--environment=examples.nim:Nim is the game\. Drop --env\.'):
        train.validate_flags()

  @flagsaver.flagsaver(environment='examples.nim:Nim', channels=8)
  def test_a_flag_of_another_network_kind_names_the_environment(self):
    with self.assertRaisesRegex(
        app.UsageError, r'--channels is for residual networks; '
        r'--environment=examples.nim:Nim has a mlp network\. Drop --channels'):
      train.validate_flags()

  @flagsaver.flagsaver(
      environment='examples.corridor:Corridor', training_steps=2,
      batch_size=8, num_unroll_steps=2, num_simulations=2, num_envs=2,
      train_ratio=1., jit_compile=False, search='graph', log_every=1_000)
  def test_main_trains_and_records_the_import_string(self):
    directory = os.path.join(self.get_temp_dir(), 'corridor_run')
    with flagsaver.flagsaver(checkpoint_dir=directory):
      train.main(['train'])
    with open(run_config.path(directory)) as f:
      record = json.load(f)
    self.assertIsNone(record['preset'])
    self.assertEqual(record['settings']['environment'],
                     'examples.corridor:Corridor')
    self.assertEqual(run_config.load(directory).resolved().config.batch_size,
                     8)


class DerivedPresetTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not FLAGS.is_parsed():
      FLAGS.mark_as_parsed()

  @absltest.skipIf(not _GYMNASIUM, 'gymnasium is not installed.')
  def test_a_gymnasium_task_by_id(self):
    with flagsaver.flagsaver(preset='gymnasium', env='MountainCar-v0'):
      train.validate_flags()
      config = train.make_config()
    self.assertEqual((config.observation_shape, config.action_space_size,
                      config.max_moves), ((2,), 3, 200))

  @absltest.skipIf(not _GYMNASIUM, 'gymnasium is not installed.')
  def test_a_derived_configuration_follows_training_steps(self):
    # --training_steps lengthens the learning-rate decay and the
    # temperatures' steps with the run, not only its stop.
    with flagsaver.flagsaver(preset='gymnasium', env='Acrobot-v1',
                             training_steps=30_000):
      config = train.make_config()
    self.assertEqual((config.training_steps, config.lr_decay_steps),
                     (30_000, 30_000))
    self.assertEqual(config.visit_softmax_temperature_fn.boundaries,
                     (15_000, 22_500))

  @absltest.skipIf(not _GYMNASIUM, 'gymnasium is not installed.')
  def test_tasks_muzero_cannot_play_are_one_line(self):
    for task, message in (
        ('Pendulum-v1', 'GymnasiumEnvironment needs a Discrete action space, '
         'got Box(-2.0, 2.0, (1,), float32).'),
        ('Blackjack-v1', 'GymnasiumEnvironment needs a Box observation '
         'space, got Tuple(Discrete(32), Discrete(11), Discrete(2)).')):
      with self.subTest(task), flagsaver.flagsaver(preset='gymnasium',
                                                   env=task):
        with self.assertRaises(app.UsageError) as raised:
          train.validate_flags()
        self.assertEqual(str(raised.exception),
                         f'--preset=gymnasium --env={task}: {message}')

  @absltest.skipIf(not _PYSPIEL, 'open-spiel is not installed.')
  def test_openspiel_games_muzero_cannot_play_are_one_line(self):
    with flagsaver.flagsaver(preset='openspiel', env='breakthrough'):
      self.assertEqual(train.make_config().observation_shape, (8, 8, 4))
    for game, message in (
        ('goofspiel', "needs a game with sequential moves; 'goofspiel' is "
         'Dynamics.SIMULTANEOUS.'),
        ('dark_hex', "needs a game with perfect information; 'dark_hex' is "
         'Information.IMPERFECT_INFORMATION.'),
        ('kuhn_poker(players=3)', "needs a game with two players; "
         "'kuhn_poker' is a 3-player game.")):
      with self.subTest(game), flagsaver.flagsaver(preset='openspiel',
                                                   env=game):
        with self.assertRaises(app.UsageError) as raised:
          train.validate_flags()
        self.assertEqual(
            str(raised.exception),
            f'--preset=openspiel --env={game}: OpenSpielEnvironment {message}')


if __name__ == '__main__':
  absltest.main()
