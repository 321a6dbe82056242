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
"""What the peers' drivers share: timing loops, flag checks, their output.

Standard library and absl only, so that each peer's venv can import it
beside the peer's own packages.
"""

import json
import os
import statistics
import time
from typing import Any, Callable, Dict, Iterable, List, Sequence, Tuple

from absl import app


def check_positive(values: Iterable[Tuple[str, int]]) -> None:
  """Raises `app.UsageError` naming the first flag of `(name, value)` pairs
  whose value is not positive."""
  for name, value in values:
    if value <= 0:
      raise app.UsageError(f'--{name} must be positive, got {value}.')


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


def learner_result(library: str, model: str, steps: int,
                   rates: Sequence[float],
                   settings: Dict[str, Any]) -> Dict[str, Any]:
  """A learner driver's JSON result: `rates` (samples/s of timings of
  `steps` steps each) and the settings they depend on."""
  return {'library': library, 'model': model, 'steps_per_timing': steps,
          'samples_per_second': list(rates), 'load_average': os.getloadavg(),
          **settings}


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


def print_search_results(library: str, search: str,
                         settings: Dict[str, Any],
                         time_search: Callable[..., Dict[str, Any]],
                         batch_sizes: Sequence[str], num_simulations: int,
                         repeats: int, min_seconds: float,
                         seed: int) -> None:
  """A search driver's main: checks the flags, times every batch size with
  `time_search(batch_size, num_simulations, repeats, min_seconds, seed)`
  and prints one JSON line (`settings` without the learner's batch size
  and unroll)."""
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
