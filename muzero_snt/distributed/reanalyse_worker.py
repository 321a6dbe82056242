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
"""A reanalyse worker process: `reanalysis.Reanalyser` beside the learner.

Run as a Ray actor with `max_restarts=-1` (`runner.py`), one CPU each. Its
constructor builds a network copy, the search (`search.make_search`) and a
`Reanalyser` on them and starts a loop in a thread: take a batch and its
reanalysis inputs from the replay service (which picked the rows and read
their stored positions), take the newest published weights, compute the
new targets by `Reanalyser.reanalyse_gathered`'s rules and hand the batch
back to the service, where the learner takes it.

The target network is the `Reanalyser`'s, with the published weights'
version (the learner step they come from) as its step count: it copies the
worker's network when `target_update_interval` learner steps of versions
have passed since its last copy. It is not checkpointed: a restarted worker
(or a resumed run) starts it from the newest weights. A worker asks for
its next batch while it computes one, so it holds up to two; one that dies
loses them, the service drops them and the others go on.
"""

import os
from typing import Any, Dict, Optional

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import reanalysis
from muzero_snt.distributed import weight_store
from muzero_snt.distributed import worker_setup

# Seconds between looks at the weight store before the first publication,
# and the longest wait for a batch before the loop looks at its stop flag.
_POLL = 0.05
_TAKE_TIMEOUT = 2.


class ReanalyseWorker(worker_setup.LoopThread):
  """Reanalyses the replay service's batches, for as long as it lives."""

  def __init__(self, index: int, config: config_lib.MuZeroConfig,
               search: str, seed: int, service: str, weights: str,
               threads: int = 1):
    """Builds the worker and starts its loop.

    Args:
      index: this worker's number among the run's reanalyse workers.
      config: the run's configuration (reanalyze_fraction > 0).
      search: one of `search.SEARCH_KINDS`.
      seed: the run's seed; each worker and each restart draws its own.
      service: the `ReplayService` actor's name (names, not handles: Ray
        cannot always restart an actor whose constructor took handles).
      weights: the `WeightStore` actor's name.
      threads: TensorFlow's threads in this process.
    """
    self._worker = worker_setup.set_up(config, search, weights, threads)
    self._ray = self._worker.ray
    self._index = index
    self._config = config
    self._service = self._ray.get_actor(service)
    self._seed = seed
    self._version = weight_store.NO_VERSION
    self._reanalyser: Optional[reanalysis.Reanalyser] = None
    self._batches = 0
    self._start_loop(f'reanalyse-{index}')

  def _take_newest_weights(self) -> None:
    self._version = worker_setup.take_newer_weights(
        self._worker, self._worker.weights.latest.remote(), self._version)

  def _take(self) -> Any:
    """Asks the service for a batch (an `ObjectRef` of its answer)."""
    return self._service.take_for_reanalysis.remote(self._index,
                                                    _TAKE_TIMEOUT)

  def _loop(self) -> None:
    incarnation = self._ray.get(self._service.register_reanalyser.remote(
        self._index, os.getpid()))
    seed = int(np.random.SeedSequence(
        [self._seed, self._index, incarnation]).generate_state(1)[0])
    self._reanalyser = reanalysis.Reanalyser(
        self._config, self._worker.network, self._worker.search,
        lambda: self._version, seed=seed)
    while self._version == weight_store.NO_VERSION:
      if self._stop.wait(_POLL):
        return
      self._take_newest_weights()
    # The next batch is asked for while this one is computed, and a
    # finished batch handed back while the next is: the calls to the
    # service stay off the computation's path.
    taking = self._take()
    putting = None
    while not self._stop.is_set():
      taken = self._ray.get(taking)
      taking = self._take()
      if taken is None:
        continue
      ticket, (batch, keys, inputs, maps) = taken
      # The batch may have waited: the weights newest when it is searched.
      self._take_newest_weights()
      batch = self._reanalyser.reanalyse_gathered(batch, inputs, maps)
      if putting is not None:
        self._ray.get(putting)
      putting = self._service.put_reanalysed.remote(ticket, batch, keys)
      self._batches += 1

  def status(self) -> Dict[str, Any]:
    """Batches reanalysed, the seconds spent computing their targets, the
    weights' and the target network's versions, and the loop's error."""
    reanalyser = self._reanalyser
    return {
        'batches': self._batches,
        'seconds': reanalyser.total_seconds if reanalyser else 0.,
        'version': self._version,
        'target_version': (reanalyser.target_network_step
                           if reanalyser and reanalyser.target_network
                           else None),
        'error': self._error,
    }
