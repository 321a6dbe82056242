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
r"""Evaluates a trained MuZero network with the search; prints a table.

The network of the latest checkpoint in --checkpoint_dir (or, with
--random_init, a freshly initialised one as a baseline) plays with the
noise-free search and its most visited action (`evaluation.MuZeroPlayer`):

* tictactoe: --num_games games against the perfect and the random player,
  with MuZero moving first and second; wins, draws and losses per row.
  --exact adds the exact probabilities of each result, walking every line
  of play (`exact_evaluation`), and the lines MuZero loses.
* connect4, go9, openspiel: the same against OpenSpiel's MCTS bot with
  random rollouts (--opponent_simulations per move, --opponent_rollouts per
  leaf; the row names it, e.g. mcts1000) and the random player.
  --opponents chooses among a two-player game's opponents.
* cartpole, atari, atari_small, minatar, gymnasium (one player; --env picks
  the game): --num_games episodes; the mean, std, min and max return.
* a run of your own game (`launchers.train --environment=module:factory`):
  episodes if it has one player, else games against the random player.

A run that saved its configuration (run_config.json beside its
checkpoints) is evaluated exactly as it was trained: its preset, its game
(--env) and its whole configuration, --config changes included, come from
there, and the first line printed says so. Flags may repeat the run's
values; one that disagrees with them is an error naming both, except for
the search's (--search, --num_simulations, --unvisited_q, --search_policy,
--gumbel_max_considered_actions and the search fields of --config), which
an evaluation may change. For a directory without a saved configuration
the flags say what to evaluate: --preset, --env, the network flags
(--hidden_size, --channels, --num_blocks, --support_size) and --config are
those of `launchers.train` (`launchers/common_flags.py`), so the flags of
its training run evaluate it as they are.

Every game or episode still running after --max_moves moves (default: the
configuration's max_moves) is cut; the table counts those cut. With
--logdir (the run's TensorBoard directory) the results are added there as
`eval/...` scalars at the checkpoint's learner step; --curve_png then plots
the run's 'selfplay/episode_return', 'loss' and every 'eval/...' scalar.

    python -m launchers.evaluate --checkpoint_dir=/tmp/ckpt
    python -m launchers.evaluate --preset=cartpole --random_init \
        --num_games=20
    python -m launchers.evaluate --preset=cartpole --env=Acrobot-v1 \
        --config=observation_shape=[6],action_space_size=3 --random_init
    python -m launchers.evaluate --preset=connect4 --checkpoint_dir=/tmp/c4 \
        --opponents=mcts --opponent_simulations=1000 --num_games=50
    python -m launchers.evaluate --checkpoint_dir=/tmp/ckpt \
        --logdir=/tmp/logs --curve_png=/tmp/curve.png
"""

import os
from typing import (TYPE_CHECKING, List, NamedTuple, Optional, Sequence,
                    Tuple)

from absl import app
from absl import flags
from absl import logging

from launchers import common_flags
from launchers import quiet
from muzero_snt import config as config_lib
from muzero_snt.evaluation import opponents as opponents_lib
from muzero_snt.run import run_config

if TYPE_CHECKING:
  # For annotations only: these import TensorFlow, which `run` starts.
  # pylint: disable=g-import-not-at-top,g-bad-import-order
  from muzero_snt.evaluation import exact as exact_evaluation
  from muzero_snt.evaluation import loading
  from muzero_snt.evaluation import matches as evaluation
  # pylint: enable=g-import-not-at-top,g-bad-import-order

PRESETS = common_flags.EVALUATED_PRESETS
CURVE_TAGS = ('selfplay/episode_return', 'loss')

# Shared with launchers.train: see the module docstring.
PRESET = common_flags.PRESET
CHECKPOINT_DIR = common_flags.CHECKPOINT_DIR
SEED = common_flags.SEED
LOGDIR = common_flags.LOGDIR
NUM_SIMULATIONS = common_flags.NUM_SIMULATIONS
ENV = common_flags.ENV
CONFIG = common_flags.CONFIG
for _name in ('preset', 'env', 'checkpoint_dir', 'seed', 'logdir', 'search',
              'num_simulations', 'unvisited_q', 'search_policy',
              'gumbel_max_considered_actions', 'hidden_size', 'channels',
              'num_blocks', 'action_encoding', 'support_size', 'config',
              'compile_cache'):
  flags.declare_key_flag(_name)

RANDOM_INIT = flags.DEFINE_bool(
    'random_init', False, 'evaluate a randomly initialised network (a '
    'baseline) instead of a checkpoint.')
NUM_GAMES = flags.DEFINE_integer(
    'num_games', 100, 'two-player presets: games per opponent and side; '
    'one-player presets: episodes.')
OPPONENTS = flags.DEFINE_list(
    'opponents', None, 'two-player games: the opponents to play (default: '
    'all of the game\'s: tictactoe perfect,random; connect4, go9 and '
    'openspiel mcts,random; a game of your own random).')
OPPONENT_SIMULATIONS = flags.DEFINE_integer(
    'opponent_simulations', None, 'OpenSpiel games: simulations per move of '
    f'the MCTS opponent (default {opponents_lib.MCTS_SIMULATIONS}).')
OPPONENT_ROLLOUTS = flags.DEFINE_integer(
    'opponent_rollouts', None, 'OpenSpiel games: random rollouts per leaf of '
    f'the MCTS opponent (default {opponents_lib.MCTS_ROLLOUTS}).')
EXACT = flags.DEFINE_bool(
    'exact', False, 'tictactoe: also walk every line of play against the '
    'perfect and the random player and print the exact probabilities of '
    'each result, with the losing lines.')
MAX_MOVES = flags.DEFINE_integer(
    'max_moves', None, 'cut a game or episode still running after this '
    'many moves, and count it as cut (default: the configuration\'s '
    'max_moves).')
CURVE_PNG = flags.DEFINE_string(
    'curve_png', None, 'where to write a learning curve (PNG) of the '
    '--logdir scalars.')

class Evaluation(NamedTuple):
  """What `run` measured, and the table it printed."""
  learner_step: int
  results: 'evaluation.Results'
  table: str
  exact: Optional[List['exact_evaluation.ExactResult']] = None


def _validate_sources() -> None:
  """Checks what is evaluated, and how many games, for any preset."""
  if not CHECKPOINT_DIR.value and not RANDOM_INIT.value:
    raise app.UsageError('--checkpoint_dir is required (the training run\'s '
                         'checkpoints), unless --random_init evaluates an '
                         'untrained baseline.')
  if CHECKPOINT_DIR.value and RANDOM_INIT.value:
    raise app.UsageError(f'--random_init evaluates an untrained network; '
                         f'drop it or --checkpoint_dir='
                         f'{CHECKPOINT_DIR.value}.')
  for name in ('num_games', 'num_simulations', 'max_moves'):
    common_flags.check_positive(name)


def validate_flags(preset: Optional[str] = None,
                   environment: Optional[str] = None) -> None:
  """Checks the flags before any TensorFlow work; raises `UsageError`.

  Args:
    preset: the evaluated run's preset (default: --preset's).
    environment: the import string of the evaluated run's own game, which
      replaces its preset.
  """
  _validate_sources()
  if environment is None:
    preset = preset or PRESET.value
    common_flags.validate(preset)
    if preset not in PRESETS:
      raise app.UsageError(f'--preset={preset} cannot be evaluated; '
                           f'expected one of {list(PRESETS)}.')
  else:
    preset = None
    common_flags.validate(environment=environment)
  _validate_opponent_flags(preset)
  if EXACT.value and preset != 'tictactoe':
    game = (f'--preset={preset}' if preset else
            f'the run\'s environment {environment}')
    raise app.UsageError(f'--exact walks every line of tic-tac-toe; '
                         f'{game} has too many. Drop it.')
  if CURVE_PNG.value and not LOGDIR.value:
    raise app.UsageError(f'--curve_png={CURVE_PNG.value} plots the scalars '
                         'of --logdir; pass --logdir too.')


def _validate_opponent_flags(preset: Optional[str]) -> None:
  """preset None: the run's own game, whose opponents are known once it is
  built (the random player, and the MCTS bot for an OpenSpiel game)."""
  if preset is not None and preset not in opponents_lib.OPPONENTS:
    common_flags.refuse(
        ('opponents', 'opponent_simulations', 'opponent_rollouts'),
        f'choose the opponents of two-player presets '
        f'({", ".join(sorted(opponents_lib.OPPONENTS))}); --preset={preset} '
        'plays episodes alone')
    return
  available = opponents_lib.OPPONENTS.get(preset, ('mcts', 'random'))
  game = f'--preset={preset}' if preset else 'the run\'s environment'
  if OPPONENTS.value is not None:
    unknown = [n for n in OPPONENTS.value if n not in available]
    if unknown or not OPPONENTS.value:
      raise app.UsageError(
          f'--opponents={",".join(OPPONENTS.value)}: '
          f'{",".join(unknown) or "none"} cannot play {game}; '
          f'expected some of {",".join(available)}.')
  for holder in (OPPONENT_SIMULATIONS, OPPONENT_ROLLOUTS):
    if holder.value is None:
      continue
    if holder.value < 1:
      raise app.UsageError(f'--{holder.name} must be positive, got '
                           f'{holder.value}.')
    if 'mcts' not in (OPPONENTS.value or available):
      raise app.UsageError(
          f'--{holder.name}={holder.value} sets the mcts opponent, which '
          f'{game} does not play here (opponents '
          f'{",".join(OPPONENTS.value or available)}); drop it.')


def _write_curve(logdir: str, path: str) -> None:
  from muzero_snt.evaluation import curves  # pylint: disable=g-import-not-at-top
  available = curves.read_scalars(logdir)
  tags = [t for t in CURVE_TAGS if t in available]
  missing = sorted(set(CURVE_TAGS) - set(tags))
  if missing:
    logging.warning('No %s in %s: the curve leaves them out.', missing,
                    logdir)
  tags += sorted(t for t in available if t.startswith('eval/'))
  curves.learning_curve_png(logdir, tags, path)
  logging.info('Wrote the learning curve of %s to %s.', tags, path)


def run(preset: Optional[str],
        config: Optional[config_lib.MuZeroConfig] = None,
        checkpoint_dir: Optional[str] = None,
        num_games: int = 100,
        num_simulations: Optional[int] = None,
        seed: int = 0,
        logdir: Optional[str] = None,
        curve_png: Optional[str] = None,
        title: Optional[str] = None,
        search_kind: str = 'xla',
        opponents: Optional[Sequence[str]] = None,
        opponent_simulations: int = opponents_lib.MCTS_SIMULATIONS,
        opponent_rollouts: int = opponents_lib.MCTS_ROLLOUTS,
        exact: bool = False,
        max_moves: Optional[int] = None,
        environment: Optional[str] = None) -> Evaluation:
  """Evaluates a checkpoint (or a random network); prints the table.

  Args:
    preset: one of `PRESETS`, or None with `environment`.
    config: the run's configuration (default: the preset's); its network
      must be the checkpoint's.
    checkpoint_dir: the training run's checkpoints; None evaluates a
      randomly initialised network (seeded by `seed`).
    num_games: tic-tac-toe games per opponent and side, or episodes.
    num_simulations: simulations per search (default: the preset's).
    seed: seed of the opponents, the environments and a random network.
    logdir: the run's TensorBoard directory; the results are written there
      as `eval/...` scalars at the learner step.
    curve_png: where to plot the learning curve of `logdir`'s scalars.
    title: the game of a titled preset (Atari title, gymnasium id); None
      for the preset's default.
    search_kind: how MuZero searches (`search.SEARCH_KINDS`).
    opponents: the opponents of a two-player preset
      (`opponents.OPPONENTS`; default: all of them).
    opponent_simulations: the MCTS opponent's simulations per move.
    opponent_rollouts: the MCTS opponent's random rollouts per leaf.
    exact: tictactoe: also walk every line against the perfect and the
      random player (`exact_evaluation.walk_all`), printed after the table.
    max_moves: games and episodes still running after this many moves are
      cut and counted (default: the config's `max_moves`).
    environment: the run's own game instead of a preset, the import string
      of its factory; a two-player game plays the random player (and
      OpenSpiel's MCTS bot if it is an OpenSpiel game).

  Returns:
    The `Evaluation`.
  """
  quiet.start_tensorflow()
  # pylint: disable=g-import-not-at-top
  import tensorflow as tf
  from muzero_snt import networks
  from muzero_snt import search
  from muzero_snt.evaluation import exact as exact_evaluation
  from muzero_snt.evaluation import loading
  from muzero_snt.evaluation import matches as evaluation
  from muzero_snt.run import builders
  # pylint: enable=g-import-not-at-top
  config = config or run_config.default_config(preset, title, environment)
  if checkpoint_dir:
    network, learner_step = loading.load_network(config, checkpoint_dir)
    logging.info('Loaded the network of learner step %d from %s.',
                 learner_step, checkpoint_dir)
  else:
    tf.random.set_seed(seed)
    network, learner_step = networks.make_network(config), 0
  if num_simulations:
    config = config.replace(num_simulations=num_simulations)
  player_search = search.make_search(config, network, search_kind)
  make_environment = builders.make_environment_factory(preset, config, title,
                                                       environment)
  opponents = common_flags.usage_errors(
      evaluation.preset_opponents, preset, make_environment, opponents,
      opponent_simulations, opponent_rollouts, seed)
  opponent_note = ''
  if opponents and opponents_lib.mcts_name(opponent_simulations) in opponents:
    opponent_note = (f'; OpenSpiel MCTS opponent: {opponent_simulations} '
                     f'simulations, {opponent_rollouts} random rollout(s) '
                     'per leaf')
  results = evaluation.evaluate_preset(player_search, make_environment,
                                       opponents, num_games, seed,
                                       max_moves=max_moves)
  if opponents is None:
    table = evaluation.episodes_table(results)
  else:
    table = evaluation.tictactoe_table(results)
  source = checkpoint_dir or 'random initialisation'
  game = preset or environment
  print(f'MuZero {game}, learner step {learner_step} ({source}), '
        f'{config.num_simulations} simulations per move{opponent_note}\n'
        f'{table}')
  exact_results = None
  if exact:
    if preset != 'tictactoe':
      raise ValueError(f'exact walks every line of tic-tac-toe; preset '
                       f'{preset!r} has too many.')
    player = evaluation.MuZeroPlayer(player_search, seed=seed)
    exact_results = exact_evaluation.walk_all(
        player.select_actions,
        [name for name in opponents if name in exact_evaluation.OPPONENTS])
    print(exact_evaluation.format_results(exact_results))
  if logdir:
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default(step=learner_step):
      for tag, value in evaluation.summary_scalars(results).items():
        tf.summary.scalar(tag, value)
    writer.close()
  if curve_png:
    _write_curve(logdir, curve_png)
  return Evaluation(learner_step, results, table, exact_results)


def run_to_evaluate() -> 'loading.RunToEvaluate':
  """The run the flags name: the saved one in --checkpoint_dir, if any."""
  from muzero_snt.evaluation import loading  # pylint: disable=g-import-not-at-top
  return common_flags.usage_errors(
      loading.run_to_evaluate, CHECKPOINT_DIR.value,
      preset=PRESET.value if common_flags.passed('preset') else None,
      env=ENV.value,
      config_values=common_flags.config_values(),
      config_overrides=CONFIG.value)


def _saved_game() -> Tuple[Optional[str], Optional[str]]:
  """(preset, environment) of the run --checkpoint_dir saved; (None, None)
  without one.

  Raises:
    app.UsageError: if --checkpoint_dir is missing or a file.
  """
  directory = CHECKPOINT_DIR.value
  if not directory:
    return None, None
  where = f'--checkpoint_dir={directory}'
  if not os.path.exists(directory):
    raise app.UsageError(f'{where} does not exist: give the checkpoint '
                         'directory of a training run.')
  if not os.path.isdir(directory):
    raise app.UsageError(f'{where} is a file, not a directory: give the '
                         'checkpoint directory of a training run.')
  saved = common_flags.usage_errors(run_config.load, directory)
  if saved is None:
    return None, None
  return saved.preset, saved.environment


def main(argv: Sequence[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  _validate_sources()
  # Every flag the saved run's record does not decide is checked before
  # TensorFlow starts; the rest once the run is loaded.
  validate_flags(*_saved_game())
  common_flags.start_tensorflow()
  # pylint: disable=g-import-not-at-top
  from muzero_snt.evaluation import loading
  from muzero_snt.run import builders
  # pylint: enable=g-import-not-at-top
  if CHECKPOINT_DIR.value:
    try:
      loading.check_checkpoint_dir(CHECKPOINT_DIR.value)
    except OSError as e:  # Without a checkpoint.
      raise app.UsageError(common_flags.flag_names(str(e))) from e
  evaluated = run_to_evaluate()
  trained = evaluated.run
  validate_flags(trained.preset, trained.environment)
  if evaluated.saved is not None:
    print(evaluated.describe(), flush=True)
  elif CHECKPOINT_DIR.value:
    logging.warning('%s.', common_flags.flag_names(evaluated.describe()))
  common_flags.usage_errors(builders.check_environment, trained.preset,
                            trained.config, trained.env, trained.environment)
  run(trained.preset,
      config=trained.config,
      title=trained.env,
      checkpoint_dir=CHECKPOINT_DIR.value,
      num_games=NUM_GAMES.value,
      num_simulations=NUM_SIMULATIONS.value,
      seed=SEED.value,
      logdir=LOGDIR.value,
      curve_png=CURVE_PNG.value,
      search_kind=common_flags.SEARCH.value,
      opponents=OPPONENTS.value,
      opponent_simulations=(OPPONENT_SIMULATIONS.value or
                            opponents_lib.MCTS_SIMULATIONS),
      opponent_rollouts=(OPPONENT_ROLLOUTS.value or
                         opponents_lib.MCTS_ROLLOUTS),
      exact=EXACT.value,
      max_moves=MAX_MOVES.value,
      environment=trained.environment)


if __name__ == '__main__':
  common_flags.run(main)
