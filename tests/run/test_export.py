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
"""Tests for muzero_snt.run.export: a SavedModel that runs without the library."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from unittest import mock

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt.run import export
from muzero_snt import presets
from muzero_snt.networks import muzero_network
from tests import testing

BATCH_SIZES = (1, 5)

# name -> (config factory, expected hidden shape worked out from the config:
# the MLP's hidden_size; the residual tower keeps the 3x3 board and has 16
# channels).
MODELS = {
    'mlp_scalar': (lambda: testing.tiny_mlp_config(0), [8]),
    'mlp_support': (lambda: testing.tiny_mlp_config(21), [8]),
    'residual_bn': (presets.make_tictactoe_config, [3, 3, 16]),
}

# Runs in a fresh interpreter in which importing the library (or Sonnet)
# fails: the SavedModel must be self-contained.
_LOADER = textwrap.dedent("""\
    import sys; sys.modules['muzero_snt'] = None; sys.modules['sonnet'] = None
    import numpy as np
    import tensorflow as tf

    for model_dir in sys.argv[1:]:
      loaded = tf.saved_model.load(model_dir + '/model')
      inputs = np.load(model_dir + '/inputs.npz')
      outputs = {}
      def keep(prefix, result):
        for key, value in result.items():
          outputs[prefix + '/' + key] = value.numpy()
      for b in (1, 5):
        keep(f'initial_{b}', loaded.initial_inference(inputs[f'obs_{b}']))
        keep(f'recurrent_{b}', loaded.recurrent_inference(
            inputs[f'hidden_{b}'], inputs[f'action_{b}']))
      keep('signature_initial', loaded.signatures['initial_inference'](
          observation=tf.constant(inputs['obs_5'])))
      keep('signature_recurrent', loaded.signatures['recurrent_inference'](
          hidden_state=tf.constant(inputs['hidden_5']),
          action=tf.constant(inputs['action_5'])))
      np.savez(model_dir + '/outputs.npz', **outputs)
""")


def _randomize(network, seed: int):
  """Random weights, and batch-norm statistics far from (0, 1)."""
  rng = np.random.default_rng(seed)
  for variable in network.variables:
    if not variable.dtype.is_floating:
      continue
    if 'moving_variance' in variable.name:
      value = rng.uniform(0.3, 3., variable.shape)
    elif 'moving_mean' in variable.name:
      value = rng.normal(0., 0.5, variable.shape)
    else:
      value = rng.normal(0., 0.4, variable.shape)
    variable.assign(value.astype(np.float32))


def _run(network, function: str, is_training=False, **inputs):
  """The network's own outputs as a dict of NumPy arrays (no `None`s)."""
  output = getattr(network, function)(**inputs, is_training=is_training)
  return {k: v.numpy() for k, v in output._asdict().items() if v is not None}


class ExportTest(testing.TestCase):

  @classmethod
  def setUpClass(cls):
    """Exports every model once and loads all of them in one subprocess."""
    super().setUpClass()
    tf.random.set_seed(0)
    cls.root = tempfile.mkdtemp()
    cls.configs, cls.expected, cls.training_mode = {}, {}, {}
    for seed, (name, (make_config, _)) in enumerate(MODELS.items()):
      config = make_config()
      network = muzero_network.make_network(config)
      network.create_variables()
      _randomize(network, seed)
      rng = np.random.default_rng(100 + seed)
      inputs, expected = {}, {}
      for b in BATCH_SIZES:
        obs = rng.uniform(0., 1., (b,) + config.observation_shape)
        inputs[f'obs_{b}'] = obs.astype(np.float32)
        # Hidden states as the search sees them: from other observations.
        other = rng.uniform(0., 1., (b,) + config.observation_shape)
        inputs[f'hidden_{b}'] = network.initial_inference(
            other.astype(np.float32)).hidden_state.numpy()
        inputs[f'action_{b}'] = rng.integers(
            0, config.action_space_size, b).astype(np.int32)
        expected[f'initial_{b}'] = _run(
            network, 'initial_inference', observation=inputs[f'obs_{b}'])
        expected[f'recurrent_{b}'] = _run(
            network, 'recurrent_inference', hidden_state=inputs[f'hidden_{b}'],
            action=inputs[f'action_{b}'])
      model_dir = os.path.join(cls.root, name)
      os.makedirs(model_dir)
      np.savez(os.path.join(model_dir, 'inputs.npz'), **inputs)
      export.export_inference(network, os.path.join(model_dir, 'model'),
                              config=config)
      # After the export: training mode updates batch-norm statistics.
      cls.training_mode[name] = _run(
          network, 'initial_inference', is_training=True,
          observation=inputs['obs_5'])
      cls.configs[name], cls.expected[name] = config, expected
    script = os.path.join(cls.root, 'load.py')
    with open(script, 'w') as f:
      f.write(_LOADER)
    subprocess.run(
        [sys.executable, script] +
        [os.path.join(cls.root, name) for name in MODELS],
        cwd=cls.root, check=True, timeout=300)
    cls.loaded = {
        name: dict(np.load(os.path.join(cls.root, name, 'outputs.npz')))
        for name in MODELS
    }

  @classmethod
  def tearDownClass(cls):
    shutil.rmtree(cls.root, ignore_errors=True)
    super().tearDownClass()

  def _new_dir(self) -> str:
    """A new empty directory, removed with the class's root."""
    return tempfile.mkdtemp(dir=self.root)

  def _assert_outputs(self, loaded, prefix, expected):
    got = {k.split('/', 1)[1]: v for k, v in loaded.items()
           if k.startswith(prefix + '/')}
    self.assertCountEqual(got, expected)
    for key, value in expected.items():
      self.assertEqual(got[key].dtype, np.float32, key)
      self.assertAllClose(got[key], value, atol=1e-5, rtol=1e-5, msg=key)

  @parameterized.parameters(*MODELS)
  def test_loaded_functions_match_network(self, name):
    for b in BATCH_SIZES:
      for function in ('initial', 'recurrent'):
        prefix = f'{function}_{b}'
        self._assert_outputs(self.loaded[name], prefix,
                             self.expected[name][prefix])

  @parameterized.parameters(*MODELS)
  def test_serving_signatures_match_network(self, name):
    self._assert_outputs(self.loaded[name], 'signature_initial',
                         self.expected[name]['initial_5'])
    self._assert_outputs(self.loaded[name], 'signature_recurrent',
                         self.expected[name]['recurrent_5'])

  def test_categorical_heads_export_their_logits(self):
    initial = self.loaded['mlp_support']
    self.assertEqual(initial['initial_5/value_logits'].shape, (5, 21))
    self.assertEqual(initial['recurrent_5/reward_logits'].shape, (5, 21))
    self.assertNotIn('initial_5/reward_logits', initial)
    self.assertNotIn('initial_5/value_logits', self.loaded['mlp_scalar'])
    self.assertNotIn('recurrent_5/reward_logits', self.loaded['mlp_scalar'])
    # The initial step has no transition, so its reward is zero.
    np.testing.assert_array_equal(initial['initial_5/reward'], np.zeros(5))

  def test_batch_norm_uses_moving_statistics(self):
    # The moving statistics are far from the batch's, so training mode would
    # give other outputs; the export matches inference mode (tested above).
    loaded = self.loaded['residual_bn']['initial_5/policy_logits']
    training = self.training_mode['residual_bn']['policy_logits']
    self.assertGreater(np.abs(loaded - training).max(), 1e-2)

  @parameterized.parameters(*MODELS)
  def test_metadata_matches_config(self, name):
    config, hidden_shape = self.configs[name], MODELS[name][1]
    path = os.path.join(self.root, name, 'model', 'assets',
                        export.CONFIG_FILENAME)
    with open(path) as f:
      metadata = json.load(f)
    support = config.network.value_support_size
    self.assertEqual(metadata['version'], export.METADATA_VERSION)
    self.assertEqual(metadata['action_space_size'], config.action_space_size)
    self.assertEqual(metadata['observation_shape'],
                     list(config.observation_shape))
    self.assertEqual(metadata['hidden_shape'], hidden_shape)
    self.assertEqual(metadata['discount'], config.discount)
    self.assertEqual(metadata['num_players'], config.num_players)
    self.assertEqual(metadata['value_support_size'], support)
    self.assertEqual(metadata['reward_support_size'], support)
    self.assertEqual(metadata['outputs']['recurrent_inference'][4:],
                     ['value_logits', 'reward_logits'] if support else [])

  def test_exports_uninitialised_network_and_replaces_old_export(self):
    config = testing.tiny_mlp_config(0)
    network = muzero_network.make_network(config)
    path = os.path.join(self._new_dir(), 'sub', 'model')
    self.assertEqual(export.export_inference(network, path), path)
    self.assertNotEmpty(network.variables)
    with open(os.path.join(path, 'assets', export.CONFIG_FILENAME)) as f:
      self.assertIsNone(json.load(f)['discount'])  # No config given.
    _randomize(network, seed=7)
    export.export_inference(network, path, config=config)
    obs = np.random.default_rng(0).uniform(size=(3, 4)).astype(np.float32)
    loaded = tf.saved_model.load(path)
    self.assertAllClose(loaded.initial_inference(obs)['value'],
                        _run(network, 'initial_inference', observation=obs)
                        ['value'], atol=1e-5, rtol=1e-5)
    # Only the export is left: no staging directory next to it.
    self.assertEqual(os.listdir(os.path.dirname(path)), ['model'])

  def test_out_of_range_action_fails_in_exported_model(self):
    loaded = tf.saved_model.load(os.path.join(self.root, 'mlp_scalar', 'model'))
    hidden = np.zeros((2, 8), np.float32)
    for action in ([0, 2], [-1, 0]):
      with self.assertRaisesRegex(tf.errors.InvalidArgumentError,
                                  r'action must lie in \[0, 2\)'):
        loaded.recurrent_inference(hidden, np.array(action, np.int32))

  def test_interrupted_export_keeps_previous_model(self):
    path = os.path.join(self._new_dir(), 'model')
    os.makedirs(os.path.join(path, 'variables'))
    with open(os.path.join(path, 'saved_model.pb'), 'w') as f:
      f.write('old')
    network = muzero_network.make_network(testing.tiny_mlp_config(0))

    def save_then_fail(module, export_dir, signatures):
      del module, signatures
      os.makedirs(export_dir)
      with open(os.path.join(export_dir, 'saved_model.pb'), 'w') as f:
        f.write('partial')
      raise KeyboardInterrupt

    with mock.patch.object(tf.saved_model, 'save', save_then_fail):
      with self.assertRaises(KeyboardInterrupt):
        export.export_inference(network, path)
    with open(os.path.join(path, 'saved_model.pb')) as f:
      self.assertEqual(f.read(), 'old')
    self.assertEqual(os.listdir(os.path.dirname(path)), ['model'])

  def test_bad_export_dir_raises(self):
    network = muzero_network.make_network(testing.tiny_mlp_config(0))
    root = self._new_dir()
    a_file = os.path.join(root, 'a_file')
    not_a_model = os.path.join(root, 'not_a_model')
    os.makedirs(not_a_model)
    for path in (a_file, os.path.join(not_a_model, 'notes.txt')):
      with open(path, 'w') as f:
        f.write('not a model')
    for bad, reason in (('', 'non-empty'), ('  ', 'non-empty'),
                        ('gs://bucket/model', 'local path'),
                        (a_file, 'not a directory'),
                        (not_a_model, 'holds no SavedModel')):
      with self.subTest(bad=bad):
        with self.assertRaises(ValueError) as raised:
          export.export_inference(network, bad)
        self.assertIn(repr(bad), str(raised.exception))
        self.assertIn(reason, str(raised.exception))
    with self.assertRaisesRegex(TypeError, 'export_dir.*None'):
      export.export_inference(network, None)
    self.assertEqual(os.listdir(not_a_model), ['notes.txt'])

  def test_bad_network_or_config_raises(self):
    path = os.path.join(self._new_dir(), 'model')
    with self.assertRaisesRegex(TypeError, 'MuZeroNetwork, got str'):
      export.export_inference('network', path)
    network = muzero_network.make_network(testing.tiny_mlp_config(0))
    with self.assertRaisesRegex(ValueError, 'action_space_size=9.*'
                                'num_actions=2'):
      export.export_inference(network, path,
                              config=presets.make_tictactoe_config())
    self.assertFalse(os.path.exists(path))


if __name__ == '__main__':
  tf.test.main()
