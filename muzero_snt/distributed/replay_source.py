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
"""The learner's data source in the distributed mode: the replay service.

A `data_sources.DataSource`, so `training_loop.TrainingLoop` runs the
learner, its logs and its checkpoints as in one process. A round is one
learner step on a batch from the replay service (which waits until the
actors' data owes the learner a step); the new priorities go back to the
service, and every `publish_interval` learner steps the network's weights
are published to the actors (`weight_store.py`).

Checkpoints: `replay` is a `ReplayHandle` whose `save(path)` makes the
service write its buffer to `path` and copies the service's counters into
the source's checkpointed variables, so a checkpoint holds the replay's
contents and priorities and the rate limiter's counts as they were at one
moment. A restored buffer goes back to the service with those counters.

A dead service: Ray restarts its process, empty, and the new one refuses
the learner's calls (`replay_service.NotRestoredError`). The source then
restores it from the replay file of the last checkpoint saved or resumed
from, with that checkpoint's counters (so the buffer and its counts of
games and environment steps agree) but the learner's own step count: the
limiter owes the learner no step until new games make up for the ones
lost, as if those had never been played. Batches drawn from the dead
service get no priority updates.

Reanalysis (docs/reanalysis.md): with a `reanalysis.Reanalyser` the source
takes each batch with its reanalysis inputs (the rows the service chose,
their stored positions) and computes the new targets in the learner's
process; with reanalyse workers (`reanalyse_worker.py`) it takes batches
they have reanalysed already.
"""

import time
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from absl import logging
import numpy as np
import tensorflow as tf

from muzero_snt.run import checkpointing
from muzero_snt import config as config_lib
from muzero_snt.run import data_sources
from muzero_snt import learning
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import types
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import weight_store

# Seconds a batch request waits before the actors' health is checked.
_SAMPLE_TIMEOUT = 2.
# Seconds between checks of the actors' health while batches keep coming
# (one actor's failed loop must stop the run while the others feed it).
_CHECK_INTERVAL = 10.
_COUNTERS = ('env_steps', 'counted_env_steps', 'learner_steps', 'games')
# The checkpoint's names of those counters start with this: a checkpoint of
# the distributed mode is known by them (`experiment.check_mode_switch`).
COUNTER_PREFIX = 'distributed_'


class ReplayHandle:
  """What a `checkpointing.Checkpointer` saves as the replay buffer.

  Attributes:
    path: the replay file of the last save or restored checkpoint, or None;
      the source restores a restarted service from it.
    step: the learner step of that checkpoint (0 with no file).
  """

  def __init__(self, call: Callable[[Callable[[], Any]], Any],
               service: Any, counters: Dict[str, tf.Variable],
               learner_steps: Callable[[], int]):
    """Constructs the handle.

    Args:
      call: the source's `_call`: answers a call to the service.
      service: the `ReplayService` actor's handle.
      counters: the checkpointed variables of the service's counters.
      learner_steps: the learner's step count now.
    """
    self._call = call
    self._service = service
    self._counters = counters
    self._learner_steps = learner_steps
    self.path: Optional[str] = None
    self.step = 0

  def save(self, path: str) -> None:
    """The service writes its buffer to `path` (on its machine: the
    learner's, `runner.py`); its counters go to the checkpoint."""
    counters = self._call(lambda: self._service.save.remote(path))
    for name in _COUNTERS:
      self._counters[name].assign(counters[name])
    self.path, self.step = path, self._learner_steps()


class ReplayServiceSource:
  """Batches from the replay service, priorities back, weights out."""

  def __init__(self, config: config_lib.MuZeroConfig,
               learner: learning.Learner, service: Any, weights: Any,
               publish_interval: int, workers: Sequence[Any] = (),
               evaluator: Optional[Any] = None,
               reanalyser: Optional[reanalysis.Reanalyser] = None,
               reanalyse_workers: Sequence[Any] = ()):
    """Constructs the source.

    Args:
      config: the run's configuration.
      learner: the learner whose network is published.
      service: the `ReplayService` actor's handle.
      weights: the `WeightStore` actor's handle.
      publish_interval: learner steps between weight publications (>= 1).
      workers: the self-play actors' handles, checked for errors while the
        learner waits for data.
      evaluator: the `Evaluator` actor's handle, if any (checked too).
      reanalyser: reanalyses every batch in this process (its state is
        checkpointed with the counters); not with `reanalyse_workers`.
      reanalyse_workers: the `ReanalyseWorker` actors' handles: batches
        are taken reanalysed from the service (and the workers checked).
    """
    if reanalyser is not None and reanalyse_workers:
      raise ValueError('Batches are reanalysed either here (reanalyser) or '
                       'by reanalyse_workers, not both.')
    if (isinstance(publish_interval, bool) or
        not isinstance(publish_interval, int) or publish_interval < 1):
      raise ValueError(f'publish_interval must be a positive integer, got '
                       f'{publish_interval!r}.')
    self._ray = ray_support.require_ray()
    self._config = config
    self._learner = learner
    self._service = service
    self._weights = weights
    self._publish_interval = publish_interval
    self._workers = list(workers)
    self._evaluator = evaluator
    self._reanalyser = reanalyser
    self._reanalyse_workers = list(reanalyse_workers)
    self._last_reanalysed = 0
    self._counters = checkpointing.counters(
        **{COUNTER_PREFIX + name: 0 for name in _COUNTERS})
    self._replay = ReplayHandle(
        self._call, service,
        {name: self._counters[COUNTER_PREFIX + name] for name in _COUNTERS},
        lambda: self._learner.steps)
    # Restarts of the service so far, and at the last batch drawn.
    self._restarts = 0
    self._drawn_at_restart = 0
    # The service's newest counters known here (`learner_batch`, `stats`):
    # what is lost if its process dies is counted from them.
    self._seen: Dict[str, int] = dict(replay_service.NO_COUNTS)
    self._published: Optional[int] = None
    self._pending_publish = None
    self._store_held = weight_store.NO_VERSION
    self._pending_update = None
    self._next_batch = None  # The request for the next batch, in flight.
    self._checked_at = time.monotonic()  # Of the last `check_workers`.
    self._stats: Dict[str, Any] = {}
    self._last_env_steps = 0
    self._closed = False

  def counters(self) -> Dict[str, tf.Variable]:
    if self._reanalyser is None:
      return dict(self._counters)
    return {**self._counters, **self._reanalyser.state}

  @property
  def replay(self) -> ReplayHandle:
    return self._replay

  def restore_replay(self, replay: Optional[replay_lib.ReplayBuffer]) -> None:
    if replay is not None:
      self._ray.get(self._service.load.remote(replay,
                                              self._saved_counters()))
      self._replay.path = replay.restored_from
      self._replay.step = self._learner.steps
    self._last_env_steps = self.env_steps

  def _saved_counters(self) -> Dict[str, int]:
    """The service's counters of the last checkpoint saved or restored."""
    return {name: int(self._counters[COUNTER_PREFIX + name].numpy())
            for name in _COUNTERS}

  def _call(self, call: Callable[[], Any]) -> Any:
    """The answer of `call()`, a call to the service; if Ray restarted the
    service meanwhile, restores it (`_restore_restarted`) and calls again.
    """
    while True:
      try:
        return self._ray.get(call())
      except replay_service.NotRestoredError:
        self._restore_restarted()

  def _restore_restarted(self) -> None:
    """Restores the service Ray restarted, empty, after its process died.

    From the replay file of the last checkpoint (an empty buffer if there
    is none) and that checkpoint's counters, but with the learner's step
    count, so the limiter owes no step until new games replace the lost
    ones. Logs one line: what died and what was lost.
    """
    # Calls sent before the restart end on the new process before it is
    # restored (it refuses them): none of them draws from, or updates
    # priorities in, the restored buffer.
    for pending in (self._pending_update, self._next_batch):
      if pending is not None:
        try:
          self._ray.get(pending)
        except Exception:  # pylint: disable=broad-except
          pass  # Refused, or answered by the dead process: dropped.
    self._pending_update = self._next_batch = None
    self._restarts += 1
    saved = self._saved_counters()
    steps = self._learner.steps
    path = self._replay.path
    games, positions = self._ray.get(self._service.restore.remote(
        path, dict(saved, learner_steps=steps)))
    lost_games = max(self._seen['games'] - saved['games'], 0)
    lost_steps = max(self._seen['env_steps'] - saved['env_steps'], 0)
    # The restored service counts from the checkpoint's counters again.
    self._seen = dict(replay_service.NO_COUNTS)
    self.stats()  # The counts restored, and the games admitted since.
    logging.warning(
        'The replay service\'s process died; Ray restarted it with %s (%d '
        'games, %d positions). Lost: the games admitted since (at least %d, '
        'of %d positions); the learner waits at step %d until new games '
        'replace them.',
        f'the replay of the checkpoint at learner step {self._replay.step}'
        if path else 'an empty replay (no checkpoint yet)',
        games, positions, lost_games, lost_steps, steps)
    self._last_env_steps = self.env_steps

  @property
  def service(self) -> Any:
    """The replay service's actor handle."""
    return self._service

  @property
  def workers(self) -> Sequence[Any]:
    """The self-play actors' handles."""
    return tuple(self._workers)

  @property
  def weight_store(self) -> Any:
    """The `WeightStore` actor's handle."""
    return self._weights

  @property
  def reanalyse_workers(self) -> Sequence[Any]:
    """The reanalyse workers' handles."""
    return tuple(self._reanalyse_workers)

  @property
  def reanalyser(self) -> Optional[reanalysis.Reanalyser]:
    """The learner's own reanalyser (no reanalyse workers), if any."""
    return self._reanalyser

  @property
  def evaluator(self) -> Optional[Any]:
    """The evaluator's handle, if the run has one."""
    return self._evaluator

  @property
  def env_steps(self) -> int:
    return int(self._stats.get('env_steps', 0))

  @property
  def games(self) -> int:
    return int(self._stats.get('games', 0))

  @property
  def published_version(self) -> Optional[int]:
    """The learner step of the newest published weights, if any."""
    return self._published

  def publish(self) -> None:
    """Puts the network's arrays in the object store for the actors.

    The store's answer is not waited for here but at the next publication
    (which surfaces an error of this one), so the learner does not wait a
    round trip per publication.
    """
    if self._pending_publish is not None:
      held = self._ray.get(self._pending_publish)
      if held < self._store_held:
        logging.warning(
            'The weight store\'s process died; Ray restarted it, and it holds '
            'the weights of learner step %d again (the actors played with '
            'theirs meanwhile).', self._published)
    arrays = weight_store.network_arrays(self._learner.network)
    version = self._learner.steps
    reference = self._ray.put(arrays)
    self._pending_publish = self._weights.publish.remote(version, [reference])
    # What the store holds before this publication, unless it restarted.
    self._store_held = (weight_store.NO_VERSION if self._published is None
                        else self._published)
    self._published = version

  def check_workers(self) -> None:
    """Raises RuntimeError if a self-play actor's, the evaluator's or a
    reanalyse worker's loop failed (a crashed process is restarted by Ray
    instead, and not waited for here). `sample` calls it whenever it has
    waited `_SAMPLE_TIMEOUT` seconds for a batch, and every
    `_CHECK_INTERVAL` seconds otherwise."""
    self._checked_at = time.monotonic()
    actors = self._workers + ([self._evaluator] if self._evaluator else [])
    names = [f'Self-play actor {i}' for i in range(len(self._workers))]
    names += ['The evaluator'] if self._evaluator else []
    actors += self._reanalyse_workers
    names += [f'Reanalyse worker {i}'
              for i in range(len(self._reanalyse_workers))]
    calls = [actor.status.remote() for actor in actors]
    ready, _ = self._ray.wait(calls, num_returns=len(calls), timeout=1.)
    for index, call in enumerate(calls):
      if call not in ready:
        continue
      try:
        status = self._ray.get(call)
      except Exception:  # pylint: disable=broad-except
        continue  # Dead or restarting: Ray brings it back.
      if status['error']:
        raise RuntimeError(f'{names[index]} failed:\n{status["error"]}')

  def _request_batch(self) -> Any:
    """Asks the service for the next batch (an `ObjectRef` of its answer)."""
    if self._reanalyse_workers:
      kind = 'reanalysed'
    elif self._reanalyser is not None:
      kind = 'inputs'
    else:
      kind = 'sample'
    return self._service.learner_batch.remote(kind, _SAMPLE_TIMEOUT)

  def sample(self) -> Tuple[types.Batch, Optional[np.ndarray]]:
    """The next batch from the service.

    The request for the following batch goes out as soon as this one
    arrives, so the service draws it (and the round trip happens) while the
    learner computes its step. So a batch is drawn before the previous
    batch's priorities are back: with prioritised replay, the priorities a
    draw sees are one learner step older than in one process, as with an
    asynchronous replay server.
    """
    if self._pending_update is not None:
      pending, self._pending_update = self._pending_update, None
      try:
        self._ray.get(pending)  # Surfaces a failed update.
      except replay_service.NotRestoredError:
        self._restore_restarted()
    if time.monotonic() - self._checked_at >= _CHECK_INTERVAL:
      self.check_workers()
    while True:
      request = self._next_batch or self._request_batch()
      self._next_batch = None
      try:
        result, counts = self._ray.get(request)
        self._see(counts)
      except replay_service.NotRestoredError:
        self._restore_restarted()
        continue
      self._next_batch = self._request_batch()
      self._drawn_at_restart = self._restarts
      if result is not None:
        batch, keys = result[:2]
        if self._reanalyser is not None:  # A `replay_service.Sampled`.
          batch = self._reanalyser.reanalyse_gathered(batch, result.inputs,
                                                      result.maps)
        return batch, keys if self._config.prioritized_replay else None
      self.check_workers()

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray) -> None:
    if self._drawn_at_restart != self._restarts:
      return  # Keys of the dead service's buffer.
    self._pending_update = self._service.update_priorities.remote(
        keys, np.asarray(priorities))

  def compile_function(self) -> Callable[[], None]:
    """Publishes the weights now; returns a function with nothing to do.

    `training_loop.TrainingLoop` calls this before it compiles the
    learner's step (`compile_first`): the actors, whose searches compile
    before their first weights, start playing with these while the step
    compiles. Compiled at the first step instead, the step would wait for
    their first games, and they for the weights.
    """
    if self._published is None:
      self.publish()
    return lambda: None

  def run_round(self, learn: data_sources.Learn,
                learner_steps: Callable[[], int],
                should_stop: Optional[Callable[[], bool]] = None) -> None:
    del should_stop  # One learner step per round: the loop checks it.
    if self._published is None:
      self.publish()
    learn()
    if learner_steps() - self._published >= self._publish_interval:
      self.publish()

  def stats(self) -> Dict[str, Any]:
    """The service's counters and the games since the last call
    (`ReplayService.stats`); updates `env_steps` and `games`."""
    self._stats = self._call(self._service.stats.remote)
    self._see(self._stats)
    return self._stats

  def _see(self, counts: Dict[str, Any]) -> None:
    """Takes the service's newest counters. A batch requested before a
    `stats` call may be answered after it with older counts: the counters
    only grow while the service lives, so the larger value is the newer."""
    self._seen = {name: max(int(counts.get(name, 0)), seen)
                  for name, seen in self._seen.items()}

  def progress(self, elapsed: float) -> Tuple[str, Dict[str, float]]:
    stats = self.stats()
    returns, lengths = stats['returns'], stats['lengths']
    rate = (self.env_steps - self._last_env_steps) / max(elapsed, 1e-9)
    self._last_env_steps = self.env_steps
    ratio = stats['observed_ratio']
    worst = stats['worst_ratio_deviation']
    text = (f'games {self.games}  env steps {self.env_steps}  return '
            f'{np.mean(returns) if returns else float("nan"):.2f}  '
            f'{rate:.1f} env steps/s  train ratio '
            f'{"-" if ratio is None else f"{ratio:.4f}"} over the last '
            f'{stats["ratio_window"]} steps  weights v{self._published}')
    scalars = {
        'selfplay/games': self.games,
        'selfplay/env_steps': self.env_steps,
        'selfplay/env_steps_per_second': rate,
        'replay/positions': stats['positions'],
        'replay/queued_games': stats['queued_games'],
    }
    if returns:
      scalars['selfplay/episode_return'] = float(np.mean(returns))
      scalars['selfplay/game_length'] = float(np.mean(lengths))
    if ratio is not None:
      scalars['replay/observed_train_ratio'] = ratio
    if worst is not None:
      scalars['replay/worst_train_ratio_deviation'] = worst
    if self._reanalyser is not None:
      more_text, more = data_sources.reanalysis_progress(self._reanalyser)
      text += more_text
      scalars.update(more)
    elif self._reanalyse_workers:
      batches = stats['reanalysed_batches'] - self._last_reanalysed
      self._last_reanalysed = stats['reanalysed_batches']
      text += (f'  reanalysed {batches} batches by '
               f'{len(self._reanalyse_workers)} worker(s)')
      scalars['reanalyse/batches'] = batches
    return text, scalars

  def close(self) -> None:
    """Keeps the service's last counters for `totals` (the run stops it)."""
    self.stats()
    self._closed = True

  def totals(self) -> str:
    stats = self._stats if self._closed else self.stats()
    return (f'{stats["games"]} games, {stats["env_steps"]} environment '
            f'steps, {stats["positions"]} positions in replay')
