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
"""Tests of the run configuration saved beside the checkpoints."""

import dataclasses
import json
import os
import shutil
import tempfile

from absl.testing import absltest
from absl.testing import parameterized

from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt.run import run_config


def _run(**changes) -> run_config.RunConfig:
  config = presets.make_tictactoe_config().replace(**changes)
  return run_config.RunConfig('tictactoe', config,
                              {'seed': 0, 'data': 'selfplay'})


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
                                   saved.config.replace(lr_init=0.1),
                                   {'seed': 1, 'data': 'selfplay'})
    self.assertEqual(run_config.differences(saved, current),
                     [('lr_init', 0.2, 0.1), ('seed', 0, 1)])

  def test_save_and_load(self):
    path = run_config.save(self.directory, _run(batch_size=96))
    self.assertEqual(os.listdir(self.directory), ['run_config.json'])
    with open(path) as f:
      self.assertEqual(json.load(f)['config']['batch_size'], 96)
    self.assertEqual(run_config.load(self.directory), _run(batch_size=96))

  def test_a_configuration_saved_with_num_actors_still_resumes(self):
    # Earlier versions saved the pseudocode's num_actors with the config;
    # it is the run's setting now. Such a file loads as the same run.
    data = json.loads(_run().to_json())
    self.assertNotIn('num_actors', data['config'])
    data['config']['num_actors'] = 1
    with open(run_config.path(self.directory), 'w') as f:
      json.dump(data, f)
    self.assertEqual(run_config.load(self.directory), _run())
    self.assertEqual(run_config.check_resume(self.directory, _run()), _run())
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

  def test_resume_accepts_allowed_and_always_changeable_fields(self):
    run_config.save(self.directory, _run())
    saved = run_config.check_resume(
        self.directory, _run(training_steps=99, checkpoint_interval=7,
                             lr_init=0.1), allowed=['lr_init'])
    self.assertEqual(saved, _run())

  def test_evaluation_checks_the_network_only(self):
    run_config.save(self.directory, _run())
    # Training and search fields may differ for an evaluation.
    run_config.check_network(self.directory,
                             _run(lr_init=0.1, num_simulations=100))
    # So may how the network computes: its variables are the same.
    run_config.check_network(self.directory, _run(
        network=dataclasses.replace(_run().config.network,
                                    conv_as_matmul=True)))
    network = dataclasses.replace(_run().config.network, channels=8)
    with self.assertRaisesRegex(
        run_config.RunConfigError, 'network.channels: saved 16, now 8.*'
        r'Evaluate with the preset and network of the training run\.$'):
      run_config.check_network(self.directory, _run(network=network))
    other = run_config.RunConfig('connect4', presets.make_connect4_config())
    with self.assertRaisesRegex(run_config.RunConfigError,
                                'preset: saved "tictactoe", now "connect4"'):
      run_config.check_network(self.directory, other)


if __name__ == '__main__':
  absltest.main()
