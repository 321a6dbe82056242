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
"""The learner on two replicas matches it on one: the multi-device proof.

Two logical CPUs stand in for two accelerators. The checks run in a child
process, because logical devices must be configured before TensorFlow
initialises its runtime (which the other tests of a pytest process may have
done), and because several `MirroredStrategy` objects in one process collide
on their collective keys. The child is `child_main()` below; it prints one
JSON line that the test reads.
"""

import dataclasses
import json
import os
import subprocess
import sys

from absl.testing import absltest
import numpy as np

from tests import testing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULT_PREFIX = 'MULTI_DEVICE_RESULT '
NUM_STEPS = 3
GLOBAL_BATCH = 8


def _max_abs_difference(first, second) -> float:
  """Largest |a - b| over two equally long lists of variables."""
  assert len(first) == len(second), (len(first), len(second))
  return max(float(np.max(np.abs(a.numpy() - b.numpy()), initial=0.))
             for a, b in zip(first, second))


def _equivalence(strategy):
  """Steps one learner on one replica and one on `strategy` alike."""
  # pylint: disable=g-import-not-at-top
  from muzero_snt.run import data_sources
  from muzero_snt import learning
  from muzero_snt import networks
  # pylint: enable=g-import-not-at-top
  config = testing.tiny_mlp_config(21, num_unroll_steps=3)
  single = learning.Learner(networks.make_network(config), config)
  mirrored = learning.Learner(networks.make_network(config), config,
                              strategy=strategy)
  # The same, fed through tf.data split among the replicas by the strategy.
  fed = learning.Learner(networks.make_network(config), config,
                         strategy=strategy)
  for learner in (mirrored, fed):
    for target, source in zip(learner.network.variables,
                              single.network.variables):
      assert target.shape == source.shape, (target.name, source.name)
      target.assign(source)
  batch = testing.random_batch(config, GLOBAL_BATCH, seed=3)
  dataset = data_sources.from_batches(lambda: iter([batch] * NUM_STEPS), config,
                                  GLOBAL_BATCH)
  fed_batches = fed.distribute_dataset(dataset)
  single_metrics, mirrored_metrics, fed_metrics = [], [], []
  for _ in range(NUM_STEPS):
    single_metrics.append(single.step(batch))
    mirrored_metrics.append(mirrored.step(batch))
    fed_metrics.append(fed.step(next(fed_batches)))
  odd_batch = testing.random_batch(config, 7, seed=4)
  try:
    mirrored.step(odd_batch)
    odd_batch_error = None
  except ValueError as e:
    odd_batch_error = str(e)
  return {
      'replicas': strategy.num_replicas_in_sync,
      'variable_diff': _max_abs_difference(mirrored.network.variables,
                                           single.network.variables),
      'accumulator_diff': _max_abs_difference(mirrored.optimizer.variables,
                                              single.optimizer.variables),
      'num_accumulators': len(single.optimizer.variables),
      'dataset_variable_diff': _max_abs_difference(fed.network.variables,
                                                   single.network.variables),
      'dataset_losses': [float(m['loss']) for m in fed_metrics],
      'single_losses': [float(m['loss']) for m in single_metrics],
      'mirrored_losses': [float(m['loss']) for m in mirrored_metrics],
      'single_value_loss': single_metrics[-1]['value_loss'].tolist(),
      'mirrored_value_loss': mirrored_metrics[-1]['value_loss'].tolist(),
      'single_priority': single_metrics[-1]['priority'].tolist(),
      'mirrored_priority': mirrored_metrics[-1]['priority'].tolist(),
      'single_steps': single.steps,
      'mirrored_steps': mirrored.steps,
      'odd_batch_error': odd_batch_error,
  }


def _batch_norm_network(strategy):
  """A residual (batch-norm) network steps on `strategy`; XLA is refused."""
  # pylint: disable=g-import-not-at-top
  from muzero_snt import learning
  from muzero_snt import networks
  from muzero_snt import presets
  # pylint: enable=g-import-not-at-top
  config = presets.make_tictactoe_config()
  config = config.replace(
      network=dataclasses.replace(config.network, channels=4),
      num_unroll_steps=1)
  try:
    learning.Learner(networks.make_network(config), config,
                     strategy=strategy, jit_compile=True)
    jit_error = None
  except ValueError as e:
    jit_error = str(e)
  learner = learning.Learner(networks.make_network(config), config,
                             strategy=strategy)
  losses = [float(learner.step(testing.random_batch(config, GLOBAL_BATCH,
                                                    seed=seed))['loss'])
            for seed in range(2)]
  return {'bn_losses': losses, 'bn_steps': learner.steps,
          'jit_error': jit_error}


def _consistency(strategy):
  """The consistency loss (next observations split among the replicas,
  directly and through tf.data) steps as on one replica."""
  # pylint: disable=g-import-not-at-top
  from muzero_snt.run import data_sources
  from muzero_snt import learning
  from muzero_snt import networks
  # pylint: enable=g-import-not-at-top
  config = testing.tiny_mlp_config(21, num_unroll_steps=3,
                                   consistency_loss_weight=2.)
  learners = [learning.Learner(networks.make_network(config), config,
                               strategy=s) for s in (None, strategy, strategy)]
  for learner in learners[1:]:
    for target, source in zip(learner.network.variables,
                              learners[0].network.variables):
      target.assign(source)
  batch = testing.random_batch(config, GLOBAL_BATCH, seed=3)
  rng = np.random.default_rng(5)
  batch = batch._replace(next_observation=rng.uniform(
      0., 1., (GLOBAL_BATCH, 3, 4)).astype(np.float32))
  fed = learners[2].distribute_dataset(data_sources.from_batches(
      lambda: iter([batch] * NUM_STEPS), config, GLOBAL_BATCH))
  metrics = [[], [], []]
  for _ in range(NUM_STEPS):
    metrics[0].append(learners[0].step(batch))
    metrics[1].append(learners[1].step(batch))
    metrics[2].append(learners[2].step(next(fed)))
  return {
      f'consistency_{name}': {
          'losses': [float(m['loss']) for m in runs],
          'consistency': runs[-1]['consistency_loss'].tolist(),
      } for name, runs in zip(('single', 'mirrored', 'fed'), metrics)}


CHECKS = {'equivalence': _equivalence, 'batch_norm': _batch_norm_network,
          'consistency': _consistency}


def child_main(check: str) -> None:
  """The child process: two logical CPUs, one mirrored strategy, JSON out."""
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  from muzero_snt.run import distribute  # pylint: disable=g-import-not-at-top
  tf.config.set_logical_device_configuration(
      tf.config.list_physical_devices('CPU')[0],
      [tf.config.LogicalDeviceConfiguration()] * 2)
  tf.random.set_seed(0)
  # One strategy for the whole process: a second one would collide on keys.
  strategy = distribute.make_strategy('mirrored')
  result = CHECKS[check](strategy)
  result['replicas'] = strategy.num_replicas_in_sync
  print(RESULT_PREFIX + json.dumps(result), flush=True)


def _run_child(check: str) -> dict:
  """Runs `child_main(check)` in a fresh Python; returns its JSON result."""
  env = dict(os.environ)
  env['PYTHONPATH'] = os.pathsep.join(
      [ROOT] + [p for p in [env.get('PYTHONPATH')] if p])
  env['TF_CPP_MIN_LOG_LEVEL'] = '2'
  env['CUDA_VISIBLE_DEVICES'] = ''
  script = ('from tests import test_multi_device; '
            f'test_multi_device.child_main({check!r})')
  process = subprocess.run([sys.executable, '-c', script], env=env, cwd=ROOT,
                           capture_output=True, text=True, timeout=240,
                           check=False)
  lines = [line for line in process.stdout.splitlines()
           if line.startswith(RESULT_PREFIX)]
  if process.returncode or not lines:
    raise AssertionError(
        f'The child exited with {process.returncode}.\n'
        f'stdout:\n{process.stdout[-5000:]}\nstderr:\n'
        f'{process.stderr[-10000:]}')
  return json.loads(lines[-1][len(RESULT_PREFIX):])


# One test per child process: pytest-xdist may spread the tests of a class
# over its workers, and each would run a class-level child again.
class MultiDeviceTest(testing.TestCase):

  def test_two_replicas_match_one_replica(self):
    result = _run_child('equivalence')
    self.assertEqual(result['replicas'], 2)
    self.assertEqual(result['single_steps'], NUM_STEPS)
    self.assertEqual(result['mirrored_steps'], NUM_STEPS)
    # Variables and optimizer accumulators after NUM_STEPS updates.
    self.assertLess(result['variable_diff'], 1e-5)
    self.assertGreater(result['num_accumulators'], 0)
    self.assertLess(result['accumulator_diff'], 1e-5)
    # The loss of every step; it moves, so later steps saw the updates.
    single = np.array(result['single_losses'])
    self.assertLen(single, NUM_STEPS)
    self.assertTrue(np.all(np.isfinite(single)))
    self.assertNotAllClose(single[0], single[-1])
    self.assertAllClose(result['mirrored_losses'], single, rtol=1e-5, atol=0.)
    # tf.data, split among the replicas by the strategy: the same updates.
    self.assertLess(result['dataset_variable_diff'], 1e-5)
    self.assertAllClose(result['dataset_losses'], single, rtol=1e-5, atol=0.)
    self.assertAllClose(result['mirrored_value_loss'],
                        result['single_value_loss'], rtol=1e-5, atol=1e-6)
    # Priorities gathered from the replicas come back in batch order.
    self.assertLen(result['single_priority'], GLOBAL_BATCH)
    self.assertAllClose(result['mirrored_priority'],
                        result['single_priority'], rtol=0., atol=1e-5)
    self.assertRegex(result['odd_batch_error'] or '',
                     r'batch size 7 .*2 replicas')

  def test_consistency_loss_on_two_replicas_matches_one(self):
    result = _run_child('consistency')
    self.assertEqual(result['replicas'], 2)
    single = result['consistency_single']
    self.assertNotAllClose(single['losses'][0], single['losses'][-1])
    self.assertLess(np.max(np.abs(single['consistency'])), 1.)
    self.assertGreater(np.max(np.abs(single['consistency'])), 0.)
    for name in ('mirrored', 'fed'):
      other = result[f'consistency_{name}']
      self.assertAllClose(other['losses'], single['losses'], rtol=1e-5,
                          atol=0.)
      self.assertAllClose(other['consistency'], single['consistency'],
                          rtol=1e-5, atol=1e-6)

  def test_batch_norm_network_steps_on_two_replicas(self):
    result = _run_child('batch_norm')
    self.assertEqual(result['replicas'], 2)
    self.assertEqual(result['bn_steps'], 2)
    self.assertTrue(np.all(np.isfinite(result['bn_losses'])))
    self.assertRegex(result['jit_error'] or '',
                     r'jit_compile=True.*2 replicas')


if __name__ == '__main__':
  absltest.main()
