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
"""The network of a training run's latest checkpoint, and the run itself
(`run_to_evaluate`: the record saved beside its checkpoints)."""

import json
import os
from typing import Any, List, Mapping, NamedTuple, Optional, Sequence, Tuple

import tensorflow as tf

from muzero_snt.run import checkpointing
from muzero_snt import config as config_lib
from muzero_snt import environments
from muzero_snt.environments import factories
from muzero_snt import networks
from muzero_snt.run import run_config


def check_checkpoint_dir(checkpoint_dir: str) -> None:
  """Raises FileNotFoundError (or NotADirectoryError, for a file) unless
  `checkpoint_dir` is a directory holding a checkpoint."""
  where = f'checkpoint_dir={checkpoint_dir}'
  if not os.path.exists(checkpoint_dir):
    raise FileNotFoundError(f'{where} does not exist: give the checkpoint '
                            'directory of a training run.')
  if not os.path.isdir(checkpoint_dir):
    raise NotADirectoryError(f'{where} is a file, not a directory: give '
                             'the checkpoint directory of a training run.')
  if checkpointing.Checkpointer(checkpoint_dir).latest_number is None:
    what_is_there = ('it is empty' if not os.listdir(checkpoint_dir) else
                     'no ckpt-N.index file')
    raise FileNotFoundError(f'{where} holds no checkpoint ({what_is_there}): '
                            'give the checkpoint directory of a training '
                            'run that has saved one.')


def load_network(config: config_lib.MuZeroConfig,
                 checkpoint_dir: str) -> Tuple[networks.MuZeroNetwork, int]:
  """(network, learner step) of the latest checkpoint in `checkpoint_dir`;
  raises as `check_checkpoint_dir`, or ValueError if no intact
  checkpoint's network fits `config`'s."""
  check_checkpoint_dir(checkpoint_dir)
  network = networks.make_network(config)
  network.create_variables()
  step = tf.Variable(0, dtype=tf.int64, trainable=False)
  checkpointer = checkpointing.Checkpointer(checkpoint_dir, network=network,
                                            step=step)
  try:
    # Read-only: a training run may be writing to the directory.
    checkpointer.restore(read_only=True)
  except checkpointing.CheckpointError as e:
    raise ValueError(
        f'No checkpoint in {checkpoint_dir} fits the config\'s network '
        f'({config.network}) and is intact: {e}') from e
  return network, int(step.numpy())


# Config fields an evaluation may change: how it searches and lets games run.
EVALUATION_FIELDS = (
    'num_simulations', 'pb_c_base', 'pb_c_init', 'unvisited_q',
    'search_policy', 'gumbel_max_considered_actions', 'gumbel_c_visit',
    'gumbel_c_scale', 'root_dirichlet_alpha', 'root_exploration_fraction',
    'max_moves') + run_config.COMPUTE_FIELDS


def _title(preset: str, env: Optional[str]) -> Optional[str]:
  """The game `env` names for `preset`: its default title when None."""
  entry = environments.ENVIRONMENTS.get(preset)
  return env if env is not None or entry is None else entry.default_title


def _shown(value: Any) -> str:
  """A config value as an argument shows it: strings quoted, else JSON."""
  return repr(value) if isinstance(value, str) else json.dumps(value)


def _changed_fields(a: config_lib.MuZeroConfig,
                    b: config_lib.MuZeroConfig) -> List[str]:
  """The names (`run_config.config_to_dict`'s) of the fields that differ."""
  a, b = run_config.config_to_dict(a), run_config.config_to_dict(b)
  return sorted(name for name in a if a[name] != b[name])


class RunToEvaluate(NamedTuple):
  """What an evaluation plays, and the saved record it comes from."""
  # The preset, config and env to evaluate, with the record's other fields.
  run: run_config.RunConfig
  # The record in `run.checkpoint_dir`, or None (no directory or record).
  saved: Optional[run_config.RunConfig]

  def describe(self) -> str:
    """One line: whose run this is, its game and its config changes."""
    run = self.run
    trained = self.saved.config if self.saved else run.config
    if run.environment is not None:
      what = f'environment {factories.factory_name(run.environment)}'
      origin = 'the configuration derived from it'
    else:
      title = _title(run.preset, run.env)
      what = f'preset {run.preset}' + (f', env {title}' if title else '')
      origin = 'the preset'
    changes = _changed_fields(
        run_config.default_config(run.preset, run.env, run.environment),
        trained)
    count = (f'{len(changes)} config change{"s"[:len(changes) != 1]} from '
             f'{origin} ({", ".join(changes)})' if changes else
             f'no config changes from {origin}')
    what = f'{what}, {count}'
    if self.saved is None:
      if run.checkpoint_dir:
        return (f'{run.checkpoint_dir} holds no {run_config.RUN_CONFIG_FILE}: '
                f'evaluating {what}, as given')
      return f'Evaluating {what}'
    values = run_config.config_to_dict(run.config)
    evaluated = ', '.join(f'{name}={_shown(values[name])}' for name in
                          _changed_fields(self.saved.config, run.config))
    return (f'Evaluating the run in {run.checkpoint_dir}: {what}' +
            (f'; evaluated with {evaluated}' if evaluated else ''))


def run_to_evaluate(checkpoint_dir: Optional[str],
                    preset: Optional[str] = None,
                    env: Optional[str] = None,
                    config_values: Optional[Mapping[str, Any]] = None,
                    config_overrides: Sequence[str] = ()) -> RunToEvaluate:
  """The run in `checkpoint_dir`, to evaluate exactly as it was trained.

  The saved record (`run_config.load`) gives the preset, the game and the
  whole configuration; the arguments may repeat its values and change only
  `EVALUATION_FIELDS`. Without one (no directory, or a run from before
  records) the arguments (None: `RunConfig`'s defaults) say what to
  evaluate. `config_values` sets config fields by their
  `run_config.config_to_dict` names, then `config_overrides` apply.

  Raises:
    run_config.RunConfigError: if `preset`, `env` or a changed config field
      disagrees with the saved run, naming both values; or if the record
      cannot be read.
    ValueError: if a change names no config field or sets a bad value.
  """
  saved = run_config.load(checkpoint_dir) if checkpoint_dir else None
  # The record's fields an evaluation may name, with the values asked for.
  asked = {'preset': preset, 'env': env}
  if saved is None:
    run = run_config.RunConfig(
        **{name: value for name, value in asked.items() if value is not None})
  else:
    run = saved
    for name, value in asked.items():
      if value is None:
        continue
      trained = getattr(saved, name)
      if name == 'env':
        value, trained = (_title(saved.preset, v) for v in (value, trained))
      # A run without self-play recorded no game: any may be evaluated.
      recorded = name != 'env' or saved.data == 'selfplay'
      if recorded and value != trained:
        raise run_config.RunConfigError(
            f'{name}={value!r} disagrees with the run in {checkpoint_dir}, '
            f'trained with {name}={trained!r} '
            f'({run_config.path(checkpoint_dir)}); evaluate it with that '
            f'{name} or without one.')
      run = run.replace(**{name: value})
  trained = run.config or run_config.default_config(run.preset, run.env)
  before = run_config.config_to_dict(trained)
  unknown = sorted(set(config_values or {}) - set(before))
  if unknown:
    raise ValueError(f'config_values names unknown fields {unknown}; '
                     f'expected names of {sorted(before)}.')
  config = run_config.config_from_dict({**before, **(config_values or {})})
  try:
    config = run_config.apply_overrides(config, config_overrides)
  except ValueError as e:
    raise ValueError(
        f'config_overrides={tuple(config_overrides)!r}: {e}') from e
  if saved is not None:
    refused = [name for name in _changed_fields(trained, config)
               if name not in EVALUATION_FIELDS]
    if refused:
      values = run_config.config_to_dict(config)
      changes = ', '.join(
          f'config.{name}={_shown(values[name])} (trained: '
          f'{_shown(before[name])})' for name in refused)
      raise run_config.RunConfigError(
          f'{changes} {("disagrees", "disagree")[len(refused) > 1]} with the '
          f'run in {checkpoint_dir}; an evaluation may change only '
          f'{", ".join(EVALUATION_FIELDS)}: drop '
          f'{("it", "them")[len(refused) > 1]}.')
  return RunToEvaluate(
      run.replace(config=config, checkpoint_dir=checkpoint_dir), saved)
