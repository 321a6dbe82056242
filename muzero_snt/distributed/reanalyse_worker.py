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

Its loop takes a batch and its reanalysis inputs from the replay service
(which chose the rows and read their stored positions), takes the newest
published weights, computes the new targets (`Reanalyser.reanalyse_gathered`)
and hands the batch back to the service, where the learner takes it.

The target network is the `Reanalyser`'s, with the weights' version (their
learner step) as its step count. It is not checkpointed: a restarted
worker starts it from the newest weights. A worker asks for its next batch
while it computes one, so it holds up to two; the service drops those of a
worker that dies.
"""

import os
from typing import Any, Dict, Optional

from muzero_snt import config as config_lib
from muzero_snt import reanalysis
from muzero_snt.distributed import worker_setup

# Seconds between looks at the weight store before the first publication,
# and the longest wait for a batch before the loop looks at its stop flag.
_POLL = 0.05
_TAKE_TIMEOUT = 2.


class ReanalyseWorker(worker_setup.Worker):
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
      service: the `ReplayService` actor's name.
      weights: the `WeightStore` actor's name.
      threads: TensorFlow's threads in this process.
    """
    self._set_up(config, search, weights, service, threads)
    self._index = index
    self._config = config
    self._seed = seed
    self._reanalyser: Optional[reanalysis.Reanalyser] = None
    self._batches = 0
    self._start_loop(f'reanalyse-{index}')

  def _take(self) -> Any:
    """Asks the service for a batch (an `ObjectRef` of its answer)."""
    return self._service.take_for_reanalysis.remote(self._index,
                                                    _TAKE_TIMEOUT)

  def _loop(self) -> None:
    incarnation = self._ray.get(self._service.register_reanalyser.remote(
        self._index, os.getpid()))
    self._reanalyser = reanalysis.Reanalyser(
        self._config, self._network, self._search,
        lambda: self._weights.version,
        seed=worker_setup.seed(self._seed, self._index, incarnation))
    if not self._await_weights(_POLL):
      return
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
      self._weights.update()  # The batch may have waited.
      batch = self._reanalyser.reanalyse_gathered(batch, inputs, maps)
      if putting is not None:
        self._ray.get(putting)
      putting = self._service.put_reanalysed.remote(ticket, batch, keys)
      self._batches += 1

  def _progress(self) -> Dict[str, Any]:
    """Batches reanalysed, and the weights' and target network's versions.
    """
    reanalyser = self._reanalyser
    return {
        'batches': self._batches,
        'version': self._weights.version,
        'target_version': (reanalyser.target_network_step
                           if reanalyser and reanalyser.target_network
                           else None),
    }
