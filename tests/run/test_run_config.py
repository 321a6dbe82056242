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
"""Tests of `RunConfig`: its checks, its defaults and its saved record."""

import importlib.util
import json
import os
import shutil
import tempfile

from absl.testing import absltest
from absl.testing import parameterized

from examples import corridor
from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt.run import run_config
from tests import testing


def _run(**changes) -> run_config.RunConfig:
  config = presets.make_tictactoe_config().replace(**changes)
  return run_config.RunConfig('tictactoe', config)


class ConfigDictTest(parameterized.TestCase):

  @parameterized.named_parameters(*[(name, name) for name in presets.PRESETS])
  def test_every_preset_survives_json(self, name):
    config = presets.get_preset(name)
    text = json.dumps(run_config.config_to_dict(config))
    self.assertEqual(run_config.config_from_dict(json.loads(text)), config)

  def test_values_are_the_presets_own(self):
    values = run_config.config_to_dict(presets.make_tictactoe_config())
    self.assertEqual(values['lr_init'], 0.2)
    self.assertEqual(values['known_bounds'], [-1, 1])
    self.assertEqual(values['observation_shape'], [3, 3, 3])
    self.assertEqual(values['network.kind'], 'residual')
    self.assertEqual(values['visit_softmax_temperature_fn'],
                     {'type': 'MoveCountTemperature', 'moves': 4})

  def test_an_arbitrary_temperature_function_cannot_be_saved(self):
    config = presets.make_tictactoe_config().replace(
        visit_softmax_temperature_fn=lambda moves, steps: 1.)
    with self.assertRaisesRegex(TypeError, 'cannot be saved'):
      run_config.config_to_dict(config)

  def test_overrides_by_name(self):
    config = run_config.apply_overrides(
        presets.make_cartpole_config(),
        ['lr_init=0.1', 'network.mlp_layers=[8, 8]', 'unvisited_q=minimum',
         'known_bounds=[0, 500]'])
    self.assertEqual(config.lr_init, 0.1)
    self.assertEqual(config.network.mlp_layers, (8, 8))
    self.assertEqual(config.unvisited_q, 'minimum')
    self.assertEqual(config.known_bounds, config_lib.KnownBounds(0, 500))

  def test_bad_overrides_are_named(self):
    config = presets.make_cartpole_config()
    with self.assertRaisesRegex(ValueError, "'lr_init' is not name=value"):
      run_config.apply_overrides(config, ['lr_init'])
    with self.assertRaisesRegex(ValueError, "'colour=1' names no"):
      run_config.apply_overrides(config, ['colour=1'])
    with self.assertRaisesRegex(ValueError, 'lr_init must be a positive'):
      run_config.apply_overrides(config, ['lr_init=-1'])


class SavedRunTest(absltest.TestCase):

  def setUp(self):
    super().setUp()
    self.directory = tempfile.mkdtemp()
    self.addCleanup(shutil.rmtree, self.directory)

  def test_differences_name_both_values(self):
    saved = _run()
    current = run_config.RunConfig('tictactoe',
                                   saved.config.replace(lr_init=0.1), seed=1)
    self.assertEqual(run_config.differences(saved, current),
                     [('lr_init', 0.2, 0.1), ('seed', 0, 1)])

  def test_save_and_load(self):
    path = run_config.save(self.directory, _run(batch_size=96))
    self.assertEqual(os.listdir(self.directory), ['run_config.json'])
    with open(path) as f:
      self.assertEqual(json.load(f)['config']['batch_size'], 96)
    self.assertEqual(run_config.load(self.directory),
                     _run(batch_size=96).resolved())

  def test_a_configuration_saved_with_num_actors_still_resumes(self):
    # Earlier versions saved the pseudocode's num_actors with the config;
    # it is the run's setting now. Such a file loads as the same run.
    data = json.loads(_run().to_json())
    self.assertNotIn('num_actors', data['config'])
    data['config']['num_actors'] = 1
    with open(run_config.path(self.directory), 'w') as f:
      json.dump(data, f)
    self.assertEqual(run_config.load(self.directory), _run().resolved())
    self.assertEqual(run_config.check_resume(self.directory, _run()),
                     _run().resolved())
    # Any other field the config does not know is still refused.
    data['config']['colour'] = 'red'
    with open(run_config.path(self.directory), 'w') as f:
      json.dump(data, f)
    with self.assertRaisesRegex(run_config.RunConfigError, 'colour'):
      run_config.load(self.directory)

  def test_no_file_is_no_saved_run(self):
    self.assertIsNone(run_config.load(self.directory))
    self.assertIsNone(run_config.check_resume(self.directory, _run()))

  def test_a_garbled_file_is_named(self):
    with open(run_config.path(self.directory), 'w') as f:
      f.write('{"format": 1, "conf')
    with self.assertRaisesRegex(run_config.RunConfigError,
                                'run_config.json is not a readable'):
      run_config.load(self.directory)

  def test_resume_refuses_changed_fields_naming_them(self):
    run_config.save(self.directory, _run(batch_size=128))
    with self.assertRaisesRegex(
        run_config.RunConfigError,
        r'batch_size: saved 128, now 64; td_steps: saved 9, now 3\. .*'
        r"allow_config_changes=\('batch_size', 'td_steps'\)"):
      run_config.check_resume(self.directory, _run(batch_size=64, td_steps=3))

  def test_resume_names_a_field_only_one_side_has_as_absent(self):
    config = presets.make_tictactoe_config()
    run_config.save(self.directory,
                    run_config.RunConfig('tictactoe', config, data='synthetic'))
    with self.assertRaisesRegex(
        run_config.RunConfigError,
        r'data: saved "synthetic", now "selfplay"; env: saved \(absent\), '
        r'now null; num_envs: saved \(absent\), now 32;'):
      run_config.check_resume(self.directory,
                              run_config.RunConfig('tictactoe', config))

  def test_resume_accepts_allowed_and_always_changeable_fields(self):
    run_config.save(self.directory, _run())
    saved = run_config.check_resume(
        self.directory, _run(training_steps=99, checkpoint_interval=7,
                             lr_init=0.1), allowed=['lr_init'])
    self.assertEqual(saved, _run().resolved())


class RunConfigFieldsTest(testing.TestCase):
  """The run's checks and the preset defaults it resolves."""

  def test_distributed_settings_are_checked(self):
    for changes, message in (
        (dict(num_actors=-1), 'num_actors must be a non-negative integer'),
        (dict(num_actors=True), 'num_actors must be a non-negative integer'),
        (dict(num_actors=2, data='synthetic'), "num_actors must be 0 with "
         "data='synthetic', got 2"),
        (dict(ray_address='10.0.0.5:6379'), 'ray_address must be None '
         'unless num_actors > 0'),
        (dict(num_actors=1, publish_interval=0), 'publish_interval must be '
         'a positive integer, got 0'),
        (dict(eval_interval=10), 'eval_interval must be 0 unless '
         'num_actors > 0, got 10'),
        (dict(num_actors=1, eval_interval=-1), 'eval_interval must be a '
         'non-negative integer'),
        (dict(num_actors=1, eval_interval=5, eval_games=0), 'eval_games must '
         'be a positive integer, got 0'),
        (dict(num_actors=1, num_reanalyze_workers=-1), 'num_reanalyze_workers '
         'must be a non-negative integer, got -1'),
        (dict(num_reanalyze_workers=2), r'num_reanalyze_workers must be 0 '
         r'unless num_actors > 0 \(reanalyse workers are Ray processes')):
      with self.assertRaisesRegex(ValueError, message):
        run_config.RunConfig(**changes)
    settings = run_config.RunConfig(num_actors=2, ray_address='h:1',
                                        publish_interval=3)
    self.assertEqual(settings.num_actors, 2)

  def test_placements_are_checked(self):
    expected = ("must be 'spread', 'learner' or 'resource:NAME' \\(NAME a "
                "custom resource of Ray's nodes, not CPU, GPU or memory\\)")
    for name in ('actor_placement', 'reanalyze_placement',
                 'evaluator_placement'):
      for value in ('everywhere', 'resource:', 'resource:CPU',
                    'resource:a b', 'Spread', None):
        with self.assertRaisesRegex(ValueError,
                                    f'{name} {expected}, got {value!r}'):
          run_config.RunConfig(num_actors=1, num_reanalyze_workers=1,
                               eval_interval=5, **{name: value})
    for changes, message in (
        (dict(actor_placement='learner'),
         "actor_placement must be 'spread' unless num_actors > 0, got "
         "'learner'"),
        (dict(num_actors=1, reanalyze_placement='resource:b'),
         "reanalyze_placement must be 'spread' unless num_reanalyze_workers "
         "> 0, got 'resource:b'"),
        (dict(num_actors=1, evaluator_placement='spread'),
         "evaluator_placement must be 'learner' unless eval_interval > 0, "
         "got 'spread'")):
      with self.assertRaisesRegex(ValueError, message):
        run_config.RunConfig(**changes)
    settings = run_config.RunConfig(
        num_actors=2, actor_placement='resource:selfplay',
        num_reanalyze_workers=1, reanalyze_placement='learner',
        eval_interval=5, evaluator_placement='spread')
    self.assertEqual(run_config.placement_resource(settings.actor_placement),
                     'selfplay')
    self.assertIsNone(run_config.placement_resource('spread'))
    # Where processes run does not change what the run computes: a resumed
    # run may move them.
    self.assertEqual(settings.flat(), run_config.RunConfig(
        num_actors=2, num_reanalyze_workers=1, eval_interval=5).flat())

  def test_actors_share_the_presets_games_unless_told(self):
    games = presets.run_defaults('tictactoe')['num_envs']
    # 32 games: 1 actor plays all, 2 actors 16 each, 3 actors 11 each
    # (33 in flight: rounded up), 64 actors 1 each.
    for actors, each in ((0, games), (1, games), (2, games // 2),
                         (3, 11), (64, 1)):
      self.assertEqual(run_config.RunConfig(
          num_actors=actors).resolved().num_envs, each, actors)
    # --num_envs is per actor when given.
    self.assertEqual(run_config.RunConfig(
        num_actors=2, num_envs=32).resolved().num_envs, 32)

  def test_continuous_self_play_is_the_presets_unless_told(self):
    def continuous(**changes):
      return run_config.RunConfig(**changes).resolved().continuous_selfplay

    self.assertTrue(presets.run_defaults('cartpole')['continuous_selfplay'])
    self.assertFalse(presets.run_defaults('tictactoe')['continuous_selfplay'])
    self.assertTrue(continuous(preset='cartpole'))
    self.assertFalse(continuous(preset='tictactoe'))
    self.assertTrue(continuous(preset='tictactoe', continuous_selfplay=True))
    self.assertFalse(continuous(preset='cartpole', continuous_selfplay=False))
    # Actors play as the process would; only self-play plays at all: the
    # preset's default gives way there (an explicit True is refused).
    self.assertTrue(continuous(preset='cartpole', num_actors=2))
    self.assertFalse(continuous(preset='cartpole', num_actors=2,
                                continuous_selfplay=False))
    self.assertFalse(continuous(preset='cartpole', data='synthetic'))
    with self.assertRaisesRegex(ValueError, 'continuous_selfplay must be '
                                "False unless data='selfplay'"):
      run_config.RunConfig(preset='cartpole', data='synthetic',
                               continuous_selfplay=True)
    # The run's record (beside its checkpoints) says how it played.
    config = presets.get_preset('cartpole')
    self.assertTrue(run_config.RunConfig(
        preset='cartpole', config=config).flat()['continuous_selfplay'])
    self.assertNotIn('continuous_selfplay', run_config.RunConfig(
        preset='cartpole', continuous_selfplay=False, config=config).flat())

  def test_pad_rounds_is_the_presets_where_rounds_are_searched(self):
    def pad_rounds(**changes):
      return run_config.RunConfig(**changes).resolved().pad_rounds

    self.assertFalse(presets.run_defaults('connect4')['pad_rounds'])
    self.assertFalse(pad_rounds(preset='connect4'))
    # Tic-tac-toe's preset pads its rounds; the default gives way where
    # there are no rounds of a batched search (an explicit True is refused).
    self.assertTrue(pad_rounds(preset='tictactoe'))
    self.assertTrue(pad_rounds(preset='tictactoe', num_actors=2))
    for changes in (dict(pad_rounds=False), dict(data='synthetic'),
                    dict(continuous_selfplay=True), dict(search='reference'),
                    dict(search='graph')):
      self.assertFalse(pad_rounds(preset='tictactoe', **changes), changes)
    self.assertTrue(pad_rounds(preset='connect4', pad_rounds=True))
    self.assertTrue(pad_rounds(preset='connect4', pad_rounds=True,
                               num_actors=2))
    for changes, message in (
        (dict(pad_rounds=1), 'pad_rounds must be None, True or False, got 1'),
        (dict(pad_rounds=True, data='synthetic'), "pad_rounds must be False "
         "unless data='selfplay' plays rounds"),
        (dict(pad_rounds=True, continuous_selfplay=True), 'pad_rounds must '
         'be False unless .* plays rounds \\(continuous_selfplay off\\)'),
        (dict(pad_rounds=True, search='reference'), 'pad_rounds must be '
         'False unless .* with a batched search \\(xla or graph\\)')):
      with self.subTest(changes), self.assertRaisesRegex(ValueError, message):
        run_config.RunConfig(**changes)
    # The run's record (beside its checkpoints) says how it searched.
    config = presets.get_preset('connect4')
    self.assertTrue(run_config.RunConfig(
        preset='connect4', pad_rounds=True, config=config).flat()['pad_rounds'])
    self.assertNotIn('pad_rounds', run_config.RunConfig(
        preset='connect4').replace(config=config).flat())


  def test_unset_fields_resolve_to_the_presets_once(self):
    run = run_config.RunConfig(preset='cartpole', seed=3).resolved()
    # presets.RUN_DEFAULTS['cartpole']: 32 games, ratio 0.05, continuous
    # games beside the learner's thread; no padded rounds.
    self.assertEqual(run.config, presets.get_preset('cartpole'))
    self.assertEqual((run.num_envs, run.train_ratio, run.continuous_selfplay,
                      run.overlap_learning, run.pad_rounds, run.seed),
                     (32, 0.05, True, True, False, 3))
    self.assertEqual(run.resolved(), run)
    # Values given are kept; 3 actors share 32 games, 11 each.
    asked = run_config.RunConfig(preset='cartpole', num_actors=3,
                                 train_ratio=0.5).resolved()
    self.assertEqual((asked.num_envs, asked.train_ratio,
                      asked.overlap_learning), (11, 0.5, False))

  def test_a_record_written_by_hand_loads_as_the_run(self):
    # The record's layout: the preset, every config field, and the
    # defining settings, ways of playing named only when on.
    config = presets.get_preset('tictactoe')
    record = {'format': 1, 'preset': 'tictactoe',
              'config': run_config.config_to_dict(config),
              'settings': {'data': 'selfplay', 'seed': 0, 'env': None,
                           'num_envs': 32, 'train_ratio': 0.1,
                           'search': 'xla', 'overlap_learning': True,
                           'pad_rounds': True}}
    loaded = run_config.RunConfig.from_json(json.dumps(record))
    self.assertEqual(loaded, run_config.RunConfig('tictactoe').resolved())
    self.assertFalse(loaded.continuous_selfplay)
    self.assertEqual(json.loads(loaded.to_json()), record)


class OwnEnvironmentTest(absltest.TestCase):
  """A run of the user's environment factory instead of a preset."""

  def test_the_config_and_self_play_come_from_the_environment(self):
    run = run_config.RunConfig(environment=corridor.Corridor)
    self.assertIsNone(run.preset)
    resolved = run.resolved()
    self.assertEqual(resolved.config,
                     presets.config_for_environment(corridor.Corridor()))
    self.assertEqual((resolved.num_envs, resolved.train_ratio),
                     (presets.ENVIRONMENT_RUN_DEFAULTS['num_envs'],
                      presets.ENVIRONMENT_RUN_DEFAULTS['train_ratio']))
    # The import string names the same run.
    self.assertEqual(run_config.RunConfig(
        environment='examples.corridor:Corridor').resolved().config,
                     resolved.config)
    # Neither a preset nor an environment: tic-tac-toe, as before.
    self.assertEqual(run_config.RunConfig().preset, 'tictactoe')

  def test_a_preset_or_title_beside_an_environment_is_refused(self):
    for changes, message in (
        (dict(preset='cartpole'), r"preset must be None when environment is "
         r"given \(the environment is the game\), got 'cartpole'\."),
        (dict(env='CartPole-v1'), r'env must be None when environment is '
         r'given'),
        (dict(environment=3), r"environment must be None, a callable seed -> "
         r"dm_env\.Environment or an import string "
         r"'package\.module:factory', got 3\.")):
      with self.subTest(str(changes)):
        with self.assertRaisesRegex(ValueError, message):
          run_config.RunConfig(**{'environment': corridor.Corridor,
                                  **changes})

  def test_the_record_names_the_factory_and_resumes_with_it(self):
    run = run_config.RunConfig(environment=corridor.Corridor, seed=2)
    record = json.loads(run.to_json())
    self.assertIsNone(record['preset'])
    self.assertEqual(record['settings']['environment'],
                     'examples.corridor:Corridor')
    self.assertNotIn('environment_not_importable', record)
    loaded = run_config.RunConfig.from_json(run.to_json())
    self.assertEqual(loaded.environment, 'examples.corridor:Corridor')
    self.assertEqual(run_config.differences(loaded, run), [])
    # A run of a preset in its directory is another run.
    names = [name for name, _, _ in run_config.differences(
        loaded, run_config.RunConfig(seed=2))]
    self.assertContainsSubset(['environment', 'preset', 'action_space_size'],
                              names)

  def test_a_lambda_runs_but_its_record_says_it_cannot_be_reloaded(self):
    make = lambda seed: corridor.Corridor(seed)  # pylint: disable=g-long-lambda
    run = run_config.RunConfig(environment=make)
    record = json.loads(run.to_json())
    self.assertIn('<lambda>', record['settings']['environment'])
    self.assertIn('must pass the same factory',
                  record['environment_not_importable'])
    loaded = run_config.RunConfig.from_json(run.to_json())
    # The saved config needs no environment; resuming with the same
    # factory finds no difference, without it the run differs.
    self.assertEqual(loaded.resolved().config, run.resolved().config)
    self.assertEqual(run_config.differences(loaded, run), [])
    with self.assertRaisesRegex(ValueError, 'names a lambda'):
      run_config.RunConfig(environment=loaded.environment).resolved()

  @absltest.skipIf(importlib.util.find_spec('gymnasium') is None,
                   'gymnasium is not installed.')
  def test_a_family_derives_its_config_from_its_task(self):
    run = run_config.RunConfig(preset='gymnasium', env='Acrobot-v1')
    self.assertEqual(run.resolved().config.observation_shape, (6,))
    self.assertEqual(run.resolved().num_envs,
                     presets.RUN_DEFAULTS['gymnasium']['num_envs'])


if __name__ == '__main__':
  absltest.main()
