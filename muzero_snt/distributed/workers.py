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
"""The worker processes: self-play actors, reanalyse workers, evaluator.

Each is a Ray actor whose network copy follows the published weights,
working in a thread so that it answers `status` and `stop` meanwhile; a
failed loop stops the run (`health.Watch`), and a process Ray restarts
works again unasked. Self-play actors take newer weights after every
batched move (only between rounds learnt far worse: docs/distributed.md).
"""

import os
import threading
import traceback
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import tensorflow as tf

from muzero_snt import acting
from muzero_snt import config as config_lib
from muzero_snt import networks
from muzero_snt import reanalysis
from muzero_snt import search as search_lib
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import weight_store
from muzero_snt.evaluation import matches as evaluation
from muzero_snt.run import builders

_TAKE_TIMEOUT = 2.  # Seconds a reanalyser waits for a batch, then sees `_stop`.
_EVALUATOR_POLL = 0.5  # Seconds between the evaluator's looks at the store.


def hide_unassigned_gpus(ray: Any) -> bool:
  """Hides the GPUs from this process's TensorFlow unless Ray assigned it
  some (Ray leaves CUDA_VISIBLE_DEVICES as it is, and TensorFlow would take
  the learner's GPU memory); returns whether it did."""
  if ray.get_gpu_ids():
    return False
  try:
    tf.config.set_visible_devices([], 'GPU')
  except RuntimeError:
    return False  # TensorFlow already started in this process.
  return True


def incarnation_seed(*parts: int) -> int:
  """A seed drawn from `parts` (the run's seed, a worker's index, its
  incarnation): each worker and each restart plays differently."""
  return int(np.random.SeedSequence(list(parts)).generate_state(1)[0])


class Worker:
  """Base of a worker actor: a subclass's constructor calls `_set_up` and
  ends with `_start_loop`; its `_loop` returns once `_stop` is set, and an
  exception ends it with its traceback in `status`."""

  _node: Optional[str] = None  # Ray's id of this process's node.

  def _set_up(self, index: int, config: config_lib.MuZeroConfig, seed: int,
              search: str, weights: str, service: Optional[str] = None,
              threads: Optional[int] = None, min_batch_size: int = 1) -> None:
    """Builds the network copy, its `search.make_search` and its weights'
    follower for worker `index` of its kind; `seed` is the run's (each
    incarnation draws its own), `threads` TensorFlow's (None: default).
    `weights` and `service` are actor names: Ray cannot always restart an
    actor whose constructor took handles."""
    self._index, self._config, self._seed = index, config, seed
    if threads is not None:
      try:
        tf.config.threading.set_intra_op_parallelism_threads(threads)
        tf.config.threading.set_inter_op_parallelism_threads(threads)
      except RuntimeError:
        pass  # TensorFlow already started in this process.
    self._ray = ray_support.require_ray()
    self._node = self._ray.get_runtime_context().get_node_id()
    hide_unassigned_gpus(self._ray)
    self._network = networks.make_network(config)
    self._network.create_variables()
    self._search = search_lib.make_search(config, self._network, search,
                                          min_batch_size=min_batch_size)
    self._weights = weight_store.Follower(
        self._ray, self._ray.get_actor(weights), self._network)
    self._service = self._ray.get_actor(service) if service else None

  def _register(self, register: Any) -> int:
    """Calls `register(index, pid)`; returns this incarnation's seed."""
    incarnation = self._ray.get(register.remote(self._index, os.getpid()))
    return incarnation_seed(self._seed, self._index, incarnation)

  def _await_weights(self) -> bool:
    """Waits for the first published weights; False if stopped first."""
    while not self._stop.is_set():
      self._weights.update()
      if self._weights.version != weight_store.NO_VERSION:
        return True
      self._stop.wait(weight_store.ASK_INTERVAL)
    return False

  def _start_loop(self, name: str) -> None:
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

  def _progress(self) -> Dict[str, Any]:
    return {}

  def status(self) -> Dict[str, Any]:
    """`_progress()`, the loop's traceback or None ('error'), this process's
    id ('pid') and its node's ('node', None outside Ray)."""
    return dict(self._progress(), error=self._error, pid=os.getpid(),
                node=self._node)

  def pid(self) -> int:
    return os.getpid()

  def stop(self) -> None:
    """Ends the loop after its current piece of work."""
    self._stop.set()


class SelfPlayWorker(Worker):
  """Plays self-play games while the process lives, sending a round's
  games (`Actor.play_round`) while it plays the next or, continuous
  (`Actor.play_games`), those ended at each move once the last `insert`
  returned."""

  def __init__(self, index: int, config: config_lib.MuZeroConfig,
               preset: str, title: Optional[str], search: str,
               num_envs: int, seed: int, service: str, weights: str,
               continuous: bool = False, pad_rounds: bool = False,
               environment=None):
    """`num_envs` games at once; `continuous` and `pad_rounds` as
    `RunConfig`'s, the rest as `_set_up`'s or the environment factory's."""
    self._set_up(index, config, seed, search, weights, service, threads=1,
                 min_batch_size=num_envs if pad_rounds else 1)
    self._make_environment = builders.make_environment_factory(
        preset, config, title, environment)
    self._num_envs = num_envs
    self._continuous = bool(continuous)
    self._rounds = 0
    self._games_sent = 0
    self._inserts = 0
    self._inserting = None  # The last `insert` call, if it may be pending.
    self._start_loop(f'self-play-{index}')

  def _insert(self, results: List[acting.GameResult]) -> None:
    """Sends finished games once the last `insert` has returned."""
    games = [replay_service.Game(r.trajectory, r.episode_return)
             for r in results]
    if self._inserting is not None:
      self._ray.get(self._inserting)
    self._inserting = self._service.insert.remote(self._index, games)
    self._inserts += 1
    self._games_sent += len(games)

  def _loop(self) -> None:
    actor = acting.Actor(
        self._config, self._search, search_lib.NetworkModel(self._network),
        self._make_environment, seed=self._register(self._service.register),
        num_envs=self._num_envs)
    compile_search = actor.compile_function(self._continuous)
    if compile_search is not None:
      compile_search()  # Shapes only: the weights may come later.
    if not self._await_weights():
      return
    while not self._stop.is_set():
      self._weights.update()
      if self._continuous:
        self._play_games(actor)
      else:
        self._insert(actor.play_round(
            self._rounds, training_steps=lambda: self._weights.version,
            on_move=lambda _: self._weights.update(wait=False)))
      self._rounds += 1

  def _play_games(self, actor: acting.Actor) -> None:
    """One `Actor.play_games` call: `num_envs` games end, sent as they do."""
    ended: List[acting.GameResult] = []

    def on_move(_) -> None:
      self._weights.update(wait=False)
      # Sent once all ended, or at once if the last `insert` has returned.
      if ended and (len(ended) >= self._num_envs or self._inserting is None
                    or self._ray.wait([self._inserting], timeout=0)[0]):
        self._insert(ended)
        ended.clear()

    actor.play_games(self._rounds, training_steps=lambda: self._weights.version,
                     on_move=on_move, should_stop=self._stop.is_set,
                     on_game_end=ended.append)
    if ended:
      self._insert(ended)

  def _progress(self) -> Dict[str, Any]:
    return {'rounds': self._rounds, 'games': self._games_sent,
            'inserts': self._inserts, 'version': self._weights.version}


class ReanalyseWorker(Worker):
  """Reanalyses the service's batches with the newest weights while it lives;
  restarted, it starts a new target network, and its batches are dropped."""

  def __init__(self, index: int, config: config_lib.MuZeroConfig,
               search: str, seed: int, service: str, weights: str):
    self._set_up(index, config, seed, search, weights, service, threads=1)
    self._reanalyser: Optional[reanalysis.Reanalyser] = None
    self._batches = 0
    self._start_loop(f'reanalyse-{index}')

  def _take(self) -> Any:
    return self._service.take_for_reanalysis.remote(self._index,
                                                    _TAKE_TIMEOUT)

  def _loop(self) -> None:
    self._reanalyser = reanalysis.Reanalyser(
        self._config, self._network, self._search,
        lambda: self._weights.version,
        seed=self._register(self._service.register_reanalyser))
    if not self._await_weights():
      return
    # The next batch is asked for, and the last handed back, while this
    # one is computed: the service's calls stay off the computation's path.
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
    reanalyser = self._reanalyser
    return {
        'batches': self._batches,
        'seconds': reanalyser.total_seconds if reanalyser else 0.,
        'version': self._weights.version,
        'target_version': (reanalyser.target_network_step
                           if reanalyser and reanalyser.target_network
                           else None),
    }


class Evaluator(Worker):
  """Evaluates the newest weights every `interval` learner steps as
  `launchers/evaluate.py` does, writing `eval/...` scalars at their step."""

  def __init__(self, config: config_lib.MuZeroConfig, preset: str,
               title: Optional[str], search: str, weights: str,
               logdir: Optional[str], interval: int, num_games: int,
               seed: int = 0, environment=None):
    """`num_games` per opponent and side, or episodes, scalars to `logdir`
    (None: none); `preset` of one player, or in `opponents.OPPONENTS`."""
    self._set_up(0, config, seed, search, weights)
    self._make_environment = builders.make_environment_factory(
        preset, config, title, environment)
    self._opponents = evaluation.preset_opponents(
        preset, self._make_environment, seed=seed)
    self._writer = tf.summary.create_file_writer(logdir) if logdir else None
    self._interval = interval
    self._num_games = num_games
    self._results: List[Tuple[int, Dict[str, float]]] = []
    self._start_loop('evaluator')

  def _loop(self) -> None:
    newer_than = weight_store.NO_VERSION
    while not self._stop.is_set():
      if not self._weights.update(newer_than=newer_than):
        self._stop.wait(_EVALUATOR_POLL)
        continue
      version = self._weights.version
      scalars = evaluation.summary_scalars(evaluation.evaluate_preset(
          self._search, self._make_environment, self._opponents,
          self._num_games, self._seed))
      if self._writer:
        with self._writer.as_default(step=version):
          for tag, value in scalars.items():
            tf.summary.scalar(tag, value)
        self._writer.flush()
      self._results.append((version, scalars))
      newer_than = version + self._interval - 1

  def results(self) -> List[Tuple[int, Dict[str, float]]]:
    """(learner step, `eval/...` scalars) of every evaluation so far."""
    return list(self._results)

  def _progress(self) -> Dict[str, Any]:
    return {'evaluations': len(self._results)}
