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
"""export_inference: a trained network as a self-contained SavedModel.

The SavedModel needs TensorFlow only, not this library:

    model = tf.saved_model.load(export_dir)
    out = model.initial_inference(observation)         # [B, *obs] float32
    out = model.recurrent_inference(out['hidden_state'], action)  # [B] int32

Both are also serving signatures and return `NetworkOutput`'s fields as
float32 (`value_logits` and, recurrent only, `reward_logits` for categorical
heads); an action outside [0, A) raises `InvalidArgumentError`.
`assets/muzero_config.json` holds the shapes, `discount`, `num_players`,
the support sizes and each output's keys.
"""

import json
import os
import shutil
import tempfile
from typing import Dict, Optional, Union

import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.networks import muzero_network

CONFIG_FILENAME = 'muzero_config.json'
METADATA_VERSION = 1
_STAGING_SUFFIX = '.export-tmp-'

PathLike = Union[str, os.PathLike]


def _outputs(output) -> Dict[str, tf.Tensor]:
  """A `NetworkOutput` as a dict of float32 tensors, without `None` fields."""
  return {
      key: tf.cast(value, tf.float32)
      for key, value in output._asdict().items()
      if value is not None
  }


class _InferenceModule(tf.Module):
  """The network (so its variables are saved) and its two functions."""

  def __init__(self, network: muzero_network.MuZeroNetwork,
               hidden_shape, config_path: str):
    super().__init__(name='muzero_inference')
    self._network = network
    self._num_actions = network.num_actions
    self.config_file = tf.saved_model.Asset(config_path)
    self.initial_inference = tf.function(
        self._initial_inference,
        input_signature=[
            tf.TensorSpec([None, *network.observation_shape], tf.float32,
                          name='observation')
        ], autograph=False)
    self.recurrent_inference = tf.function(
        self._recurrent_inference,
        input_signature=[
            tf.TensorSpec([None, *hidden_shape], tf.float32,
                          name='hidden_state'),
            tf.TensorSpec([None], tf.int32, name='action'),
        ], autograph=False)

  def _initial_inference(self, observation):
    return _outputs(
        self._network.initial_inference(observation, is_training=False))

  def _recurrent_inference(self, hidden_state, action):
    # The network checks action values only when run eagerly; an exported
    # model has no Python around it, so check them in the graph.
    message = f'action must lie in [0, {self._num_actions})'
    checks = [
        tf.debugging.assert_non_negative(action, message=message),
        tf.debugging.assert_less(action, self._num_actions, message=message),
    ]
    with tf.control_dependencies(checks):
      action = tf.identity(action)
    return _outputs(self._network.recurrent_inference(
        hidden_state, action, is_training=False))


def _check_export_dir(export_dir) -> str:
  """Returns `export_dir` as an absolute local path, or raises."""
  if not isinstance(export_dir, (str, os.PathLike)):
    raise TypeError(f'export_dir must be a path string, got {export_dir!r} '
                    f'of type {type(export_dir).__name__}.')
  path = os.fspath(export_dir)
  if not isinstance(path, str) or not path.strip():
    raise ValueError(
        f'export_dir must be a non-empty path string, got {export_dir!r}.')
  if '://' in path:
    # The export finishes with a rename, which object stores lack.
    raise ValueError(f'export_dir must be a local path, got {path!r}; export '
                     'locally, then copy the directory.')
  path = os.path.abspath(path)
  if os.path.exists(path):
    if not os.path.isdir(path):
      raise ValueError(
          f'export_dir {export_dir!r} exists and is not a directory.')
    if os.listdir(path) and not os.path.exists(
        os.path.join(path, 'saved_model.pb')):
      raise ValueError(
          f'export_dir {export_dir!r} is a non-empty directory that holds no '
          'SavedModel; expected a new path, an empty directory or an '
          'earlier export to replace.')
  return path


def _metadata(network: muzero_network.MuZeroNetwork, hidden_shape,
              config: Optional[config_lib.MuZeroConfig]) -> dict:
  recurrent_keys = ['value', 'reward', 'policy_logits', 'hidden_state']
  initial_keys = list(recurrent_keys)
  if network.value_support_size:
    initial_keys.append('value_logits')
    recurrent_keys.append('value_logits')
  if network.reward_support_size:
    recurrent_keys.append('reward_logits')
  return {
      'version': METADATA_VERSION,
      'action_space_size': int(network.num_actions),
      'observation_shape': [int(d) for d in network.observation_shape],
      'hidden_shape': [int(d) for d in hidden_shape],
      'discount': None if config is None else float(config.discount),
      'num_players': None if config is None else int(config.num_players),
      'value_support_size': int(network.value_support_size),
      'reward_support_size': int(network.reward_support_size),
      'outputs': {
          'initial_inference': initial_keys,
          'recurrent_inference': recurrent_keys,
      },
  }


def export_inference(
    network: muzero_network.MuZeroNetwork,
    export_dir: PathLike,
    config: Optional[config_lib.MuZeroConfig] = None) -> str:
  """Exports `network`'s inference functions as a TensorFlow SavedModel.

  Written beside `export_dir` (a local path: new, empty, or an earlier
  export; returned) and renamed into place, so an interrupted export leaves
  it as it was. `config` gives the metadata's `discount` and `num_players`.

  Raises:
    TypeError: if `network` is no `MuZeroNetwork` or `export_dir` no path.
    ValueError: if `export_dir` is empty, remote, a file or a non-empty
      directory other than a SavedModel, or `config` does not describe
      `network`.
  """
  if not isinstance(network, muzero_network.MuZeroNetwork):
    raise TypeError(
        f'network must be a MuZeroNetwork, got {type(network).__name__}.')
  path = _check_export_dir(export_dir)
  if config is not None and (
      config.action_space_size != network.num_actions or
      tuple(config.observation_shape) != network.observation_shape):
    raise ValueError(
        f'config (action_space_size={config.action_space_size}, '
        f'observation_shape={tuple(config.observation_shape)}) does not '
        f'describe the network (num_actions={network.num_actions}, '
        f'observation_shape={network.observation_shape}).')

  # Idempotent (Sonnet creates each variable once) and, in inference mode,
  # free of side effects; variables must exist before tracing.
  network.create_variables()
  probe = network.initial_inference(
      tf.zeros((1,) + network.observation_shape, tf.float32))
  hidden_shape = tuple(probe.hidden_state.shape[1:])

  parent = os.path.dirname(path)
  os.makedirs(parent, exist_ok=True)
  staging = tempfile.mkdtemp(
      prefix='.' + os.path.basename(path) + _STAGING_SUFFIX, dir=parent)
  try:
    config_path = os.path.join(staging, CONFIG_FILENAME)
    with open(config_path, 'w') as f:
      json.dump(_metadata(network, hidden_shape, config), f, indent=2)
    module = _InferenceModule(network, hidden_shape, config_path)
    staged = os.path.join(staging, 'model')
    tf.saved_model.save(
        module, staged,
        signatures={
            'initial_inference':
                module.initial_inference.get_concrete_function(),
            'recurrent_inference':
                module.recurrent_inference.get_concrete_function(),
        })
    # Renames only (an earlier export to the trash first): never half a model.
    trash = os.path.join(staging, 'replaced')
    replacing = os.path.exists(path)
    if replacing:
      os.rename(path, trash)
    try:
      os.rename(staged, path)
    except OSError:
      if replacing:
        os.rename(trash, path)
      raise
  finally:
    shutil.rmtree(staging, ignore_errors=True)
  return os.fspath(export_dir)
