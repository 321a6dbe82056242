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
"""What the benchmarks share: flags, timing loops, reports, peer drivers.

Standard library, absl and NumPy at import, so that the peers' drivers can
import it in the peers' own venvs beside torch; TensorFlow, muzero_snt and
Ray only inside the functions that use them.
"""

import json
import numbers
import os
import statistics
import tempfile
import time
import types
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence
from typing import Tuple

from absl import app
from absl import flags
import numpy as np


def output_json_flag() -> flags.FlagHolder:
  """Defines --output_json, where `report` writes the results."""
  return flags.DEFINE_string('output_json', None,
                             'where to write the results as JSON.')


def define_run_flags() -> Callable[[], Dict[str, Any]]:
  """Defines run settings (default: the preset's); returns a function giving
  them as keyword arguments of `experiment.run_selfplay`."""
  holders = (
      flags.DEFINE_integer('num_envs', None, 'self-play games at once.'),
      flags.DEFINE_float('train_ratio', None,
                         'learner steps per environment step.'),
      flags.DEFINE_bool('continuous_selfplay', None,
                        'replace each game as it ends.'),
      flags.DEFINE_bool('overlap_learning', None, 'learner steps in a '
                        'second thread beside self-play.'),
      flags.DEFINE_bool('pad_rounds', None, 'one search program a round.'))
  return lambda: {holder.name: holder.value for holder in holders}


def check_no_arguments(argv: Sequence[str]) -> None:
  """Raises `app.UsageError` if `main` got arguments besides the program."""
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {list(argv[1:])}.')


def check_positive(values: Iterable[Any]) -> None:
  """Raises `app.UsageError` naming the first of `values`, flag holders or
  `(name, value)` pairs, that is not positive (None passes)."""
  for item in values:
    name, value = ((item.name, item.value) if hasattr(item, 'value') else item)
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


def check_known(flag: Any, known: Iterable[str]) -> None:
  """Raises `app.UsageError` naming a list flag's values not in `known`."""
  unknown = sorted(set(flag.value) - set(known))
  if unknown:
    raise app.UsageError(f'Unknown --{flag.name} {unknown}; expected some '
                         f'of {sorted(known)}.')


def seconds_per_call(function: Callable[[], Any], calls: int = 1) -> float:
  """Wall seconds per call of `function` over `calls` calls in a row."""
  start = time.perf_counter()
  for _ in range(calls):
    function()
  return (time.perf_counter() - start) / calls


def first_and_repeats(function: Callable[[], Any], repeats: int,
                      calls: int) -> Tuple[float, List[float]]:
  """Seconds of the first call (tracing, compiling), then `repeats`
  timings of milliseconds per call over `calls` calls each."""
  first = seconds_per_call(function)
  return first, [1e3 * seconds_per_call(function, calls)
                 for _ in range(repeats)]


def rotated_rates(tasks: Dict[str, Tuple[Callable[[], Any], int, float]],
                  repeats: int,
                  on_repeat: Optional[Callable[[int, Dict[str, List[float]]],
                                               None]] = None
                  ) -> Dict[str, List[float]]:
  """name -> `repeats` rates (work/s) of `tasks`, name -> (function, calls a
  timing, work a call), in an order rotated each repeat so that load on a
  shared machine cancels in a repeat's ratios; `on_repeat(repeat, rates so
  far)` after each repeat."""
  names = list(tasks)
  rates = {name: [] for name in names}
  for repeat in range(repeats):
    shift = repeat % len(names)
    for name in names[shift:] + names[:shift]:
      function, calls, work = tasks[name]
      rates[name].append(work / seconds_per_call(function, calls))
    if on_repeat is not None:
      on_repeat(repeat, rates)
  return rates


def learner_rates(step: Callable[[], Any], batch_size: int, steps: int,
                  repeats: int, warmup_steps: int) -> List[float]:
  """Samples/s of `repeats` timings of `steps` calls of `step()` each, after
  `warmup_steps` untimed calls."""
  for _ in range(warmup_steps):
    step()
  return [batch_size / seconds_per_call(step, steps)
          for _ in range(repeats)]


def calls_per_second(function: Callable[[], Any], seconds: float) -> float:
  """Calls per second of `function`, called until `seconds` have passed."""
  calls, start = 0, time.perf_counter()
  while True:
    function()
    calls += 1
    elapsed = time.perf_counter() - start
    if elapsed >= seconds:
      return calls / elapsed


class Window:
  """A measurement window of a running job: `update(*args)` after each unit
  of work; the first call starts the clock, the first after `warmup`
  seconds records `start = (time, mark(*args))`, the first `window` seconds
  after that `end`, and returns True from then on."""

  def __init__(self, warmup: float, window: float, mark: Callable[..., Any]):
    self._warmup, self._window, self._mark = warmup, window, mark
    self.first = self.start = self.end = None

  def update(self, *args) -> bool:
    now = time.perf_counter()
    if self.first is None:
      self.first = now
    elif self.start is None and now - self.first >= self._warmup:
      self.start = (now, self._mark(*args))
    elif self.start is not None and self.end is None and (
        now - self.start[0] >= self._window):
      self.end = (now, self._mark(*args))
    return self.end is not None

  def span(self) -> Tuple[float, Any, Any]:
    """The window's seconds, and the marks at its start and end."""
    return self.end[0] - self.start[0], self.start[1], self.end[1]


def start_cluster(names: Sequence[str],
                  cpus: int) -> Tuple[Any, Dict[str, Any]]:
  """A `ray.cluster_utils.Cluster` on the loopback interface: a head without
  CPUs for Ray's workers and, per name, a node of `cpus` CPUs with a custom
  resource of that name; returns it and the nodes by name."""
  # Where the cluster writes its address for `ray.init()` without one: a
  # directory of this process's, so that no other process joins it.
  os.environ['RAY_TMPDIR'] = tempfile.mkdtemp(dir='/tmp', prefix='ray-bench-')
  # The driver on the loopback interface too (read when Ray is imported).
  os.environ.setdefault('RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER', '0')
  from ray import cluster_utils  # pylint: disable=g-import-not-at-top
  loopback = dict(node_ip_address='127.0.0.1', include_dashboard=False)
  cluster = cluster_utils.Cluster(
      initialize_head=True, head_node_args=dict(loopback, num_cpus=0))
  nodes = {name: cluster.add_node(num_cpus=cpus, resources={name: 1},
                                  **loopback) for name in names}
  cluster.wait_for_nodes()
  return cluster, nodes


class WeightFetcher:
  """A Ray actor's side of a weight publication to `preset`'s network."""

  def __init__(self, preset: str):
    # pylint: disable=g-import-not-at-top
    from muzero_snt import networks
    from muzero_snt import presets
    from muzero_snt.distributed import weight_store
    # pylint: enable=g-import-not-at-top
    self._network = networks.make_network(presets.get_preset(preset))
    self._network.create_variables()
    self._assign = weight_store.assign_arrays

  def fetch(self, reference: List[Any]) -> Tuple[float, float]:
    """The ms to get the arrays of `reference[0]` and to assign them."""
    import ray  # pylint: disable=g-import-not-at-top
    start = time.perf_counter()
    arrays = ray.get(reference[0])
    fetched = time.perf_counter()
    self._assign(self._network, arrays)
    return 1e3 * (fetched - start), 1e3 * (time.perf_counter() - fetched)


def random_games(config: Any, count: int, seed: int) -> List[Any]:
  """`count` random finished games of 9 moves in `config`'s shapes, as the
  replay service takes them (`replay_service.Game`), for its rates."""
  # pylint: disable=g-import-not-at-top
  from muzero_snt import trajectory as trajectory_lib
  from muzero_snt.distributed import replay_service
  # pylint: enable=g-import-not-at-top
  rng = np.random.default_rng(seed)
  games = []
  for _ in range(count):
    game = trajectory_lib.Trajectory(config.action_space_size,
                                     config.num_players, config.discount)
    for t in range(9):
      game.append(rng.random(config.observation_shape).astype(np.float32),
                  t % 2, int(rng.integers(9)), 0.,
                  rng.dirichlet(np.ones(config.action_space_size)), 0.)
    game.finish(True)
    games.append(replay_service.Game(game, 0.))
  return games


def _is_number(value: Any) -> bool:
  return isinstance(value, numbers.Real) and not isinstance(value, bool)


def with_medians(tree: Any) -> Any:
  """Replaces every non-empty list of numbers by {'median': ..., 'values':
  [...]} (once: such a dict stays as it is); lists of anything else
  (records, names) keep their order, each item treated the same way."""
  if isinstance(tree, dict) and set(tree) == {'median', 'values'}:
    return tree
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
          'numpy': np.__version__,
          'XLA_FLAGS': os.environ.get('XLA_FLAGS')}


def _cell(value: Any) -> str:
  if value is None:
    return '-'
  if isinstance(value, float):
    decimals = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2
    return f'{value:,.{decimals}f}'
  return f'{value:,}' if _is_number(value) else str(value)


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
  """A Markdown table: None as '-', integers with thousands separators,
  floats with 0, 1 or 2 decimals (from 100, from 10, below)."""
  lines = ['| ' + ' | '.join(columns) + ' |', '|' + '---|' * len(columns)]
  lines += ['| ' + ' | '.join(map(_cell, row)) + ' |' for row in rows]
  return '\n'.join(lines)


def report(results: Dict[str, Any], output_json: Optional[str],
           table: Optional[str] = None) -> None:
  """Prints `table` (unless ''), or else the results as JSON, and writes
  them to `output_json` if given, with `with_medians` and the load average
  after the runs."""
  results.setdefault('machine', {})['load_average_after'] = os.getloadavg()
  text = json.dumps(with_medians(results), indent=1, default=float)
  if table != '':
    print(text if table is None else table, flush=True)
  if output_json:
    with open(output_json, 'w') as f:
      f.write(text)


def define_peer_flags(models: Sequence[str]) -> types.SimpleNamespace:
  """Defines the flags of a peer's driver; returns their holders."""
  return types.SimpleNamespace(
      model=flags.DEFINE_enum('model', models[0], list(models),
                              'the learner\'s shape.'),
      batch_size=flags.DEFINE_integer('batch_size', 256,
                                      'the learner\'s batch.'),
      steps=flags.DEFINE_integer('steps', 20, 'learner steps a timing.'),
      repeats=flags.DEFINE_integer('repeats', 3, 'timings.'),
      threads=flags.DEFINE_integer(
          'threads', 0, 'torch.set_num_threads (0: torch\'s default).'))


def run_peer(argv: Sequence[str], peer_flags: types.SimpleNamespace,
             library: str, set_threads: Callable[[int], None],
             time_learner: Callable[..., Tuple[List[float], Dict[str, Any]]]
             ) -> None:
  """A peer driver's main: `set_threads(--threads)` if given, then
  `time_learner(model, batch_size, steps, repeats, warmup_steps, seed) ->
  (samples/s of each timing, settings)`, printed as one JSON line."""
  check_no_arguments(argv)
  f = peer_flags
  check_positive((f.batch_size, f.steps, f.repeats))
  if f.threads.value:
    set_threads(f.threads.value)
  # 3 untimed steps and seed 0, as our side (`learner.py --peer_worker`).
  rates, settings = time_learner(f.model.value, f.batch_size.value,
                                 f.steps.value, f.repeats.value, 3, 0)
  print(json.dumps({'library': library, 'model': f.model.value,
                    'steps_per_timing': f.steps.value,
                    'samples_per_second': rates, **settings,
                    'load_average': os.getloadavg()}))


def command_start() -> float:
  """The wall time this process started at (Linux's /proc), else now."""
  try:
    with open('/proc/self/stat') as f:
      # Field 22 (after the command in parentheses): clock ticks from boot.
      ticks = int(f.read().rsplit(')', 1)[1].split()[19])
    with open('/proc/uptime') as f:
      uptime = float(f.read().split()[0])
  except (OSError, ValueError, IndexError):
    return time.time()
  return time.time() - (uptime - ticks / os.sysconf('SC_CLK_TCK'))
