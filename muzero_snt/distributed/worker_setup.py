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
"""What the worker processes share: their network copy, search and loop.

The self-play actors, the reanalyse workers and the evaluator each run in
a Ray actor process of their own with a copy of the learner's network that
follows the published weights (`weight_store.Follower`), and do their work
in a thread, so that the actor answers `status` and `stop` meanwhile. The
learner checks their `status` (`check_statuses`): a failed loop stops the
run, while a dead process is restarted by Ray.
"""

import os
import threading
import traceback
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import networks
from muzero_snt import search as search_lib
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import weight_store


def seed(*parts: int) -> int:
  """A seed drawn from `parts` (the run's seed, a worker's index, its
  incarnation): each worker and each restart plays differently."""
  return int(np.random.SeedSequence(list(parts)).generate_state(1)[0])


class Worker:
  """Base of a worker actor whose work runs in a daemon thread.

  A subclass's constructor calls `_set_up`, builds what else it needs and
  ends with `_start_loop`. Its `_loop` ends when it returns or, at the
  latest after its current piece of work, once `_stop` is set. An exception
  ends the loop, and `status` reports its traceback: the learner stops the
  run with it.
  """

  def _set_up(self, config: config_lib.MuZeroConfig, search: str,
              weights: str, service: Optional[str] = None,
              threads: Optional[int] = None, min_batch_size: int = 1) -> None:
    """Builds the network copy, its search and its weights' follower.

    Args:
      config: the run's configuration.
      search: one of `search.SEARCH_KINDS`.
      weights: the `WeightStore` actor's name.
      service: the `ReplayService` actor's name, if the worker uses it.
        Names, not handles: Ray cannot always restart an actor whose
        constructor took handles.
      threads: TensorFlow's intra- and inter-op threads in this process
        (None: TensorFlow's defaults; ignored once TensorFlow has started).
      min_batch_size: the search pads smaller batches to this many rows
        (`search.make_search`).
    """
    if threads is not None:
      import tensorflow as tf  # pylint: disable=g-import-not-at-top
      try:
        tf.config.threading.set_intra_op_parallelism_threads(threads)
        tf.config.threading.set_inter_op_parallelism_threads(threads)
      except RuntimeError:
        pass  # TensorFlow already started in this process.
    self._ray = ray_support.require_ray()
    self._network = networks.make_network(config)
    self._network.create_variables()
    self._search = search_lib.make_search(config, self._network, search,
                                          min_batch_size=min_batch_size)
    self._weights = weight_store.Follower(
        self._ray, self._ray.get_actor(weights), self._network)
    self._service = self._ray.get_actor(service) if service else None

  def _await_weights(self, poll: float) -> bool:
    """Waits for the first published weights, asking every `poll` seconds;
    False if stopped first."""
    while not self._stop.is_set():
      self._weights.update()
      if self._weights.version != weight_store.NO_VERSION:
        return True
      self._stop.wait(poll)
    return False

  def _start_loop(self, name: str) -> None:
    """Starts `_loop` in a daemon thread called `name`."""
    self._error: Optional[str] = None
    self._stop = threading.Event()
    self._thread = threading.Thread(target=self._run, daemon=True,
                                    name=name)
    self._thread.start()

  def _run(self) -> None:
    try:
      self._loop()
    except Exception:  # pylint: disable=broad-except
      self._error = traceback.format_exc()

  def _loop(self) -> None:
    raise NotImplementedError

  def _progress(self) -> Dict[str, Any]:
    """What `status` reports besides the error."""
    return {}

  def status(self) -> Dict[str, Any]:
    """`_progress`, and the loop's traceback under 'error' (None if none).
    """
    return dict(self._progress(), error=self._error)

  def pid(self) -> int:
    """This process's id (tests kill it)."""
    return os.getpid()

  def stop(self) -> None:
    """Ends the loop after its current piece of work."""
    self._stop.set()


def check_statuses(ray: Any, workers: Sequence[Tuple[str, Any]]) -> None:
  """Raises RuntimeError if a worker's loop failed.

  Args:
    ray: the `ray` module.
    workers: (name, handle) of each worker actor. One that does not answer
      within 1 s (dead, or restarting) is skipped: Ray brings it back.
  """
  calls = [handle.status.remote() for _, handle in workers]
  ready, _ = ray.wait(calls, num_returns=len(calls), timeout=1.)
  for (name, _), call in zip(workers, calls):
    if call not in ready:
      continue
    try:
      status = ray.get(call)
    except Exception:  # pylint: disable=broad-except
      continue  # Dead or restarting.
    if status['error']:
      raise RuntimeError(f'{name} failed:\n{status["error"]}')
