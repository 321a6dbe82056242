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
"""Starts a distributed run's processes (`experiment.run`, num_actors > 0)."""

import contextlib
import os
import uuid
from typing import Any, Dict, Iterator, List

from absl import logging

from muzero_snt import learning
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import replay_source
from muzero_snt.distributed import shards as shards_lib
from muzero_snt.distributed import weight_store
from muzero_snt.distributed import workers as workers_lib
from muzero_snt.evaluation import opponents
from muzero_snt.run import builders
from muzero_snt.run import run_config

_BATCHES_PER_REANALYSE_WORKER = 2  # One being reanalysed, one ready.


def _actor(ray: Any, cls: type, settings: Any, **named: str) -> Any:
  """Ray's actor class for `cls`, placed where `settings` (the run's
  `RunConfig`) says (the weight store on the learner's node) and restarted
  whenever it dies; calls to a restarted shard or store are sent again."""
  # class: (placement, CPUs of Ray's count)
  placement, cpus = {
      replay_service.ReplayService: (settings.replay_placement, 0),
      weight_store.WeightStore: ('learner', 0),
      workers_lib.Evaluator: (settings.evaluator_placement, 0),
      workers_lib.SelfPlayWorker: (settings.actor_placement, 1),
      workers_lib.ReanalyseWorker: (settings.reanalyze_placement, 1),
  }[cls]
  options: Dict[str, Any] = dict(num_cpus=cpus, **named)
  if placement == 'learner':
    options['scheduling_strategy'] = (
        ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(
            node_id=ray.get_runtime_context().get_node_id(), soft=False))
  else:
    # Ray's SPREAD: each process on the next node with room, in turn (its
    # default prefers the learner's node until half its CPUs are taken).
    options['scheduling_strategy'] = 'SPREAD'
    resource = run_config.placement_resource(placement)
    if resource is not None:
      options['resources'] = {resource: 1}
  retried = cls in (replay_service.ReplayService, weight_store.WeightStore)
  return ray.remote(cls).options(
      max_restarts=-1, max_task_retries=-1 if retried else 0, **options)


@contextlib.contextmanager
def start(settings: Any, learner: learning.Learner
         ) -> Iterator[replay_source.ReplayServiceSource]:
  """Starts the replay service, the weight store and the workers on Ray as
  `settings` (the resolved `run_config.RunConfig`) says, and yields
  `learner`'s `replay_source.ReplayServiceSource`; on exit stops them all,
  and the Ray instance if it started one.

  Raises:
    ImportError: if Ray is not installed (naming what to install).
    ValueError: for a malformed or silent `settings.ray_address`, a preset
      the evaluator cannot evaluate, or more shards than window games.
  """
  config = settings.config
  num_shards = settings.replay_shards
  shards_lib.check_num_shards(num_shards, config.window_size,
                              'replay_shards')
  if settings.eval_interval and not (
      settings.preset in opponents.OPPONENTS or config.num_players == 1 or
      settings.environment is not None):
    raise ValueError(f'eval_interval: the evaluator plays one-player games '
                     f'and two-player games with fixed opponents, not '
                     f'{settings.preset!r}; set it to 0 and evaluate '
                     'checkpoints with launchers/evaluate.')
  started = ray_support.connect(
      settings.ray_address,
      num_cpus=max(os.cpu_count() or 1,
                   settings.num_actors + settings.num_reanalyze_workers))
  ray = ray_support.require_ray()
  handles: List[Any] = []
  try:
    # Workers find these by name (unique to this run on a shared cluster).
    run = uuid.uuid4().hex[:12]
    shard_names = [f'muzero_snt-replay-{run}' + (f'-{k}' if k else '')
                   for k in range(num_shards)]
    weights_name = f'muzero_snt-weights-{run}'
    # Ray restarts a shard with these arguments, empty: the new one waits
    # for the learner to restore it. Reanalyse worker j, as actor j, serves
    # shard j mod num_shards (`shards.shard_of`).
    services = [
        _actor(ray, replay_service.ReplayService, settings,
               name=name).remote(
                   config, settings.train_ratio, settings.seed,
                   reanalysis_queue=_BATCHES_PER_REANALYSE_WORKER * max(len(
                       range(k, settings.num_reanalyze_workers,
                             num_shards)), 1),
                   wait_for_restore=True, shard=k, num_shards=num_shards)
        for k, name in enumerate(shard_names)]
    weights = _actor(ray, weight_store.WeightStore, settings,
                     name=weights_name).remote()
    handles += services + [weights]
    ray.get([service.restore.remote(None, replay_service.NO_COUNTS)
             for service in services])
    self_play_class = _actor(ray, workers_lib.SelfPlayWorker, settings)
    workers = [
        self_play_class.remote(
            i, config, settings.preset, settings.env, settings.search,
            settings.num_envs, settings.seed,
            shard_names[shards_lib.shard_of(i, num_shards)], weights_name,
            continuous=settings.continuous_selfplay,
            pad_rounds=settings.pad_rounds, environment=settings.environment)
        for i in range(settings.num_actors)
    ]
    reanalyse_class = _actor(ray, workers_lib.ReanalyseWorker, settings)
    reanalysers = [
        reanalyse_class.remote(
            i, config, settings.search, settings.seed,
            shard_names[shards_lib.shard_of(i, num_shards)], weights_name)
        for i in range(settings.num_reanalyze_workers)
    ]
    handles += workers + reanalysers
    evaluator_handle = None
    if settings.eval_interval:
      evaluator_handle = _actor(ray, workers_lib.Evaluator, settings).remote(
          config, settings.preset, settings.env, settings.search, weights_name,
          settings.logdir, settings.eval_interval, settings.eval_games,
          settings.seed, environment=settings.environment)
      handles.append(evaluator_handle)
    logging.info(
        'Ray: %d self-play actor(s) of %d %sgames each, %d reanalyse '
        'worker(s), the replay service (%d shard(s)) and the weight store '
        '%s.', len(workers), settings.num_envs,
        'continuous ' if settings.continuous_selfplay else '',
        len(reanalysers), num_shards,
        f'on the cluster at {settings.ray_address}' if settings.ray_address
        else 'on this machine')
    source = replay_source.ReplayServiceSource(
        config, learner, services, weights, settings.publish_interval,
        workers=workers, evaluator=evaluator_handle,
        # Reanalysis in the learner's process when no worker does it.
        reanalyser=(None if reanalysers else
                    builders.make_reanalyser(settings, learner)),
        reanalyse_workers=reanalysers, seed=settings.seed)
    try:
      yield source
    except BaseException:
      source.close(failed=True)
      raise
    source.close()
  finally:
    for handle in reversed(handles):
      ray.kill(handle, no_restart=True)
    if started:
      ray_support.shutdown()
