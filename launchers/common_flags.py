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
"""Flags shared by the training and evaluation launchers, and their checks.

The preset, its game, the network, the search, the seed and the run's
directories mean the same in both launchers, so the flags of a training run
evaluate it as they are. `make_config` turns them (and a launcher's own
overrides) into a validated `MuZeroConfig`; `run` starts a launcher so that
a usage error prints its message first. Nothing here imports TensorFlow:
a launcher checks its flags before TensorFlow starts.
"""

import dataclasses
import re
import sys
from typing import (Any, Callable, Dict, Mapping, Optional, Sequence,
                    Tuple)

from absl import app
from absl import flags
from absl import logging

from launchers import quiet
from muzero_snt import config as config_lib
from muzero_snt import environments
from muzero_snt import presets
from muzero_snt.run import compile_cache
from muzero_snt.run import run_config
from muzero_snt.run import run_lock
from muzero_snt.run import stopping

FLAGS = flags.FLAGS

# launchers/evaluate.py evaluates these (a fixed opponent or episodes).
EVALUATED_PRESETS = ('atari', 'atari_small', 'cartpole', 'connect4', 'go9',
                     'gymnasium', 'minatar', 'openspiel', 'tictactoe')
PRESET = flags.DEFINE_enum(
    'preset', 'tictactoe', list(presets.preset_names()),
    'configuration preset (launchers.evaluate takes '
    f'{", ".join(EVALUATED_PRESETS)}); gymnasium and openspiel derive it '
    'from the task or game of --env.')
ENV = flags.DEFINE_string(
    'env', None, 'the game of a titled preset: an Atari title for '
    '--preset=atari/atari_small (default Pong), a MinAtar game for '
    '--preset=minatar (breakout, the default, asterix, freeway, seaquest, '
    'space_invaders), a gymnasium id for --preset=cartpole or gymnasium '
    '(default CartPole-v1), an OpenSpiel game for --preset=openspiel '
    '(default tic_tac_toe; parameters inline: go(board_size=9)).')
CHECKPOINT_DIR = flags.DEFINE_string(
    'checkpoint_dir', None, 'the run\'s checkpoints (train: saved and '
    'resumed; evaluate: loaded).')
LOGDIR = flags.DEFINE_string('logdir', None,
                             'the run\'s TensorBoard directory.')
SEED = flags.DEFINE_integer('seed', 0, 'random seed.')
SEARCH = flags.DEFINE_enum(
    'search', 'xla', list(run_config.SEARCHES),
    'xla (batched tensors, XLA-compiled), graph (batched, no XLA) or '
    'reference (NumPy, one tree per game).')
NUM_SIMULATIONS = flags.DEFINE_integer(
    'num_simulations', None, 'search simulations per move (default: preset).')
UNVISITED_Q = flags.DEFINE_enum(
    'unvisited_q', None, list(config_lib.UNVISITED_Q),
    'Q of unvisited children in pUCT (default: preset).')
SEARCH_POLICY = flags.DEFINE_enum(
    'search_policy', None, list(config_lib.SEARCH_POLICIES),
    'muzero (pUCT, visit-count targets) or gumbel (Gumbel MuZero: '
    'Sequential Halving, completed-Q targets) for self-play, evaluation and '
    'reanalysis (default: preset).')
GUMBEL_MAX_CONSIDERED_ACTIONS = flags.DEFINE_integer(
    'gumbel_max_considered_actions', None, 'root actions Gumbel MuZero '
    'samples and halves, m (default: preset); below the simulations n, or '
    'the search looks one move ahead only.')
HIDDEN_SIZE = flags.DEFINE_integer(
    'hidden_size', None, 'MLP hidden-state size (MLP presets; default: '
    'preset).')
CHANNELS = flags.DEFINE_integer(
    'channels', None, 'planes of the residual tower (residual presets; '
    'default: preset).')
NUM_BLOCKS = flags.DEFINE_integer(
    'num_blocks', None, 'residual blocks of h and g (residual presets; '
    'default: preset).')
ACTION_ENCODING = flags.DEFINE_enum(
    'action_encoding', None, list(config_lib.ACTION_ENCODINGS),
    "how the dynamics sees an action (residual presets; default: preset): "
    "'one_hot' planes, its 'board' square, or its 'column' (connect four).")
SUPPORT_SIZE = flags.DEFINE_integer(
    'support_size', None, 'atoms of the value and reward heads, odd >= 3, '
    'or 0 for scalar heads (default: preset).')
CONFIG = flags.DEFINE_list(
    'config', [], 'changes to any configuration field the other flags do '
    'not name, as name=value with the names of the configuration a '
    'checkpoint saves (run_config.apply_overrides), applied after them: '
    'network.conv_as_matmul=true,max_moves=500. A JSON value with commas '
    'is quoted as a CSV field: \'"name={""a"":[1,2]}"\'. An evaluation '
    'of a run that saved its configuration may change only the search '
    'fields.')
COMPILE_CACHE = flags.DEFINE_string(
    'compile_cache', None, 'directory of XLA\'s compiled programs, shared '
    'by runs, so that a run compiles only what no earlier run did '
    '(default: $MUZERO_SNT_COMPILE_CACHE, or muzero_snt/xla in '
    '$XDG_CACHE_HOME or ~/.cache); empty for none.')

# Flags that shape the network, by the network kind they apply to.
_NETWORK_FLAGS = {
    'hidden_size': ('mlp',),
    'channels': ('residual',),
    'num_blocks': ('residual',),
    'action_encoding': ('residual',),
}
# The configuration fields each shared flag sets, by the names of the
# configuration a checkpoint saves (`run_config.config_to_dict`).
_CONFIG_FIELDS = {
    'num_simulations': ('num_simulations',),
    'unvisited_q': ('unvisited_q',),
    'search_policy': ('search_policy',),
    'gumbel_max_considered_actions': ('gumbel_max_considered_actions',),
    'hidden_size': ('network.hidden_size',),
    'channels': ('network.channels',),
    'num_blocks': ('network.num_blocks',),
    'action_encoding': ('network.action_encoding',),
    'support_size': ('network.value_support_size',
                     'network.reward_support_size'),
}


def passed(name: str) -> bool:
  """Whether flag `name` was given (on the command line, or set to a value
  other than its default by code)."""
  flag = FLAGS[name]
  return bool(flag.present) or flag.value != flag.default


def refuse(names: Sequence[str], reason: str) -> None:
  """Raises `UsageError` if any of the flags `names` was given."""
  given = [f'--{name}' for name in names if passed(name)]
  if given:
    raise app.UsageError(f'{", ".join(given)} {reason}; drop '
                         f'{"it" if len(given) == 1 else "them"}.')


def check_positive(name: str) -> None:
  value = FLAGS[name].value
  if value is not None and not value > 0:
    raise app.UsageError(f'--{name} must be positive, got {value}.')


def base_config(environment: Optional[str] = None,
                preset: Optional[str] = None,
                training_steps: Optional[int] = None
               ) -> config_lib.MuZeroConfig:
  """The configuration the flags start from: the preset's, or the one
  derived from the task of a family or from `environment`.

  Args:
    environment: a launcher's --environment, the import string of the
      user's environment factory (which replaces --preset and --env).
    preset: the run's preset (default: --preset's; an evaluation takes the
      saved run's).
    training_steps: --training_steps, which a derived configuration's
      learning-rate decay and temperatures follow (`presets.get_preset`).

  Raises:
    app.UsageError: naming the flags, if the task or the environment
      cannot be built or breaks the environment contract.
  """
  preset = None if environment else (preset or PRESET.value)
  title = None if environment else ENV.value
  if environment:
    # Its one-line errors name the module or attribute already.
    usage_errors(environments.load_factory, environment)
  try:
    return run_config.default_config(preset, title, environment,
                                     training_steps)
  except (ValueError, ImportError, TypeError) as e:
    where = (f'--environment={environment}' if environment else
             f'--preset={preset}' + (f' --env={title}' if title else ''))
    raise app.UsageError(f'{where}: {flag_names(str(e))}') from e


def validate(preset: Optional[str] = None,
             environment: Optional[str] = None) -> None:
  """Checks the shared flags that need no TensorFlow; raises `UsageError`.

  Args:
    preset: the run's preset (default: --preset's; an evaluation takes the
      saved run's).
    training_steps: --training_steps, which a derived configuration's
      learning-rate decay and temperatures follow (`presets.get_preset`).
    environment: as for `base_config`.
  """
  preset = preset or PRESET.value
  if environment and ENV.value is not None:
    raise app.UsageError(f'--env={ENV.value} chooses the game of a titled '
                         f'preset; --environment={environment} is the game. '
                         'Drop --env.')
  if environment and passed('preset'):
    raise app.UsageError(f'--preset={PRESET.value} and --environment='
                         f'{environment} both name the game; give one.')
  if not environment and ENV.value is not None and preset not in (
      environments.titled_environments()):
    raise app.UsageError(
        f'--env={ENV.value} chooses the game of '
        f'{sorted(environments.titled_environments())}; --preset='
        f'{preset} has no titles.')
  for name in ('num_simulations', 'gumbel_max_considered_actions',
               'hidden_size', 'channels', 'num_blocks'):
    check_positive(name)
  kind = base_config(environment, preset).network.kind
  game = (f'--environment={environment}' if environment else
          f'--preset={preset}')
  for name, kinds in _NETWORK_FLAGS.items():
    if passed(name) and kind not in kinds:
      raise app.UsageError(
          f'--{name} is for {" or ".join(kinds)} networks; {game} has a '
          f'{kind} network. Drop --{name}.')


def config_values() -> Dict[str, Any]:
  """The configuration fields the shared flags given set, by the names of
  `run_config.config_to_dict` (`num_simulations`, `network.channels`)."""
  return {field: FLAGS[name].value
          for name, fields in _CONFIG_FIELDS.items()
          if FLAGS[name].value is not None for field in fields}


def make_config(overrides: Optional[Mapping[str, Any]] = None,
                environment: Optional[str] = None
               ) -> config_lib.MuZeroConfig:
  """The preset with the shared flags' and `overrides`' values, validated.

  Args:
    overrides: `MuZeroConfig` fields set by a launcher's own flags; None
      values keep the preset's.
    environment: as for `base_config`.

  Raises:
    app.UsageError: naming the field and the preset if a value is invalid.
  """
  values = config_values()
  network_overrides = {name[len('network.'):]: value
                       for name, value in values.items()
                       if name.startswith('network.')}
  top = {**{name: value for name, value in values.items()
            if not name.startswith('network.')},
         **{k: v for k, v in (overrides or {}).items() if v is not None}}
  config = base_config(environment,
                       training_steps=(overrides or {}).get('training_steps'))
  try:
    network = dataclasses.replace(config.network, **network_overrides)
    return config.replace(network=network, **top)
  except ValueError as e:
    # The config names the field; say which flags set it.
    game = (f'--environment={environment}' if environment else
            f'--preset={PRESET.value}')
    raise app.UsageError(f'{e} (from the flags of {game})') from e


# Library arguments whose flag has another name.
_FLAG_OF_ARGUMENT = {'compute_dtype': 'mixed_precision', 'title': 'env',
                     'config_overrides': 'config'}

# An argument as the library's messages name it: `name=value`, or a config
# field `config.name` / `config.network.name`. Not inside a path, a dotted
# name or a flag.
_ARGUMENT = re.compile(
    r"(?<![\w./-])(?P<field>config\.(?:network\.)?)?(?P<name>[a-z_]\w*)"
    r"(?P<assign>=(?P<value>\([^)]*\)|'[^']*'|True\b|False\b)?)?")


def flag_names(message: str) -> str:
  """`message` of the library with its arguments named as this launcher's flags.

  The library names what it refuses by its arguments; the launcher's user
  set them with flags: `checkpoint_dir=/x` becomes `--checkpoint_dir=/x`,
  `jit_compile=False` `--nojit_compile`, `allow_config_changes=('a', 'b')`
  `--allow_config_changes=a,b`, `data='synthetic'` `--data=synthetic` and
  `config.network.channels` `--channels`. Names no flag of this launcher
  sets, and bare words, stay as they are.
  """

  def rewrite(match: re.Match) -> str:
    flag = _FLAG_OF_ARGUMENT.get(match['name'], match['name'])
    if flag not in FLAGS or not (match['field'] or match['assign']):
      return match[0]
    value = match['value']
    if not match['assign']:
      return f'--{flag}'
    if value is None:  # A number or a path follows as it is.
      return f'--{flag}='
    if value in ('True', 'False') and isinstance(FLAGS[flag],
                                                  flags.BooleanFlag):
      return f'--{flag}' if value == 'True' else f'--no{flag}'
    if value.startswith('('):
      return f'--{flag}=' + ','.join(re.findall(r"'([^']*)'", value))
    return f'--{flag}={value[1:-1]}'  # A quoted string.

  return _ARGUMENT.sub(rewrite, message)


def start_tensorflow() -> None:
  """Turns on the compile cache of --compile_cache, then starts TensorFlow.

  Raises:
    app.UsageError: if --compile_cache names a directory that cannot be
      used. The default one is left out with a warning instead.
  """
  given = COMPILE_CACHE.value
  try:
    cache = compile_cache.enable(
        compile_cache.default_directory() if given is None else given)
  except OSError as e:
    if given is not None:
      raise app.UsageError(f'--compile_cache={given} cannot be used '
                           f'({e}); give a writable directory, or '
                           '--compile_cache= for none.') from e
    logging.warning('No compile cache (%s): every XLA program is compiled.',
                    e)
    cache = None
  if cache is not None:
    # The run's first line, before TensorFlow's seconds of start-up.
    logging.info('Starting TensorFlow; XLA compile cache %s (%d programs).',
                 cache.shared, cache.seeded)
  # Loading a cache entry logs two native errors that are false alarms: a
  # failed text-format parse before the binary one succeeds, and CPU
  # tuning features (+prefer-no-scatter) taken for missing instructions.
  quiet.start_tensorflow(native_errors=cache is None)
  if cache is not None:
    cache.keep_from_children()


def usage_errors(function: Callable[..., Any], *args, **kwargs) -> Any:
  """Calls `function`; a `ValueError` or `ImportError` becomes `UsageError`.

  For the library's checks of what the flags asked for (an environment, a
  strategy, a checkpoint directory) before any training work.
  """
  try:
    return function(*args, **kwargs)
  except (ValueError, ImportError) as e:
    raise app.UsageError(flag_names(str(e))) from e


def _directory_errors() -> Tuple[type, ...]:
  """The errors of a run directory the run cannot continue from.

  `checkpointing` imports TensorFlow, so its error is looked up only once
  the run has imported it: before that, it cannot have been raised.
  """
  checkpointing = sys.modules.get('muzero_snt.run.checkpointing')
  if checkpointing is None:
    return (run_lock.RunLockError,)
  return (checkpointing.CheckpointError, run_lock.RunLockError)


def run(main: Callable[[Sequence[str]], None]) -> None:
  """`app.run(main)`, printing a usage error's message instead of the help.

  absl prints the whole module docstring and every flag before the message
  of a `UsageError`; here the message comes alone, with a pointer to
  `--helpfull`. A run stopped by a signal during its start-up
  (`stopping.Stopped`) logs one line naming the stage and exits 0, as a
  run stopped during training does.
  """

  def main_with_short_errors(argv: Sequence[str]) -> None:
    program = sys.argv[0].rsplit('/', 1)[-1]
    try:
      main(argv)
    except app.UsageError as e:
      sys.stderr.write(f'{program}: error: {e}\n'
                       f'See --helpfull for every flag.\n')
      sys.stderr.flush()
      sys.exit(e.exitcode)
    except _directory_errors() as e:
      # A directory the run cannot continue from: the message says why and
      # what to do; a traceback would add nothing.
      sys.stderr.write(f'{program}: error: {flag_names(str(e))}\n')
      sys.stderr.flush()
      sys.exit(1)
    except stopping.Stopped as e:
      # Asked for, and done: the `with` blocks on the way out released the
      # run lock and stopped Ray.
      logging.warning('%s', e)
      sys.exit(0)

  app.run(main_with_short_errors)
