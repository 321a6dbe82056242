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
"""What the benchmarks share: flag checks, timing loops and their report.

Standard library, absl and NumPy at import, so that the peers' drivers can
import it in the peers' own venvs beside torch; TensorFlow is imported only
by `machine`.
"""

import json
import numbers
import os
import statistics
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence
from typing import Tuple

from absl import app
import numpy as np

# --------------------------------------------------------------------------
# Flags.


def check_no_arguments(argv: Sequence[str]) -> None:
  """Raises `app.UsageError` if `main` got arguments besides the program."""
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {list(argv[1:])}.')


def check_positive(values: Iterable[Any]) -> None:
  """Raises `app.UsageError` naming the first flag whose value is not
  positive.

  Args:
    values: flag holders (`flags.DEFINE_*`'s results) or `(name, value)`
      pairs; a value of None (a flag left to its default) passes.
  """
  for item in values:
    name, value = ((item.name, item.value) if hasattr(item, 'value')
                   else item)
    if value is not None and value <= 0:
      raise app.UsageError(f'--{name} must be positive, got {value}.')


def positive_ints(flag: Any) -> List[int]:
  """The integers of a list flag's holder, or `app.UsageError` naming the
  flag if any is not a positive integer or there are none."""
  try:
    values = [int(value) for value in flag.value]
  except ValueError:
    values = []
  if not values or min(values) <= 0:
    raise app.UsageError(f'--{flag.name} must be positive integers, got '
                         f'{flag.value}.')
  return values


# --------------------------------------------------------------------------
# Timing.


def rotated_rates(tasks: Dict[str, Tuple[Callable[[], Any], int, float]],
                  repeats: int,
                  on_repeat: Optional[Callable[[int, Dict[str, List[float]]],
                                               None]] = None
                  ) -> Dict[str, List[float]]:
  """Times every task once per repeat, in an order rotated by one each time.

  A noisy, shared machine then slows every task alike, and ratios taken
  within a repeat cancel the load.

  Args:
    tasks: name -> (function, calls per timing, work per call).
    repeats: timings of each task.
    on_repeat: called after each repeat with its index and the rates so far.

  Returns:
    name -> `repeats` rates: calls x work / seconds of the timing.
  """
  names = list(tasks)
  rates = {name: [] for name in names}
  for repeat in range(repeats):
    shift = repeat % len(names)
    for name in names[shift:] + names[:shift]:
      function, calls, work = tasks[name]
      start = time.perf_counter()
      for _ in range(calls):
        function()
      rates[name].append(calls * work / (time.perf_counter() - start))
    if on_repeat is not None:
      on_repeat(repeat, rates)
  return rates


def learner_rates(step: Callable[[], Any], batch_size: int, steps: int,
                  repeats: int, warmup_steps: int) -> List[float]:
  """Samples/s of `repeats` timings of `steps` calls of `step()` each, after
  `warmup_steps` untimed calls."""
  for _ in range(warmup_steps):
    step()
  rates = []
  for _ in range(repeats):
    start = time.perf_counter()
    for _ in range(steps):
      step()
    rates.append(batch_size * steps / (time.perf_counter() - start))
  return rates


def search_result(search: Callable[[], Any], batch_size: int,
                  num_simulations: int, repeats: int,
                  min_seconds: float) -> Dict[str, Any]:
  """Simulations/s of `search()` (one search of `batch_size` roots).

  One untimed call, then `repeats` timings, each repeating the call until
  `min_seconds` have passed; simulations/s = batch x simulations / seconds
  per call.
  """
  search()
  rates = []
  for _ in range(repeats):
    calls, start = 0, time.perf_counter()
    while True:
      search()
      calls += 1
      seconds = time.perf_counter() - start
      if seconds >= min_seconds:
        break
    rates.append(batch_size * num_simulations * calls / seconds)
  return {'batch_size': batch_size, 'simulations_per_second': rates,
          'median': statistics.median(rates),
          'milliseconds_per_call':
              1e3 * batch_size * num_simulations / statistics.median(rates)}


# --------------------------------------------------------------------------
# Reports.


def _is_number(value: Any) -> bool:
  return isinstance(value, numbers.Real) and not isinstance(value, bool)


def with_medians(tree: Any) -> Any:
  """Replaces every non-empty list of numbers by {'median': ..., 'values':
  [...]}; lists of anything else (records, names) keep their order, each
  item treated the same way."""
  if isinstance(tree, dict):
    return {key: with_medians(value) for key, value in tree.items()}
  if isinstance(tree, list) and tree and all(map(_is_number, tree)):
    return {'median': statistics.median(tree), 'values': tree}
  if isinstance(tree, list):
    return [with_medians(value) for value in tree]
  return tree


def machine() -> Dict[str, Any]:
  """CPU, cores, load and library versions: what the numbers depend on."""
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  cpu = 'unknown'
  if os.path.exists('/proc/cpuinfo'):
    with open('/proc/cpuinfo') as f:
      names = [line.split(':', 1)[1].strip() for line in f
               if line.startswith('model name')]
    cpu = names[0] if names else cpu
  return {'cpu': cpu, 'cores': os.cpu_count(),
          'load_average': os.getloadavg(), 'tensorflow': tf.__version__,
          'numpy': np.__version__}


def report(results: Dict[str, Any], output_json: Optional[str]) -> None:
  """Adds the load average after the runs, replaces lists by their medians
  (`with_medians`), prints the results as JSON and writes them to
  `output_json` if given."""
  results['machine']['load_average_after'] = os.getloadavg()
  text = json.dumps(with_medians(results), indent=1, default=float)
  print(text)
  if output_json:
    with open(output_json, 'w') as f:
      f.write(text)


def learner_result(library: str, model: str, steps: int,
                   rates: Sequence[float],
                   settings: Dict[str, Any]) -> Dict[str, Any]:
  """A peer learner driver's JSON result: `rates` (samples/s of timings of
  `steps` steps each) and the settings they depend on."""
  return {'library': library, 'model': model, 'steps_per_timing': steps,
          'samples_per_second': list(rates), 'load_average': os.getloadavg(),
          **settings}


def print_search_results(library: str, search: str,
                         settings: Dict[str, Any],
                         time_search: Callable[..., Dict[str, Any]],
                         batch_sizes: Sequence[str], num_simulations: int,
                         repeats: int, min_seconds: float,
                         seed: int) -> None:
  """A peer search driver's main: checks the flags, times every batch size
  with `time_search(batch_size, num_simulations, repeats, min_seconds,
  seed)` and prints one JSON line (`settings` without the learner's batch
  size and unroll)."""
  sizes = [int(b) for b in batch_sizes]
  check_positive([('batch_sizes', b) for b in sizes] +
                 [('num_simulations', num_simulations), ('repeats', repeats)])
  settings = {key: value for key, value in settings.items()
              if key not in ('batch_size', 'num_unroll_steps')}
  results = [time_search(b, num_simulations, repeats, min_seconds, seed)
             for b in sizes]
  print(json.dumps({'library': library, 'search': search,
                    'num_simulations': num_simulations,
                    'load_average': os.getloadavg(), **settings,
                    'results': results}))
