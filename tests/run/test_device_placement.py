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
"""Where each part of a run executes, with two logical CPUs as accelerators.

'/cpu:1' stands in for an accelerator and '/cpu:0' for the host. An XLA
program cannot read a variable on another device, so an XLA search that
runs at all runs where its weights are. Each check runs in a child process,
as in tests/test_multi_device.py: logical devices must be configured before
TensorFlow starts, and one MirroredStrategy per process.
"""

import json
import os
import subprocess
import sys

from absl.testing import absltest
import numpy as np

from tests import testing

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RESULT_PREFIX = 'PLACEMENT_RESULT '
ACCELERATOR = '/job:localhost/replica:0/task:0/device:CPU:1'
HOST = '/job:localhost/replica:0/task:0/device:CPU:0'


def _config():
  from muzero_snt.run import device_audit  # pylint: disable=g-import-not-at-top
  return device_audit.small_config('tictactoe')


def _learner_check():
  """The learner's variables and step on the strategy's devices."""
  # pylint: disable=g-import-not-at-top
  import tensorflow as tf
  from muzero_snt import learning
  from muzero_snt import networks
  from muzero_snt.run import data_sources
  from muzero_snt.run import distribute
  # pylint: enable=g-import-not-at-top
  config = _config()
  one = learning.Learner(
      networks.make_network(config), config, jit_compile=True,
      strategy=tf.distribute.OneDeviceStrategy('/cpu:1'))
  batch = learning.zero_batch(config, config.batch_size)
  metrics = one.step_prepared(one.prepare(batch))
  mirrored = distribute.make_strategy('mirrored')
  learner = learning.Learner(networks.make_network(config), config,
                             strategy=mirrored)
  # Replay's batches are NumPy arrays (host memory); the distributed
  # dataset puts each replica's slice on its device.
  dataset = data_sources.from_batches(lambda: iter([batch]), config,
                                  config.batch_size)
  element = next(learner.distribute_dataset(dataset))
  errors = {}
  for name, make in (
      ('xla', lambda: learning.Learner(networks.make_network(config), config,
                                       strategy=mirrored, jit_compile=True)),
      ('batch', lambda: distribute.make_strategy('mirrored', batch_size=7))):
    try:
      make()
    except ValueError as e:
      errors[name] = str(e)
  return {
      'one_variables': sorted({v.device for v in one.network.variables}),
      'one_loss': metrics['loss'].device,
      'mirrored_copies': sorted({
          tuple(sorted(c.device for c in v.values))
          for v in learner.network.trainable_variables}),
      'slices': [t.device for t in element.observation.values],
      'errors': errors,
  }


def _search_check():
  """The search on the accelerator (its weights' device) or the host."""
  # pylint: disable=g-import-not-at-top
  import tensorflow as tf
  from muzero_snt import networks
  from muzero_snt import search
  from muzero_snt.run import distribute
  # pylint: enable=g-import-not-at-top
  config = _config()
  with tf.device('/cpu:1'):
    network = networks.make_network(config)
    network.create_variables()
  inputs = (np.zeros((2,) + config.observation_shape, np.float32),
            np.zeros(2, np.int32), np.ones((2, 9), bool))
  result = {}
  xla = search.make_search(config, network, 'xla')
  try:
    xla(*inputs, np.random.default_rng(0))
  except tf.errors.InvalidArgumentError:
    result['unplaced'] = 'refused'
  placed = distribute.place_search(xla, network)
  result['accelerator'] = placed.device
  result['visits'] = int(placed(*inputs, np.random.default_rng(0))
                         .visit_counts.sum())
  with_seed = placed.search_with_seed(*inputs, seed=[1, 2])
  result['with_seed_visits'] = int(with_seed.visit_counts.sum())
  placed.compile_function([2], add_noise=True)()
  try:
    distribute.place_search(xla, network, 'host')
  except ValueError as e:
    result['host_xla_error'] = str(e)
  graph = search.make_search(config, network, 'graph')
  host = distribute.place_search(graph, network, 'host', jit_compile=False)
  result['host'] = host.device
  result['host_visits'] = int(host(*inputs, np.random.default_rng(0))
                              .visit_counts.sum())
  return result


def _self_play_check():
  """A run's self-play on a learner on the accelerator, as built."""
  # pylint: disable=g-import-not-at-top
  import tensorflow as tf
  from muzero_snt import learning
  from muzero_snt import networks
  from muzero_snt.run import builders
  from muzero_snt.run import run_config
  # pylint: enable=g-import-not-at-top
  config = _config()
  learner = learning.Learner(
      networks.make_network(config), config, jit_compile=True,
      strategy=tf.distribute.OneDeviceStrategy('/cpu:1'))
  # The actor searches the learner's network (overlapped learning would
  # give it a copy of its own, on TensorFlow's default device).
  run = run_config.RunConfig(preset='tictactoe', config=config, num_envs=2,
                             train_ratio=0.5, overlap_learning=False)
  source = builders.make_source(run.resolved(), learner)
  source.run_round(lambda: True, lambda: learner.steps)
  batch, _ = source.sample()
  placed = source.actor._search  # pylint: disable=protected-access
  return {
      'search_device': placed.device,
      'games': source.games,
      'batch_types': sorted({type(x).__name__ for x in batch
                             if x is not None}),
  }


CHECKS = {'learner': _learner_check, 'search': _search_check,
          'self_play': _self_play_check}


def child_main(check: str) -> None:
  """The child process: two logical CPUs, one check, JSON out."""
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  tf.config.set_logical_device_configuration(
      tf.config.list_physical_devices('CPU')[0],
      [tf.config.LogicalDeviceConfiguration()] * 2)
  print(RESULT_PREFIX + json.dumps(CHECKS[check]()), flush=True)


def _run_child(check: str) -> dict:
  env = dict(os.environ)
  env['PYTHONPATH'] = os.pathsep.join(
      [ROOT] + [p for p in [env.get('PYTHONPATH')] if p])
  env['TF_CPP_MIN_LOG_LEVEL'] = '2'
  env['CUDA_VISIBLE_DEVICES'] = ''
  script = ('from tests.run import test_device_placement; '
            f'test_device_placement.child_main({check!r})')
  process = subprocess.run([sys.executable, '-c', script], env=env, cwd=ROOT,
                           capture_output=True, text=True, timeout=240,
                           check=False)
  lines = [line for line in process.stdout.splitlines()
           if line.startswith(RESULT_PREFIX)]
  if process.returncode or not lines:
    raise AssertionError(
        f'The child exited with {process.returncode}.\nstdout:\n'
        f'{process.stdout[-5000:]}\nstderr:\n{process.stderr[-10000:]}')
  return json.loads(lines[-1][len(RESULT_PREFIX):])


class DevicePlacementTest(testing.TestCase):

  def test_learner_variables_and_step_on_the_strategy_devices(self):
    result = _run_child('learner')
    self.assertEqual(result['one_variables'], [ACCELERATOR])
    self.assertEqual(result['one_loss'], ACCELERATOR)
    # Every trainable variable has one copy on each replica's device.
    self.assertEqual(result['mirrored_copies'], [[HOST, ACCELERATOR]])
    self.assertEqual(result['slices'], [HOST, ACCELERATOR])
    self.assertRegex(result['errors']['xla'],
                     r'jit_compile=True needs a single-replica strategy.*'
                     r'MirroredStrategy with 2 replicas')
    self.assertEqual(
        result['errors']['batch'],
        'batch_size=7 does not split among the 2 replicas of the strategy '
        '(on CPU:0, CPU:1): use a multiple of 2, e.g. batch_size=6 or '
        'batch_size=8.')

  def test_search_runs_on_its_weights_device_or_the_host(self):
    result = _run_child('search')
    # Unplaced, the XLA search runs on the default device, CPU:0, and
    # cannot read the weights on CPU:1: placed, it runs where they are.
    self.assertEqual(result['unplaced'], 'refused')
    self.assertEqual(result['accelerator'], ACCELERATOR)
    # Tic-tac-toe's small preset: 4 simulations from each of 2 roots.
    self.assertEqual(result['visits'], 2 * 4)
    self.assertEqual(result['with_seed_visits'], 2 * 4)
    self.assertEqual(
        result['host_xla_error'],
        "search_device='host' with search='xla' needs the network's "
        "variables on the host (CPU:0), but they are on CPU:1: use "
        "search_device='accelerator', or search='graph' to search on the "
        'host with a copy of the weights per call.')
    self.assertEqual(result['host'], HOST)
    self.assertEqual(result['host_visits'], 2 * 4)

  def test_self_play_searches_on_the_learners_device(self):
    result = _run_child('self_play')
    self.assertEqual(result['search_device'], ACCELERATOR)
    self.assertEqual(result['games'], 2)
    # Replay and environments live on the host: NumPy arrays.
    self.assertEqual(result['batch_types'], ['ndarray'])


if __name__ == '__main__':
  absltest.main()
