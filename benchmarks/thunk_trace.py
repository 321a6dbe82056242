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
"""Where a compiled learner step or search spends its time, thunk by thunk.

Runs a learner step (`--target=learner`, a model of
benchmarks/learner_models.py) or a compiled search (`--target=search`, a
preset, or `benchmark` for the model of benchmarks/search.py) under
TensorFlow's profiler with XLA:CPU's per-thunk trace events, and prints the
thunks summed by kind (`thunk_kinds.py`): how many run a call and their
time summed over threads. Beside it, the wall time of a call, timed
without the profiler: a program whose thunks' time is far below the wall
time of its threads is paying for dispatch, not arithmetic.

XLA reads `XLA_FLAGS` once, so the process starts itself again with the
trace flag added if it is not set.

    python -m benchmarks.thunk_trace --target=learner --model=tictactoe_residual
    python -m benchmarks.thunk_trace --target=search --model=tictactoe --batch_size=64
"""

import os
import sys
import tempfile
import time
from typing import Callable, Sequence

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

from benchmarks import learner_models
from benchmarks import search_tasks
from benchmarks import thunk_kinds
from benchmarks.peers import peer_timing
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt.search import compiled_search

TRACE_FLAG = '--xla_cpu_enable_xprof_traceme=true'

TARGET = flags.DEFINE_enum('target', 'learner', ['learner', 'search'],
                           'what to trace.')
MODEL = flags.DEFINE_string(
    'model', 'cartpole_mlp', 'learner: one of benchmarks/learner_models.py '
    f'{learner_models.MODELS}; search: a preset, or "benchmark" for the '
    'model of benchmarks/search.py.')
BATCH_SIZE = flags.DEFINE_integer('batch_size', 256, 'batch (search: roots).')
CALLS = flags.DEFINE_integer('calls', 10, 'calls timed, then traced.')
WARMUP_CALLS = flags.DEFINE_integer('warmup_calls', 5,
                                    'untimed calls first (compilation).')
TOP = flags.DEFINE_integer('top', 30, 'kinds shown.')
SEED = flags.DEFINE_integer('seed', 0, 'random seed.')


def learner_call(model: str, batch_size: int, seed: int) -> Callable[[], None]:
  """One XLA learner step of `model` on a random batch, as the learner
  benchmark times it."""
  config = learner_models.make_config(model)
  tf.random.set_seed(seed)
  learner = learning.Learner(networks.make_network(config), config,
                             jit_compile=True)
  batch = learner_models.make_batch(config, batch_size, seed)
  return lambda: learner.step(batch)


def search_call(model: str, batch_size: int,
                seed: int) -> Callable[[], None]:
  """One compiled search with noise from `batch_size` positions, each call
  with a new noise seed."""
  if model == 'benchmark':
    config = search_tasks.make_config()
  else:
    config = presets.get_preset(model)
  tf.random.set_seed(seed)
  network = networks.make_network(config)
  search = compiled_search.CompiledSearch(config, network)
  shape = (batch_size,) + tuple(config.observation_shape)
  if model == 'benchmark':  # As benchmarks/search.py draws them.
    observation = np.random.default_rng(seed).standard_normal(shape)
  else:  # A preset's observations are planes or states: zeros are valid.
    observation = np.zeros(shape)
  observation = observation.astype(np.float32)
  to_play = np.zeros(batch_size, np.int32)
  legal = np.ones((batch_size, config.action_space_size), bool)
  counter = iter(range(2**31 - 1))
  return lambda: search.search_with_seed(observation, to_play, legal,
                                         [seed, next(counter)])


def wall_milliseconds(call: Callable[[], None], calls: int) -> float:
  """Milliseconds a call, `calls` calls timed together."""
  start = time.perf_counter()
  for _ in range(calls):
    call()
  return (time.perf_counter() - start) / calls * 1e3


def main(argv: Sequence[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  peer_timing.check_positive(
      (flag.name, flag.value) for flag in (BATCH_SIZE, CALLS, TOP))
  if WARMUP_CALLS.value < 0:
    raise app.UsageError(f'--warmup_calls must be >= 0, got '
                         f'{WARMUP_CALLS.value}.')
  if TARGET.value == 'learner' and MODEL.value not in learner_models.MODELS:
    raise app.UsageError(f'--model={MODEL.value} with --target=learner: '
                         f'expected one of {learner_models.MODELS}.')
  if (TARGET.value == 'search' and MODEL.value != 'benchmark' and
      MODEL.value not in presets.PRESETS):
    raise app.UsageError(f'--model={MODEL.value} with --target=search: '
                         f'expected "benchmark" or a preset of '
                         f'{sorted(presets.PRESETS)}.')
  if TRACE_FLAG not in os.environ.get('XLA_FLAGS', ''):
    os.environ['XLA_FLAGS'] = (
        f"{os.environ.get('XLA_FLAGS', '')} {TRACE_FLAG}".strip())
    os.execv(sys.executable,
             [sys.executable, '-m', 'benchmarks.thunk_trace'] + sys.argv[1:])
  make = learner_call if TARGET.value == 'learner' else search_call
  call = make(MODEL.value, BATCH_SIZE.value, SEED.value)
  for _ in range(WARMUP_CALLS.value):
    call()
  wall = wall_milliseconds(call, CALLS.value)
  with tempfile.TemporaryDirectory() as logdir:
    tf.profiler.experimental.start(logdir)
    for _ in range(CALLS.value):
      call()
    tf.profiler.experimental.stop()
    stats = thunk_kinds.thunk_kinds(thunk_kinds.read_space(logdir),
                                    CALLS.value)
  print(f'{TARGET.value} {MODEL.value}, batch {BATCH_SIZE.value}: '
        f'{wall:.3f} ms a call without the profiler '
        f'({os.cpu_count()} cores)')
  print(thunk_kinds.format_table(stats, TOP.value))


if __name__ == '__main__':
  app.run(main)
