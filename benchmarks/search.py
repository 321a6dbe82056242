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
"""Search throughput: the batched search, the reference search and mctx.

Part 1, simulations per second (batch x simulations / seconds per search
call, compilation excluded) on one small MLP model (observation 8, hidden
state 32, 4 actions, scalar heads), with root noise on, for:

  * `xla`: `CompiledSearch(config, network, jit_compile=True)`;
  * `graph`: the same with `jit_compile=False`;
  * `reference`: `reference_search.search` with `NetworkModel`, the NumPy
    tree;
  * `mctx`: `jax.jit` of `mctx.muzero_policy` and the root inference, on a
    JAX copy of the same network (checked against it at startup);
  * `xla_gumbel` and `mctx_gumbel`: the same two for Gumbel MuZero
    (`search_policy='gumbel'`, m = 16, and `mctx.gumbel_muzero_policy`).

Each repeat times every measurement once, in a rotated order, so that a
noisy, shared machine slows them alike; ratios are medians of per-repeat
ratios. Also timed, to show where the time goes: `xla_bare` (the compiled
search on tensors, without `CompiledSearch`'s NumPy checks and conversions),
`xla_root` (the same with 0 simulations: root inference, noise, tree set-up),
the network alone (`xla_network`, `jax_network`: one initial and
`num_simulations` recurrent inferences in a compiled loop, no tree) and the
cost of calling a compiled function (`xla_empty`, `jax_empty`: a sum of the
inputs). The `xla_` pieces are called as `CompiledSearch` calls its
program, by the concrete function's flat call (`muzero_snt/flat_call.py`).

Part 2, self-play environment steps per second: `acting.Actor` on the
CartPole and tic-tac-toe presets, with the reference search and the
`CompiledSearch` (XLA).

The model and our timed searches are in search_tasks.py, mctx's in
mctx_baseline.py, the self-play measurement in selfplay_rate.py.

JAX and mctx are optional (`pip install jax mctx`); without them the mctx
measurements are skipped. See docs/benchmarks.md.

    python -m benchmarks.search --output_json=/tmp/search.json
"""

import json
import math
import time
from typing import Any, Callable, Dict, Optional, Sequence

from absl import app
from absl import flags
from absl import logging
import numpy as np
import tensorflow as tf

from benchmarks import mctx_baseline
from benchmarks import reporting
from benchmarks import search_tasks
from benchmarks import selfplay_rate
from muzero_snt import networks

BATCH_SIZES = flags.DEFINE_list('batch_sizes', ['1', '16', '256'],
                                'search batch sizes.')
NUM_SIMULATIONS = flags.DEFINE_integer('num_simulations', 50,
                                       'simulations per search.')
REPEATS = flags.DEFINE_integer('repeats', 5, 'timings of each measurement.')
REFERENCE_REPEATS = flags.DEFINE_integer(
    'reference_repeats', None, 'timings of the reference search (default: '
    '--repeats); the first ones of the rotation.')
MIN_SECONDS = flags.DEFINE_float(
    'min_seconds', 0.2, 'a timing repeats a call until it has run this long '
    '(at least once) and reports seconds per call; 0: one call.')
NUM_ENVS = flags.DEFINE_list('num_envs', ['1', '16', '64'],
                             'self-play games played at once.')
SELFPLAY_PRESETS = flags.DEFINE_list('selfplay_presets',
                                     ['cartpole', 'tictactoe'],
                                     'presets of the self-play measurement.')
SELFPLAY_ROUNDS = flags.DEFINE_integer(
    'selfplay_rounds', 2, 'timed self-play rounds, at least (after one '
    'warm-up round).')
SELFPLAY_MIN_STEPS = flags.DEFINE_integer(
    'selfplay_min_steps', 200, 'more timed rounds until this many '
    'environment steps.')
SKIP_MCTX = flags.DEFINE_bool('skip_mctx', False, 'skip the mctx search.')
SKIP_REFERENCE = flags.DEFINE_bool('skip_reference', False,
                                   'skip the reference search.')
SKIP_SELFPLAY = flags.DEFINE_bool('skip_selfplay', False,
                                  'skip the self-play measurement.')
SEED = flags.DEFINE_integer('seed', 0, 'random seed.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results as JSON.')

_MILLISECOND_COLUMNS = ('xla', 'xla_bare', 'xla_root', 'xla_network',
                        'xla_empty', 'mctx', 'jax_network', 'jax_empty',
                        'graph', 'reference', 'xla_gumbel', 'mctx_gumbel')
_RATE_COLUMNS = ('xla', 'graph', 'reference', 'mctx', 'xla_gumbel',
                 'mctx_gumbel')


def _seconds_per_call(function: Callable[[], Any], calls: int) -> float:
  start = time.perf_counter()
  for _ in range(calls):
    function()
  return (time.perf_counter() - start) / calls


def benchmark_batch(batch_size: int, config, network, jax_modules,
                    jax_model, repeats: int, reference_repeats: int,
                    min_seconds: float, seed: int = 0) -> Dict[str, Any]:
  """Times every search at one batch size, interleaved; see module doc."""
  rng = np.random.default_rng(seed + batch_size)
  observation = rng.standard_normal(
      (batch_size, search_tasks.OBSERVATION_SIZE)).astype(np.float32)
  legal = np.ones((batch_size, search_tasks.NUM_ACTIONS), bool)
  tasks = search_tasks.make_tf_tasks(config, network, observation, legal,
                                     seed, reference=reference_repeats > 0)
  if jax_modules is not None:
    tasks.update(mctx_baseline.make_mctx_tasks(
        *jax_modules, config, jax_model, observation, legal, seed))
  calls, compile_seconds = {}, {}
  for name, function in tasks.items():
    start = time.perf_counter()
    function()  # Traces and compiles.
    compile_seconds[name] = time.perf_counter() - start
    once = _seconds_per_call(function, 1)
    calls[name] = max(1, math.ceil(min_seconds / once))
    logging.info('batch %d %s: first call %.2fs, then %.4fs; %d calls per '
                 'timing', batch_size, name, compile_seconds[name], once,
                 calls[name])

  names = list(tasks)
  seconds = {name: [] for name in names}
  for repeat in range(repeats):
    shift = repeat % len(names)
    for name in names[shift:] + names[:shift]:
      if name == 'reference' and repeat >= reference_repeats:
        continue
      seconds[name].append(_seconds_per_call(tasks[name], calls[name]))
    logging.info('batch %d repeat %d/%d: %s', batch_size, repeat + 1,
                 repeats, ', '.join(f'{n} {1e3 * seconds[n][-1]:.2f}ms'
                                    for n in names if seconds[n]))

  work = batch_size * config.num_simulations
  rates = {name: [work / s for s in seconds[name]]
           for name in names if name in _RATE_COLUMNS}
  ratios = {}
  for ours, other in (('xla', 'mctx'), ('xla', 'reference'), ('xla', 'graph'),
                      ('xla_gumbel', 'mctx_gumbel')):
    if other in rates:
      ratios[f'{ours}/{other}'] = [a / b for a, b in
                                   zip(rates[ours], rates[other])]
  return {
      'batch_size': batch_size,
      'num_simulations': config.num_simulations,
      'calls_per_timing': calls,
      'first_call_seconds': compile_seconds,
      'simulations_per_second': rates,
      'milliseconds_per_call': {
          name: [1e3 * s for s in values] for name, values in seconds.items()
      },
      'ratios': ratios,
  }


def environment(jax_modules) -> Dict[str, Any]:
  """CPU, cores and library versions."""
  versions = reporting.machine()
  if jax_modules is not None:
    jax, mctx = jax_modules
    versions.update(jax=jax.__version__, mctx=mctx.__version__,
                    jax_devices=[str(d) for d in jax.devices()])
  return versions


def format_tables(output: Dict[str, Any]) -> str:
  """Markdown tables of the medians."""

  def median(values, digits=0):
    return f'{values["median"]:,.{digits}f}' if values else '-'

  lines = [
      f'Simulations/s ({output["num_simulations"]} simulations per search, '
      'noise on; medians over repeats, ratios medians of per-repeat ratios)',
      '',
      '| batch | xla | graph | reference | mctx | xla / mctx '
      '| xla / reference | xla_gumbel | mctx_gumbel '
      '| xla_gumbel / mctx_gumbel |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for r in output['search']:
    rate, ratio = r['simulations_per_second'], r['ratios']
    lines.append(
        f'| {r["batch_size"]} | {median(rate.get("xla"))} '
        f'| {median(rate.get("graph"))} | {median(rate.get("reference"))} '
        f'| {median(rate.get("mctx"))} '
        f'| {median(ratio.get("xla/mctx"), 2)} '
        f'| {median(ratio.get("xla/reference"), 1)} '
        f'| {median(rate.get("xla_gumbel"))} '
        f'| {median(rate.get("mctx_gumbel"))} '
        f'| {median(ratio.get("xla_gumbel/mctx_gumbel"), 2)} |')
  lines += [
      '', 'Milliseconds per call (medians)', '',
      '| batch | ' + ' | '.join(_MILLISECOND_COLUMNS) + ' |',
      '|---:|' + '---:|' * len(_MILLISECOND_COLUMNS),
  ]
  for r in output['search']:
    ms = r['milliseconds_per_call']
    lines.append(f'| {r["batch_size"]} | ' + ' | '.join(
        median(ms.get(name), 2) for name in _MILLISECOND_COLUMNS) + ' |')
  if output.get('selfplay'):
    lines += [
        '', 'Self-play environment steps/s', '',
        '| preset | num_envs | search | schedule | env steps | seconds '
        '| env steps/s |',
        '|---|---:|---|---|---:|---:|---:|',
    ]
    for r in output['selfplay']:
      lines.append(
          f'| {r["preset"]} | {r["num_envs"]} | {r["search"]} '
          f'| {r["schedule"]} | {r["env_steps"]} | {r["seconds"]:.1f} '
          f'| {r["env_steps_per_second"]:,.0f} |')
  lines.extend(f'Note: {note}' for note in output['notes'])
  return '\n'.join(lines)


def run(batch_sizes: Sequence[int],
        num_simulations: int = 50,
        repeats: int = 5,
        reference_repeats: Optional[int] = None,
        min_seconds: float = 0.2,
        num_envs: Sequence[int] = (1, 16, 64),
        selfplay_presets: Sequence[str] = ('cartpole', 'tictactoe'),
        selfplay_rounds: int = 2,
        selfplay_min_steps: int = 200,
        skip_mctx: bool = False,
        skip_reference: bool = False,
        skip_selfplay: bool = False,
        seed: int = 0) -> Dict[str, Any]:
  """Runs both parts; returns a JSON-serialisable dict of the results."""
  notes = []
  config = search_tasks.make_config(num_simulations)
  tf.random.set_seed(seed)
  network = networks.make_network(config)
  network.create_variables()
  jax_modules = jax_model = None
  if not skip_mctx:
    jax_modules = mctx_baseline.import_mctx()
    if jax_modules is None:
      notes.append(mctx_baseline.MCTX_MISSING)
  difference = None
  if jax_modules is not None:
    jax_model = mctx_baseline.make_jax_model(jax_modules[0], network,
                                             search_tasks.NUM_ACTIONS)
    difference = mctx_baseline.check_jax_model(jax_modules[0], network,
                                               jax_model, seed=seed)
    print(f'JAX model vs TF network: max |difference| {difference:.3g}')
  if reference_repeats is None:
    reference_repeats = repeats
  if skip_reference:
    reference_repeats = 0
  if 0 < reference_repeats < repeats:
    notes.append(f'reference timed {reference_repeats} times, the others '
                 f'{repeats} times.')
  results = []
  for batch_size in batch_sizes:
    results.append(reporting.with_medians(benchmark_batch(
        batch_size, config, network, jax_modules, jax_model, repeats,
        reference_repeats, min_seconds, seed)))
  selfplay = []
  if not skip_selfplay:
    for preset in selfplay_presets:
      setup = selfplay_rate.make_selfplay_setup(preset, max(num_envs))
      for envs in num_envs:
        for use_compiled_search, continuous in ((False, False),
                                                (True, False), (True, True)):
          selfplay.append(selfplay_rate.selfplay_throughput(
              envs, setup, use_compiled_search, selfplay_rounds,
              selfplay_min_steps, seed, continuous))
          logging.info('self-play %s', selfplay[-1])
  return {
      'environment': environment(jax_modules),
      'num_simulations': num_simulations,
      'repeats': repeats,
      'reference_repeats': reference_repeats,
      'min_seconds': min_seconds,
      'jax_max_difference': difference,
      'search': results,
      'selfplay': selfplay,
      'notes': notes,
  }


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  reporting.check_positive((NUM_SIMULATIONS, REPEATS, SELFPLAY_ROUNDS))
  for flag in (REFERENCE_REPEATS, SELFPLAY_MIN_STEPS, MIN_SECONDS):
    if flag.value is not None and flag.value < 0:
      raise app.UsageError(f'--{flag.name} must be >= 0, got {flag.value}.')
  output = run(reporting.positive_ints(BATCH_SIZES),
               num_simulations=NUM_SIMULATIONS.value,
               repeats=REPEATS.value,
               reference_repeats=REFERENCE_REPEATS.value,
               min_seconds=MIN_SECONDS.value,
               num_envs=reporting.positive_ints(NUM_ENVS),
               selfplay_presets=SELFPLAY_PRESETS.value,
               selfplay_rounds=SELFPLAY_ROUNDS.value,
               selfplay_min_steps=SELFPLAY_MIN_STEPS.value,
               skip_mctx=SKIP_MCTX.value,
               skip_reference=SKIP_REFERENCE.value,
               skip_selfplay=SKIP_SELFPLAY.value,
               seed=SEED.value)
  print(json.dumps(output['environment']))
  print(format_tables(output))
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(output, f, indent=2)


if __name__ == '__main__':
  app.run(main)
