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
"""Small boards' convolutions as one matmul, against the convolution.

Side by side in one process, on a model of benchmarks/learner.py (two
copies of its network with the same initial weights, built with
`network.conv_as_matmul` False, the default, and True):

  * `learner`: the XLA learner step (`Learner(jit_compile=True).step`) on
    the synthetic batch of `learner_models` at `--batch_size`, in ms;
  * `search_<B>`: `CompiledSearch` with noise at each of `--search_batches`
    roots, in ms a call.

Each of `--repeats` rounds times every measurement once (a fixed number of
calls, in turns), so that load falls on both alike; reported: the median ms
of each and the median of the per-round ratios convolution / matmul.

    python -m benchmarks.board_conv --model=tictactoe_residual
    python -m benchmarks.board_conv --model=paper_residual --batch_size=128 \
        --search_batches= --max_dense_entries=6000000 --repeats=3 --calls=2

See docs/benchmarks.md, "Small boards: convolutions as one matmul".
"""

import time
from typing import Any, Callable, Dict, Sequence

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

from benchmarks import learner_models
from benchmarks import reporting
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt import run_config
from muzero_snt.networks import board_conv
from muzero_snt.search import compiled_search

MODEL = flags.DEFINE_enum('model', 'tictactoe_residual',
                          learner_models.MODELS, 'the network and batch.')
BATCH_SIZE = flags.DEFINE_integer('batch_size', 256, 'learner batch size.')
SEARCH_BATCHES = flags.DEFINE_list('search_batches', ['1', '16', '64'],
                                   'roots per search call.')
REPEATS = flags.DEFINE_integer('repeats', 7, 'timed rounds.')
CALLS = flags.DEFINE_integer('calls', 10, 'calls per measurement a round.')
MAX_DENSE_ENTRIES = flags.DEFINE_integer(
    'max_dense_entries', board_conv.MAX_DENSE_ENTRIES,
    'the largest matrix run as a matmul (board_conv.MAX_DENSE_ENTRIES).')
OUTPUT_JSON = flags.DEFINE_string('output_json', None, 'where to write.')

_MODES = ('convolution', 'matmul')


def _with_matmul(config, use_matmul: bool):
  return run_config.apply_overrides(
      config, [f'network.conv_as_matmul={str(use_matmul).lower()}'])


def _network(config, use_matmul: bool):
  """The model's network, seeded, with its convolutions as asked; and how
  many of them run as a matmul on the observation's board."""
  tf.random.set_seed(0)
  network = networks.make_network(_with_matmul(config, use_matmul))
  network.create_variables()
  height, width = config.observation_shape[:2]
  return network, sum(
      conv.runs_as_matmul([1, height, width, conv.w.shape[2]])
      for conv in network.submodules
      if isinstance(conv, board_conv.BoardConv2D))


def _calls(config) -> Dict[str, Dict[str, Callable[[], Any]]]:
  """Per measurement, per mode: a function that runs it once, compiled."""
  batch = learner_models.make_batch(config, BATCH_SIZE.value, 0)
  calls = {}
  for mode in _MODES:
    network, _ = _network(config, mode == 'matmul')
    learner = learning.Learner(network, _with_matmul(config, mode == 'matmul'),
                               jit_compile=True)
    calls.setdefault('learner', {})[mode] = (
        lambda learner=learner: learner.step(batch))
    search = compiled_search.CompiledSearch(config, network)
    for size in (int(b) for b in SEARCH_BATCHES.value if b):
      rng = np.random.default_rng(size)
      roots = (rng.random((size,) + tuple(config.observation_shape)).astype(
          np.float32), np.zeros(size, np.int32),
               np.ones((size, config.action_space_size), bool))
      calls.setdefault(f'search_{size}', {})[mode] = (
          lambda search=search, roots=roots, rng=rng: search(*roots, rng))
  for per_mode in calls.values():  # Traces and compiles every program.
    for call in per_mode.values():
      call()
  return calls


def main(argv: Sequence[str]) -> None:
  del argv
  board_conv.MAX_DENSE_ENTRIES = MAX_DENSE_ENTRIES.value
  config = learner_models.make_config(MODEL.value)
  _, as_matmul = _network(config, True)
  if not as_matmul:
    raise app.UsageError(
        f'No convolution of the {MODEL.value!r} network runs as a matmul '
        f'(observations {config.observation_shape}): nothing to compare.')
  calls = _calls(config)
  ms = {name: {mode: [] for mode in _MODES} for name in calls}
  for _ in range(REPEATS.value):
    for name, per_mode in calls.items():
      for mode, call in per_mode.items():
        start = time.perf_counter()
        for _ in range(CALLS.value):
          call()
        ms[name][mode].append(
            (time.perf_counter() - start) / CALLS.value * 1e3)
  ratios = {name: [c / m for c, m in zip(times['convolution'],
                                         times['matmul'])]
            for name, times in ms.items()}
  reporting.report({
      'machine': reporting.machine(),
      'model': MODEL.value,
      'batch_size': BATCH_SIZE.value,
      'convolutions_as_matmul': int(as_matmul),
      'max_dense_entries': board_conv.MAX_DENSE_ENTRIES,
      'ms': ms,
      'convolution_over_matmul': ratios,
  }, OUTPUT_JSON.value)


if __name__ == '__main__':
  app.run(main)
