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
"""What every benchmark reports besides its numbers: medians and the machine."""

import json
import numbers
import os
import statistics
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import tensorflow as tf


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


def machine() -> Dict[str, Any]:
  """CPU, cores, load and library versions: what the numbers depend on."""
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
