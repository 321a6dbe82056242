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
"""Learning benchmark: time and environment steps until MuZero solves a task.

One run from scratch per seed (and --reanalyze_fractions entry), evaluated
every --eval_every training seconds or --eval_every_steps learner steps.
Solved: tictactoe with no loss in --num_eval games a side against the
perfect player; minatar at DQN's return after 5M frames, over --num_eval
episodes; another one-player task at a mean return of --goal (475 on
cartpole) over --num_eval episodes, after a screen of 10; a two-player
--environment when every move is optimal (`game_solver`). Evaluations pause
the training clock; the wall clock counts from the command's start (later
runs from their own). See docs/results.md.

    python -m benchmarks.learning --preset=tictactoe --seeds=0,1,2 \
        --eval_every_steps=500 --step_limit=9000 --time_limit=100000
    python -m benchmarks.learning --preset=gymnasium --env=Acrobot-v1 \
        --goal=-100 --seeds=1 --eval_every=20 --wall_limit=300
    python -m benchmarks.learning --environment=examples.nim:Nim --seeds=0 \
        --eval_every=5 --checkpoint_dir=/tmp/nim
"""

import os
import time
from typing import Any, Callable, Dict, List, Optional

# pylint: disable=g-import-not-at-top,wrong-import-position
# As the launchers: the compile cache ($MUZERO_SNT_COMPILE_CACHE, else the
# user's; set but empty for none), on before the imports start TensorFlow.
from muzero_snt.run import compile_cache
compile_cache.enable(os.environ.get('MUZERO_SNT_COMPILE_CACHE',
                                    compile_cache.default_directory()))

from absl import app
from absl import flags
from absl import logging
import numpy as np

from benchmarks import game_solver
from benchmarks import minatar_baselines
from benchmarks import reporting
from muzero_snt import search
from muzero_snt.evaluation import matches as evaluation
from muzero_snt.run import builders
from muzero_snt.run import experiment
from muzero_snt.run import progress
from muzero_snt.run import run_config
# pylint: enable=g-import-not-at-top,wrong-import-position

PRESET = flags.DEFINE_enum(
    'preset', 'tictactoe', ['cartpole', 'tictactoe', 'minatar', 'gymnasium'],
    'the task.')
ENV = flags.DEFINE_string('env', None, 'the MinAtar game of --preset=minatar '
                          '(default breakout) or the gymnasium id of '
                          '--preset=gymnasium.')
ENVIRONMENT = flags.DEFINE_string(
    'environment', None, 'your own game instead of --preset: the import '
    'string of a factory seed -> dm_env.Environment, package.module:factory.')
GOAL = flags.DEFINE_float(
    'goal', None, 'the mean return that solves a one-player task (default: '
    '475 on cartpole).')
SCREEN = flags.DEFINE_bool(
    'screen', True, 'evaluate a one-player task\'s --num_eval episodes only '
    'after a screen of 10 that reaches the goal.')
CHECKPOINT_DIR = flags.DEFINE_string(
    'checkpoint_dir', None, 'where each run saves its checkpoints '
    '(seed_<seed>), the last one when solved.')
CONFIG = flags.DEFINE_list('config', [], 'changes to the preset, as '
                           'name=value (run_config.apply_overrides).')
RUN_SETTINGS = reporting.define_run_flags()
LOG_EVERY = flags.DEFINE_integer('log_every', 50, 'learner steps a log line.')
SEEDS = flags.DEFINE_list('seeds', ['0', '1', '2'], 'seeds, one run each.')
TIME_LIMIT = flags.DEFINE_float('time_limit', 600., 'training seconds per '
                                'run before giving up.')
STEP_LIMIT = flags.DEFINE_integer('step_limit', 0, 'if > 0, also give up '
                                  'after this many learner steps.')
WALL_LIMIT = flags.DEFINE_float('wall_limit', 0., 'if > 0, also give up '
                                'after this many wall seconds.')
EVAL_EVERY = flags.DEFINE_float('eval_every', 30., 'training seconds '
                                'between evaluations.')
EVAL_EVERY_STEPS = flags.DEFINE_integer(
    'eval_every_steps', 0, 'if > 0, evaluate every this many learner steps '
    'instead (the same points whatever the load).')
NUM_EVAL = flags.DEFINE_integer('num_eval', 100, 'games a side / episodes '
                                'an evaluation.')
STOP_WHEN_SOLVED = flags.DEFINE_bool(
    'stop_when_solved', True, 'end a run at its first solved evaluation.')
REANALYZE_FRACTIONS = flags.DEFINE_list(
    'reanalyze_fractions', [], 'run the seeds once per reanalyze_fraction.')
OUTPUT_JSON = reporting.output_json_flag()

CARTPOLE_GOAL = 475.
# A network far from a one-player task's goal costs a few episodes, not all.
SCREEN_EPISODES = 10


class _Evaluator:
  """The `on_round` callback: evaluates on a schedule into `curve`, the
  first solved evaluation also into `solved_at`."""

  def __init__(self, config, seed: int, start: float,
               make_environment: Callable[[int], Any]):
    self._config = config
    self._seed = seed
    self._make_environment = make_environment
    self._paused = 0.
    self._wall_start = start
    self._start = time.time()
    self._positions = None
    self._next_eval = EVAL_EVERY.value
    self._next_eval_step = EVAL_EVERY_STEPS.value
    self._search = None
    self.curve: List[Dict[str, float]] = []
    self.solved_at: Optional[Dict[str, float]] = None

  def training_time(self) -> float:
    return time.time() - self._start - self._paused

  def _score(self, loop) -> Dict[str, float]:
    if self._search is None:
      self._search = search.make_search(self._config, loop.learner.network,
                                        'xla')
    n = NUM_EVAL.value
    if self._config.num_players == 2 and ENVIRONMENT.value:
      if self._positions is None:
        self._positions = game_solver.solve_game(self._make_environment)
      errors = game_solver.suboptimal_moves(
          evaluation.MuZeroPlayer(self._search).select_actions,
          self._positions)
      return {'suboptimal_moves': float(errors),
              'positions': float(len(self._positions)),
              'solved': float(errors == 0)}
    if PRESET.value == 'tictactoe' and not ENVIRONMENT.value:
      results = evaluation.evaluate_tictactoe(
          evaluation.MuZeroPlayer(self._search), num_games=n,
          seed=self._seed)
      score = {f'{r.opponent}_{r.side}_losses': float(r.losses)
               for r in results}
      score['solved'] = float(score['perfect_first_losses'] +
                              score['perfect_second_losses'] == 0)
      return score
    make_env = self._make_environment
    if PRESET.value == 'minatar' and not ENVIRONMENT.value:
      mean = evaluation.evaluate_episodes(self._search, make_env, n,
                                          seed=10**6).mean
      return {'mean_return': mean,
              'solved': float(mean >= minatar_baselines.DQN_AT_5M[
                  _title()])}
    goal = CARTPOLE_GOAL if GOAL.value is None else GOAL.value
    score = {'solved': 0.}
    if SCREEN.value:
      score['screen_mean_return'] = evaluation.evaluate_episodes(
          self._search, make_env, SCREEN_EPISODES, seed=10**6).mean
    if score.get('screen_mean_return', goal) >= goal:
      score['mean_return'] = evaluation.evaluate_episodes(
          self._search, make_env, n, seed=2 * 10**6).mean
      score['solved'] = float(score['mean_return'] >= goal)
    return score

  def _out_of_time(self, loop) -> bool:
    return (self.training_time() >= TIME_LIMIT.value or
            bool(STEP_LIMIT.value and loop.learner.steps >= STEP_LIMIT.value) or
            bool(WALL_LIMIT.value and
                 time.time() - self._wall_start >= WALL_LIMIT.value))

  def due(self, loop) -> bool:
    """Whether an evaluation or the end is due."""
    if self._out_of_time(loop):
      return True
    if EVAL_EVERY_STEPS.value:
      return loop.learner.steps >= self._next_eval_step
    return self.training_time() >= self._next_eval

  def __call__(self, loop) -> bool:
    if not self.due(loop):
      return False
    elapsed, steps = self.training_time(), loop.learner.steps
    paused_at = time.time()
    score = self._score(loop)
    self._paused += time.time() - paused_at
    if score['solved'] and self.solved_at is None and CHECKPOINT_DIR.value:
      score['checkpoint'] = loop.save()
    point = dict(training_seconds=elapsed, env_steps=loop.env_steps,
                 learner_steps=steps, games=loop.games,
                 wall_seconds=time.time() - self._wall_start, **score)
    self.curve.append(point)
    logging.info('evaluation: %s', point)
    self._next_eval = elapsed + EVAL_EVERY.value
    while EVAL_EVERY_STEPS.value and self._next_eval_step <= steps:
      self._next_eval_step += EVAL_EVERY_STEPS.value
    if score['solved'] and self.solved_at is None:
      self.solved_at = point
    return bool(score['solved'] and STOP_WHEN_SOLVED.value) or (
        self._out_of_time(loop))


def _title() -> Optional[str]:
  if ENVIRONMENT.value or PRESET.value not in ('minatar', 'gymnasium'):
    return None
  return ENV.value or ('breakout' if PRESET.value == 'minatar' else None)


def _base_config():
  """The preset's or the environment's configuration, --config applied."""
  preset = None if ENVIRONMENT.value else PRESET.value
  return run_config.apply_overrides(
      run_config.default_config(preset, _title(), ENVIRONMENT.value),
      CONFIG.value)


def run_seed(seed: int, reanalyze_fraction: Optional[float],
             start: float) -> Dict:
  """One run, evaluated until solved or out of time, its wall clock from
  `start` (`reanalyze_fraction` None: the configuration's)."""
  config = _base_config()
  if reanalyze_fraction is not None:
    config = config.replace(reanalyze_fraction=reanalyze_fraction)
  if not any(o.startswith('training_steps=') for o in CONFIG.value):
    # Until solved or late; derived schedules keep the configuration's values.
    config = config.replace(training_steps=10**7)
  settings = dict(
      preset=None if ENVIRONMENT.value else PRESET.value, env=_title(),
      environment=ENVIRONMENT.value, seed=seed, log_every=LOG_EVERY.value,
      checkpoint_dir=(os.path.join(CHECKPOINT_DIR.value, f'seed_{seed}')
                      if CHECKPOINT_DIR.value else None),
      **RUN_SETTINGS())
  evaluator = _Evaluator(config, seed, start,
                         builders.make_environment_factory(
                             settings['preset'], config, settings['env'],
                             settings['environment']))
  # A continuous round (num_envs games ended) can outlast many evaluation
  # periods; its games in play go on in the next round.
  continuous = run_config.RunConfig(**settings).resolved().continuous_selfplay
  loop = experiment.run(
      run_config.RunConfig(config=config, data='selfplay', **settings),
      on_round=evaluator, end_round=evaluator.due if continuous else None,
      logger=progress.print_progress)
  solved = evaluator.solved_at or {}
  reanalyser = loop.source.reanalyser
  return {
      'seed': seed, 'reanalyze_fraction': config.reanalyze_fraction,
      'reanalysis_seconds_per_learner_step': (
          reanalyser.total_seconds / max(loop.learner.steps, 1)
          if reanalyser else 0.),
      'solved': bool(solved),
      **{key: solved.get(key) for key in (
          'training_seconds', 'wall_seconds', 'checkpoint', 'env_steps',
          'learner_steps')},
      'final_env_steps': loop.env_steps,
      'final_training_seconds': evaluator.training_time(),
      'curve': evaluator.curve,
  }


def _median(values: List[Optional[float]]) -> Optional[float]:
  """Median, counting unsolved runs (None) as larger than any time."""
  ordered = sorted(values, key=lambda v: (v is None, v or 0.))
  return ordered[len(ordered) // 2]


def summarise(runs: List[Dict]) -> Dict[str, Any]:
  """The runs of one reanalyze fraction and their medians."""
  return {'preset': PRESET.value, 'environment': ENVIRONMENT.value,
          'env': _title(), 'goal': GOAL.value,
          'time_limit': TIME_LIMIT.value,
          'median_training_seconds': _median(
              [r['training_seconds'] for r in runs]),
          'median_wall_seconds': _median([r['wall_seconds'] for r in runs]),
          'median_env_steps': _median([r['env_steps'] for r in runs]),
          'runs': runs}


def format_table(summaries: List[Dict[str, Any]]) -> str:
  """A row per run and one of medians per reanalyze fraction."""
  rows = []
  for summary in summaries:
    runs = summary['runs']
    for run in runs:
      last = run['curve'][-1] if run['curve'] else {}
      rows.append((run['reanalyze_fraction'], run['seed'], run['solved'],
                   run['wall_seconds'], run['training_seconds'],
                   run['env_steps'], run['learner_steps'],
                   last.get('mean_return', last.get(
                       'screen_mean_return', last.get('suboptimal_moves'))),
                   run['reanalysis_seconds_per_learner_step']))
    rows.append((runs[0]['reanalyze_fraction'], 'median',
                 f'{sum(r["solved"] for r in runs)} of {len(runs)}',
                 summary['median_wall_seconds'],
                 summary['median_training_seconds'],
                 summary['median_env_steps'], None, None,
                 float(np.median([r['reanalysis_seconds_per_learner_step']
                                  for r in runs]))))
  return reporting.table(
      ('reanalyze fraction', 'seed', 'solved', 'wall s', 'training s',
       'env steps', 'learner steps', 'last evaluation', 'reanalysis s/step'),
      rows)


def _check_flags() -> None:
  """Raises `app.UsageError` naming a flag the task cannot take."""
  if ENVIRONMENT.value:
    return
  if PRESET.value == 'minatar' and (
      _title() not in minatar_baselines.DQN_AT_5M):
    raise app.UsageError(
        f'--env={ENV.value}: expected a MinAtar game, one of '
        f'{sorted(minatar_baselines.DQN_AT_5M)}.')
  if PRESET.value == 'gymnasium':
    if ENV.value is None:
      raise app.UsageError('--preset=gymnasium needs --env, a gymnasium id '
                           '(e.g. Acrobot-v1).')
    if GOAL.value is None:
      raise app.UsageError(f'--preset=gymnasium --env={ENV.value} needs '
                           '--goal, the mean return that solves it.')


def main(argv):
  start = reporting.command_start()
  reporting.check_no_arguments(argv)
  _check_flags()
  try:
    config = _base_config()
    fractions = [float(f) for f in REANALYZE_FRACTIONS.value] or [None]
  except ValueError as e:
    raise app.UsageError(str(e)) from e
  if ENVIRONMENT.value and config.num_players == 1 and GOAL.value is None:
    raise app.UsageError(f'--environment={ENVIRONMENT.value} is a '
                         'one-player game: --goal must say the mean return '
                         'that solves it.')
  summaries = []
  for fraction in fractions:
    runs = []
    for seed in SEEDS.value:
      runs.append(run_seed(int(seed), fraction, start))
      start = time.time()
    summaries.append(summarise(runs))
  reporting.report({'machine': reporting.machine(), 'summaries': summaries},
                   OUTPUT_JSON.value, format_table(summaries))


if __name__ == '__main__':
  app.run(main)
