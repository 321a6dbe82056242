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
"""What calling a compiled search or learner step costs around its program.

Times, in turns in one process (no JAX beside it):

Searches, on the model of benchmarks/search.py (`--batch_sizes`):

  * `flat`: `CompiledSearch.search_with_seed` as it is, the program called
    by the concrete function's flat call (`muzero_snt/flat_call.py`);
  * `public`: the same search calling its program by the concrete
    function's public call (`search_tasks.PublicCallSearch`), as before
    the flat call;
  * `program`: the same program by flat call on tensors made once, with
    the outputs read as NumPy: what is left without the NumPy checks, the
    conversions and the outputs' slicing.

Both searches are checked to return the same visit counts, policy and root
value first.

Learner steps (`--learner_models`, at `--learner_batch_size`; `tictactoe`
is the preset itself, at its own batch):

  * `flat`: `Learner.step_prepared` on a prepared batch, as it is (the
    step's concrete function by flat call);
  * `public`: the same learner's `tf.function` called on the same batch,
    as `step_prepared` did before, and its `finite` read.

Prints medians (ms a call) and the median of the per-round ratios
public / flat, with their range.

    python -m benchmarks.call_cost --batch_sizes=1,16,256 \
        --learner_models=tictactoe,tictactoe_residual,cartpole_mlp
"""

import time
from typing import Any, Callable, Dict, Sequence

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

from benchmarks import learner_models
from benchmarks import search_tasks
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt.search import compiled_search

BATCH_SIZES = flags.DEFINE_list('batch_sizes', ['1', '16', '256'],
                                'batch sizes to time.')
ROUNDS = flags.DEFINE_integer('rounds', 12, 'rounds of timings.')
MIN_SECONDS = flags.DEFINE_float('min_seconds', 0.2,
                                 'seconds of calls per timing.')
LEARNER_MODELS = flags.DEFINE_list(
    'learner_models', ['tictactoe', 'tictactoe_residual', 'cartpole_mlp'],
    'learner shapes to time: tictactoe (the preset) or a model of '
    'benchmarks/learner_models.py.')
LEARNER_BATCH_SIZE = flags.DEFINE_integer(
    'learner_batch_size', 256, "batch of the learner_models' steps.")


def _milliseconds(function: Callable[[], Any], min_seconds: float) -> float:
  """ms a call of `function`, over calls filling `min_seconds`."""
  calls, start = 0, time.perf_counter()
  while time.perf_counter() - start < min_seconds:
    function()
    calls += 1
  return 1e3 * (time.perf_counter() - start) / calls


def time_batch(batch_size: int, rounds: int,
               min_seconds: float) -> Dict[str, Any]:
  """Medians of `rounds` timings of the three calls at one batch size."""
  config = search_tasks.make_config(50)
  tf.random.set_seed(0)
  network = networks.make_network(config)
  network.create_variables()
  flat = compiled_search.CompiledSearch(config, network)
  public = search_tasks.PublicCallSearch(config, network)
  rng = np.random.default_rng(batch_size)
  observation = rng.standard_normal(
      (batch_size, search_tasks.OBSERVATION_SIZE)).astype(np.float32)
  to_play = np.zeros(batch_size, np.int32)
  legal = np.ones((batch_size, search_tasks.NUM_ACTIONS), bool)
  a = flat.search_with_seed(observation, to_play, legal, [1, 2])
  b = public.search_with_seed(observation, to_play, legal, [1, 2])
  for name in ('visit_counts', 'policy', 'root_value'):
    np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
  tensors = [tf.constant(observation), tf.constant(to_play),
             tf.constant(legal), tf.constant([1, 2], tf.int32),
             flat._zero_noise(batch_size)]  # pylint: disable=protected-access
  program = flat._call(True)  # pylint: disable=protected-access
  seeds = iter(range(1, 10**9))
  tasks = {
      'flat': lambda: flat.search_with_seed(observation, to_play, legal,
                                            [0, next(seeds)]),
      'public': lambda: public.search_with_seed(observation, to_play, legal,
                                                [0, next(seeds)]),
      'program': lambda: [x.numpy() for x in program(*tensors)],
  }
  names = list(tasks)
  times = {name: [] for name in names}
  for round_index in range(rounds):
    shift = round_index % len(names)
    for name in names[shift:] + names[:shift]:
      times[name].append(_milliseconds(tasks[name], min_seconds))
  ratio = np.array(times['public']) / np.array(times['flat'])
  return {'batch_size': batch_size,
          'milliseconds': {n: float(np.median(t)) for n, t in times.items()},
          'public_over_flat': float(np.median(ratio)),
          'public_over_flat_range': [float(ratio.min()), float(ratio.max())]}


def time_learner(model: str, batch_size: int, rounds: int,
                 min_seconds: float) -> Dict[str, Any]:
  """Medians of `rounds` timings of the learner step's two calls."""
  if model == 'tictactoe':
    config = presets.make_tictactoe_config()
    batch_size = config.batch_size
  else:
    config = learner_models.make_config(model)
  batch = learner_models.make_batch(config, batch_size, 0)
  tf.random.set_seed(0)
  learner = learning.Learner(networks.make_network(config), config,
                             jit_compile=True)
  prepared = learner.prepare(batch)
  learner.step_prepared(prepared)
  step = learner._compiled_step  # pylint: disable=protected-access

  def public():
    step(prepared)['finite'].numpy()

  tasks = {'flat': lambda: learner.step_prepared(prepared), 'public': public}
  times = {name: [] for name in tasks}
  for round_index in range(rounds):
    names = list(tasks) if round_index % 2 else list(tasks)[::-1]
    for name in names:
      times[name].append(_milliseconds(tasks[name], min_seconds))
  ratio = np.array(times['public']) / np.array(times['flat'])
  return {'model': model, 'batch_size': batch_size,
          'milliseconds': {n: float(np.median(t)) for n, t in times.items()},
          'public_over_flat': float(np.median(ratio)),
          'public_over_flat_range': [float(ratio.min()), float(ratio.max())]}


def main(argv: Sequence[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  sizes = [int(size) for size in BATCH_SIZES.value]
  if not sizes or min(sizes) <= 0:
    raise app.UsageError(
        f'--batch_sizes must be positive integers, got {BATCH_SIZES.value}.')
  print('| batch | flat ms | public ms | program ms | public / flat |')
  print('|---:|---:|---:|---:|---:|')
  for size in sizes:
    r = time_batch(size, ROUNDS.value, MIN_SECONDS.value)
    ms = r['milliseconds']
    low, high = r['public_over_flat_range']
    print(f'| {size} | {ms["flat"]:.3f} | {ms["public"]:.3f} '
          f'| {ms["program"]:.3f} | {r["public_over_flat"]:.2f} '
          f'({low:.2f}-{high:.2f}) |', flush=True)
  if LEARNER_BATCH_SIZE.value <= 0:
    raise app.UsageError('--learner_batch_size must be positive, got '
                         f'{LEARNER_BATCH_SIZE.value}.')
  print()
  print('| learner | batch | flat ms | public ms | public / flat |')
  print('|---|---:|---:|---:|---:|')
  for model in LEARNER_MODELS.value:
    r = time_learner(model, LEARNER_BATCH_SIZE.value, ROUNDS.value,
                     MIN_SECONDS.value)
    ms = r['milliseconds']
    low, high = r['public_over_flat_range']
    print(f'| {model} | {r["batch_size"]} | {ms["flat"]:.2f} '
          f'| {ms["public"]:.2f} | {r["public_over_flat"]:.2f} '
          f'({low:.2f}-{high:.2f}) |', flush=True)


if __name__ == '__main__':
  app.run(main)
