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
"""The learner on two TensorFlow workers matches it on one.

Two child processes form a `MultiWorkerMirroredStrategy` cluster through
`TF_CONFIG` on loopback ports (one replica each); both step on the same
global batch, each taking its half. Their variables after a few steps must
equal those of one learner in this process stepping on the whole batch
from the same initial values. The child is `worker_main()` below; it prints
one JSON line that the test reads.
"""

import json
import os
import socket
import subprocess
import sys

import numpy as np

from tests import testing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULT_PREFIX = 'MULTI_WORKER_RESULT '
NUM_STEPS = 3
GLOBAL_BATCH = 8


def _learner(strategy=None):
  """A tiny learner with the same initial variables in every process."""
  # pylint: disable=g-import-not-at-top
  from muzero_snt import learning
  from muzero_snt import networks
  # pylint: enable=g-import-not-at-top
  config = testing.tiny_mlp_config(21, num_unroll_steps=3)
  learner = learning.Learner(networks.make_network(config), config,
                             strategy=strategy, jit_compile=False)
  for i, variable in enumerate(learner.network.variables):
    rng = np.random.default_rng(i)
    variable.assign(rng.normal(0., 0.3, variable.shape).astype(np.float32))
  return learner, config


def _train(learner, config):
  """NUM_STEPS steps on one global batch; the variables and losses."""
  batch = testing.random_batch(config, GLOBAL_BATCH, seed=3)
  losses = [float(learner.step(batch)['loss']) for _ in range(NUM_STEPS)]
  variables = [v.numpy().ravel().tolist() for v in learner.network.variables]
  return {'losses': losses, 'variables': variables, 'steps': learner.steps}


def worker_main() -> None:
  """A child: one worker of the cluster in TF_CONFIG; JSON out."""
  from muzero_snt.run import distribute  # pylint: disable=g-import-not-at-top
  strategy = distribute.make_strategy('multi_worker')
  result = _train(*_learner(strategy))
  result['replicas'] = strategy.num_replicas_in_sync
  print(RESULT_PREFIX + json.dumps(result), flush=True)


def _free_ports(count):
  sockets = [socket.socket() for _ in range(count)]
  for s in sockets:
    s.bind(('127.0.0.1', 0))
  ports = [s.getsockname()[1] for s in sockets]
  for s in sockets:
    s.close()
  return ports


class MultiWorkerTest(testing.TestCase):

  def test_two_workers_match_one_on_the_same_global_batch(self):
    workers = [f'127.0.0.1:{port}' for port in _free_ports(2)]
    processes = []
    for index in range(2):
      env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL='2', CUDA_VISIBLE_DEVICES='',
                 TF_CONFIG=json.dumps({
                     'cluster': {'worker': workers},
                     'task': {'type': 'worker', 'index': index}}))
      env['PYTHONPATH'] = os.pathsep.join(
          [ROOT] + [p for p in [env.get('PYTHONPATH')] if p])
      processes.append(subprocess.Popen(
          [sys.executable, '-c', 'from tests import test_multi_worker; '
           'test_multi_worker.worker_main()'], env=env, cwd=ROOT,
          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    try:
      outputs = [process.communicate(timeout=300) for process in processes]
    finally:
      for process in processes:
        if process.poll() is None:
          process.kill()
    results = []
    for process, (stdout, stderr) in zip(processes, outputs):
      lines = [line for line in stdout.splitlines()
               if line.startswith(RESULT_PREFIX)]
      self.assertTrue(process.returncode == 0 and lines,
                      f'worker exited with {process.returncode}:\n'
                      f'{stderr[-5000:]}')
      results.append(json.loads(lines[-1][len(RESULT_PREFIX):]))
    single = _train(*_learner())
    self.assertNotAllClose(single['losses'][0], single['losses'][-1])
    for result in results:
      self.assertEqual(result['replicas'], 2)
      self.assertEqual(result['steps'], NUM_STEPS)
      self.assertAllClose(result['losses'], single['losses'], rtol=1e-5,
                          atol=0.)
      for got, expected in zip(result['variables'], single['variables']):
        self.assertAllClose(got, expected, rtol=0., atol=1e-5)
