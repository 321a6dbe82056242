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
"""Weights and replay shards on a Ray cluster of three nodes on loopback.

The head (this process, no CPU for Ray's workers), node_a and node_b, each
a raylet on 127.0.0.1 with a custom resource of its name. Parts:
`publication`, the ms `Publisher.publish` holds the caller, foreground and
background, and until the weights are stored; `transfer`, the ms of each
fetch of one publication by two actors on node_a and one on node_b, in that
order, and the nodes holding a copy after; `shards`, inserted games and
learner batches per second of --shards shards over the nodes, one call in
flight per shard; `node_loss`, a `launchers.train --preset=tictactoe
--num_actors=2` run on nodes of 2 CPUs that loses node_a (its processes
killed) at learner step --remove_at, then `launchers.evaluate --exact` of
its last checkpoint. See docs/distributed.md.

    python -m benchmarks.cluster --skip=node_loss \
        --output_json=/tmp/cluster.json
    python -m benchmarks.cluster --skip=publication,transfer,shards \
        --checkpoint_dir=/tmp/ttt_node_loss
"""

import re
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List

from absl import app
from absl import flags
from absl import logging

from benchmarks import reporting
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import weight_store

PARTS = ('publication', 'transfer', 'shards', 'node_loss')
NODES = ('node_a', 'node_b')

PRESETS = flags.DEFINE_list('presets', ['tictactoe', 'atari'],
                            'networks of the publication and transfer parts.')
REPEATS = flags.DEFINE_integer('repeats', 5, 'publications of each network '
                               'in each mode.')
SHARDS = flags.DEFINE_list('shards', ['1', '2', '4'], 'shard counts.')
SECONDS = flags.DEFINE_float('seconds', 5., 'seconds of inserts, and of '
                             'batches, per shard count.')
REMOVE_AT = flags.DEFINE_integer('remove_at', 9000, 'learner step of the '
                                 'node_loss run at which node_a is removed.')
SEED = flags.DEFINE_integer('seed', 0, 'seed of the node_loss run.')
CHECKPOINT_DIR = flags.DEFINE_string(
    'checkpoint_dir', None, 'checkpoints of the node_loss run (default: a '
    'new temporary directory).')
SKIP = flags.DEFINE_list('skip', [], 'parts to leave out: any of '
                         + ', '.join(PARTS) + '.')
OUTPUT_JSON = reporting.output_json_flag()


def _on(ray, cls, node: str):
  return ray.remote(cls).options(num_cpus=0, resources={node: 0.01})


def time_publication(ray, preset: str, repeats: int) -> Dict[str, Any]:
  """The calling thread's ms per `publish`, in each mode."""
  network = networks.make_network(presets.get_preset(preset))
  network.create_variables()
  arrays = weight_store.network_arrays(network)
  results = {'bytes': int(sum(a.nbytes for a in arrays)),
             'variables': len(arrays)}
  for background in (False, True):
    mode = 'background' if background else 'foreground'
    store = ray.remote(weight_store.WeightStore).options(num_cpus=0).remote()
    publisher = weight_store.Publisher(ray, store, background=background)
    publisher.publish(network, 0)  # Traces the snapshot, starts the thread.
    publisher.flush()
    calls, sent = [], []
    for version in range(1, repeats + 1):
      start = time.perf_counter()
      publisher.publish(network, version)
      returned = time.perf_counter()
      publisher.flush()
      ray.get(store.version.remote())  # The store has been told.
      calls.append(1e3 * (returned - start))
      sent.append(1e3 * (time.perf_counter() - start))
    publisher.close()
    results[f'{mode}_call_ms'] = calls
    results[f'{mode}_until_stored_ms'] = sent
    ray.kill(store)
  return results


def time_transfer(ray, preset: str, repeats: int) -> Dict[str, Any]:
  """Fetches by node_a's two actors and node_b's one, in that order."""
  network = networks.make_network(presets.get_preset(preset))
  network.create_variables()
  fetchers = [(node, _on(ray, reporting.WeightFetcher, node).remote(preset))
              for node in (NODES[0], NODES[0], NODES[1])]
  # Every actor started (its process, TensorFlow) before any timing.
  warm = ray.put(weight_store.network_arrays(network))
  ray.get([f.fetch.remote([warm]) for _, f in fetchers])
  del warm
  results = {'order': [node for node, _ in fetchers], 'fetch_ms': [],
             'holders': None}
  names = {node['NodeID']: next((n for n in NODES if n in node['Resources']),
                                'head') for node in ray.nodes()}
  for _ in range(repeats):
    reference = ray.put(weight_store.network_arrays(network))
    results['fetch_ms'].append(
        [sum(ray.get(f.fetch.remote([reference]))) for _, f in fetchers])
    locations = ray.experimental.get_object_locations([reference])
    results['holders'] = sorted(names.get(node, node) for node in
                                locations[reference]['node_ids'])
    del reference
  for _, fetcher in fetchers:
    ray.kill(fetcher)
  results['per_fetcher_median_ms'] = [
      statistics.median(column) for column in zip(*results['fetch_ms'])]
  return results


def _services(ray, config, num_shards: int, train_ratio: float) -> List[Any]:
  """`num_shards` restored, empty shards, spread over the nodes."""
  services = [
      _on(ray, replay_service.ReplayService, NODES[k % len(NODES)]).remote(
          config, train_ratio, 0, shard=k, num_shards=num_shards)
      for k in range(num_shards)]
  ray.get([s.stats.remote() for s in services])
  return services


def _all_in_flight(ray, calls, seconds: float) -> float:
  """Calls per second over `seconds`, one of each `calls[k]()` in flight."""
  pending = {calls[k](): k for k in range(len(calls))}
  done, start = 0, time.perf_counter()
  while time.perf_counter() - start < seconds:
    ready, _ = ray.wait(list(pending), num_returns=1)
    for reference in ready:
      k = pending.pop(reference)
      ray.get(reference)
      done += 1
      pending[calls[k]()] = k
  elapsed = time.perf_counter() - start
  ray.get(list(pending))
  return done / elapsed


def time_shards(ray, num_shards: int, seconds: float) -> Dict[str, Any]:
  """Inserts and batches per second of `num_shards` shards."""
  config = presets.get_preset('tictactoe')
  games = reporting.random_games(config, 64, num_shards)
  per_call = 8
  # A ratio so small that every game is admitted at once.
  services = _services(ray, config, num_shards, 1e-9)
  calls = [lambda k=k: services[k].insert.remote(k, games[:per_call])
           for k in range(num_shards)]
  inserts = _all_in_flight(ray, calls, seconds)
  for service in services:
    ray.kill(service)
  # A ratio so large that the learner is never held; a batch in each shard.
  services = _services(ray, config, num_shards, 1e6)
  ray.get([s.insert.remote(k, games[:config.batch_size // 9 + 2])
           for k, s in enumerate(services)])
  calls = [lambda k=k: services[k].learner_batch.remote('sample', 30.)
           for k in range(num_shards)]
  batches = _all_in_flight(ray, calls, seconds)
  masses = ray.get([s.mass.remote() for s in services])
  for service in services:
    ray.kill(service)
  return {'games_per_second': per_call * inserts,
          'positions_per_second': 9 * per_call * inserts,
          'batches_per_second': batches, 'batch_size': config.batch_size,
          'shard_masses': masses}


def run_node_loss(remove_at: int, checkpoint_dir: str,
                  seed: int) -> Dict[str, Any]:
  """A tic-tac-toe run on the cluster that loses node_a, then evaluated."""
  cluster, nodes = reporting.start_cluster(NODES, cpus=2)
  command = [sys.executable, '-m', 'launchers.train', '--preset=tictactoe',
             '--num_actors=2', '--random_opening_moves=1', f'--seed={seed}',
             f'--ray_address={cluster.address}',
             f'--checkpoint_dir={checkpoint_dir}', '--log_every=500']
  start = time.perf_counter()
  results = {'command': ' '.join(command[1:]), 'lines': []}
  process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
  try:
    for line in process.stderr:
      step = re.search(r'learner step (\d+)/', line)
      if step and 'removed_at_step' not in results and (
          int(step.group(1)) >= remove_at):
        cluster.remove_node(nodes[NODES[0]], allow_graceful=False)
        results['removed_at_step'] = int(step.group(1))
        results['removed_at_s'] = time.perf_counter() - start
      if step or any(word in line for word in (
          'Ray lost node', 'runs again', 'died', 'Done:')):
        results['lines'].append(line.rstrip())
    results['returncode'] = process.wait()
  finally:
    if process.poll() is None:
      process.kill()
    cluster.shutdown()
  results['train_s'] = time.perf_counter() - start
  evaluation = subprocess.run(
      [sys.executable, '-m', 'launchers.evaluate', '--preset=tictactoe',
       f'--checkpoint_dir={checkpoint_dir}', '--exact'],
      capture_output=True, text=True, check=False)
  results['evaluation'] = evaluation.stdout.splitlines()
  return results


def main(argv):
  reporting.check_no_arguments(argv)
  reporting.check_positive((REPEATS, SECONDS))
  reporting.check_known(SKIP, PARTS)
  shard_counts = reporting.positive_ints(SHARDS)
  logging.set_verbosity(logging.WARNING)
  results = {'machine': reporting.machine(), 'nodes': ['head', *NODES]}
  if 'node_loss' not in SKIP.value:
    results['node_loss'] = run_node_loss(
        REMOVE_AT.value,
        CHECKPOINT_DIR.value or tempfile.mkdtemp(prefix='ttt-node-loss-'),
        SEED.value)
  if set(PARTS[:3]) <= set(SKIP.value):
    reporting.report(results, OUTPUT_JSON.value)
    return
  cluster, _ = reporting.start_cluster(NODES, cpus=1)
  import ray  # pylint: disable=g-import-not-at-top
  ray.init(address=cluster.address, include_dashboard=False,
           logging_level='warning')
  results['machine']['ray'] = ray.__version__
  try:
    if 'publication' not in SKIP.value:
      results['publication'] = {p: time_publication(ray, p, REPEATS.value)
                                for p in PRESETS.value}
    if 'transfer' not in SKIP.value:
      results['transfer'] = {p: time_transfer(ray, p, REPEATS.value)
                             for p in PRESETS.value}
    if 'shards' not in SKIP.value:
      results['shards'] = {n: time_shards(ray, n, SECONDS.value)
                           for n in shard_counts}
  finally:
    ray.shutdown()
    cluster.shutdown()
  reporting.report(results, OUTPUT_JSON.value)


if __name__ == '__main__':
  app.run(main)
