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
"""A run's one configuration, `RunConfig`, and its record beside checkpoints,
`run_config.json`: resuming or evaluating another run's directory is then an
error naming the differing fields, not a restore error or a different run.
"""

import dataclasses
import functools
import json
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from muzero_snt import atomic_files
from muzero_snt import config as config_lib
from muzero_snt.environments import factories
from muzero_snt.run import choices
from muzero_snt import presets

RUN_CONFIG_FILE = 'run_config.json'
# Fields a resumed run may change unasked: they do not change what it computes.
CHANGEABLE = ('training_steps', 'checkpoint_interval')
# The preset of a run that names neither a preset nor an environment.
DEFAULT_PRESET = 'tictactoe'
# Network fields of how it computes, in which an evaluation may differ.
COMPUTE_FIELDS = ('network.conv_as_matmul',)
_TEMPERATURES = {
    cls.__name__: cls for cls in (config_lib.MoveCountTemperature,
                                  config_lib.TrainingStepTemperature)
}
_FORMAT = 1
# A value one side of `differences` lacks.
_ABSENT = object()
# Fields of configurations saved by earlier versions, read and dropped so
# that their runs resume as before (`num_actors`, the pseudocode's, is now
# the run's setting).
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
  """Every field of `config` as JSON values, the network's as `network.x`;
  raises TypeError for a temperature function other than the config's
  frozen temperature classes (an arbitrary callable cannot be saved)."""
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
  (`unvisited_q=parent`). Raises ValueError naming a bad override.
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


def _default_config(preset: Optional[str], title: Optional[str],
                    environment: Any, training_steps: Optional[int]
                   ) -> config_lib.MuZeroConfig:
  if environment is None:
    return presets.get_preset(preset, title, training_steps)
  made = factories.call(factories.resolve(environment), 0)
  overrides = {} if training_steps is None else dict(
      training_steps=training_steps)
  try:
    return presets.config_for_environment(made, **overrides)
  finally:
    made.close()


_cached_default_config = functools.lru_cache(maxsize=16)(_default_config)


def default_config(preset: Optional[str], title: Optional[str] = None,
                   environment: Any = None,
                   training_steps: Optional[int] = None
                  ) -> config_lib.MuZeroConfig:
  """The preset's configuration, or one derived from the specs of
  `environment` made once with seed 0 (cached, so that resolving a run
  again builds no environment); `training_steps` also sets its schedules."""
  try:
    hash(environment)
  except TypeError:  # A callable object without a hash: not remembered.
    return _default_config(preset, title, environment, training_steps)
  return _cached_default_config(preset, title, environment, training_steps)


DATA_SOURCES = ('selfplay', 'synthetic', 'replay')
SEARCHES = choices.SEARCHES
SEARCH_DEVICES = choices.SEARCH_DEVICES
# Self-play's ways of playing: saved only when on.
_PLAY_FLAGS = ('continuous_selfplay', 'pad_rounds', 'overlap_learning')
# Where a kind of Ray process runs: spread over the nodes, on the learner's
# node, or over the nodes holding custom resource NAME.
PLACEMENTS = ('spread', 'learner')
RESOURCE_PLACEMENT = 'resource:'
# Ray's own resources, asked for by count, never by a custom name.
_RAY_RESOURCES = ('CPU', 'GPU', 'memory', 'object_store_memory')
# What a placement may be, as the errors say it.
PLACEMENT_FORMS = ("'spread', 'learner' or 'resource:NAME' (NAME a custom "
                   "resource of Ray's nodes, not CPU, GPU or memory)")


def placement_resource(placement: str) -> Optional[str]:
  """NAME of a 'resource:NAME' placement, None for the others."""
  if placement.startswith(RESOURCE_PLACEMENT):
    return placement[len(RESOURCE_PLACEMENT):]
  return None


def is_placement(value: Any) -> bool:
  """Whether `value` is a placement (`PLACEMENT_FORMS`)."""
  if not isinstance(value, str):
    return False
  name = placement_resource(value)
  if name is None:
    return value in PLACEMENTS
  return bool(name) and not any(c.isspace() for c in name) and (
      name not in _RAY_RESOURCES)


@dataclasses.dataclass(frozen=True)
class RunConfig:
  """One training run (`experiment.run`): its game, hyperparameters and
  every other choice. Fields left None take the preset's (or environment's)
  values in `resolved()`; bad values are refused, naming the field.

  Attributes:
    preset: the environment, hyperparameters and self-play defaults
      (`presets.preset_names()`; default 'tictactoe' without `environment`).
    config: the hyperparameters (None: the preset's or the environment's).
    env: the game of a titled preset (an Atari title, a gymnasium id, ...).
    environment: the user's game: a callable `seed -> dm_env.Environment`
      or its import string 'package.module:factory' (docs/environments.md);
      a lambda must be passed again to resume or evaluate the run.
    data: 'selfplay' (the MuZero loop), 'synthetic' (the learner alone)
      or 'replay' (the games of `replay_path` only).
    num_envs: games each player of games plays at once (None: the preset's).
    train_ratio: learner steps per environment step.
    continuous_selfplay: replace each game as it ends instead of playing
      rounds that wait for their longest game.
    overlap_learning: take each move's learner steps in a second thread
      (the preset's default gives way to reanalysis).
    pad_rounds: search every move of a round with all num_envs rows, so
      that the batched search compiles one program.
    search, search_device: how and where self-play searches (`SEARCHES`,
      `SEARCH_DEVICES`).
    seed: seed of TensorFlow, self-play, replay and synthetic batches.
    jit_compile: XLA-compile the loss and gradients (one replica or a TPU).
    checkpoint_dir, logdir, export_dir: where to keep checkpoints, write
      TensorBoard summaries, and export the inference SavedModel.
    allow_config_changes: fields a resumed run may change (`CHANGEABLE`
      always may).
    checkpoint_minutes: also checkpoint after this much wall time.
    num_actors: self-play actor processes on Ray (docs/cluster.md); 0 plays
      in the learner's process. The other Ray settings: `ray_address`
      (HOST:PORT of a cluster to join; None starts Ray here),
      `publish_interval` (learner steps between weight publications),
      `eval_interval` (learner steps between evaluations of the published
      weights as `eval/...` scalars; 0: none) of `eval_games` games per
      opponent and side, `num_reanalyze_workers` (0 reanalyses in the
      learner's process), `replay_shards` (actor i's games go to shard i
      mod replay_shards) and where each kind of process runs
      (`*_placement`, `PLACEMENT_FORMS`; actors and reanalyse workers take
      one CPU each, or one unit of NAME with 'resource:NAME').
    replay_path: the replay file of data='replay' (`ReplayBuffer.save`).
    export_replay: where to write the run's replay buffer at the end.
  """
  preset: Optional[str] = None
  config: Optional[config_lib.MuZeroConfig] = None
  env: Optional[str] = None
  environment: Any = None
  data: str = 'selfplay'
  num_envs: Optional[int] = None
  train_ratio: Optional[float] = None
  continuous_selfplay: Optional[bool] = None
  overlap_learning: Optional[bool] = None
  pad_rounds: Optional[bool] = None
  search: str = 'xla'
  search_device: str = 'accelerator'
  seed: int = 0
  jit_compile: bool = True
  compute_dtype: str = 'float32'
  log_every: int = 50
  checkpoint_dir: Optional[str] = None
  logdir: Optional[str] = None
  export_dir: Optional[str] = None
  allow_config_changes: Tuple[str, ...] = ()
  checkpoint_minutes: Optional[float] = None
  num_actors: int = 0
  ray_address: Optional[str] = None
  publish_interval: int = 4
  eval_interval: int = 0
  eval_games: int = 20
  num_reanalyze_workers: int = 0
  replay_path: Optional[str] = None
  export_replay: Optional[str] = None
  actor_placement: str = 'spread'
  reanalyze_placement: str = 'spread'
  evaluator_placement: str = 'learner'
  replay_shards: int = 1
  replay_placement: str = 'learner'

  def __post_init__(self):
    def fail(name, expected):
      raise ValueError(f'{name} must be {expected}, got '
                       f'{getattr(self, name)!r}.')

    def check_count(name, minimum):  # An int (not a bool) >= 0 or >= 1.
      if type(getattr(self, name)) is not int or getattr(self, name) < minimum:
        fail(name, ('a non-negative', 'a positive')[minimum] + ' integer')

    if self.environment is not None:
      if not (callable(self.environment) or
              isinstance(self.environment, str) and ':' in self.environment):
        fail('environment', 'None, a callable seed -> dm_env.Environment '
             "or an import string 'package.module:factory'")
      if self.preset is not None:
        fail('preset', 'None when environment is given (the environment '
             'is the game)')
      if self.env is not None:
        fail('env', 'None when environment is given (env chooses the game '
             'of a titled preset)')
    elif self.preset is None:
      object.__setattr__(self, 'preset', DEFAULT_PRESET)
    if self.preset is not None and self.preset not in presets.preset_names():
      fail('preset', f'one of {list(presets.preset_names())}')
    if not (self.config is None or
            isinstance(self.config, config_lib.MuZeroConfig)):
      fail('config', 'None or a MuZeroConfig')
    if self.data not in DATA_SOURCES:
      fail('data', f'one of {DATA_SOURCES}')
    if self.search not in SEARCHES:
      fail('search', f'one of {SEARCHES}')
    if self.search_device not in SEARCH_DEVICES:
      fail('search_device', f'one of {SEARCH_DEVICES}')
    if self.compute_dtype not in choices.COMPUTE_DTYPES:
      fail('compute_dtype', f'one of {list(choices.COMPUTE_DTYPES)}')
    if self.num_envs is not None:
      check_count('num_envs', 1)
    for name in ('train_ratio', 'checkpoint_minutes'):
      value = getattr(self, name)
      if value is not None and not (
          isinstance(value, (int, float)) and not isinstance(value, bool)
          and 0 < value < float('inf')):
        fail(name, 'None or a positive finite number')
    for name in _PLAY_FLAGS:
      if not isinstance(getattr(self, name), (bool, type(None))):
        fail(name, 'None, True or False')
    if self.continuous_selfplay and self.data != 'selfplay':
      fail('continuous_selfplay', "False unless data='selfplay'")
    if self.overlap_learning and (self.data != 'selfplay' or
                                  self.num_actors):
      fail('overlap_learning', "False unless data='selfplay' in one "
           'process (num_actors=0; actors on Ray overlap already)')
    if self.pad_rounds and (self.data != 'selfplay' or
                            self.continuous_selfplay or
                            self.search == 'reference'):
      fail('pad_rounds', "False unless data='selfplay' plays rounds "
           '(continuous_selfplay off) with a batched search (xla or graph)')
    for name, minimum in (('log_every', 1), ('num_actors', 0),
                          ('publish_interval', 1), ('eval_interval', 0),
                          ('eval_games', 1), ('num_reanalyze_workers', 0),
                          ('replay_shards', 1)):
      check_count(name, minimum)
    if self.num_actors and self.data != 'selfplay':
      fail('num_actors', f'0 with data={self.data!r}')
    if (self.data == 'replay') != bool(self.replay_path):
      fail('replay_path', "a file with data='replay' (only then)")
    if self.export_replay and (self.data == 'synthetic' or self.num_actors):
      fail('export_replay', 'None with synthetic data or num_actors > 0 '
           '(no replay buffer in this process)')
    if self.ray_address and not self.num_actors:
      fail('ray_address', 'None unless num_actors > 0')
    if self.eval_interval and not self.num_actors:
      fail('eval_interval', '0 unless num_actors > 0')
    if self.num_reanalyze_workers and not self.num_actors:
      fail('num_reanalyze_workers', '0 unless num_actors > 0 (reanalyse '
           'workers are Ray processes of the distributed mode)')
    if self.replay_shards > 1 and not self.num_actors:
      fail('replay_shards', '1 unless num_actors > 0')
    if 0 < self.num_reanalyze_workers < self.replay_shards:
      fail('num_reanalyze_workers', f'0 or at least replay_shards = '
           f'{self.replay_shards} (reanalyse worker j serves shard j mod '
           'replay_shards, and every shard needs one)')
    for name, default, processes in (
        ('replay_placement', 'learner', 'num_actors'),
        ('actor_placement', 'spread', 'num_actors'),
        ('reanalyze_placement', 'spread', 'num_reanalyze_workers'),
        ('evaluator_placement', 'learner', 'eval_interval')):
      if not is_placement(getattr(self, name)):
        fail(name, PLACEMENT_FORMS)
      if getattr(self, name) != default and not getattr(self, processes):
        fail(name, f'{default!r} unless {processes} > 0')

  def replace(self, **changes) -> 'RunConfig':
    return dataclasses.replace(self, **changes)

  def resolved(self) -> 'RunConfig':
    """This run with every None taken from its preset: the one place.

    `num_envs` is per actor: by default the actors share the preset's
    games (rounded up). Resolving twice changes nothing.
    """
    config = self.config or default_config(self.preset, self.env,
                                           self.environment)
    defaults = presets.run_defaults(self.preset)
    self_play = self.data == 'selfplay'
    num_envs = self.num_envs
    if num_envs is None:
      num_envs = -(-defaults['num_envs'] // max(self.num_actors, 1))
    continuous = self.continuous_selfplay
    if continuous is None:
      continuous = defaults['continuous_selfplay'] and self_play
    overlap = self.overlap_learning
    if overlap is None:
      overlap = (defaults['overlap_learning'] and self_play and
                 not self.num_actors and not config.reanalyze_fraction)
    pad_rounds = self.pad_rounds
    if pad_rounds is None:
      pad_rounds = (defaults['pad_rounds'] and self_play and
                    not continuous and self.search == 'xla')
    return self.replace(
        config=config, num_envs=num_envs,
        train_ratio=self.train_ratio or defaults['train_ratio'],
        continuous_selfplay=continuous, overlap_learning=overlap,
        pad_rounds=pad_rounds)

  def defining_settings(self) -> Dict[str, Any]:
    """The resolved choices besides the config that a resumed run must keep,
    as JSON values (self-play's ways of playing named only when on)."""
    run = self.resolved()
    values = {'data': run.data, 'seed': run.seed}
    if run.environment is not None:
      values['environment'] = factories.factory_name(run.environment)
    if run.data == 'replay':
      values.update(replay_path=run.replay_path, search=run.search)
    if run.data == 'selfplay':
      values.update(env=run.env, num_envs=run.num_envs,
                    train_ratio=run.train_ratio, search=run.search)
      values.update({name: True for name in _PLAY_FLAGS
                     if getattr(run, name)})
    return values

  def flat(self) -> Dict[str, Any]:
    """Every defining value by one name: `preset`, config fields, settings."""
    return {'preset': self.preset,
            **config_to_dict(self.resolved().config),
            **self.defining_settings()}

  def to_json(self) -> str:
    data = {
        'format': _FORMAT,
        'preset': self.preset,
        'config': config_to_dict(self.resolved().config),
        'settings': self.defining_settings(),
    }
    if (self.environment is not None and
        not factories.is_importable(self.environment)):
      data['environment_not_importable'] = (
          f'{factories.factory_name(self.environment)} is a lambda, a '
          "local function or a script's own, which another process cannot "
          'import: a resume or an evaluation of this run must pass the '
          'same factory as RunConfig(environment=...).')
    return json.dumps(data, indent=2, sort_keys=True)

  @classmethod
  def from_json(cls, text: str) -> 'RunConfig':
    """The run saved by `to_json` (output directories unset)."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get('format') != _FORMAT:
      raise ValueError(f'expected a run configuration of format {_FORMAT}')
    settings = dict(data.get('settings', {}))
    if settings.get('data', 'selfplay') == 'selfplay':
      settings = {**dict.fromkeys(_PLAY_FLAGS, False), **settings}
    return cls(preset=data['preset'], config=config_from_dict(data['config']),
               **settings)


def differences(saved: RunConfig,
                current: RunConfig) -> List[Tuple[str, Any, Any]]:
  """`(name, saved value, current value)` of every value that differs."""
  a, b = saved.flat(), current.flat()
  return [(name, a.get(name, _ABSENT), b.get(name, _ABSENT))
          for name in sorted(set(a) | set(b))
          if a.get(name, _ABSENT) != b.get(name, _ABSENT)]


def path(directory: str) -> str:
  return os.path.join(directory, RUN_CONFIG_FILE)


def save(directory: str, run: RunConfig) -> str:
  """Writes `run_config.json` atomically (a reader never sees half a file)."""
  os.makedirs(directory, exist_ok=True)
  target = path(directory)
  atomic_files.write_text(target, run.to_json() + '\n')
  return target


def load(directory: str) -> Optional[RunConfig]:
  """The configuration saved in `directory`, None if it has none; raises
  `RunConfigError` if the file exists but cannot be read as one."""
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


def check_resume(directory: str, current: RunConfig,
                 allowed: Iterable[str] = ()) -> Optional[RunConfig]:
  """The configuration saved in checkpoint `directory` (None if none);
  raises `RunConfigError` unless `current` continues it, naming both values
  of every field that differs (besides `CHANGEABLE` and `allowed`)."""
  saved = load(directory)
  if saved is None:
    return None
  allowed = set(CHANGEABLE) | set(allowed)
  diffs = [d for d in differences(saved, current) if d[0] not in allowed]
  if diffs:
    show = lambda v: '(absent)' if v is _ABSENT else json.dumps(v)
    described = '; '.join(f'{name}: saved {show(a)}, now {show(b)}'
                          for name, a, b in diffs)
    raise RunConfigError(
        f'{path(directory)} holds a run whose configuration differs from '
        f'this one: {described}. Resume with the saved values, choose '
        'another checkpoint directory, or allow the change explicitly '
        f'(allow_config_changes={tuple(d[0] for d in diffs)!r}).')
  return saved

