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
"""Throughput of the learner step: graph, XLA and the literal pseudocode.

Samples per second (batch size * steps / seconds; the first call, which
traces and compiles, excluded) of three ways to make one MuZero update (K = 5)
on the same batch:

  * `step`: `Learner(..., jit_compile=False).step`, the `tf.function` step;
  * `step_xla`: `Learner(..., jit_compile=True).step`;
  * `reference`: `reference.update_weights`, the pseudocode's eager Python
    loop over the examples. Its cost is linear in the examples, so it is
    timed on the first `--reference_examples` examples of the batch only and
    reported per example.

Each repeat times every measurement once, in a rotated order, together with
`tf.matmul` of two N x N matrices in a graph and under XLA (the machine's
practical FLOP ceiling; float32, or bfloat16 with `--compute_dtype=bfloat16`,
which the learners then compute in), so that a noisy, shared machine slows
them alike. Reported: medians over the repeats, and medians of the per-repeat
ratios. The models and their batches are in learner_models.py, the FLOP
counts and the matmuls in flops.py. See docs/benchmarks.md.

    python -m benchmarks.learner --models=cartpole_mlp,tictactoe_residual
    python -m benchmarks.learner --models=minatar_residual --batch_size=128
    python -m benchmarks.learner --models=paper_residual --batch_size=128 \
        --compute_dtype=bfloat16

With `--peers=lightzero,muzero_general` it times instead our XLA step
against the peers' learner steps on the two small shapes, in alternating
processes (benchmarks/peers/side_by_side.py; each peer's venv from
benchmarks/peers/install_<peer>.sh):

    python -m benchmarks.learner --peers=lightzero,muzero_general --rounds=5
"""

import json
import os
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from absl import app
from absl import flags
from absl import logging
import sonnet as snt
import tensorflow as tf

from benchmarks import flops as flops_lib
from benchmarks import learner_models
from benchmarks import reporting
from benchmarks.peers import side_by_side
from muzero_snt import learning
from muzero_snt import mixed_precision
from muzero_snt import networks
from muzero_snt import reference

# Batch size, learner steps per timing and examples of the reference loop.
# A step of the paper-sized tower costs 6.3 GFLOP per example, seconds per
# step at batch 32 on 2 cores; its reference loop, seconds per example.
DEFAULTS = {
    'cartpole_mlp': (256, 20, 8),
    'tictactoe_residual': (256, 20, 8),
    'paper_residual': (32, 1, 1),
    'minatar_residual': (128, 10, 4),  # The preset's batch.
}

MODELS_FLAG = flags.DEFINE_list(
    'models', list(learner_models.MODELS),
    f'models to benchmark, of {list(learner_models.MODELS)}.')
REPEATS = flags.DEFINE_integer('repeats', 5, 'timings of each measurement.')
STEPS = flags.DEFINE_integer(
    'steps', None, 'learner steps per timing (default: 20; 1 for '
    'paper_residual).')
BATCH_SIZE = flags.DEFINE_integer(
    'batch_size', None, 'batch size of every model (default: 256; 32 for '
    'paper_residual, 128 for minatar_residual).')
REFERENCE_EXAMPLES = flags.DEFINE_integer(
    'reference_examples', None, 'examples of the batch that the reference '
    'loop is timed on (default: 8; 1 for paper_residual).')
MATMUL_SIZE = flags.DEFINE_integer(
    'matmul_size', 2048, 'N of the N x N matmul that measures the FLOP '
    'ceiling.')
COMPUTE_DTYPE = flags.DEFINE_enum(
    'compute_dtype', 'float32', sorted(mixed_precision.COMPUTE_DTYPES),
    "the learners' compute dtype (`Learner(compute_dtype=...)`, the "
    "launchers' --mixed_precision), and the dtype of the ceiling's matmul; "
    'the reference loop stays float32.')
PROFILE_FLOPS = flags.DEFINE_bool(
    'profile_flops', False, 'also count FLOPs with tf.compat.v1.profiler '
    '(minutes for paper_residual).')
INTER_OP_THREADS = flags.DEFINE_integer(
    'inter_op_threads', 0, 'TensorFlow inter-op threads (0: its default).')
INTRA_OP_THREADS = flags.DEFINE_integer(
    'intra_op_threads', 0, 'TensorFlow intra-op threads (0: its default).')
SEED = flags.DEFINE_integer('seed', 0, 'random seed.')
CONV_AS_MATMUL = flags.DEFINE_bool(
    'conv_as_matmul', False,
    "with --peers: our network's `network.conv_as_matmul` (small boards' "
    'convolutions as matmuls).')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results as JSON.')
PEERS = flags.DEFINE_list(
    'peers', [], f'peers to time against our XLA step instead, of '
    f'{list(side_by_side.PEERS)}: alternating processes, cartpole_mlp and '
    f'tictactoe_residual only, --repeats timings of --steps steps each; '
    f'--intra_op_threads=N then sets both libraries\' thread pools to N.')
ROUNDS = flags.DEFINE_integer('rounds', 5, 'with --peers: processes of each '
                              'library per model.')
PEER_PYTHON = flags.DEFINE_string(
    'peer_python', side_by_side.DEFAULT_PEER_PYTHONS['lightzero'],
    'with --peers: LightZero\'s venv python (install_lightzero.sh).')
MUZERO_GENERAL_PYTHON = flags.DEFINE_string(
    'muzero_general_python',
    side_by_side.DEFAULT_PEER_PYTHONS['muzero_general'],
    'with --peers: muzero-general\'s venv python '
    '(install_muzero_general.sh).')


def benchmark_model(model: str,
                    batch_size: int,
                    steps: int,
                    repeats: int,
                    reference_examples: int,
                    matmuls: Dict[str, Tuple[Callable[[], Any], int, int]],
                    seed: int = 0,
                    profile_flops: bool = False,
                    compute_dtype: str = 'float32') -> Dict[str, Any]:
  """Times the three updates of one model and the matmuls, interleaved.

  Args:
    model: one of `learner_models.MODELS`.
    batch_size: examples per learner step.
    steps: learner steps per timing.
    repeats: timings of each measurement.
    reference_examples: examples of the batch the reference loop runs on.
    matmuls: from `flops.make_matmuls`.
    seed: seed of the batch and of the initial weights.
    profile_flops: whether to count FLOPs with TF's profiler as well.
    compute_dtype: the learners' compute dtype ('float32' or 'bfloat16').

  Returns:
    A JSON-serialisable dict: samples/s per update and matmul FLOP/s (each a
    median and the per-repeat values), ratios, FLOP counts and rates.
  """
  config = learner_models.make_config(model)
  batch = learner_models.make_batch(config, batch_size, seed)
  tf.random.set_seed(seed)
  learners = {
      name: learning.Learner(networks.make_network(config), config,
                             jit_compile=jit_compile,
                             compute_dtype=compute_dtype)
      for name, jit_compile in (('step', False), ('step_xla', True))
  }
  network = networks.make_network(config)
  network.create_variables()
  pseudocode_network = reference.PseudocodeNetwork(network)
  optimizer = tf.compat.v1.train.MomentumOptimizer(config.lr_init,
                                                   config.momentum)
  examples = reference.pseudocode_batch(batch)[:reference_examples]

  def reference_update():
    loss, _ = reference.update_weights(optimizer, pseudocode_network,
                                       examples, config.weight_decay)
    return loss.numpy()

  # name -> (function, calls per timing, work per call: samples or FLOPs).
  tasks = {
      'step': (lambda: learners['step'].step(batch), steps, batch_size),
      'step_xla': (lambda: learners['step_xla'].step(batch), steps,
                   batch_size),
      'reference': (reference_update, 1, len(examples)),
  }
  tasks.update(matmuls)
  for name, (function, _, _) in tasks.items():
    start = time.perf_counter()
    function()  # Traces and compiles (the reference: creates its slots).
    logging.info('%s %s: warm-up %.1fs', model, name,
                 time.perf_counter() - start)

  names = list(tasks)

  def log_repeat(repeat, rates):
    logging.info('%s repeat %d/%d: %s', model, repeat + 1, repeats, ', '.join(
        f'{name} {rates[name][-1]:.4g}' for name in names))

  rates = reporting.rotated_rates(tasks, repeats, log_repeat)

  flops = (flops_lib.TRAIN_FLOPS_PER_FORWARD_FLOP *
           flops_lib.forward_flops(network, config))
  ceiling = [max(graph, xla) for graph, xla in
             zip(rates['matmul'], rates['matmul_xla'])]

  def per_repeat(numerator: List[float], denominator: List[float]):
    return [n / d for n, d in zip(numerator, denominator)]

  result = {
      'model': model,
      'compute_dtype': compute_dtype,
      'batch_size': batch_size,
      'num_unroll_steps': config.num_unroll_steps,
      'steps_per_timing': steps,
      'reference_examples': len(examples),
      'repeats': repeats,
      'samples_per_second': {name: rates[name] for name in names[:3]},
      'matmul_flops_per_second': {name: rates[name] for name in names[3:]},
      'ratios': {
          'step_xla/step': per_repeat(rates['step_xla'], rates['step']),
          'step/reference': per_repeat(rates['step'], rates['reference']),
          'step_xla/reference': per_repeat(rates['step_xla'],
                                           rates['reference']),
      },
      'train_flops_per_sample': flops,
      'flops_per_second': {
          name: [flops * rate for rate in rates[name]]
          for name in ('step', 'step_xla')
      },
      'fraction_of_matmul': {
          name: per_repeat([flops * rate for rate in rates[name]], ceiling)
          for name in ('step', 'step_xla')
      },
  }
  if profile_flops:
    result['profiled_flops_per_sample'] = flops_lib.profiled_flops(
        networks.make_network(config), config, batch)
  return reporting.with_medians(result)


def environment() -> Dict[str, Any]:
  """What the numbers depend on: CPU, cores, TensorFlow and its settings."""
  threading = tf.config.threading
  return {
      **reporting.machine(),
      'sonnet': snt.__version__,
      'inter_op_threads': threading.get_inter_op_parallelism_threads(),
      'intra_op_threads': threading.get_intra_op_parallelism_threads(),
      'TF_ENABLE_ONEDNN_OPTS': os.environ.get('TF_ENABLE_ONEDNN_OPTS'),
      'XLA_FLAGS': os.environ.get('XLA_FLAGS'),
  }


def format_table(results: Sequence[Dict[str, Any]]) -> str:
  """Two readable tables of the medians: throughput and FLOP rates."""
  lines = [
      'samples/s (medians) and medians of the per-repeat ratios',
      f'{"model":<20}{"batch":>6}{"step":>10}{"step_xla":>10}'
      f'{"reference":>11}{"xla/step":>10}{"step/ref":>10}{"xla/ref":>10}',
  ]
  for r in results:
    rate, ratio = r['samples_per_second'], r['ratios']
    lines.append(
        f'{r["model"]:<20}{r["batch_size"]:>6}'
        f'{rate["step"]["median"]:>10.0f}{rate["step_xla"]["median"]:>10.0f}'
        f'{rate["reference"]["median"]:>11.1f}'
        f'{ratio["step_xla/step"]["median"]:>10.2f}'
        f'{ratio["step/reference"]["median"]:>10.0f}'
        f'{ratio["step_xla/reference"]["median"]:>10.0f}')
  lines += [
      '',
      f'GFLOP/s: training FLOPs = '
      f'{flops_lib.TRAIN_FLOPS_PER_FORWARD_FLOP} x forward '
      '(analytic); % of the faster matmul in the same repeat',
      f'{"model":<20}{"MFLOP/ex":>10}{"profiler":>10}{"step":>8}{"%":>6}'
      f'{"xla":>8}{"%":>6}{"matmul":>8}{"mm_xla":>8}',
  ]
  for r in results:
    gflops = {k: v['median'] / 1e9 for k, v in r['flops_per_second'].items()}
    percent = {k: 100 * v['median'] for k, v in r['fraction_of_matmul'].items()}
    matmul = {k: v['median'] / 1e9
              for k, v in r['matmul_flops_per_second'].items()}
    profiled = r.get('profiled_flops_per_sample')
    profiled = f'{profiled / 1e6:>10.1f}' if profiled else f'{"-":>10}'
    lines.append(
        f'{r["model"]:<20}{r["train_flops_per_sample"] / 1e6:>10.1f}'
        f'{profiled}{gflops["step"]:>8.1f}{percent["step"]:>6.1f}'
        f'{gflops["step_xla"]:>8.1f}{percent["step_xla"]:>6.1f}'
        f'{matmul["matmul"]:>8.1f}{matmul["matmul_xla"]:>8.1f}')
  return '\n'.join(lines)


def run(models: Sequence[str],
        repeats: int = 5,
        steps: Optional[int] = None,
        batch_size: Optional[int] = None,
        reference_examples: Optional[int] = None,
        matmul_size: int = 2048,
        seed: int = 0,
        profile_flops: bool = False,
        compute_dtype: str = 'float32') -> Dict[str, Any]:
  """Benchmarks `models`; returns the environment and one result per model.

  `steps`, `batch_size` and `reference_examples` override `DEFAULTS` for
  every model when given. The learners compute in `compute_dtype`, and the
  ceiling is a matmul in that dtype.
  """
  matmuls = flops_lib.make_matmuls(
      matmul_size, mixed_precision.get_compute_dtype(compute_dtype))
  results = []
  for model in models:
    default_batch_size, default_steps, default_examples = DEFAULTS[model]
    results.append(benchmark_model(
        model,
        batch_size=batch_size or default_batch_size,
        steps=steps or default_steps,
        repeats=repeats,
        reference_examples=reference_examples or default_examples,
        matmuls=matmuls,
        seed=seed,
        profile_flops=profile_flops,
        compute_dtype=compute_dtype))
    logging.info('\n%s', format_table(results[-1:]))
  return {'environment': environment(), 'matmul_size': matmul_size,
          'compute_dtype': compute_dtype, 'results': results}


def run_peers() -> None:
  """`--peers`: our XLA step and the peers', in alternating processes."""
  peer_models = ('cartpole_mlp', 'tictactoe_residual')
  models = MODELS_FLAG.value
  if not MODELS_FLAG.present:
    models = list(peer_models)
  if set(models) - set(peer_models):
    raise app.UsageError('--peers times cartpole_mlp and tictactoe_residual '
                         'only.')
  reporting.check_positive([ROUNDS])
  unknown = sorted(set(PEERS.value) - set(side_by_side.PEERS))
  if unknown:
    raise app.UsageError(f'Unknown peers {unknown}; expected some of '
                         f'{list(side_by_side.PEERS)}.')
  pythons = {'lightzero': PEER_PYTHON, 'muzero_general': MUZERO_GENERAL_PYTHON}
  for peer in PEERS.value:
    flag = pythons[peer]
    if not os.access(flag.value, os.X_OK):
      raise app.UsageError(
          f'No {peer} python at --{flag.name}={flag.value}; build it with '
          f'benchmarks/peers/install_{peer}.sh.')
  output = side_by_side.run(
      models, PEERS.value, rounds=ROUNDS.value, steps=STEPS.value or 20,
      repeats=REPEATS.value, batch_size=BATCH_SIZE.value or 256,
      threads=INTRA_OP_THREADS.value,
      peer_pythons={peer: flag.value for peer, flag in pythons.items()},
      log=logging.info, conv_as_matmul=CONV_AS_MATMUL.value)
  output['environment'] = reporting.machine()
  print(json.dumps(output['environment']))
  print(side_by_side.format_table(output['summary']))
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(output, f, indent=2)


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  unknown = sorted(set(MODELS_FLAG.value) - set(learner_models.MODELS))
  if unknown:
    raise app.UsageError(f'Unknown models {unknown}; expected some of '
                         f'{list(learner_models.MODELS)}.')
  reporting.check_positive(
      (REPEATS, STEPS, BATCH_SIZE, REFERENCE_EXAMPLES, MATMUL_SIZE))
  if PEERS.value:
    run_peers()
    return
  tf.config.threading.set_inter_op_parallelism_threads(INTER_OP_THREADS.value)
  tf.config.threading.set_intra_op_parallelism_threads(INTRA_OP_THREADS.value)
  output = run(MODELS_FLAG.value,
               repeats=REPEATS.value,
               steps=STEPS.value,
               batch_size=BATCH_SIZE.value,
               reference_examples=REFERENCE_EXAMPLES.value,
               matmul_size=MATMUL_SIZE.value,
               seed=SEED.value,
               profile_flops=PROFILE_FLOPS.value,
               compute_dtype=COMPUTE_DTYPE.value)
  print(json.dumps(output['environment']))
  print(format_table(output['results']))
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(output, f, indent=2)


if __name__ == '__main__':
  app.run(main)
