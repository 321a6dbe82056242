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
"""Throughput of the learner step, with and without XLA.

Samples/s of `Learner.step` without (`step`) and with XLA (`step_xla`) on
one batch, in rotated turns with a 2048^2 matmul (the machine's practical
FLOP rate). With --peers, our XLA step against the peers' in alternating
processes (peers/side_by_side.py). See docs/benchmarks.md.

    python -m benchmarks.learner --models=cartpole_mlp,tictactoe_residual
    python -m benchmarks.learner --peers=lightzero,muzero_general --rounds=5
"""

import json
import os
import statistics
from typing import Any, Dict, Sequence

from absl import app
from absl import flags
from absl import logging
import sonnet as snt
import tensorflow as tf

from benchmarks import learner_models
from benchmarks import reporting
from benchmarks.peers import side_by_side
from muzero_snt import learning
from muzero_snt import mixed_precision
from muzero_snt import networks

# (batch size, learner steps a timing): the paper tower takes seconds a step.
DEFAULTS = {
    'cartpole_mlp': (256, 20),
    'tictactoe_residual': (256, 20),
    'paper_residual': (32, 1),
    'minatar_residual': (128, 10),
}

MODELS_FLAG = flags.DEFINE_list('models', list(learner_models.MODELS),
                                'models to benchmark.')
REPEATS = flags.DEFINE_integer('repeats', 5, 'timings of each measurement.')
STEPS = flags.DEFINE_integer('steps', None, 'learner steps per timing '
                             '(default: DEFAULTS).')
BATCH_SIZE = flags.DEFINE_integer('batch_size', None, 'batch size of every '
                                  'model (default: DEFAULTS).')
COMPUTE_DTYPE = flags.DEFINE_enum(
    'compute_dtype', 'float32', sorted(mixed_precision.COMPUTE_DTYPES),
    'the learners\' and the matmul\'s compute dtype.')
THREADS = flags.DEFINE_integer(
    'threads', 0, 'TensorFlow\'s intra- and inter-op threads (0: its '
    'defaults).')
OUTPUT_JSON = reporting.output_json_flag()
PEERS = flags.DEFINE_list(
    'peers', [], f'time our XLA step against these of {side_by_side.PEERS} '
    'instead, in alternating processes, on cartpole_mlp and '
    'tictactoe_residual; --threads=N sets both libraries\' threads.')
ROUNDS = flags.DEFINE_integer('rounds', 5, 'with --peers: processes of each '
                              'library per model.')
PEER_WORKER = flags.DEFINE_bool(
    'peer_worker', False, 'time our XLA step on the one model of --models '
    'after 3 untimed steps and print one JSON line (side_by_side.py\'s '
    'process).')


def benchmark_model(model: str, batch_size: int, steps: int, repeats: int,
                    matmuls, compute_dtype: str) -> Dict[str, Any]:
  """Times the two steps of one model and the matmuls, interleaved."""
  config = learner_models.make_config(model)
  batch = learner_models.make_batch(config, batch_size)
  tf.random.set_seed(0)
  learners = {
      name: learning.Learner(networks.make_network(config), config,
                             jit_compile=jit_compile,
                             compute_dtype=compute_dtype)
      for name, jit_compile in (('step', False), ('step_xla', True))
  }
  # name -> (function, calls per timing, work per call: samples or FLOPs).
  tasks = {name: (lambda learner=learner: learner.step(batch), steps,
                  batch_size) for name, learner in learners.items()}
  tasks.update(matmuls)
  for name, (function, _, _) in tasks.items():
    logging.info('%s %s: first call %.1fs', model, name,
                 reporting.seconds_per_call(function))
  rates = reporting.rotated_rates(
      tasks, repeats, lambda repeat, rates: logging.info(
          '%s repeat %d: %s', model, repeat + 1,
          {name: round(values[-1], 1) for name, values in rates.items()}))
  flops = (learner_models.TRAIN_FLOPS_PER_FORWARD_FLOP *
           learner_models.forward_flops(learners['step'].network, config))
  ceiling = [max(pair) for pair in zip(rates['matmul'], rates['matmul_xla'])]
  ratio = lambda a, b: [x / y for x, y in zip(a, b)]
  return {
      'model': model, 'batch_size': batch_size, 'steps_per_timing': steps,
      'samples_per_second': {name: rates[name] for name in learners},
      'matmul_flops_per_second': {name: rates[name] for name in matmuls},
      'step_xla/step': ratio(rates['step_xla'], rates['step']),
      'train_flops_per_sample': flops,
      'fraction_of_matmul': {
          name: ratio([flops * rate for rate in rates[name]], ceiling)
          for name in ('step', 'step_xla')},
  }


def format_table(results: Sequence[Dict[str, Any]]) -> str:
  """Medians: samples/s, ratios, MFLOP a sample and % of the matmul."""
  rows = []
  for r in results:
    rate, fraction = (
        {k: statistics.median(v) for k, v in r[part].items()}
        for part in ('samples_per_second', 'fraction_of_matmul'))
    rows.append((r['model'], r['batch_size'], rate['step'],
                 rate['step_xla'], statistics.median(r['step_xla/step']),
                 r['train_flops_per_sample'] / 1e6,
                 100 * fraction['step'], 100 * fraction['step_xla']))
  return reporting.table(
      ('model', 'batch', 'step', 'step_xla', 'xla / step', 'MFLOP',
       'step %', 'xla %'), rows)


def peer_worker(model: str, batch_size: int, steps: int, repeats: int) -> None:
  """Our XLA step as one JSON line, in the peers' drivers' layout."""
  config = learner_models.make_config(model)
  batch = learner_models.make_batch(config, batch_size)
  tf.random.set_seed(0)
  learner = learning.Learner(networks.make_network(config), config,
                             jit_compile=True)
  rates = reporting.learner_rates(lambda: learner.step(batch), batch_size,
                                  steps, repeats, warmup_steps=3)
  print(json.dumps({
      'library': side_by_side.OURS, 'model': model,
      'steps_per_timing': steps, 'samples_per_second': rates,
      'tensorflow': tf.__version__, 'batch_size': batch_size,
      'threads': THREADS.value,
      'load_average': os.getloadavg()}))


def run_peers(models: Sequence[str]) -> None:
  """`--peers`: our XLA step and the peers', in alternating processes."""
  reporting.check_known(PEERS, side_by_side.PEERS)
  reporting.check_positive([ROUNDS])
  for peer in PEERS.value:
    python = side_by_side.DEFAULT_PEER_PYTHONS[peer]
    if not os.access(python, os.X_OK):
      raise app.UsageError(f'No {peer} python at {python}; build it with '
                           f'benchmarks/peers/install_{peer}.sh.')
  output = side_by_side.run(
      models, PEERS.value, rounds=ROUNDS.value, steps=STEPS.value or 20,
      repeats=REPEATS.value, batch_size=BATCH_SIZE.value or 256,
      threads=THREADS.value, log=logging.info)
  output['machine'] = reporting.machine()
  reporting.report(output, OUTPUT_JSON.value,
                   side_by_side.format_table(output['summary']))


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  reporting.check_known(MODELS_FLAG, learner_models.MODELS)
  reporting.check_positive((REPEATS, STEPS, BATCH_SIZE))
  tf.config.threading.set_inter_op_parallelism_threads(THREADS.value)
  tf.config.threading.set_intra_op_parallelism_threads(THREADS.value)
  if PEER_WORKER.value:
    peer_worker(MODELS_FLAG.value[0], BATCH_SIZE.value or 256,
                STEPS.value or 20, REPEATS.value)
    return
  if PEERS.value:
    models = MODELS_FLAG.value if MODELS_FLAG.present else [
        'cartpole_mlp', 'tictactoe_residual']
    if set(models) - {'cartpole_mlp', 'tictactoe_residual'}:
      raise app.UsageError('--peers times cartpole_mlp and '
                           'tictactoe_residual only.')
    run_peers(models)
    return
  matmuls = learner_models.make_matmuls(
      2048, mixed_precision.get_compute_dtype(COMPUTE_DTYPE.value))
  results = []
  for model in MODELS_FLAG.value:
    batch_size, steps = DEFAULTS[model]
    results.append(benchmark_model(
        model, BATCH_SIZE.value or batch_size, STEPS.value or steps,
        REPEATS.value, matmuls, COMPUTE_DTYPE.value))
    logging.info('\n%s', format_table(results[-1:]))
  machine = reporting.machine()
  machine.update(sonnet=snt.__version__,
                 threads=THREADS.value,
                 TF_ENABLE_ONEDNN_OPTS=os.environ.get('TF_ENABLE_ONEDNN_OPTS'))
  reporting.report({'machine': machine, 'matmul_size': 2048,
                    'compute_dtype': COMPUTE_DTYPE.value,
                    'results': results}, OUTPUT_JSON.value,
                   format_table(results))


if __name__ == '__main__':
  app.run(main)
