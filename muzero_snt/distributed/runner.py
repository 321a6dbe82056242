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
"""The distributed run's processes, for `experiment.run` with num_actors > 0.

`start` connects to Ray (a private instance on this machine, or the
cluster at `settings.ray_address`), starts the replay service on the
learner's machine (checkpoints write its buffer to the learner's disk), the
weight store, `settings.num_actors` self-play actors and
`settings.num_reanalyze_workers` reanalyse workers and, with
`settings.eval_interval`, an evaluator (`evaluator.py`), and yields the
learner's data source; on exit it stops them all, and the Ray instance if
it started one. The learner, its logs and its checkpoints are
`experiment.run`'s, as in one process.

Ray restarts each of these processes whenever it dies. Calls to the replay
service and the weight store are sent again to their new process: the
actors' games wait there until the learner has restored the service from
its last checkpoint (`replay_source.py`), and a restarted weight store
holds no weights until the learner's next publication (the actors keep
theirs meanwhile).
"""

import contextlib
import os
import uuid
from typing import Any, Iterator, List

from absl import logging

from muzero_snt.run import builders
from muzero_snt import learning
from muzero_snt.distributed import evaluator
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import reanalyse_worker
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import replay_source
from muzero_snt.distributed import self_play_worker
from muzero_snt.distributed import weight_store

# Batches each reanalyse worker may hold (one being reanalysed, one ready).
BATCHES_PER_REANALYSE_WORKER = 2


@contextlib.contextmanager
def start(settings: Any, learner: learning.Learner
         ) -> Iterator[replay_source.ReplayServiceSource]:
  """Starts the replay service, the weight store and the actors.

  Args:
    settings: the run's resolved `run_config.RunConfig` (num_actors > 0).
    learner: the learner, in this process.

  Yields:
    The learner's `replay_source.ReplayServiceSource`.

  Raises:
    ImportError: if Ray is not installed (naming what to install).
    ValueError: if `settings.ray_address` is malformed or no cluster
      answers there.
  """
  config = settings.config
  if settings.eval_interval and not evaluator.supported(settings.preset,
                                                         config):
    raise ValueError(f'eval_interval: the evaluator plays one-player presets '
                     f'and two-player presets with fixed opponents, not '
                     f'{settings.preset!r}; set it to 0 and evaluate '
                     'checkpoints with launchers/evaluate.')
  started = ray_support.connect(
      settings.ray_address,
      num_cpus=max(os.cpu_count() or 1,
                   settings.num_actors + settings.num_reanalyze_workers))
  ray = ray_support.require_ray()
  handles: List[Any] = []
  try:
    # The learner's machine: checkpoints write the replay to its disk.
    on_learner = ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(
        node_id=ray.get_runtime_context().get_node_id(), soft=False)
    # Actors find these by name (unique to this run on a shared cluster).
    run = uuid.uuid4().hex[:12]
    names = (f'muzero_snt-replay-{run}', f'muzero_snt-weights-{run}')
    restarted = dict(max_restarts=-1, max_task_retries=-1)
    # Ray restarts the service with these arguments, empty: the new one
    # waits for the learner to restore it.
    service = ray.remote(replay_service.ReplayService).options(
        name=names[0], num_cpus=0, scheduling_strategy=on_learner,
        **restarted).remote(
            config, settings.train_ratio, settings.seed,
            reanalysis_queue=BATCHES_PER_REANALYSE_WORKER * max(
                settings.num_reanalyze_workers, 1),
            wait_for_restore=True)
    weights = ray.remote(weight_store.WeightStore).options(
        name=names[1], num_cpus=0, scheduling_strategy=on_learner,
        **restarted).remote()
    handles += [service, weights]
    ray.get(service.restore.remote(None, replay_service.NO_COUNTS))
    worker_class = ray.remote(self_play_worker.SelfPlayWorker).options(
        num_cpus=1, max_restarts=-1, max_task_retries=0)
    workers = [
        worker_class.remote(i, config, settings.preset, settings.env,
                            settings.search, settings.num_envs,
                            settings.seed, *names,
                            continuous=settings.continuous_selfplay,
                            pad_rounds=settings.pad_rounds,
                            environment=settings.environment)
        for i in range(settings.num_actors)
    ]
    handles += workers
    reanalyse_class = ray.remote(reanalyse_worker.ReanalyseWorker).options(
        num_cpus=1, max_restarts=-1, max_task_retries=0)
    reanalysers = [
        reanalyse_class.remote(i, config, settings.search, settings.seed,
                               *names)
        for i in range(settings.num_reanalyze_workers)
    ]
    handles += reanalysers
    evaluator_handle = None
    if settings.eval_interval:
      evaluator_handle = ray.remote(evaluator.Evaluator).options(
          num_cpus=0, max_restarts=-1, scheduling_strategy=on_learner
      ).remote(config, settings.preset, settings.env, settings.search,
               names[1], settings.logdir, settings.eval_interval,
               settings.eval_games, settings.seed,
               environment=settings.environment)
      handles.append(evaluator_handle)
    logging.info('Ray: %d self-play actor(s) of %d %sgames each, %d '
                 'reanalyse worker(s), the replay service and the weight '
                 'store%s.', len(workers), settings.num_envs,
                 'continuous ' if settings.continuous_selfplay else '',
                 len(reanalysers),
                 f' on the cluster at {settings.ray_address}'
                 if settings.ray_address else ' on this machine')
    source = replay_source.ReplayServiceSource(
        config, learner, service, weights, settings.publish_interval,
        workers=workers, evaluator=evaluator_handle,
        # Reanalysis in the learner's process when no worker does it.
        reanalyser=(None if reanalysers else
                    builders.make_reanalyser(settings, learner)),
        reanalyse_workers=reanalysers)
    yield source
    source.close()
  finally:
    for handle in reversed(handles):
      ray.kill(handle, no_restart=True)
    if started:
      ray_support.shutdown()
