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
"""Costs of the distributed mode on Ray (docs/distributed.md).

The parts' costs, on a private Ray instance on this machine:

  * `publication`: for each preset's network, the bytes of one weight
    publication and its cost in ms: reading the variables as NumPy arrays,
    `ray.put` and the weight store's call on the learner's side; fetching
    the arrays in another process and assigning them on the actor's side.
  * `replay`: the replay service's inserts (games/s and positions/s of
    whole tic-tac-toe-length games) and `sample_batch` calls per second
    (the preset's batch, K = 5), called from this process.
  * `actor`: what distribution costs one actor: environment steps/s of a
    `workers.SelfPlayWorker` (taking new weights after every move,
    sending its games to the replay service) against the same
    `acting.Actor` loop alone in the same kind of process (one TensorFlow
    thread, the same games and search), while this process publishes new
    weights every `--publish_seconds` as a learner would. Alternated,
    `--repeats` times each, over `--window` seconds after `--warmup`. With
    `--pin_actor` the measured actor has CPU 0 to itself and every other
    process (this one, Ray's, the replay service and the weight store)
    the other CPUs, as an actor on its own core would; the actor's process
    CPU seconds per 1,000 environment steps are reported beside the rate.

Whole training runs (one process against 1 and 2 actors, and reanalysis)
are `benchmarks/distributed_training.py`.

    python -m benchmarks.distributed --output_json=/tmp/distributed.json
"""

import json
import os
import time
from typing import Any, Dict, List, Tuple

os.environ.setdefault('RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER', '0')

# pylint: disable=g-import-not-at-top,wrong-import-position
from absl import app
from absl import flags
from absl import logging
import numpy as np

from benchmarks import reporting
from muzero_snt import acting
from muzero_snt.run import builders
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search as search_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import weight_store
from muzero_snt.distributed import workers
# pylint: enable=g-import-not-at-top,wrong-import-position

ACTOR_CPU = 0  # The measured actor's CPU under --pin_actor.

PUBLICATION_PRESETS = flags.DEFINE_list(
    'publication_presets', ['tictactoe', 'cartpole', 'connect4', 'go9',
                            'atari_small', 'atari', 'go', 'chess'],
    'presets whose network publication is timed.')
REPEATS = flags.DEFINE_integer('repeats', 5, 'timings of each publication.')
REPLAY_SECONDS = flags.DEFINE_float('replay_seconds', 5.,
                                    'seconds of inserts, and of samples.')
WARMUP = flags.DEFINE_float('warmup', 20., 'seconds of play before the '
                            'actor window.')
WINDOW = flags.DEFINE_float('window', 40., 'seconds of the actor window.')
PUBLISH_SECONDS = flags.DEFINE_float(
    'publish_seconds', 0.04, 'seconds between the publications the actor '
    'measurement makes (0.04: a tic-tac-toe learner at 25 steps/s).')
PIN_ACTOR = flags.DEFINE_bool(
    'pin_actor', (os.cpu_count() or 1) >= 2,
    'in the actor measurement, run the actor alone on CPU 0 and every other '
    'process on the other CPUs (default: on with 2 or more CPUs).')
SKIP = flags.DEFINE_list('skip', [], 'measurements to leave out: any of '
                         'publication, replay, actor.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results as JSON.')


@flags.multi_flags_validator(['warmup', 'window', 'replay_seconds'],
                             message='times must be positive.')
def _positive(values):
  return all(v > 0 for v in values.values())


class _Fetcher:
  """An actor's side of a publication: fetch the arrays and assign them."""

  def __init__(self, preset: str):
    self._network = networks.make_network(presets.get_preset(preset))
    self._network.create_variables()

  def fetch(self, reference: List[Any]) -> Dict[str, float]:
    start = time.perf_counter()
    arrays = ray_support.require_ray().get(reference[0])
    fetched = time.perf_counter()
    weight_store.assign_arrays(self._network, arrays)
    return {'fetch_ms': 1e3 * (fetched - start),
            'assign_ms': 1e3 * (time.perf_counter() - fetched)}


def time_publication(ray, preset: str, repeats: int) -> Dict[str, Any]:
  """Bytes and ms of publishing `preset`'s network to one actor."""
  network = networks.make_network(presets.get_preset(preset))
  network.create_variables()
  store = ray.remote(weight_store.WeightStore).options(num_cpus=0).remote()
  fetcher = ray.remote(_Fetcher).options(num_cpus=0).remote(preset)
  # Both actors started (their processes, TensorFlow) before any timing.
  ray.get([store.version.remote(), fetcher.fetch.remote([ray.put(
      weight_store.network_arrays(network))])])
  results = {'bytes': None, 'variables': len(network.variables),
             'arrays_ms': [], 'put_and_publish_ms': [], 'fetch_ms': [],
             'assign_ms': []}
  for version in range(1, repeats + 1):
    start = time.perf_counter()
    arrays = weight_store.network_arrays(network)
    read = time.perf_counter()
    reference = ray.put(arrays)
    ray.get(store.publish.remote(version, [reference]))
    published = time.perf_counter()
    actor_side = ray.get(fetcher.fetch.remote(
        ray.get(store.latest.remote())[1]))
    results['bytes'] = int(sum(a.nbytes for a in arrays))
    results['arrays_ms'].append(1e3 * (read - start))
    results['put_and_publish_ms'].append(1e3 * (published - read))
    for name, value in actor_side.items():
      results[name].append(value)
    del reference, arrays
  ray.kill(fetcher)
  ray.kill(store)
  return results


def _game(length: int, rng: np.random.Generator
         ) -> replay_service.Game:
  """A random finished tic-tac-toe-shaped game of `length` moves."""
  config = presets.get_preset('tictactoe')
  game = trajectory_lib.Trajectory(config.action_space_size,
                                   config.num_players, config.discount)
  for t in range(length):
    policy = rng.dirichlet(np.ones(config.action_space_size))
    game.append(rng.random(config.observation_shape).astype(np.float32),
                t % 2, int(rng.integers(9)), 0., policy, 0.)
  game.finish(True)
  return replay_service.Game(game, 0.)


def time_replay(ray, seconds: float) -> Dict[str, Any]:
  """Inserts and samples per second of the replay service."""
  config = presets.get_preset('tictactoe')
  rng = np.random.default_rng(0)
  games = [_game(9, rng) for _ in range(64)]
  # A ratio so small that every game is admitted at once.
  service = ray.remote(replay_service.ReplayService).options(
      num_cpus=0).remote(config, 1e-9)
  inserted, start = 0, time.perf_counter()
  while time.perf_counter() - start < seconds:
    ray.get(service.insert.remote(0, games[:8]))
    inserted += 8
  insert_seconds = time.perf_counter() - start
  ray.kill(service)
  # A ratio so large that the learner is never held.
  service = ray.remote(replay_service.ReplayService).options(
      num_cpus=0).remote(config, 1e6)
  ray.get(service.insert.remote(0, games[:config.batch_size // 9 + 1]))
  ray.get(service.insert.remote(0, games[:1]))
  sampled, start = 0, time.perf_counter()
  while time.perf_counter() - start < seconds:
    ray.get(service.sample_batch.remote())
    sampled += 1
  sample_seconds = time.perf_counter() - start
  ray.kill(service)
  return {'games_per_second': inserted / insert_seconds,
          'positions_per_second': 9 * inserted / insert_seconds,
          'batches_per_second': sampled / sample_seconds,
          'batch_size': config.batch_size,
          'num_unroll_steps': config.num_unroll_steps}


class _PlainSelfPlay:
  """The actor's loop alone: `acting.Actor` rounds, no Ray calls."""

  def __init__(self, preset: str, num_envs: int, seed: int, pin: bool):
    if pin:
      os.sched_setaffinity(0, {ACTOR_CPU})
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
    """Environment steps/s and this process's CPU seconds per 1,000 steps,
    measured from `warmup` s after the first round (tracing) ends."""
    start, rounds, marks = None, 0, None
    steps = 0
    while True:
      results = self._actor.play_round(rounds)
      rounds += 1
      steps += sum(r.length for r in results)
      now = time.perf_counter()
      if start is None:
        start = now
      elif marks is None and now - start >= warmup:
        marks = (now, steps, time.process_time())
      elif marks is not None and now - marks[0] >= window:
        return ((steps - marks[1]) / (now - marks[0]),
                1e3 * (time.process_time() - marks[2]) / (steps - marks[1]))


class _MeasuredWorker(workers.SelfPlayWorker):
  """A `SelfPlayWorker`, pinned to `ACTOR_CPU` if asked, that reports its
  process's CPU time."""

  def __init__(self, pin: bool, *args):
    if pin:
      os.sched_setaffinity(0, {ACTOR_CPU})
    super().__init__(*args)

  def cpu_seconds(self) -> float:
    return time.process_time()


def time_actor(ray, preset: str, warmup: float, window: float,
               publish_seconds: float, repeats: int,
               pin: bool) -> Dict[str, Any]:
  """One actor's environment steps/s (and its process's CPU seconds per
  1,000 of them) with and without distribution."""
  config = presets.get_preset(preset)
  num_envs = presets.run_defaults(preset)['num_envs']
  network = networks.make_network(config)
  network.create_variables()
  results = {'num_envs': num_envs, 'publish_seconds': publish_seconds,
             'pinned': pin, 'alone': [], 'distributed': [],
             'alone_cpu_ms_per_step': [], 'distributed_cpu_ms_per_step': [],
             'versions_taken': []}
  for repeat in range(repeats):
    plain = ray.remote(_PlainSelfPlay).options(num_cpus=1).remote(
        preset, num_envs, repeat, pin)
    rate, cpu = ray.get(plain.env_steps_per_second.remote(warmup, window))
    results['alone'].append(rate)
    results['alone_cpu_ms_per_step'].append(cpu)
    ray.kill(plain)

    names = (f'bench-replay-{repeat}', f'bench-weights-{repeat}')
    # A tiny ratio: the service admits every game and no learner samples.
    service = ray.remote(replay_service.ReplayService).options(
        name=names[0], num_cpus=0).remote(config, 1e-9)
    store = ray.remote(weight_store.WeightStore).options(
        name=names[1], num_cpus=0).remote()
    version = 0
    ray.get(store.publish.remote(
        version, [ray.put(weight_store.network_arrays(network))]))
    worker = ray.remote(_MeasuredWorker).options(num_cpus=1).remote(
        pin, 0, config, preset, None, 'xla', num_envs, repeat, *names)
    start, marks = None, None
    while True:
      time.sleep(publish_seconds)
      version += 1
      ray.get(store.publish.remote(
          version, [ray.put(weight_store.network_arrays(network))]))
      now = time.perf_counter()
      if start is None:
        # From the end of the worker's first round, as for the loop alone.
        if ray.get(worker.status.remote())['rounds']:
          start = now
      elif marks is None and now - start >= warmup:
        marks = (now, ray.get(service.stats.remote())['env_steps'],
                 ray.get(worker.cpu_seconds.remote()))
      elif marks is not None and now - marks[0] >= window:
        steps = ray.get(service.stats.remote())['env_steps']
        cpu = ray.get(worker.cpu_seconds.remote())
        results['distributed'].append((steps - marks[1]) / (now - marks[0]))
        results['distributed_cpu_ms_per_step'].append(
            1e3 * (cpu - marks[2]) / (steps - marks[1]))
        break
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
  del argv
  logging.set_verbosity(logging.WARNING)
  results = {'machine': reporting.machine()}
  pin = PIN_ACTOR.value and 'actor' not in SKIP.value
  if pin:
    # Ray's processes inherit this process's CPUs; the measured actor
    # moves itself to ACTOR_CPU.
    others = os.sched_getaffinity(0) - {ACTOR_CPU}
    if not others:
      raise app.UsageError('--pin_actor needs 2 or more CPUs.')
    os.sched_setaffinity(0, others)
  ray_support.connect(None, num_cpus=os.cpu_count())
  ray = ray_support.require_ray()
  results['machine']['ray'] = ray.__version__
  if 'publication' not in SKIP.value:
    results['publication'] = {
        preset: time_publication(ray, preset, REPEATS.value)
        for preset in PUBLICATION_PRESETS.value}
    print(json.dumps(results['publication']), flush=True)
  if 'replay' not in SKIP.value:
    results['replay'] = time_replay(ray, REPLAY_SECONDS.value)
    print(json.dumps(results['replay']), flush=True)
  if 'actor' not in SKIP.value:
    results['actor'] = time_actor(ray, 'tictactoe', WARMUP.value,
                                  WINDOW.value, PUBLISH_SECONDS.value,
                                  REPEATS.value, pin)
    print(json.dumps(results['actor']), flush=True)
  reporting.report(results, OUTPUT_JSON.value)
  ray_support.shutdown()


if __name__ == '__main__':
  app.run(main)
