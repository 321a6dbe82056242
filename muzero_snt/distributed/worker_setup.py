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
follows the weights published to the `WeightStore` (`weight_store.py`),
and do their work in a thread (`LoopThread`) so that the actor answers
`status` and `stop` calls meanwhile.
"""

import os
import threading
import traceback
from typing import Any, NamedTuple, Optional

from muzero_snt import config as config_lib
from muzero_snt import networks
from muzero_snt import search as search_lib
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import weight_store


class Worker(NamedTuple):
  """A worker process's Ray module, weight store and network copy.

  Attributes:
    ray: the `ray` module (`ray_support.require_ray`).
    weights: the `WeightStore` actor's handle.
    network: the network copy, its variables created.
    search: the search on `network`.
  """
  ray: Any
  weights: Any
  network: networks.MuZeroNetwork
  search: search_lib.Search


def set_up(config: config_lib.MuZeroConfig, search: str, weights: str,
           threads: Optional[int] = None, min_batch_size: int = 1) -> Worker:
  """Builds a worker process's network copy and search.

  Args:
    config: the run's configuration.
    search: one of `search.SEARCH_KINDS`.
    weights: the `WeightStore` actor's name.
    threads: TensorFlow's intra- and inter-op threads in this process
      (None: TensorFlow's defaults). Ignored if TensorFlow has started in
      this process already.
    min_batch_size: the search pads smaller batches to this many rows
      (`search.make_search`).

  Returns:
    The `Worker`.
  """
  if threads is not None:
    import tensorflow as tf  # pylint: disable=g-import-not-at-top
    try:
      tf.config.threading.set_intra_op_parallelism_threads(threads)
      tf.config.threading.set_inter_op_parallelism_threads(threads)
    except RuntimeError:
      pass  # TensorFlow already started in this process.
  ray = ray_support.require_ray()
  network = networks.make_network(config)
  network.create_variables()
  return Worker(ray=ray, weights=ray.get_actor(weights), network=network,
                search=search_lib.make_search(
                    config, network, search, min_batch_size=min_batch_size))


def take_newer_weights(worker: Worker, answer: Any, version: int) -> int:
  """Sets the worker's network from a `WeightStore.latest` answer if its
  weights are newer than `version`.

  Args:
    worker: the worker whose network takes the weights.
    answer: the `ObjectRef` of a `WeightStore.latest` call.
    version: the version of the network's current weights
      (`weight_store.NO_VERSION` before the first).

  Returns:
    The version of the network's weights now.
  """
  newest, (reference,) = worker.ray.get(answer)
  if newest <= version:
    return version
  weight_store.assign_arrays(worker.network, worker.ray.get(reference))
  return newest


class LoopThread:
  """Base of a worker actor whose work runs in a daemon thread.

  A subclass defines `_loop`, which ends when it returns or, at the latest
  after its current piece of work, once `_stop` is set, and calls
  `_start_loop` at the end of its constructor. An exception ends the loop
  and its traceback is kept in `_error` for the subclass's `status`: the
  learner stops the run with it.
  """

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

  def pid(self) -> int:
    """This process's id (tests kill it)."""
    return os.getpid()

  def stop(self) -> None:
    """Ends the loop after its current piece of work."""
    self._stop.set()
