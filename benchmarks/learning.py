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

Runs the main job (`experiment.run_selfplay`) from scratch for each
seed and evaluates it every --eval_every seconds of training:

- tictactoe: 100 games on each side against the perfect (minimax) player
  that picks at random among its optimal moves; solved when MuZero loses
  none of the 200.
- cartpole: the mean return of 100 episodes (CartPole-v1, capped at 500);
  solved at a mean >= 475. A 10-episode screen runs first, and the 100
  episodes only when the screen's mean reaches the goal.
- minatar (`--env=breakout` etc.): the mean return of --num_eval episodes;
  solved at DQN's published return after 5 million frames
  (`minatar_baselines`). Every self-play game's return is recorded too, and
  --curve_png plots their 100-game moving average against frames beside
  DQN's published curve (the same measure).

The clock counts training only (self-play and learning): it is paused while
evaluating. Results (per seed and the median over seeds) print as a table
and go to --output_json; --curve_png plots the evaluation curve.

    python -m benchmarks.learning --preset=tictactoe --seeds=0,1,2 \
        --time_limit=600 --output_json=/tmp/ttt.json

With --reanalyze_fractions the seeds run once per fraction (MuZero
Reanalyze, docs/reanalysis.md) and a last table compares the medians, with
the wall time reanalysis took per learner step:

    python -m benchmarks.learning --preset=cartpole --seeds=0,1,2 \
        --reanalyze_fractions=0,0.5,0.8 --output_json=/tmp/cartpole_re.json

MinAtar Breakout for an hour of training, its curve beside DQN's:

    python -m benchmarks.learning --preset=minatar --env=breakout --seeds=0 \
        --time_limit=3600 --eval_every_steps=1000 --num_eval=30 \
        --nostop_when_solved --curve_png=/tmp/breakout.png
"""

import json
import time
from typing import Dict, List, Optional, Sequence, Tuple

from absl import app
from absl import flags
from absl import logging
import numpy as np

from benchmarks import minatar_baselines
from benchmarks import selfplay_curve
from muzero_snt.run import builders
from muzero_snt.evaluation import matches as evaluation
from muzero_snt.run import experiment
from muzero_snt import presets
from muzero_snt.run import run_config
from muzero_snt import search

PRESET = flags.DEFINE_enum('preset', 'tictactoe',
                           ['cartpole', 'tictactoe', 'minatar'], 'the task.')
ENV = flags.DEFINE_enum('env', 'breakout', list(minatar_baselines.DQN_AT_5M),
                        'the MinAtar game of --preset=minatar.')
CONFIG = flags.DEFINE_list(
    'config', [], 'changes to the preset, as name=value (run_config.'
    'apply_overrides names: lr_init=0.1,network.channels=8,...).')
NUM_ENVS = flags.DEFINE_integer(
    'num_envs', None, 'self-play games played at once (default: preset).')
TRAIN_RATIO = flags.DEFINE_float(
    'train_ratio', None, 'learner steps per environment step (default: '
    'preset).')
CONTINUOUS_SELFPLAY = flags.DEFINE_bool(
    'continuous_selfplay', None, 'replace each self-play game as it ends '
    'instead of playing rounds (default: preset).')
OVERLAP_LEARNING = flags.DEFINE_bool(
    'overlap_learning', None, 'learner steps in a second thread beside '
    'self-play\'s next move (default: preset).')
PAD_ROUNDS = flags.DEFINE_bool(
    'pad_rounds', None, 'search every move of a round with all the round\'s '
    'rows, one compiled program (default: preset).')
NUM_ACTORS = flags.DEFINE_integer(
    'num_actors', 0, 'self-play actor processes on Ray beside the learner '
    '(0: self-play in the learner\'s process). The learner pauses for an '
    'evaluation; the actors go on, at most the rate limiter\'s 40 learner '
    'steps ahead.')
SEARCH = flags.DEFINE_enum('search', 'xla', list(run_config.SEARCHES),
                           'how self-play and evaluation search.')
JIT_COMPILE = flags.DEFINE_bool('jit_compile', True,
                                'compile the loss and gradients with XLA.')
LOG_EVERY = flags.DEFINE_integer('log_every', 50,
                                 'log every this many learner steps.')
SEEDS = flags.DEFINE_list('seeds', ['0', '1', '2'], 'seeds, one run each.')
TIME_LIMIT = flags.DEFINE_float(
    'time_limit', 600., 'training seconds per run before giving up.')
EVAL_EVERY = flags.DEFINE_float('eval_every', 30.,
                                'training seconds between evaluations.')
NUM_EVAL = flags.DEFINE_integer('num_eval', 100,
                                'games per side / episodes per evaluation.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results.')
CURVE_PNG = flags.DEFINE_string('curve_png', None,
                                'where to plot the evaluation curves.')
EVAL_EVERY_STEPS = flags.DEFINE_integer(
    'eval_every_steps', 0, 'if > 0, evaluate every this many learner steps '
    'instead of every --eval_every seconds: the same points on a loaded '
    'machine as on an idle one (runs of a seed are deterministic).')
STOP_WHEN_SOLVED = flags.DEFINE_bool(
    'stop_when_solved', True, 'end a run at its first solved evaluation; '
    'with --nostop_when_solved it goes on to --step_limit or --time_limit '
    '(the first solved point is still reported), to see whether it stays '
    'solved.')
STEP_LIMIT = flags.DEFINE_integer(
    'step_limit', 0, 'if > 0, also give up after this many learner steps.')
REANALYZE_FRACTIONS = flags.DEFINE_list(
    'reanalyze_fractions', [], 'run the seeds once per reanalyze_fraction '
    '(e.g. 0,0.5,0.8) and compare them; empty: the config\'s alone.')

CARTPOLE_GOAL = 475.
CARTPOLE_SCREEN = 10


class _Evaluator:
  """The `on_round` callback: evaluates on a training-time schedule.

  With `eval_every_steps` > 0 the schedule counts learner steps instead of
  seconds, and `step_limit` > 0 ends the run after that many steps.
  """

  def __init__(self, preset: str, config, eval_every: float,
               time_limit: float, num_eval: int, seed: int,
               eval_every_steps: int = 0, step_limit: int = 0,
               title: Optional[str] = None):
    self._preset = preset
    self._title = title
    self._config = config
    self._eval_every = eval_every
    self._time_limit = time_limit
    self._eval_every_steps = eval_every_steps
    self._next_eval_step = eval_every_steps
    self._step_limit = step_limit
    self._num_eval = num_eval
    self._seed = seed
    self._paused = 0.
    self._start = time.time()
    self._next_eval = eval_every
    self.curve: List[Dict[str, float]] = []
    self._search = None
    self.solved_at: Optional[Dict[str, float]] = None
    # (environment steps when the game was stored, its return), every game.
    self.games: List[Tuple[int, float]] = []

  def training_time(self) -> float:
    return time.time() - self._start - self._paused

  def _score(self, loop) -> Dict[str, float]:
    if self._search is None:
      self._search = search.make_search(self._config, loop.learner.network,
                                        SEARCH.value)
    if self._preset == 'tictactoe':
      player = evaluation.MuZeroPlayer(self._search)
      results = evaluation.evaluate_tictactoe(
          player, num_games=self._num_eval, seed=self._seed)
      by = {(r.opponent, r.side): r for r in results}
      score = {
          f'{opponent}_{side}_losses': float(by[(opponent, side)].losses)
          for opponent in ('perfect', 'random') for side in ('first',
                                                               'second')
      }
      score['solved'] = float(score['perfect_first_losses'] == 0 and
                              score['perfect_second_losses'] == 0)
      return score
    if self._preset == 'minatar':
      make_env = builders.make_environment_factory('minatar', self._config,
                                                   self._title)
      stats = evaluation.evaluate_episodes(self._search, make_env,
                                           self._num_eval, seed=10**6)
      goal = minatar_baselines.DQN_AT_5M[self._title]
      return {'mean_return': stats.mean, 'solved': float(stats.mean >= goal)}
    make_env = builders.make_environment_factory('cartpole', self._config)
    screen = evaluation.evaluate_episodes(
        self._search, make_env, CARTPOLE_SCREEN, seed=10**6)
    score = {'screen_mean_return': screen.mean}
    if screen.mean >= CARTPOLE_GOAL:
      full = evaluation.evaluate_episodes(
          self._search, make_env, self._num_eval, seed=2 * 10**6)
      score['mean_return'] = full.mean
      score['solved'] = float(full.mean >= CARTPOLE_GOAL)
    else:
      score['solved'] = 0.
    return score

  def _due(self, elapsed: float, steps: int) -> bool:
    if elapsed >= self._time_limit:
      return True
    if self._step_limit and steps >= self._step_limit:
      return True
    if self._eval_every_steps:
      return steps >= self._next_eval_step
    return elapsed >= self._next_eval

  def due(self, loop) -> bool:
    """Whether an evaluation (or the end) is due: ends a continuous round."""
    return self._due(self.training_time(), loop.learner.steps)

  def __call__(self, loop) -> bool:
    elapsed = self.training_time()
    steps = loop.learner.steps
    # With actors the games are in the replay service (the log's returns).
    for result in getattr(loop.source, 'last_results', ()):
      self.games.append((loop.env_steps, result.episode_return))
    if not self._due(elapsed, steps):
      return False
    paused_at = time.time()
    score = self._score(loop)
    self._paused += time.time() - paused_at
    point = dict(training_seconds=elapsed, env_steps=loop.env_steps,
                 learner_steps=loop.learner.steps, games=loop.games,
                 **score)
    self.curve.append(point)
    logging.info('evaluation: %s', point)
    self._next_eval = elapsed + self._eval_every
    while self._eval_every_steps and self._next_eval_step <= steps:
      self._next_eval_step += self._eval_every_steps
    if score['solved'] and self.solved_at is None:
      self.solved_at = point
    if score['solved'] and STOP_WHEN_SOLVED.value:
      return True
    return elapsed >= self._time_limit or bool(
        self._step_limit and steps >= self._step_limit)


def run_seed(preset: str, seed: int, time_limit: float, eval_every: float,
             num_eval: int, reanalyze_fraction: Optional[float] = None
            ) -> Dict:
  """One run from scratch, evaluated until solved or out of time."""
  config = run_config.apply_overrides(presets.get_preset(preset),
                                      CONFIG.value)
  if reanalyze_fraction is not None:
    config = config.replace(reanalyze_fraction=reanalyze_fraction)
  if not any(o.startswith('training_steps=') for o in CONFIG.value):
    # Run until solved or out of time, not until the preset's step count.
    config = config.replace(training_steps=10**7)
  title = ENV.value if preset == 'minatar' else None
  evaluator = _Evaluator(preset, config, eval_every, time_limit, num_eval,
                         seed, EVAL_EVERY_STEPS.value, STEP_LIMIT.value,
                         title)
  settings = dict(env=title, num_envs=NUM_ENVS.value,
                  train_ratio=TRAIN_RATIO.value,
                  continuous_selfplay=CONTINUOUS_SELFPLAY.value,
                  overlap_learning=OVERLAP_LEARNING.value,
                  pad_rounds=PAD_ROUNDS.value,
                  num_actors=NUM_ACTORS.value, seed=seed,
                  jit_compile=JIT_COMPILE.value, log_every=LOG_EVERY.value,
                  search=SEARCH.value)
  # With actors a round is one learner step.
  continuous = (run_config.RunConfig(
      preset=preset, **settings).resolved().continuous_selfplay and
                not NUM_ACTORS.value)
  loop = experiment.run_selfplay(
      config, preset, on_round=evaluator,
      # Continuous self-play's rounds (num_envs games ended) can last many
      # evaluation periods once games are long; its games in play go on in
      # the next round, so a round ends when an evaluation is due.
      end_round=evaluator.due if continuous else None, **settings)
  solved = evaluator.solved_at
  reanalyser = getattr(loop.source, 'reanalyser', None)
  return {
      'seed': seed,
      'reanalyze_fraction': config.reanalyze_fraction,
      'reanalysis_seconds_per_learner_step': (
          reanalyser.total_seconds / max(loop.learner.steps, 1)
          if reanalyser else 0.),
      'solved': solved is not None,
      'training_seconds': solved['training_seconds'] if solved else None,
      'env_steps': solved['env_steps'] if solved else None,
      'learner_steps': solved['learner_steps'] if solved else None,
      'final_env_steps': loop.env_steps,
      'final_training_seconds': evaluator.training_time(),
      'curve': evaluator.curve,
      'games': evaluator.games,
  }


def _median(values: Sequence[Optional[float]]) -> Optional[float]:
  """Median, counting unsolved runs (None) as larger than any time."""
  ordered = sorted(values, key=lambda v: (v is None, v or 0.))
  return ordered[len(ordered) // 2]


def _draw_minatar(axis, runs: List[Dict], game: str) -> None:
  """Self-play's 100-game mean return and evaluations beside DQN's curve."""
  last = 0.
  for run in runs:
    if not run['games']:
      continue
    frames, mean = minatar_baselines.moving_average(run['games'])
    line, = axis.plot(frames, mean,
                      label=f'MuZero self-play, seed {run["seed"]}')
    axis.plot([p['env_steps'] for p in run['curve']],
              [p['mean_return'] for p in run['curve']], 'o',
              color=line.get_color(),
              label=f'MuZero evaluation, seed {run["seed"]}')
    last = max(last, frames[-1])
  selfplay_curve.draw_dqn(axis, game, last)
  axis.set_xlabel('frames (environment steps)')
  axis.set_ylabel('return (100-game mean)')
  axis.set_title(f'MuZero on MinAtar {game}')


def _draw_evaluations(axis, runs: List[Dict], preset: str) -> None:
  """Each run's evaluations against training seconds."""
  for run in runs:
    x = [p['training_seconds'] for p in run['curve']]
    if preset == 'tictactoe':
      y = [p['perfect_first_losses'] + p['perfect_second_losses']
           for p in run['curve']]
      axis.set_ylabel('losses to the perfect player (of 200)')
    else:
      y = [p.get('mean_return', p['screen_mean_return'])
           for p in run['curve']]
      axis.set_ylabel('mean evaluation return')
    axis.plot(x, y, marker='o', label=f'seed {run["seed"]}')
  axis.set_xlabel('training seconds (2-core CPU)')
  axis.set_title(f'MuZero on {preset}')


def _plot(runs: List[Dict], preset: str, path: str) -> None:
  import matplotlib  # pylint: disable=g-import-not-at-top
  matplotlib.use('Agg')
  from matplotlib import pyplot  # pylint: disable=g-import-not-at-top
  figure, axis = pyplot.subplots(figsize=(7, 4))
  if preset == 'minatar':
    _draw_minatar(axis, runs, ENV.value)
  else:
    _draw_evaluations(axis, runs, preset)
  axis.legend(fontsize=8)
  figure.tight_layout()
  figure.savefig(path, dpi=100)


def main(argv: Sequence[str]) -> None:
  del argv
  seeds = [int(s) for s in SEEDS.value]
  preset = PRESET.value
  try:
    run_config.apply_overrides(presets.get_preset(preset), CONFIG.value)
  except ValueError as e:
    raise app.UsageError(f'--config: {e}') from e
  try:
    fractions = [float(f) for f in REANALYZE_FRACTIONS.value] or [None]
  except ValueError as e:
    raise app.UsageError(f'--reanalyze_fractions: {e}') from e
  summaries = []
  for fraction in fractions:
    runs = [run_seed(preset, seed, TIME_LIMIT.value, EVAL_EVERY.value,
                     NUM_EVAL.value, fraction) for seed in seeds]
    summaries.append(_summarise(preset, runs))
  if len(summaries) > 1:
    print(f'{"fraction":>8} {"solved":>6} {"median s":>9} '
          f'{"median env steps":>16} {"reanalysis s/step":>17}')
    for summary in summaries:
      runs = summary['runs']
      cost = np.median([r['reanalysis_seconds_per_learner_step']
                        for r in runs])
      print(f'{runs[0]["reanalyze_fraction"]:>8} '
            f'{sum(r["solved"] for r in runs):>3}/{len(runs):<2} '
            f'{summary["median_training_seconds"] or float("nan"):>9.0f} '
            f'{summary["median_env_steps"] or 0:>16} {cost:>17.4f}')
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(summaries[0] if len(summaries) == 1 else summaries, f,
                indent=1, default=float)
  if CURVE_PNG.value:
    _plot([r for s in summaries for r in s['runs']], preset, CURVE_PNG.value)


def _summarise(preset: str, runs: List[Dict]) -> Dict:
  """Prints one fraction's runs and medians; returns them as a dict."""
  print(f'{"seed":>4} {"solved":>6} {"seconds":>8} {"env steps":>10} '
        f'{"learner steps":>13}')
  for run in runs:
    print(f'{run["seed"]:>4} {str(run["solved"]):>6} '
          f'{run["training_seconds"] or float("nan"):>8.0f} '
          f'{run["env_steps"] or 0:>10} {run["learner_steps"] or 0:>13}')
  summary = {
      'preset': preset,
      'time_limit': TIME_LIMIT.value,
      'median_training_seconds': _median(
          [r['training_seconds'] for r in runs]),
      'median_env_steps': _median([r['env_steps'] for r in runs]),
      'runs': runs,
  }
  if preset == 'minatar':
    print(f'{"seed":>4} {"frames":>8} {"self-play (100 games)":>21} '
          f'{"DQN at these frames":>19} {"last evaluation":>15}')
    for run in runs:
      _, mean = minatar_baselines.moving_average(run['games'] or
                                                 [(0, np.nan)])
      dqn = minatar_baselines.dqn_return(ENV.value, run['final_env_steps'])
      last = run['curve'][-1]['mean_return'] if run['curve'] else np.nan
      print(f'{run["seed"]:>4} {run["final_env_steps"]:>8} {mean[-1]:>21.2f} '
            f'{dqn if dqn is not None else np.nan:>19.1f} {last:>15.2f}')
  print('median training seconds to solve:',
        summary['median_training_seconds'], ' median env steps:',
        summary['median_env_steps'])
  return summary


if __name__ == '__main__':
  app.run(main)
