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
r"""What each preset costs on this machine: learner step, self-play, memory.

For every preset of `presets.PRESETS`:

  1. Learner: `Learner.step` with XLA (the launcher's default) on one
     synthetic batch (`synthetic.SyntheticBatches`, the preset's shapes),
     milliseconds per step, median over repeats of a few steps each; the
     first call (tracing and compilation) is reported apart. The batch is
     the preset's own, and `--paper_batch_size` for the paper-sized presets.
     The learning rate is set to 1e-6: the same batch is trained on again
     and again, and a step costs the same at any rate.
  2. Self-play: the preset's real environments, built as the launcher
     builds them (`make_environment_factory`), `num_envs` of them as in
     `SELF_PLAY_DEFAULTS`; a round is one `CompiledSearch` (XLA, the preset's
     simulations) over all games and one step of each (a finished game is
     reset at once, so the batch never shrinks). Milliseconds per round and
     per move of one game (round / num_envs), median over repeats; the first
     round (compilation) apart.
  3. Memory: float32 bytes of one stored observation, the network's
     trainable parameters, and the process's peak RSS after the preset. The
     peak is cumulative over the presets of one process: --isolate runs
     each preset in its own process. It includes the synthetic batches'
     generator, which holds a float64 [observation size, A] matrix (170 MB
     for atari).

A preset whose environment needs a missing package is skipped, with the
ImportError's message in the table. The paper-sized presets (16 blocks of 256
planes; 800 simulations for the board games) take minutes per step on a CPU:
--paper_simulations and --paper_batch_size shrink them. See
docs/benchmarks.md.

    python -m benchmarks.presets --presets=tictactoe,cartpole
    python -m benchmarks.presets --presets=atari --paper_simulations=2 \
        --repeats=1
    python -m benchmarks.presets --isolate --output_json=/tmp/presets.json
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from absl import app
from absl import flags
import numpy as np

from benchmarks import reporting
from muzero_snt.run import builders
from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt import search
from muzero_snt.run import synthetic

# 16 blocks of 256 planes: sized for accelerators, timed at a small batch.
PAPER_PRESETS = ('atari', 'chess', 'go', 'shogi')
# Learner steps and self-play rounds per timing: (CPU presets, paper ones).
DEFAULT_STEPS = (5, 1)
DEFAULT_ROUNDS = (5, 1)
# Small enough that repeated updates on one batch cannot diverge.
TIMING_LEARNING_RATE = 1e-6
_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BATCH_SIZE = flags.DEFINE_integer(
    'batch_size', None, 'learner batch of the CPU presets (default: the '
    'preset\'s own; --paper_batch_size for the paper-sized ones).')
SEED = flags.DEFINE_integer('seed', 0, 'random seed.')
PRESETS_FLAG = flags.DEFINE_list('presets', sorted(presets.PRESETS),
                                 f'presets to measure, of '
                                 f'{sorted(presets.PRESETS)}.')
REPEATS = flags.DEFINE_integer('repeats', 3, 'timings of each measurement.')
PAPER_BATCH_SIZE = flags.DEFINE_integer(
    'paper_batch_size', 8, f'learner batch of {list(PAPER_PRESETS)}.')
PAPER_SIMULATIONS = flags.DEFINE_integer(
    'paper_simulations', None, f'simulations per move of '
    f'{list(PAPER_PRESETS)} (default: the preset\'s).')
STEPS = flags.DEFINE_integer(
    'steps', None, f'learner steps per timing (default: {DEFAULT_STEPS[0]}; '
    f'{DEFAULT_STEPS[1]} for the paper-sized presets).')
ROUNDS = flags.DEFINE_integer(
    'rounds', None, f'self-play rounds per timing (default: '
    f'{DEFAULT_ROUNDS[0]}; {DEFAULT_ROUNDS[1]} for the paper-sized presets).')
ISOLATE = flags.DEFINE_bool(
    'isolate', False, 'run each preset in its own process (its own peak '
    'RSS).')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results as JSON.')

# Flags a preset's own process inherits under --isolate.
_FORWARDED = (REPEATS, BATCH_SIZE, PAPER_BATCH_SIZE, PAPER_SIMULATIONS, STEPS,
              ROUNDS, SEED)


def _say(preset: str, message: str) -> None:
  print(f'[{preset}] {message}', flush=True)


def _milliseconds(function: Callable[[], Any], calls: int) -> float:
  """Milliseconds per call of `function`, over `calls` calls."""
  start = time.perf_counter()
  for _ in range(calls):
    function()
  return 1e3 * (time.perf_counter() - start) / calls


def _first_call_seconds(function: Callable[[], Any]) -> float:
  start = time.perf_counter()
  function()
  return time.perf_counter() - start


def _timed(preset: str, what: str, function: Callable[[], Any],
           repeats: int, calls: int) -> Tuple[float, List[float]]:
  """The first call's seconds (tracing, compilation), then ms per call.

  Returns:
    The first call's seconds and, per repeat, the milliseconds per call
    over `calls` calls; each is printed as it comes.
  """
  first = _first_call_seconds(function)
  _say(preset, f'{what} first call (tracing, compilation) {first:.1f}s')
  milliseconds = []
  for repeat in range(repeats):
    milliseconds.append(_milliseconds(function, calls))
    _say(preset, f'{what} repeat {repeat + 1}/{repeats}: '
         f'{milliseconds[-1]:.1f} ms per call')
  return first, milliseconds


def peak_rss_mb() -> float:
  """Peak resident memory of this process so far, in MiB."""
  peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
  # Linux reports KiB, macOS bytes.
  return peak / 2**20 if sys.platform == 'darwin' else peak / 2**10


def make_config(preset: str,
                batch_size: Optional[int] = None,
                paper_batch_size: int = 8,
                paper_simulations: Optional[int] = None
                ) -> config_lib.MuZeroConfig:
  """The preset's config with the benchmark's batch and simulations."""
  config = presets.get_preset(preset)
  paper = preset in PAPER_PRESETS
  if batch_size is None:
    batch_size = paper_batch_size if paper else config.batch_size
  changes = {'batch_size': batch_size, 'lr_init': TIMING_LEARNING_RATE}
  if paper and paper_simulations is not None:
    changes['num_simulations'] = paper_simulations
  return config.replace(**changes)


def time_selfplay(preset: str, config: config_lib.MuZeroConfig, network,
                  num_envs: int, repeats: int, rounds: int,
                  seed: int = 0) -> Dict[str, Any]:
  """Times rounds of one batched search and one step of every game.

  Args:
    preset: names the environment.
    config: the run's config (search settings, shapes).
    network: the network the search runs.
    num_envs: games played at once.
    repeats: timings.
    rounds: rounds per timing.
    seed: seed of the environments, the noise and the action draws.

  Returns:
    'first_call_seconds' and 'ms_per_round' (one value per repeat).
  """
  make_environment = builders.make_environment_factory(preset, config)
  start = time.perf_counter()
  environments = [make_environment(seed + i) for i in range(num_envs)]
  time_steps = [environment.reset() for environment in environments]
  _say(preset, f'{num_envs} environments built in '
       f'{time.perf_counter() - start:.1f}s')
  compiled = search.CompiledSearch(config, network)
  rng = np.random.default_rng(seed)

  def play_round():
    observation = np.stack([t.observation for t in time_steps])
    to_play = [environment.to_play() for environment in environments]
    legal = search.legal_actions_to_mask(
        [environment.legal_actions() for environment in environments],
        config.action_space_size)
    result = compiled(observation, to_play, legal, rng)
    for i, environment in enumerate(environments):
      # Temperature 1, as in the early moves or early training.
      action = search.sample_action(result.visit_counts[i], 1., rng)
      time_step = environment.step(action)
      time_steps[i] = environment.reset() if time_step.last() else time_step

  first, ms_per_round = _timed(preset, 'self-play round', play_round,
                               repeats, rounds)
  for environment in environments:
    environment.close()
  return {'first_call_seconds': first, 'ms_per_round': ms_per_round}


def time_learner(preset: str, learner, config: config_lib.MuZeroConfig,
                 repeats: int, steps: int, seed: int = 0) -> Dict[str, Any]:
  """Times `learner.step` on one synthetic batch of `config.batch_size`.

  Returns:
    'first_call_seconds' and 'ms_per_step' (one value per repeat).
  """
  batch = next(synthetic.SyntheticBatches(config, config.batch_size,
                                          seed=seed))
  first, ms_per_step = _timed(preset, 'learner step',
                              lambda: learner.step(batch), repeats, steps)
  return {'first_call_seconds': first, 'ms_per_step': ms_per_step}


def benchmark_preset(preset: str,
                     repeats: int = 3,
                     batch_size: Optional[int] = None,
                     paper_batch_size: int = 8,
                     paper_simulations: Optional[int] = None,
                     steps: Optional[int] = None,
                     rounds: Optional[int] = None,
                     seed: int = 0) -> Dict[str, Any]:
  """Measures one preset; see the module docstring.

  Returns:
    A JSON-serialisable dict; with 'skipped' (the ImportError's message)
    and no measurements if the environment's package is missing.
  """
  config = make_config(preset, batch_size, paper_batch_size,
                       paper_simulations)
  paper = preset in PAPER_PRESETS
  num_envs = presets.run_defaults(preset)['num_envs']
  result = {
      'preset': preset,
      'batch_size': config.batch_size,
      'num_simulations': config.num_simulations,
      'num_envs': num_envs,
      'observation_bytes': 4 * int(np.prod(config.observation_shape)),
  }
  try:
    # The skip costs no network: one environment says what is missing.
    builders.make_environment_factory(preset, config)(seed).close()
  except ImportError as e:
    _say(preset, f'skipped: {e}')
    return dict(result, skipped=str(e))
  result['data'] = 'synthetic'
  start = time.perf_counter()
  learner = builders.make_learner(config, seed, jit_compile=True, strategy=None,
                               compute_dtype='float32')
  result['parameters'] = int(sum(
      v.shape.num_elements() for v in learner.network.trainable_variables))
  _say(preset, f'network of {result["parameters"]:,} parameters built in '
       f'{time.perf_counter() - start:.1f}s')
  # Self-play first: it searches with the initial weights.
  result['selfplay'] = time_selfplay(
      preset, config, learner.network, num_envs, repeats,
      rounds or DEFAULT_ROUNDS[paper], seed)
  result['selfplay']['ms_per_move'] = [
      ms / num_envs for ms in result['selfplay']['ms_per_round']]
  result['learner'] = time_learner(preset, learner, config, repeats,
                                   steps or DEFAULT_STEPS[paper], seed)
  result['peak_rss_mb'] = peak_rss_mb()
  return reporting.with_medians(result)


def run_isolated(names: Sequence[str],
                 forwarded: Sequence[str]) -> List[Dict[str, Any]]:
  """Runs `python -m benchmarks.presets --presets=X` per preset.

  Args:
    names: the presets, one process each, in turn.
    forwarded: flags given to every process, e.g. ['--repeats=1'].

  Returns:
    The processes' results; a process that fails gives a result whose
    'skipped' says so.
  """
  results = []
  for name in names:
    with tempfile.TemporaryDirectory() as directory:
      path = os.path.join(directory, 'result.json')
      command = [sys.executable, '-m', 'benchmarks.presets',
                 f'--presets={name}', f'--output_json={path}', *forwarded]
      returncode = subprocess.run(command, cwd=_REPO, check=False).returncode
      if returncode:
        results.append({'preset': name, 'skipped': f'its process exited '
                                                   f'with {returncode}'})
        continue
      with open(path) as f:
        results.extend(json.load(f)['results'])
  return results


_COLUMNS = ('preset', 'batch', 'data', 'learner ms/step', 'learner first s',
            'simulations', 'num_envs', 'self-play ms/move', 'ms/round',
            'self-play first s', 'params', 'obs KB', 'peak RSS MB', 'note')


def _cell(value: Optional[float], spec: str = '') -> str:
  return '-' if value is None else format(value, spec)


def format_table(results: Sequence[Dict[str, Any]]) -> str:
  """A Markdown table of the medians, one row per preset."""
  lines = ['| ' + ' | '.join(_COLUMNS) + ' |',
           '|---|---:|---|' + '---:|' * (len(_COLUMNS) - 4) + '---|']
  for r in results:
    learner, selfplay = r.get('learner', {}), r.get('selfplay', {})

    def median(part, key):
      return part[key]['median'] if key in part else None

    observation_kb = None
    if 'observation_bytes' in r:
      observation_kb = r['observation_bytes'] / 1024
    cells = [
        r['preset'], _cell(r.get('batch_size')), r.get('data', '-'),
        _cell(median(learner, 'ms_per_step'), ',.1f'),
        _cell(learner.get('first_call_seconds'), '.1f'),
        _cell(r.get('num_simulations')), _cell(r.get('num_envs')),
        _cell(median(selfplay, 'ms_per_move'), ',.1f'),
        _cell(median(selfplay, 'ms_per_round'), ',.1f'),
        _cell(selfplay.get('first_call_seconds'), '.1f'),
        _cell(r.get('parameters'), ','),
        _cell(observation_kb, ',.2f'),
        _cell(r.get('peak_rss_mb'), ',.0f'),
        'skipped: ' + r['skipped'].replace('|', '/') if 'skipped' in r else '',
    ]
    lines.append('| ' + ' | '.join(cells) + ' |')
  return '\n'.join(lines)


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  unknown = sorted(set(PRESETS_FLAG.value) - set(presets.PRESETS))
  if unknown:
    raise app.UsageError(f'Unknown presets {unknown}; expected some of '
                         f'{sorted(presets.PRESETS)}.')
  reporting.check_positive((REPEATS, BATCH_SIZE, PAPER_BATCH_SIZE,
                            PAPER_SIMULATIONS, STEPS, ROUNDS))
  if ISOLATE.value:
    forwarded = [f'--{flag.name}={flag.value}' for flag in _FORWARDED
                 if flag.value is not None]
    results = run_isolated(PRESETS_FLAG.value, forwarded)
  else:
    results = [
        benchmark_preset(name, REPEATS.value, BATCH_SIZE.value,
                         PAPER_BATCH_SIZE.value, PAPER_SIMULATIONS.value,
                         STEPS.value, ROUNDS.value, SEED.value)
        for name in PRESETS_FLAG.value
    ]
  output = {'environment': reporting.machine(), 'isolated': ISOLATE.value,
            'results': results}
  print(json.dumps(output['environment']))
  print(format_table(results))
  if not ISOLATE.value and len(results) > 1:
    print('peak RSS: of this process after each preset, cumulative; '
          '--isolate measures each preset alone.')
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(output, f, indent=2)


if __name__ == '__main__':
  app.run(main)
