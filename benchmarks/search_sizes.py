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
"""The compiled search's time against its batch size, on a preset's network.

What padding a batch costs: `CompiledSearch(pad_batch=False)` (XLA) on a
fresh network of the preset, each batch size compiled first, then timed
in turns (one call of every size per round) so that load falls on all sizes
alike. Prints the median of the rounds per size, per root, and relative to
the first size:

    python -m benchmarks.search_sizes --preset=cartpole \
        --batch_sizes=614,640,1024

(614 positions, the most a CartPole reanalysis at fraction 0.8 searches:
640 rows with today's padding, 1,024 with powers of two.) See
docs/results.md, "Reanalyze".
"""

import time
from typing import Sequence

from absl import app
from absl import flags
import numpy as np

from muzero_snt import networks
from muzero_snt import presets
from muzero_snt.search import compiled_search

PRESET = flags.DEFINE_string('preset', 'cartpole', 'the preset.')
BATCH_SIZES = flags.DEFINE_list('batch_sizes', ['614', '640', '1024'],
                                'batch sizes to time, unpadded.')
ROUNDS = flags.DEFINE_integer('rounds', 5, 'timed calls of each size.')
SEED = flags.DEFINE_integer('seed', 0, 'network and input seed.')


def _roots(config, batch_size: int, rng: np.random.Generator):
  """Observations in [0, 1), player 0 to move, every action legal."""
  observation = rng.random(
      (batch_size,) + tuple(config.observation_shape)).astype(np.float32)
  return (observation, np.zeros(batch_size, np.int32),
          np.ones((batch_size, config.action_space_size), bool))


def main(argv: Sequence[str]) -> None:
  del argv
  sizes = [int(size) for size in BATCH_SIZES.value]
  if not sizes or min(sizes) < 1:
    raise app.UsageError(
        f'--batch_sizes must be positive integers, got {BATCH_SIZES.value}.')
  config = presets.get_preset(PRESET.value)
  network = networks.make_network(config)
  search = compiled_search.CompiledSearch(config, network, pad_batch=False)
  rng = np.random.default_rng(SEED.value)
  roots = {size: _roots(config, size, rng) for size in sizes}
  for size in sizes:  # Compiles each size's program.
    search(*roots[size], rng, add_noise=False)
  seconds = {size: [] for size in sizes}
  for _ in range(ROUNDS.value):
    for size in sizes:
      start = time.perf_counter()
      search(*roots[size], rng, add_noise=False)
      seconds[size].append(time.perf_counter() - start)
  first = float(np.median(seconds[sizes[0]]))
  print(f'{PRESET.value}, {config.num_simulations} simulations, median of '
        f'{ROUNDS.value} rounds')
  print(f'{"batch":>6} {"ms":>9} {"us per root":>12} {"x first":>8}')
  for size in sizes:
    median = float(np.median(seconds[size]))
    print(f'{size:>6} {median * 1e3:>9.1f} {median / size * 1e6:>12.1f} '
          f'{median / first:>8.2f}')


if __name__ == '__main__':
  app.run(main)
