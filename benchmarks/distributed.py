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
"""Costs of the distributed mode's parts, on a private Ray instance.

`publication`: a weight publication's bytes and ms, per preset network;
`replay`: the replay service's inserts and samples per second; `actor`:
environment steps/s of a `SelfPlayWorker` while this process publishes
weights, alternated with its `acting.Actor` loop alone. See docs/distributed.md.

    python -m benchmarks.distributed --output_json=/tmp/distributed.json
"""

import os
import time
from typing import Any, Dict, Tuple

from absl import app
from absl import flags
from absl import logging

from benchmarks import reporting
from muzero_snt import acting
from muzero_snt.run import builders
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search as search_lib
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import weight_store
from muzero_snt.distributed import workers

# The measured actor's CPU, which no other process uses if there are others.
ACTOR_CPU = 0
# The actor measurement's publications: a tic-tac-toe learner at 25 steps/s.
PUBLISH_SECONDS = 0.04
PUBLICATION_PRESETS = ('tictactoe', 'cartpole', 'connect4', 'go9',
                       'atari_small', 'atari', 'go', 'chess')
REPLAY_SECONDS = 5.  # Of inserts, and of samples.

REPEATS = flags.DEFINE_integer('repeats', 5, 'timings of each publication.')
WARMUP = flags.DEFINE_float('warmup', 20., 'seconds of play before the '
                            'actor window.')
WINDOW = flags.DEFINE_float('window', 40., 'seconds of the actor window.')
SKIP = flags.DEFINE_list('skip', [], 'measurements to leave out: any of '
                         'publication, replay, actor.')
OUTPUT_JSON = reporting.output_json_flag()


def time_publication(ray, preset: str, repeats: int) -> Dict[str, Any]:
  """Bytes and ms of publishing `preset`'s network to one actor."""
  network = networks.make_network(presets.get_preset(preset))
  network.create_variables()
  store = ray.remote(weight_store.WeightStore).options(num_cpus=0).remote()
  fetcher = ray.remote(reporting.WeightFetcher).options(num_cpus=0).remote(
      preset)
  # Both actors started (their processes, TensorFlow) before any timing.
  ray.get([store.version.remote(), fetcher.fetch.remote([ray.put(
      weight_store.network_arrays(network))])])
  results = {'variables': len(network.variables), 'arrays_ms': [],
             'put_and_publish_ms': [], 'fetch_ms': [], 'assign_ms': []}
  for version in range(1, repeats + 1):
    start = time.perf_counter()
    arrays = weight_store.network_arrays(network)
    read = time.perf_counter()
    ray.get(store.publish.remote(version, [ray.put(arrays)]))
    published = time.perf_counter()
    fetch_ms, assign_ms = ray.get(fetcher.fetch.remote(
        ray.get(store.latest.remote())[1]))
    results['bytes'] = int(sum(a.nbytes for a in arrays))
    results['arrays_ms'].append(1e3 * (read - start))
    results['put_and_publish_ms'].append(1e3 * (published - read))
    results['fetch_ms'].append(fetch_ms)
    results['assign_ms'].append(assign_ms)
  ray.kill(fetcher)
  ray.kill(store)
  return results


def time_replay(ray, seconds: float) -> Dict[str, Any]:
  """Inserts and samples per second of the replay service."""
  config = presets.get_preset('tictactoe')
  games = reporting.random_games(config, 64, 0)
  # A ratio so small that every game is admitted at once.
  service = ray.remote(replay_service.ReplayService).options(
      num_cpus=0).remote(config, 1e-9)
  ray.get(service.stats.remote())  # Its process started.
  inserts = reporting.calls_per_second(
      lambda: ray.get(service.insert.remote(0, games[:8])), seconds)
  ray.kill(service)
  # A ratio so large that the learner is never held.
  service = ray.remote(replay_service.ReplayService).options(
      num_cpus=0).remote(config, 1e6)
  ray.get(service.insert.remote(0, games[:config.batch_size // 9 + 1]))
  ray.get(service.insert.remote(0, games[:1]))
  samples = reporting.calls_per_second(
      lambda: ray.get(service.sample_batch.remote()), seconds)
  ray.kill(service)
  return {'games_per_second': 8 * inserts,
          'positions_per_second': 72 * inserts,
          'batches_per_second': samples, 'batch_size': config.batch_size,
          'num_unroll_steps': config.num_unroll_steps}


def _pin(pin: bool) -> None:
  if pin:
    os.sched_setaffinity(0, {ACTOR_CPU})


class _PlainSelfPlay:
  """The actor's loop alone: `acting.Actor` rounds, no Ray calls."""

  def __init__(self, preset: str, num_envs: int, seed: int, pin: bool):
    _pin(pin)
    import tensorflow as tf  # pylint: disable=g-import-not-at-top
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    config = presets.get_preset(preset)
    network = networks.make_network(config)
    network.create_variables()
    self._actor = acting.Actor(
        config, search_lib.make_search(config, network, 'xla'),
        search_lib.NetworkModel(network),
        builders.make_environment_factory(preset, config, None),
        seed=seed, num_envs=num_envs)

  def env_steps_per_second(self, warmup: float,
                           window: float) -> Tuple[float, float]:
    """Environment steps/s and CPU ms a step over `window` s, `warmup` s
    after the first round (tracing)."""
    steps, rounds = 0, 0
    measured = reporting.Window(warmup, window,
                                lambda: (steps, time.process_time()))
    while True:
      steps += sum(r.length for r in self._actor.play_round(rounds))
      rounds += 1
      if measured.update():
        seconds, (s0, c0), (s1, c1) = measured.span()
        return (s1 - s0) / seconds, 1e3 * (c1 - c0) / (s1 - s0)


class _MeasuredWorker(workers.SelfPlayWorker):
  """A `SelfPlayWorker`, pinned if asked, that reports its CPU time."""

  def __init__(self, pin: bool, *args):
    _pin(pin)
    super().__init__(*args)

  def cpu_seconds(self) -> float:
    return time.process_time()


def time_actor(ray, preset: str, repeats: int, pin: bool) -> Dict[str, Any]:
  """One actor's environment steps/s and CPU ms per step, with and without
  distribution, alternated."""
  config = presets.get_preset(preset)
  num_envs = presets.run_defaults(preset)['num_envs']
  network = networks.make_network(config)
  network.create_variables()
  results = {'num_envs': num_envs, 'pinned': pin, 'alone': [],
             'distributed': [], 'alone_cpu_ms_per_step': [],
             'distributed_cpu_ms_per_step': [], 'versions_taken': []}
  for repeat in range(repeats):
    plain = ray.remote(_PlainSelfPlay).options(num_cpus=1).remote(
        preset, num_envs, repeat, pin)
    rate, cpu = ray.get(plain.env_steps_per_second.remote(WARMUP.value,
                                                          WINDOW.value))
    results['alone'].append(rate)
    results['alone_cpu_ms_per_step'].append(cpu)
    ray.kill(plain)

    names = (f'bench-replay-{repeat}', f'bench-weights-{repeat}')
    # A tiny ratio: the service admits every game and no learner samples.
    service = ray.remote(replay_service.ReplayService).options(
        name=names[0], num_cpus=0).remote(config, 1e-9)
    store = ray.remote(weight_store.WeightStore).options(
        name=names[1], num_cpus=0).remote()
    publish = lambda version: ray.get(store.publish.remote(
        version, [ray.put(weight_store.network_arrays(network))]))
    publish(0)
    worker = ray.remote(_MeasuredWorker).options(num_cpus=1).remote(
        pin, 0, config, preset, None, 'xla', num_envs, repeat, *names)
    measured = reporting.Window(WARMUP.value, WINDOW.value, lambda: (
        ray.get(service.stats.remote())['env_steps'],
        ray.get(worker.cpu_seconds.remote())))
    version = 0
    while True:
      time.sleep(PUBLISH_SECONDS)
      version += 1
      publish(version)
      # From the end of the worker's first round, as for the loop alone.
      if (measured.first is not None or
          ray.get(worker.status.remote())['rounds']) and measured.update():
        break
    seconds, (e0, c0), (e1, c1) = measured.span()
    results['distributed'].append((e1 - e0) / seconds)
    results['distributed_cpu_ms_per_step'].append(1e3 * (c1 - c0) / (e1 - e0))
    status = ray.get(worker.status.remote())
    if status['error']:
      raise RuntimeError(status['error'])
    results['versions_taken'].append(status['version'])
    for handle in (worker, service, store):
      ray.kill(handle)
  results['ratio'] = [d / a for d, a in zip(results['distributed'],
                                            results['alone'])]
  results['cpu_ratio'] = [
      d / a for d, a in zip(results['distributed_cpu_ms_per_step'],
                            results['alone_cpu_ms_per_step'])]
  return results


def main(argv):
  reporting.check_no_arguments(argv)
  reporting.check_positive((REPEATS, WARMUP, WINDOW))
  logging.set_verbosity(logging.WARNING)
  results = {'machine': reporting.machine(), 'publish_seconds': PUBLISH_SECONDS}
  others = os.sched_getaffinity(0) - {ACTOR_CPU}
  pin = bool(others) and 'actor' not in SKIP.value
  if pin:
    # Ray's processes inherit these CPUs; the measured actor moves itself.
    os.sched_setaffinity(0, others)
  ray_support.connect(None, num_cpus=os.cpu_count())
  ray = ray_support.require_ray()
  results['machine']['ray'] = ray.__version__
  if 'publication' not in SKIP.value:
    results['publication'] = {
        preset: time_publication(ray, preset, REPEATS.value)
        for preset in PUBLICATION_PRESETS}
  if 'replay' not in SKIP.value:
    results['replay'] = time_replay(ray, REPLAY_SECONDS)
  if 'actor' not in SKIP.value:
    results['actor'] = time_actor(ray, 'tictactoe', REPEATS.value, pin)
  reporting.report(results, OUTPUT_JSON.value)
  ray_support.shutdown()


if __name__ == '__main__':
  app.run(main)
