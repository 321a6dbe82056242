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
r"""What a run pays before its first learner step, and how long a bad flag
takes to answer.

With --launcher, each measurement is a run of `python -m launchers.train
--training_steps=1` timed from outside, by when its lines arrive: its first
log line (`first_log`), the line saying the search and the learner step
are compiled, after which self-play moves (`first_move`), its first
learner step (`first_step`) and its end; each run twice in a row with a
fresh --compile_cache (`cold`, then `warm`, loading what the first
compiled) in checkouts that have one. `bad_flag` times `python -m
launchers.train --num_simulations=0`. See docs/benchmarks.md (Start-up).

    python -m benchmarks.startup --launcher \
        --presets=tictactoe,cartpole,minatar --rounds=3 \
        --checkouts=/tmp/before,.

Without --launcher, each measurement is a fresh process (`--child`), because only a process's
first call pays; for a preset it times `import` (muzero_snt's networks,
search and learner), `search_first` (the first `CompiledSearch` call with
noise at the preset's self-play batch: trace, XLA compile, one search),
`learner_first` (the first `Learner(..., jit_compile=True).step`) and a
search and a step afterwards (`search_ms`, `learner_ms`, medians of 10).
With `--checkouts=DIR_A,DIR_B` the processes alternate between checkouts
(each imported from its own directory), `--rounds` times; the table gives
each checkout's medians and the ratios to the first. See
docs/benchmarks.md.

    python -m benchmarks.startup --presets=cartpole,tictactoe --rounds=3 \
        --checkouts=/tmp/before,.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional

from absl import app
from absl import flags

from benchmarks import launcher_timing

PRESETS = flags.DEFINE_list('presets', ['cartpole', 'tictactoe'],
                            'presets to time.')
CHECKOUTS = flags.DEFINE_list(
    'checkouts', ['.'], 'repository checkouts whose muzero_snt is timed, '
    'alternating; ratios are to the first.')
ROUNDS = flags.DEFINE_integer('rounds', 3, 'processes per preset and checkout.')
CHILD = flags.DEFINE_bool('child', False,
                          'time one preset in this process; prints JSON.')
PRESET = flags.DEFINE_string('preset', 'cartpole', 'with --child: the preset.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results as JSON.')
LAUNCHER = flags.DEFINE_bool(
    'launcher', False, 'time runs of launchers.train and a bad flag instead '
    'of the first search and learner step in a process.')
MEASURES = ('import', 'search_first', 'search_ms', 'learner_first',
            'learner_ms')


def _seconds(call) -> float:
  start = time.perf_counter()
  call()
  return time.perf_counter() - start


def time_preset(preset: str) -> Dict[str, float]:
  """The `MEASURES` of one preset, in this (fresh) process."""
  start = time.perf_counter()
  # pylint: disable=g-import-not-at-top
  import numpy as np
  from muzero_snt import learning
  from muzero_snt import networks
  from muzero_snt import presets
  from muzero_snt.search import compiled_search
  from benchmarks import learner_models
  # pylint: enable=g-import-not-at-top
  result = {'import': time.perf_counter() - start,
            'muzero_snt': os.path.dirname(learning.__file__)}
  config = presets.get_preset(preset)
  size = presets.run_defaults(preset)['num_envs']
  network = networks.make_network(config)
  learner = learning.Learner(network, config, jit_compile=True)
  search = compiled_search.CompiledSearch(config, network)
  inputs = (np.zeros((size,) + config.observation_shape, np.float32),
            np.zeros(size, np.int32),
            np.ones((size, config.action_space_size), bool))
  call = lambda: search.search_with_seed(*inputs, seed=[1, 2])
  batch = learner_models.make_batch(config, config.batch_size)
  step = lambda: learner.step(batch)
  for name, function in (('search', call), ('learner', step)):
    result[f'{name}_first'] = _seconds(function)
    result[f'{name}_ms'] = 1e3 * statistics.median(
        [_seconds(function) for _ in range(10)])
  return result


def _run_child(checkout: str, preset: str) -> Dict[str, float]:
  """One `--child` process importing muzero_snt from `checkout`."""
  env = dict(os.environ)
  env['PYTHONPATH'] = os.path.abspath(checkout)
  # This file as a script, -P: sys.path starts with PYTHONPATH, so that
  # muzero_snt and benchmarks.learner_models come from the checkout.
  process = subprocess.run(
      [sys.executable, '-P', os.path.abspath(__file__), '--child',
       f'--preset={preset}'], env=env, capture_output=True, text=True)
  if process.returncode:
    raise RuntimeError(f'The timing process for {preset!r} in {checkout!r} '
                       f'failed:\n{process.stderr[-3000:]}')
  return json.loads(process.stdout.strip().splitlines()[-1])


def _has_compile_cache(checkout: str) -> bool:
  return os.path.exists(os.path.join(checkout, 'muzero_snt', 'run',
                                     'compile_cache.py'))


def time_launcher(checkout: str, preset: str,
                  cache: Optional[str]) -> Dict[str, float]:
  """`launcher_timing.MEASURES` of one run of `preset` in `checkout`."""
  command = [sys.executable, '-m', 'launchers.train', f'--preset={preset}',
             '--training_steps=1', '--log_every=1']
  if cache is not None:
    command.append(f'--compile_cache={cache}')
  return launcher_timing.line_times(command, os.path.abspath(checkout))


def _launcher_main() -> None:
  """Times the launcher runs and a bad flag; prints a table of medians."""
  rows = {}  # (preset or 'bad_flag', checkout, 'cold'/'warm') -> measures.
  for round_index in range(ROUNDS.value):
    for checkout in CHECKOUTS.value:
      bad = launcher_timing.line_times(
          [sys.executable, '-m', 'launchers.train', '--num_simulations=0'],
          os.path.abspath(checkout), check=False)
      rows.setdefault(('bad_flag', checkout, '-'), []).append(bad)
      print(f'round {round_index + 1} bad flag {checkout}: {bad}',
            flush=True)
    for preset in PRESETS.value:
      for checkout in CHECKOUTS.value:
        cache = (tempfile.mkdtemp(prefix='startup_xla_')
                 if _has_compile_cache(checkout) else None)
        kinds = ('cold', 'warm') if cache else ('no cache',)
        for kind in kinds:
          result = time_launcher(checkout, preset, cache)
          rows.setdefault((preset, checkout, kind), []).append(result)
          print(f'round {round_index + 1} {preset} {checkout} {kind}: '
                f'{result}', flush=True)
        if cache:
          shutil.rmtree(cache)
  print('\nmedians, s')
  print(f'{"run":<10} {"checkout":<24} {"cache":<9}' +
        ''.join(f'{m:>11}' for m in launcher_timing.MEASURES))
  for (preset, checkout, kind), results in rows.items():
    print(f'{preset:<10} {checkout[-24:]:<24} {kind:<9}' + ''.join(
        f'{statistics.median(r[m] for r in results):>11.2f}'
        if all(m in r for r in results) else f'{"-":>11}'
        for m in launcher_timing.MEASURES))
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump({' '.join(key): value for key, value in rows.items()}, f,
                indent=1)


def main(argv: List[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}')
  if CHILD.value:
    print(json.dumps(time_preset(PRESET.value)))
    return
  if ROUNDS.value < 1:
    raise app.UsageError(f'--rounds must be at least 1, got {ROUNDS.value}.')
  for checkout in CHECKOUTS.value:
    if not os.path.isdir(os.path.join(checkout, 'muzero_snt')):
      raise app.UsageError(
          f'--checkouts: {checkout!r} has no muzero_snt/ directory.')
  if LAUNCHER.value:
    _launcher_main()
    return
  runs = {p: {c: {m: [] for m in MEASURES} for c in CHECKOUTS.value}
          for p in PRESETS.value}
  for round_index in range(ROUNDS.value):
    for preset in PRESETS.value:
      for checkout in CHECKOUTS.value:
        result = _run_child(checkout, preset)
        print(f'round {round_index + 1} {preset} {result["muzero_snt"]}: '
              f'{result}', flush=True)
        for m in MEASURES:
          runs[preset][checkout][m].append(result[m])
  first = CHECKOUTS.value[0]
  print(f'\nmedians (s; *_ms in ms) and (ratio to {first})')
  print(f'{"preset":<10} {"checkout":<24}' +
        ''.join(f'{m:>15}' for m in MEASURES))
  for preset, by_checkout in runs.items():
    base = by_checkout[first]
    for checkout, values in by_checkout.items():
      print(f'{preset:<10} {checkout[-24:]:<24}' + ''.join(
          f'{statistics.median(values[m]):>8.2f} '
          f'({statistics.median(values[m]) / statistics.median(base[m]):.2f})'
          for m in MEASURES))
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(runs, f, indent=1)

if __name__ == '__main__':
  app.run(main)
