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
"""Throughput of our learner step in a process of its own, for the peers.

`benchmarks/learner.py --peers=...` starts this in turns with a peer's
driver (benchmarks/peers/lightzero_learner.py) so that each library has the
machine's cores to itself while it runs:

    python -m benchmarks.peers.ours_learner --model=cartpole_mlp

Times `Learner(network, config, jit_compile=True).step(batch)` (or the
graph step with `--nojit_compile`) as benchmarks/learner.py does: NumPy
batch in, NumPy metrics out, after `--warmup_steps` untimed steps (the first
traces and compiles). Prints one JSON line in the peer drivers' layout.
"""

import json
import os
from typing import Any, Dict, Sequence

from absl import app
from absl import flags
import tensorflow as tf

from benchmarks import learner as learner_benchmark
from benchmarks import learner_models
from benchmarks import reporting
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt.run import run_config

MODELS = ('cartpole_mlp', 'tictactoe_residual')

# Importing benchmarks.learner defines its flags; this uses its --batch_size,
# --steps, --repeats, --seed and --intra/inter_op_threads, and adds its own.
MODEL = flags.DEFINE_enum('model', 'cartpole_mlp', MODELS, 'shape to time.')
WARMUP_STEPS = flags.DEFINE_integer('warmup_steps', 3, 'untimed steps first.')
JIT_COMPILE = flags.DEFINE_bool('jit_compile', True,
                                'the XLA step; else the graph step.')


def time_learner(model: str, batch_size: int, steps: int, repeats: int,
                 warmup_steps: int, jit_compile: bool = True,
                 seed: int = 0,
                 conv_as_matmul: bool = False) -> Dict[str, Any]:
  """Samples/s of `repeats` timings of `steps` learner steps each."""
  config = learner_models.make_config(model)
  config = run_config.apply_overrides(
      config, [f'network.conv_as_matmul={str(conv_as_matmul).lower()}'])
  batch = learner_models.make_batch(config, batch_size, seed)
  tf.random.set_seed(seed)
  learner = learning.Learner(networks.make_network(config), config,
                             jit_compile=jit_compile)
  rates = reporting.learner_rates(lambda: learner.step(batch), batch_size,
                                    steps, repeats, warmup_steps)
  threading = tf.config.threading
  return {'library': 'muzero_snt', 'model': model,
          'step': 'step_xla' if jit_compile else 'step',
          'steps_per_timing': steps, 'samples_per_second': rates,
          'load_average': os.getloadavg(), 'tensorflow': tf.__version__,
          'intra_op_threads': threading.get_intra_op_parallelism_threads(),
          'inter_op_threads': threading.get_inter_op_parallelism_threads(),
          'batch_size': batch_size,
          'num_unroll_steps': config.num_unroll_steps,
          'conv_as_matmul': conv_as_matmul}


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  batch_size = learner_benchmark.BATCH_SIZE.value or 256
  steps = learner_benchmark.STEPS.value or 20
  repeats = learner_benchmark.REPEATS.value
  reporting.check_positive((('batch_size', batch_size), ('steps', steps),
                              ('repeats', repeats)))
  tf.config.threading.set_intra_op_parallelism_threads(
      learner_benchmark.INTRA_OP_THREADS.value)
  tf.config.threading.set_inter_op_parallelism_threads(
      learner_benchmark.INTER_OP_THREADS.value)
  print(json.dumps(time_learner(MODEL.value, batch_size, steps, repeats,
                                WARMUP_STEPS.value, JIT_COMPILE.value,
                                learner_benchmark.SEED.value,
                                learner_benchmark.CONV_AS_MATMUL.value)))


if __name__ == '__main__':
  app.run(main)
