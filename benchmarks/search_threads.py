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
"""Roots per second of one batched search against threads sharing the batch.

Whether a batched search leaves cores idle: the preset's `CompiledSearch`
(XLA, fresh network) searches `--batch_size` roots from one thread, then
the same roots split among `--threads` threads, each calling the same
search on its share at once (the program runs without the interpreter
lock), then one root at a time. Timed in turns, `--calls` calls per timing,
every padded size compiled first; prints the medians of the rounds and the
ratios to one root:

    python -m benchmarks.search_threads --preset=tictactoe --batch_size=64

See docs/benchmarks.md, "Where 64 games' time goes".
"""

import statistics
import threading
import time
from typing import Dict, List, Sequence

from absl import app
from absl import flags
import numpy as np

from benchmarks import selfplay_rate

PRESET = flags.DEFINE_string('preset', 'tictactoe', 'the preset.')
BATCH_SIZE = flags.DEFINE_integer('batch_size', 64, 'roots in all.')
THREADS = flags.DEFINE_integer('threads', 2, 'threads sharing the roots.')
CALLS = flags.DEFINE_integer('calls', 40, 'search calls per timing.')
ROUNDS = flags.DEFINE_integer('rounds', 5, 'timings of each way.')


def _roots(config, batch_size: int, seed: int):
  rng = np.random.default_rng(seed)
  observation = rng.integers(
      0, 2, (batch_size,) + tuple(config.observation_shape)).astype(np.float32)
  return (observation, np.zeros(batch_size, np.int32),
          np.ones((batch_size, config.action_space_size), bool))


def _searches(search, roots, calls: int, seed: int) -> None:
  for call in range(calls):
    search.search_with_seed(*roots, seed=[seed, call])


def roots_per_second(setup, batch_size: int, threads: int,
                     calls: int) -> float:
  """Roots/s of `calls` searches of `batch_size / threads` roots in each
  of `threads` threads at once."""
  share = batch_size // threads
  workers = [
      threading.Thread(target=_searches, args=(
          setup.compiled, _roots(setup.config, share, seed), calls, seed))
      for seed in range(threads)]
  start = time.perf_counter()
  for worker in workers:
    worker.start()
  for worker in workers:
    worker.join()
  return share * threads * calls / (time.perf_counter() - start)


def main(argv: Sequence[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  for flag in (BATCH_SIZE, THREADS, CALLS, ROUNDS):
    if flag.value <= 0:
      raise app.UsageError(f'--{flag.name} must be positive, got '
                           f'{flag.value}.')
  if BATCH_SIZE.value % THREADS.value:
    raise app.UsageError(f'--batch_size={BATCH_SIZE.value} does not split '
                         f'among --threads={THREADS.value}.')
  setup = selfplay_rate.make_selfplay_setup(PRESET.value, BATCH_SIZE.value)
  ways = {'1 root': (1, 1),
          f'1 thread x {BATCH_SIZE.value}': (BATCH_SIZE.value, 1),
          f'{THREADS.value} threads x {BATCH_SIZE.value // THREADS.value}': (
              BATCH_SIZE.value, THREADS.value)}
  rates: Dict[str, List[float]] = {way: [] for way in ways}
  for _ in range(ROUNDS.value):
    for way, (batch_size, threads) in ways.items():
      calls = CALLS.value * (4 if batch_size == 1 else 1)
      rates[way].append(roots_per_second(setup, batch_size, threads, calls))
  print(f'{PRESET.value}, {setup.config.num_simulations} simulations, '
        f'medians of {ROUNDS.value} rounds')
  for way, values in rates.items():
    ratios = [rate / one for rate, one in zip(values, rates['1 root'])]
    print(f'{way:>20}: {statistics.median(values):8.0f} roots/s  '
          f'x {statistics.median(ratios):.2f} one root  (per round: '
          f'{", ".join(f"{rate:.0f}" for rate in values)})')
  one, shared = list(rates.values())[1:]
  print(f'{THREADS.value} threads / 1 thread: median '
        f'{statistics.median(s / o for s, o in zip(shared, one)):.2f}')


if __name__ == '__main__':
  app.run(main)
