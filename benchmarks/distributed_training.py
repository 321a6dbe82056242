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
"""Tic-tac-toe training, one process against Ray actors.

`training`: environment and learner steps/s and the machine's busy CPU time
per learner step with each of --actors self-play actors (0: one process),
alternated --repeats times; `reanalysis`: the same with one actor and
--reanalyze_fraction, reanalysed by the learner or --reanalyze_workers
workers. --cluster_nodes=N runs the actors on a loopback Ray cluster
(docs/cluster.md). See docs/distributed.md.

    python -m benchmarks.distributed_training --skip=reanalysis \
        --actors=0,1,2,4 --cluster_nodes=2 --cpus_per_node=2
"""

import collections
import os
from typing import Any, Dict, List, Optional

from absl import app
from absl import flags
from absl import logging

from benchmarks import reporting
from muzero_snt.run import experiment
from muzero_snt.run import run_config
from muzero_snt import presets
from muzero_snt.distributed import ray_support

ACTORS = flags.DEFINE_list('actors', ['0', '1', '2'],
                           'self-play actor counts of the training runs.')
REANALYSE_WORKERS = flags.DEFINE_list(
    'reanalyze_workers', ['0', '1'], 'reanalyse worker counts of the '
    'reanalysis runs (one self-play actor each).')
REANALYZE_FRACTION = flags.DEFINE_float(
    'reanalyze_fraction', 0.8, 'fraction of the reanalysis runs (the '
    'paper\'s 80%).')
REPEATS = flags.DEFINE_integer('repeats', 3, 'rounds of the alternated '
                               'runs.', lower_bound=1)
PUBLISH_INTERVAL = flags.DEFINE_integer(
    'publish_interval', 1, 'learner steps between weight publications of '
    'the runs with actors.', lower_bound=1)
WARMUP = flags.DEFINE_float('warmup', 20., 'seconds of learning before the '
                            'window.')
WINDOW = flags.DEFINE_float('window', 40., 'seconds of the window.')
SKIP = flags.DEFINE_list('skip', [], 'measurements to leave out: training, '
                         'reanalysis.')
OUTPUT_JSON = reporting.output_json_flag()
CLUSTER_NODES = flags.DEFINE_integer(
    'cluster_nodes', 0, 'nodes besides the head of a Ray cluster on this '
    'machine for the runs with actors (0: one Ray instance).', lower_bound=0)
CPUS_PER_NODE = flags.DEFINE_integer(
    'cpus_per_node', 2, 'CPUs of each of those nodes for Ray\'s workers.',
    lower_bound=1)


def busy_cpu_seconds() -> Optional[float]:
  """CPU seconds the whole machine has spent busy since boot (/proc/stat:
  every state but idle and iowait), or None where there is no /proc."""
  if not os.path.exists('/proc/stat'):
    return None
  with open('/proc/stat') as f:
    fields = [int(x) for x in f.readline().split()[1:]]
  idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
  return (sum(fields[:8]) - idle) / os.sysconf('SC_CLK_TCK')


def time_training(num_actors: int, warmup: float, window: float,
                  publish_interval: int = 1,
                  reanalyze_fraction: float = 0.,
                  num_reanalyze_workers: int = 0,
                  ray_address: Optional[str] = None) -> Dict[str, Any]:
  """Environment and learner steps/s of tic-tac-toe with `num_actors`; with
  a reanalyze_fraction, also the reanalysed batches per second and the
  seconds per batch of each worker (or of the learner, with none)."""
  nodes = []

  def reanalysed(loop) -> List[Any]:
    """[(batches, seconds computing)] per worker, or the learner's."""
    source = loop.source
    if not reanalyze_fraction:
      return []
    if not num_reanalyze_workers:
      return [(int(source.counters()['reanalyse_reanalysed_batches']),
               source.reanalyser.total_seconds)]
    ray = ray_support.require_ray()
    return [(s['batches'], s['seconds']) for s in ray.get(
        [w.status.remote() for w in source.reanalyse_workers])]

  def mark(loop):
    if num_actors:
      loop.source.stats()  # Brings `env_steps` up to date.
    return (loop.learner.steps, loop.env_steps, reanalysed(loop),
            busy_cpu_seconds())

  measured = reporting.Window(warmup, window, mark)

  def on_round(loop) -> bool:
    if (num_actors and ray_address and not nodes and
        measured.first is not None):
      ray = ray_support.require_ray()
      # Actors per node, once each has answered.
      ready, _ = ray.wait([w.status.remote() for w in loop.source.workers],
                          num_returns=num_actors, timeout=0.5)
      if len(ready) == num_actors:
        counts = collections.Counter(s['node'] for s in ray.get(ready))
        nodes.append('+'.join(map(str, sorted(counts.values()))))
    return measured.update(loop)

  config = presets.get_preset('tictactoe').replace(
      training_steps=10**7, reanalyze_fraction=reanalyze_fraction)
  experiment.run(run_config.RunConfig(
      config=config, preset='tictactoe', num_actors=num_actors, log_every=10**6,
      publish_interval=publish_interval,
      num_reanalyze_workers=num_reanalyze_workers,
      ray_address=ray_address if num_actors else None), on_round=on_round)
  seconds, (l0, e0, r0, c0), (l1, e1, r1, c1) = measured.span()
  results = {'env_steps_per_second': (e1 - e0) / seconds,
             'learner_steps_per_second': (l1 - l0) / seconds,
             'seconds': seconds}
  if c0 is not None:
    results['busy_cpu_ms_per_learner_step'] = 1e3 * (c1 - c0) / (l1 - l0)
  if nodes:
    results['actors_per_node'] = nodes[0]
  if reanalyze_fraction:
    batches = [b1 - b0 for (b0, _), (b1, _) in zip(r0, r1)]
    results['reanalysed_batches_per_second'] = [b / seconds for b in batches]
    results['seconds_per_reanalysed_batch'] = [
        (s1 - s0) / max(b, 1) for (_, s0), (_, s1), b in zip(r0, r1, batches)]
  return results


def main(argv):
  reporting.check_no_arguments(argv)
  reporting.check_positive((WARMUP, WINDOW))
  logging.set_verbosity(logging.WARNING)
  results = {'machine': reporting.machine(),
             'publish_interval': PUBLISH_INTERVAL.value}
  cluster, address = None, None
  if CLUSTER_NODES.value:
    cluster, _ = reporting.start_cluster(
        [f'node_{i}' for i in range(CLUSTER_NODES.value)], CPUS_PER_NODE.value)
    address = cluster.address
    results['cluster'] = {'nodes': CLUSTER_NODES.value,
                          'cpus_per_node': CPUS_PER_NODE.value}
  ray_support.connect(address, num_cpus=None if address else os.cpu_count())
  results['machine']['ray'] = ray_support.require_ray().__version__
  runs = []  # (measurement, count, (actors, fraction, workers)).
  if 'training' not in SKIP.value:
    runs += [('training', actors, (int(actors), 0., 0))
             for actors in ACTORS.value]
  if 'reanalysis' not in SKIP.value:
    runs += [('reanalysis', workers,
              (1, REANALYZE_FRACTION.value, int(workers)))
             for workers in REANALYSE_WORKERS.value]
  for _ in range(REPEATS.value):
    for key, count, (actors, fraction, workers) in runs:
      measured = time_training(actors, WARMUP.value, WINDOW.value,
                               PUBLISH_INTERVAL.value, fraction, workers,
                               ray_address=address)
      logging.warning('%s %s: %s', key, count, measured)
      into = results.setdefault(key, {}).setdefault(count, {})
      for name, value in measured.items():
        into.setdefault(name, []).append(value)
  if '0' in results.get('training', {}):
    # Each run's rate over the one-process run of its round.
    alone = results['training']['0']['learner_steps_per_second']
    for measured in results['training'].values():
      measured['over_one_process'] = [
          rate / base for rate, base in
          zip(measured['learner_steps_per_second'], alone)]
  reporting.report(results, OUTPUT_JSON.value)
  ray_support.shutdown()
  if cluster is not None:
    cluster.shutdown()


if __name__ == '__main__':
  app.run(main)
