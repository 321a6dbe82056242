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
"""Learner throughput through the training launcher, per strategy.

Each measurement is a fresh process running `experiment.run_synthetic`
(the launcher's learner path: flags' config, strategy, tf.data input split
among the replicas, TensorBoard logging) for --steps steps; samples per
second are read back from its TensorBoard scalars, dropping the first
logging interval (tracing and compilation). Strategies that need several
devices get two logical CPU devices, configured before TensorFlow starts.
Strategies alternate within each repeat, so a busy machine slows all alike;
the table reports medians.

    python -m benchmarks.launcher --preset=cartpole --batch_size=128 --repeats=3
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, List, Sequence

from absl import app
from absl import flags

from muzero_snt import presets

PRESET = flags.DEFINE_enum('preset', 'tictactoe', sorted(presets.PRESETS),
                           'configuration preset.')
BATCH_SIZE = flags.DEFINE_integer('batch_size', 128, 'global batch size.')
STRATEGIES = flags.DEFINE_list(
    'strategies', ['default', 'cpu', 'mirrored'],
    'strategies to measure (the ones that run on a CPU-only machine).')
STEPS = flags.DEFINE_integer('steps', 200, 'learner steps per process.')
REPEATS = flags.DEFINE_integer('repeats', 3, 'processes per setting.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results.')

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_RESULT = 'LAUNCHER_BENCHMARK '
# (strategy, XLA): XLA needs one replica; mirrored runs without it.
_SETTINGS = {
    'default': [('default', True), ('default', False)],
    'cpu': [('cpu', True), ('cpu', False)],
    'mirrored': [('mirrored', False)],
}


def child(preset: str, strategy_name: str, jit_compile: bool, steps: int,
          batch_size: int) -> Dict[str, float]:
  """Runs the launcher's learner once; returns its steady samples/s."""
  # pylint: disable=g-import-not-at-top
  import tensorflow as tf
  if strategy_name == 'mirrored':
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices('CPU')[0],
        [tf.config.LogicalDeviceConfiguration()] * 2)
  from muzero_snt import curves
  from muzero_snt import distribute
  from muzero_snt import experiment
  # pylint: enable=g-import-not-at-top
  config = presets.get_preset(preset).replace(
      batch_size=batch_size, training_steps=steps)
  strategy = distribute.make_strategy(strategy_name)
  with tempfile.TemporaryDirectory() as logdir:
    experiment.run_synthetic(config, preset, jit_compile=jit_compile,
                             strategy=strategy,
                             log_every=max(1, steps // 10), logdir=logdir)
    # Rates are measured from the end of the first (compiling) step.
    _, rates = curves.read_scalars(logdir)['samples_per_second']
  return {'samples_per_second': float(statistics.median(rates)),
          'replicas': strategy.num_replicas_in_sync}


def _run_child(strategy: str, jit_compile: bool) -> Dict[str, float]:
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL='2', CUDA_VISIBLE_DEVICES='')
  code = ('import json; from benchmarks import launcher; '
          f'print({_RESULT!r} + json.dumps(launcher.child('
          f'{PRESET.value!r}, {strategy!r}, {jit_compile}, {STEPS.value}, '
          f'{BATCH_SIZE.value})))')
  process = subprocess.run([sys.executable, '-c', code], cwd=_ROOT, env=env,
                           capture_output=True, text=True, check=False)
  lines = [l for l in process.stdout.splitlines() if l.startswith(_RESULT)]
  if process.returncode or not lines:
    raise RuntimeError(f'{strategy} failed:\n{process.stderr[-3000:]}')
  return json.loads(lines[-1][len(_RESULT):])


def main(argv: Sequence[str]) -> None:
  del argv
  settings = [s for name in STRATEGIES.value for s in _SETTINGS[name]]
  samples: Dict[str, List[float]] = {}
  replicas = {}
  for _ in range(REPEATS.value):
    for strategy, jit in settings:
      key = f'{strategy}{" + XLA" if jit else ""}'
      result = _run_child(strategy, jit)
      samples.setdefault(key, []).append(result['samples_per_second'])
      replicas[key] = result['replicas']
  print(f'preset {PRESET.value}, global batch {BATCH_SIZE.value}, '
        f'{STEPS.value} steps per run, median of {REPEATS.value} runs')
  print(f'{"strategy":<18} {"replicas":>8} {"samples/s":>10}  runs')
  summary = {}
  for key, values in samples.items():
    median = statistics.median(values)
    summary[key] = {'median': median, 'runs': values,
                    'replicas': replicas[key]}
    print(f'{key:<18} {replicas[key]:>8} {median:>10.0f}  '
          f'{", ".join(f"{v:.0f}" for v in values)}')
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(summary, f, indent=1)


if __name__ == '__main__':
  app.run(main)
