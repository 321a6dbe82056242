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
"""A run's configuration as JSON, saved beside its checkpoints.

A checkpoint directory holds one run. `RunConfig` is what defines that run:
the preset, every `MuZeroConfig` field and the settings that shape its data
(seed, data source, self-play games and ratio, search). It is written as
`run_config.json` before the first checkpoint; a resumed run and an
evaluation compare themselves with it, so that a checkpoint of another run
is a clear error naming the differing fields instead of a TensorFlow restore
error (or, worse, a silently different run).
"""

import dataclasses
import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from muzero_snt import atomic_files
from muzero_snt import config as config_lib

RUN_CONFIG_FILE = 'run_config.json'
# Fields a resumed run may change without being asked: how long it runs and
# how often it saves do not change what it computes.
CHANGEABLE = ('training_steps', 'checkpoint_interval')
# What an evaluation needs to load a network: its shape, not its training.
NETWORK_FIELDS = ('preset', 'action_space_size', 'observation_shape',
                  'num_players')
# Network fields that change how it computes, not what it holds: an
# evaluation may differ in them from the training run.
COMPUTE_FIELDS = ('network.conv_as_matmul',)
_TEMPERATURES = {
    cls.__name__: cls for cls in (config_lib.MoveCountTemperature,
                                  config_lib.TrainingStepTemperature)
}
_FORMAT = 1
# Fields configurations saved by earlier versions hold and this one has not:
# read and dropped, so that their runs resume and evaluate as before.
# `num_actors` (the pseudocode's) is the run's setting, not the config's.
_REMOVED_FIELDS = ('num_actors',)


class RunConfigError(ValueError):
  """A run's configuration disagrees with the one saved in its directory."""


def _to_json(value: Any) -> Any:
  if isinstance(value, tuple):
    return [_to_json(v) for v in value]
  if dataclasses.is_dataclass(value) and type(value).__name__ in _TEMPERATURES:
    fields = {f.name: _to_json(getattr(value, f.name))
              for f in dataclasses.fields(value)}
    return {'type': type(value).__name__, **fields}
  return value


def config_to_dict(config: config_lib.MuZeroConfig) -> Dict[str, Any]:
  """Every field of `config` as JSON values, the network's as `network.x`.

  Raises:
    TypeError: if the temperature function is not one of the config's
      frozen temperature classes (an arbitrary callable cannot be saved).
  """
  values = {}
  for field in dataclasses.fields(config):
    value = getattr(config, field.name)
    if field.name == 'network':
      for network_field in dataclasses.fields(value):
        values[f'network.{network_field.name}'] = _to_json(
            getattr(value, network_field.name))
    elif field.name == 'visit_softmax_temperature_fn':
      if type(value).__name__ not in _TEMPERATURES:
        raise TypeError(
            f'visit_softmax_temperature_fn {value!r} cannot be saved: '
            f'expected one of {sorted(_TEMPERATURES)}.')
      values[field.name] = _to_json(value)
    elif field.name == 'known_bounds':
      values[field.name] = None if value is None else [value.min, value.max]
    else:
      values[field.name] = _to_json(value)
  return values


def _tuples(value: Any) -> Any:
  return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def config_from_dict(values: Mapping[str, Any]) -> config_lib.MuZeroConfig:
  """The inverse of `config_to_dict`; raises ValueError on unknown fields."""
  network, top = {}, {}
  for name, value in values.items():
    if name in _REMOVED_FIELDS:
      continue
    if name.startswith('network.'):
      network[name[len('network.'):]] = _tuples(value)
    else:
      top[name] = _tuples(value)
  temperature = {k: _tuples(v)
                 for k, v in top['visit_softmax_temperature_fn'].items()}
  cls = _TEMPERATURES[temperature.pop('type')]
  top['visit_softmax_temperature_fn'] = cls(**temperature)
  if top.get('known_bounds') is not None:
    top['known_bounds'] = config_lib.KnownBounds(*top['known_bounds'])
  try:
    return config_lib.MuZeroConfig(
        network=config_lib.NetworkConfig(**network), **top)
  except TypeError as e:
    raise ValueError(f'Unknown configuration field: {e}') from e


def apply_overrides(config: config_lib.MuZeroConfig,
                    overrides: Iterable[str]) -> config_lib.MuZeroConfig:
  """`config` with `name=value` changes, by the names of `config_to_dict`.

  Values are read as JSON (`lr_init=0.1`, `network.mlp_layers=[64,64]`,
  `known_bounds=null`), or as a string if they are not JSON
  (`unvisited_q=parent`).

  Raises:
    ValueError: naming an override that is not `name=value`, an unknown
      name, or a value the config refuses.
  """
  values = config_to_dict(config)
  for override in overrides:
    name, equals, text = override.partition('=')
    if not equals:
      raise ValueError(f'Override {override!r} is not name=value.')
    if name not in values:
      raise ValueError(f'Override {override!r} names no configuration field; '
                       f'expected one of {sorted(values)}.')
    try:
      values[name] = json.loads(text)
    except json.JSONDecodeError:
      values[name] = text
  return config_from_dict(values)


@dataclasses.dataclass(frozen=True)
class RunConfig:
  """What defines a run: its preset, configuration and data settings.

  Attributes:
    preset: the preset's name (`presets.PRESETS`), or None for a config
      built by hand.
    config: every hyperparameter.
    settings: the run's other choices that change what it computes, as
      JSON values: e.g. `seed`, `data`, `num_envs`, `train_ratio`, `search`,
      `env`.
  """
  preset: Optional[str]
  config: config_lib.MuZeroConfig
  settings: Mapping[str, Any] = dataclasses.field(default_factory=dict)

  def flat(self) -> Dict[str, Any]:
    """Every value by one name: `preset`, config fields, settings."""
    return {'preset': self.preset, **config_to_dict(self.config),
            **dict(self.settings)}

  def to_json(self) -> str:
    return json.dumps({
        'format': _FORMAT,
        'preset': self.preset,
        'config': config_to_dict(self.config),
        'settings': dict(self.settings),
    }, indent=2, sort_keys=True)

  @classmethod
  def from_json(cls, text: str) -> 'RunConfig':
    data = json.loads(text)
    if not isinstance(data, dict) or data.get('format') != _FORMAT:
      raise ValueError(f'expected a run configuration of format {_FORMAT}')
    return cls(data['preset'], config_from_dict(data['config']),
               data.get('settings', {}))


def differences(saved: RunConfig, current: RunConfig,
                fields: Optional[Iterable[str]] = None
               ) -> List[Tuple[str, Any, Any]]:
  """`(name, saved value, current value)` of every differing value.

  Args:
    saved: the configuration in the directory.
    current: this process's.
    fields: compare only these names (default: all of either side).
  """
  a, b = saved.flat(), current.flat()
  names = sorted(set(a) | set(b)) if fields is None else list(fields)
  missing = object()
  return [(name, a.get(name, missing), b.get(name, missing))
          for name in names if a.get(name, missing) != b.get(name, missing)]


def path(directory: str) -> str:
  return os.path.join(directory, RUN_CONFIG_FILE)


def save(directory: str, run: RunConfig) -> str:
  """Writes `run_config.json` atomically (a reader never sees half a file)."""
  os.makedirs(directory, exist_ok=True)
  target = path(directory)
  atomic_files.write_text(target, run.to_json() + '\n')
  return target


def load(directory: str) -> Optional[RunConfig]:
  """The configuration saved in `directory`, None if it has none.

  Raises:
    RunConfigError: if the file exists but cannot be read as one.
  """
  target = path(directory)
  if not os.path.exists(target):
    return None
  try:
    with open(target) as f:
      return RunConfig.from_json(f.read())
  except (OSError, ValueError, KeyError, TypeError) as e:
    raise RunConfigError(
        f'{target} is not a readable run configuration ({e}). It records '
        'which run the checkpoints beside it belong to: restore it from a '
        'backup, or move the directory aside and start a new run.') from e


def _format(value: Any) -> str:
  return '(absent)' if not isinstance(value, (str, int, float, bool, list,
                                               dict, type(None))) else (
                                                   json.dumps(value))


def describe(diffs: List[Tuple[str, Any, Any]]) -> str:
  return '; '.join(f'{name}: saved {_format(a)}, now {_format(b)}'
                   for name, a, b in diffs)


def check_resume(directory: str, current: RunConfig,
                 allowed: Iterable[str] = ()) -> Optional[RunConfig]:
  """Raises unless `current` continues the run saved in `directory`.

  Args:
    directory: the checkpoint directory.
    current: the configuration of the run about to resume.
    allowed: names that may differ besides `CHANGEABLE` (the user asked for
      those changes).

  Returns:
    The saved configuration, None if the directory has none.

  Raises:
    RunConfigError: naming both configurations' values of every field that
      differs and may not.
  """
  saved = load(directory)
  if saved is None:
    return None
  allowed = set(CHANGEABLE) | set(allowed)
  diffs = [d for d in differences(saved, current) if d[0] not in allowed]
  if diffs:
    raise RunConfigError(
        f'{path(directory)} holds a run whose configuration differs from '
        f'this one: {describe(diffs)}. Resume with the saved values, choose '
        'another checkpoint directory, or allow the change explicitly '
        f'(allow_config_changes={tuple(d[0] for d in diffs)!r}).')
  return saved


def check_network(directory: str, current: RunConfig) -> Optional[RunConfig]:
  """Raises unless the network saved in `directory` is `current`'s.

  For evaluation: the preset, the network and the shapes must agree; the
  training hyperparameters and the search's may differ.

  Raises:
    RunConfigError: naming the differing fields of both configurations.
  """
  saved = load(directory)
  if saved is None:
    return None
  names = [n for n in current.flat()
           if (n in NETWORK_FIELDS or n.startswith('network.')) and
           n not in COMPUTE_FIELDS]
  diffs = differences(saved, current, names)
  if diffs:
    raise RunConfigError(
        f'The checkpoints in {directory} are of another network: '
        f'{describe(diffs)} ({path(directory)} has the whole saved '
        'configuration). Evaluate with the preset and network of the '
        'training run.')
  return saved
