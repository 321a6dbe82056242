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
r"""What a run pays before its first learner step; a bad flag's answer.

`python -m launchers.train --training_steps=1` timed from outside by when
its lines arrive (`MEASURES`), twice with a fresh --compile_cache (`cold`,
with the programs it cached and compile seconds, then `warm`) where a
checkout has one; `bad_flag` times `--num_simulations=0`. The checkouts
alternate, --rounds times. With --stages instead, each stage of a start
timed on its own in one thread of a fresh process (`STAGES`), cold then
warm: what the cache can save, and what it cannot. See docs/benchmarks.md
(Start-up).

    python -m benchmarks.startup --presets=tictactoe,cartpole,minatar \
        --rounds=3 --checkouts=/tmp/before,.
    python -m benchmarks.startup --presets=tictactoe --stages --rounds=3
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List

from absl import app
from absl import flags

from benchmarks import reporting

PRESETS = flags.DEFINE_list('presets', ['cartpole', 'tictactoe'],
                            'presets to time.')
CHECKOUTS = flags.DEFINE_list(
    'checkouts', ['.'], 'repository checkouts whose launcher is timed, '
    'alternating.')
ROUNDS = flags.DEFINE_integer('rounds', 3, 'runs per preset and checkout.')
STAGES = flags.DEFINE_bool(
    'stages', False, 'time each stage of a start (`STAGES`) instead, in '
    'this checkout.')
OUTPUT_JSON = reporting.output_json_flag()

# Seconds from the start to the first absl log line, the compile's end (then
# self-play moves), the first progress line after a learner step, the end.
MEASURES = ('first_log', 'first_move', 'first_step', 'end')
_COUNTS = ('compile_s', 'programs', 'program_mb')
_COMPILED = re.compile(r'\] Compiled the .* in ([\d.]+) s')
_LINES = {'first_log': re.compile(r'^[IWEF]\d{4} '),
          'first_move': re.compile(r'\] Compiled the '),
          'first_step': re.compile(r'learner step [1-9]\d*/')}


def _clean_environment(**settings: str) -> Dict[str, str]:
  """This process's environment without the compile cache's and
  TensorFlow's log settings and PYTHONPATH (the child's checkout imports
  its own code), with `settings`."""
  unset = ('TF_XLA_FLAGS', 'MUZERO_SNT_COMPILE_CACHE', 'TF_CPP_MIN_LOG_LEVEL',
           'PYTHONPATH')
  return dict({k: v for k, v in os.environ.items() if k not in unset},
              **settings)


def line_times(command: List[str], cwd: str,
               check: bool = True) -> Dict[str, float]:
  """Runs `command`; the `MEASURES` it reached, in seconds from its start,
  or RuntimeError with its last lines if it fails and `check`."""
  start = time.perf_counter()
  process = subprocess.Popen(
      command, cwd=cwd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
      text=True, env=_clean_environment())
  times, lines = {}, []
  for line in process.stderr:
    now = time.perf_counter() - start
    lines.append(line)
    for name, pattern in _LINES.items():
      if name not in times and pattern.search(line):
        times[name] = now
    compiled = _COMPILED.search(line)
    if compiled and 'compile_s' not in times:
      times['compile_s'] = float(compiled.group(1))
  process.wait()
  times['end'] = time.perf_counter() - start
  if process.returncode and check:
    raise RuntimeError(f'{command} in {cwd} failed:\n' + ''.join(lines[-30:]))
  return times


def cached_programs(cache: str) -> Dict[str, float]:
  """Count and MB of the XLA programs in a compile cache directory (not the
  links in a running process's `.processes`)."""
  sizes = [os.path.getsize(os.path.join(directory, name))
           for directory, _, names in os.walk(cache) for name in names
           if name.startswith('xla_compile_cache') and
           '.processes' not in directory.split(os.sep)]
  return {'programs': len(sizes), 'program_mb': sum(sizes) / 2**20}


# The stages of a run's start, one after another: TensorFlow's import (and
# muzero_snt's), the learner's and the self-play source's construction, the
# search's and the learner step's traces (Python), the search's compile, the
# step lowered to XLA's HLO alone (a cache entry is found by its HLO, so a
# warm start pays this too), then the step's compile (lowering again, then
# LLVM or the cache's entry).
STAGES_MEASURED = ('import', 'build', 'trace_search', 'trace_learner',
                   'compile_search', 'lower_learner', 'compile_learner')


def stage_times(preset: str, cache: str) -> Dict[str, float]:
  """Seconds of each of `STAGES_MEASURED` for `preset` with the compile
  cache in `cache` ('' for none); call first thing in a fresh process."""
  start = time.perf_counter()
  times = {}

  def lap(name: str) -> None:
    now = time.perf_counter()
    times[name] = now - start - sum(times.values())

  # pylint: disable=g-import-not-at-top,protected-access
  from muzero_snt.run import compile_cache
  compile_cache.enable(cache)
  import tensorflow as tf
  from muzero_snt import learning
  from muzero_snt.run import builders
  from muzero_snt.run import run_config
  lap('import')
  run = run_config.RunConfig(preset=preset).resolved()
  learner = builders.make_learner(run.config, run.seed, run.jit_compile,
                                  tf.distribute.get_strategy(),
                                  run.compute_dtype)
  source = builders.make_source(run, learner)
  lap('build')
  compile_search = source.compile_function()
  lap('trace_search')
  compile_learner = learner.compile_function()
  lap('trace_learner')
  compile_search()
  lap('compile_search')
  batch = learning._as_batch_of_tensors(
      learning.zero_batch(run.config, run.config.batch_size))
  learner._compiled_step.experimental_get_compiler_ir(batch)(stage='hlo')
  lap('lower_learner')
  compile_learner()
  lap('compile_learner')
  return times


def _stages_in_a_process(preset: str, cache: str) -> Dict[str, float]:
  code = ('import json; from benchmarks import startup; '
          f'print(json.dumps(startup.stage_times({preset!r}, {cache!r})))')
  result = subprocess.run([sys.executable, '-c', code], capture_output=True,
                          text=True, check=False,
                          env=_clean_environment(TF_CPP_MIN_LOG_LEVEL='3'))
  if result.returncode:
    raise RuntimeError(f'The stages of {preset} failed:\n' +
                       result.stderr[-3000:])
  return json.loads(result.stdout.splitlines()[-1])


def _time_stages() -> None:
  rows = {}  # (preset, cache) -> stage times.
  for round_index in range(ROUNDS.value):
    for preset in PRESETS.value:
      cache = tempfile.mkdtemp(prefix='startup_xla_')
      for kind in ('cold', 'warm'):
        times = _stages_in_a_process(preset, cache)
        times['total'] = sum(times.values())
        rows.setdefault((preset, kind), []).append(times)
        print(f'round {round_index + 1} {preset} {kind}: {times}',
              flush=True)
      shutil.rmtree(cache)
  columns = STAGES_MEASURED + ('total',)
  reporting.report(
      {' '.join(key): value for key, value in rows.items()},
      OUTPUT_JSON.value, reporting.table(
          ('preset', 'cache') + columns,
          [key + tuple(statistics.median(r[c] for r in results)
                       for c in columns)
           for key, results in rows.items()]))


def main(argv: List[str]) -> None:
  reporting.check_no_arguments(argv)
  reporting.check_positive([ROUNDS])
  if STAGES.value:
    _time_stages()
    return
  for checkout in CHECKOUTS.value:
    if not os.path.isdir(os.path.join(checkout, 'muzero_snt')):
      raise app.UsageError(
          f'--checkouts: {checkout!r} has no muzero_snt/ directory.')
  train = [sys.executable, '-m', 'launchers.train']
  rows = {}  # (preset or 'bad_flag', checkout, cache) -> measures.
  for round_index in range(ROUNDS.value):
    for checkout in CHECKOUTS.value:
      bad = line_times(train + ['--num_simulations=0'],
                       os.path.abspath(checkout), check=False)
      rows.setdefault(('bad_flag', checkout, '-'), []).append(bad)
      print(f'round {round_index + 1} bad flag {checkout}: {bad}', flush=True)
    for preset in PRESETS.value:
      for checkout in CHECKOUTS.value:
        command = train + [f'--preset={preset}', '--training_steps=1',
                           '--log_every=1']
        cache = None
        if os.path.exists(os.path.join(checkout, 'muzero_snt', 'run',
                                       'compile_cache.py')):
          cache = tempfile.mkdtemp(prefix='startup_xla_')
          command.append(f'--compile_cache={cache}')
        for kind in ('cold', 'warm') if cache else ('no cache',):
          result = line_times(command, os.path.abspath(checkout))
          if kind == 'cold':
            result.update(cached_programs(cache))
          rows.setdefault((preset, checkout, kind), []).append(result)
          print(f'round {round_index + 1} {preset} {checkout} {kind}: '
                f'{result}', flush=True)
        if cache:
          shutil.rmtree(cache)
  reporting.report(
      {' '.join(key): value for key, value in rows.items()},
      OUTPUT_JSON.value, reporting.table(
          ('run', 'checkout', 'cache') + MEASURES + _COUNTS,
          [key + tuple(statistics.median(r[m] for r in results)
                       if all(m in r for r in results) else None
                       for m in MEASURES + _COUNTS)
           for key, results in rows.items()]))


if __name__ == '__main__':
  app.run(main)
