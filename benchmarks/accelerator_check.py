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
"""The check to run on a machine with a GPU: one JSON line per figure.

The device audit of tic-tac-toe's programs; a learner step and a search on
'/gpu:0' against '/cpu:0' from the same weights; the paper tower's learner
throughput at batch 128 in float32 and bfloat16 (without a GPU, a line
saying so); a tic-tac-toe run of --run_steps steps. See docs/accelerators.md.

    python -m benchmarks.accelerator_check --output=/tmp/check.jsonl
"""

import json
import time
from typing import Any, Dict, Optional, Sequence

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

from benchmarks import learner_models
from benchmarks import reporting
from muzero_snt import config as config_lib
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search
from muzero_snt.run import device_audit
from muzero_snt.run import distribute
from muzero_snt.run import experiment

# Names of their own: tests import this module beside the launchers.
RUN_STEPS = flags.DEFINE_integer(
    'run_steps', 2000, 'learner steps of the tic-tac-toe run.')
OUTPUT = flags.DEFINE_string('output', None,
                             'also append the JSON lines to this file.')


def _emit(figure: Dict[str, Any]) -> None:
  line = json.dumps(figure)
  print(line, flush=True)
  if OUTPUT.value:
    with open(OUTPUT.value, 'a') as f:
      f.write(line + '\n')


def _copy(source, target) -> None:
  for t, s in zip(target.variables, source.variables):
    t.assign(s)


def compare_learners(first: str, second: str,
                     config: Optional[config_lib.MuZeroConfig] = None,
                     jit_compile: bool = True) -> Dict[str, float]:
  """One step of a learner (tic-tac-toe's by default) on two devices from
  equal weights: the loss of each, and the largest difference of their
  gradients relative to the largest gradient."""
  config = config or presets.make_tictactoe_config()
  learners, deltas, losses = [], [], []
  for device in (first, second):
    learners.append(learning.Learner(
        networks.make_network(config), config, jit_compile=jit_compile,
        strategy=tf.distribute.OneDeviceStrategy(device)))
  _copy(learners[0].network, learners[1].network)
  batch = learner_models.make_batch(config, config.batch_size, seed=1)
  for learner in learners:
    before = [v.numpy() for v in learner.network.trainable_variables]
    metrics = learner.step(batch)
    losses.append(float(metrics['loss']))
    # The first momentum update is -learning_rate x gradient.
    deltas.append(np.concatenate([
        (b - v.numpy()).ravel() / metrics['learning_rate']
        for b, v in zip(before, learner.network.trainable_variables)]))
  return {'loss_first': losses[0], 'loss_second': losses[1],
          'gradient_max': float(np.abs(deltas[1]).max()),
          'gradient_relative_difference': float(
              np.abs(deltas[0] - deltas[1]).max() / np.abs(deltas[1]).max())}


def compare_searches(first: str, second: str, batch_size: int = 64,
                     config: Optional[config_lib.MuZeroConfig] = None
                     ) -> Dict[str, float]:
  """A tic-tac-toe XLA search, without noise, on two devices: the share of
  positions whose visit counts are equal."""
  config = config or presets.make_tictactoe_config()
  rng = np.random.default_rng(2)
  stones = rng.integers(0, 3, (batch_size, 3, 3))
  observation = np.stack([stones == 1, stones == 2,
                          np.zeros_like(stones, bool)], -1).astype(np.float32)
  legal = (stones == 0).reshape(batch_size, 9)
  legal[~legal.any(axis=1), 0] = True
  to_play = np.zeros(batch_size, np.int32)
  visits, source = [], None
  for device in (first, second):
    with tf.device(device):
      network = networks.make_network(config)
      network.create_variables()
    if source is None:
      source = network
    _copy(source, network)
    placed = distribute.place_search(search.make_search(config, network),
                                     network)
    visits.append(placed(observation, to_play, legal,
                         np.random.default_rng(0), add_noise=False)
                  .visit_counts)
  equal = np.all(visits[0] == visits[1], axis=1)
  return {'positions': batch_size, 'equal_share': float(equal.mean())}


def learner_throughput(compute_dtype: str) -> Dict[str, float]:
  """Samples per second of the paper's tower at batch 128 on '/gpu:0': 3
  timings of 20 steps."""
  config = learner_models.make_config('paper_residual').replace(batch_size=128)
  learner = learning.Learner(
      networks.make_network(config), config, jit_compile=True,
      compute_dtype=compute_dtype,
      strategy=tf.distribute.OneDeviceStrategy('/gpu:0'))
  batch = learner.prepare(learner_models.make_batch(config, 128))
  rates = reporting.learner_rates(lambda: learner.step_prepared(batch), 128,
                                  steps=20, repeats=3, warmup_steps=2)
  return {'samples_per_second': float(np.median(rates))}


def tictactoe_run(training_steps: int, on_gpu: bool) -> Dict[str, Any]:
  config = presets.make_tictactoe_config().replace(
      training_steps=training_steps)
  start = time.perf_counter()
  loop = experiment.run_selfplay(
      config, 'tictactoe',
      strategy=distribute.make_strategy('gpu' if on_gpu else 'default'))
  return {'device': 'gpu' if on_gpu else 'cpu',
          'learner_steps': loop.learner.steps, 'games': loop.games,
          'env_steps': loop.env_steps,
          'seconds': round(time.perf_counter() - start, 1)}


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  reporting.check_positive([RUN_STEPS])
  # Float32 means float32: no TensorFloat-32 matmuls on the GPU.
  tf.config.experimental.enable_tensor_float_32_execution(False)
  on_gpu = bool(tf.config.list_physical_devices('GPU'))
  if not on_gpu:  # Two logical CPUs for the audit's mirrored learner.
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices('CPU')[0],
        [tf.config.LogicalDeviceConfiguration()] * 2)
  for report in device_audit.audit(presets.make_tictactoe_config()):
    _emit({'figure': 'audit', **json.loads(report.to_json()),
           'problems': len(report.problems)})
  gpu_figures = {
      'learner_gpu_vs_cpu': lambda: compare_learners('/gpu:0', '/cpu:0'),
      'search_gpu_vs_cpu': lambda: compare_searches('/gpu:0', '/cpu:0'),
      'learner_throughput_float32': lambda: learner_throughput('float32'),
      'learner_throughput_bfloat16': lambda: learner_throughput('bfloat16')}
  physical = ', '.join(d.name.split('device:')[-1]
                       for d in tf.config.list_physical_devices())
  for figure, measure in gpu_figures.items():
    _emit({'figure': figure, **measure()} if on_gpu else
          {'figure': figure, 'skipped': f'no GPU: TensorFlow sees {physical}'})
  _emit({'figure': 'tictactoe_run', **tictactoe_run(RUN_STEPS.value, on_gpu)})
  _emit({'figure': 'machine', **reporting.machine()})


if __name__ == '__main__':
  app.run(main)
