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

A `data_sources.DataSource`: a round is one learner step on a batch from
the replay service, whose new priorities go back to it; every
`publish_interval` steps the weights go out to the workers. A checkpoint
holds the service's buffer and counters of one moment (`save`).

Ray restarts a dead service empty, and the new one refuses the learner's
calls (`replay_service.NotRestoredError`). The source restores it from the
last checkpoint's replay file and counters, but with the learner's step
count: the limiter owes no step until new games replace those lost.
Batches drawn from the dead service get no priority updates.
"""

import time
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

from absl import logging
import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import learning
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import types
from muzero_snt.distributed import health
from muzero_snt.distributed import rate_limiter
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import weight_store
from muzero_snt.run import checkpointing
from muzero_snt.run import data_sources

# Seconds a batch request waits before the workers' health is checked.
_SAMPLE_TIMEOUT = 2.
# Seconds between health checks while batches keep coming from others.
_CHECK_INTERVAL = 10.
# The checkpoint's names of the service's counters start with this: a
# checkpoint of the distributed mode is known by them.
COUNTER_PREFIX = 'distributed_'


class ReplayServiceSource:
  """Batches from the replay service, priorities back, weights out.

  Attributes:
    service: the `ReplayService` actor's handle.
    weight_store: the `WeightStore` actor's handle.
    workers, reanalyse_workers, evaluator: the `SelfPlayWorker`,
      `ReanalyseWorker` and `Evaluator` (or None) actors' handles.
    reanalyser: the `Reanalyser` of every batch in this process (its state
      is checkpointed with the counters), or None.
  """

  def __init__(self, config: config_lib.MuZeroConfig,
               learner: learning.Learner, service: Any, weights: Any,
               publish_interval: int, workers: Sequence[Any] = (),
               evaluator: Optional[Any] = None,
               reanalyser: Optional[reanalysis.Reanalyser] = None,
               reanalyse_workers: Sequence[Any] = ()):
    """Constructs the source of `learner`, publishing its weights every
    `publish_interval` steps; the other arguments are the attributes
    (`weights` the `weight_store`), a reanalyser without reanalyse workers.
    """
    if reanalyser is not None and reanalyse_workers:
      raise ValueError('Batches are reanalysed either here (reanalyser) or '
                       'by reanalyse_workers, not both.')
    rate_limiter.check_positive_int('publish_interval', publish_interval)
    self._ray = ray_support.require_ray()
    self._config = config
    self._learner = learner
    self.service = service
    self.weight_store = weights
    self.workers = tuple(workers)
    self.evaluator = evaluator
    self.reanalyse_workers = tuple(reanalyse_workers)
    self.reanalyser = reanalyser
    # The workers `_check_workers` asks: by the names its errors and logs
    # give, with what a death loses and the field that places them.
    watched = [health.Watched(f'Self-play actor {i}', h, 'the games it was '
                              'playing, and those it had finished but not '
                              'sent', 'actor_placement')
               for i, h in enumerate(self.workers)]
    if evaluator:
      watched.append(health.Watched('The evaluator', evaluator, 'the '
                                    'evaluation in progress',
                                    'evaluator_placement'))
    watched += [health.Watched(f'Reanalyse worker {i}', h, 'the batches it '
                               'held (the replay service drops them)',
                               'reanalyze_placement')
                for i, h in enumerate(self.reanalyse_workers)]
    self._watch = health.Watch(self._ray, watched)
    self._kind = ('reanalysed' if reanalyse_workers else
                  'inputs' if reanalyser is not None else 'sample')
    self._publisher = weight_store.Publisher(self._ray, weights)
    self._publish_interval = publish_interval
    # The service's counters, replay file and learner step of the last
    # checkpoint saved or restored (a restarted service goes back to them).
    self._saved = checkpointing.counters(**replay_service.NO_COUNTS)
    self._replay_path: Optional[str] = None
    self._replay_step = 0
    # Restarts of the service so far, and at the last batch drawn.
    self._restarts = 0
    self._drawn_at_restart = 0
    # The service's newest counters known here (`learner_batch`, `stats`):
    # what is lost if its process dies is counted from them.
    self._seen: Dict[str, int] = dict(replay_service.NO_COUNTS)
    self._pending_update = None
    self._next_batch = None  # The request for the next batch, in flight.
    self._checked_at = time.monotonic()  # Of the last `_check_workers`.
    self._stats: Dict[str, Any] = {}
    self._last_env_steps = 0
    self._last_reanalysed = 0
    self._closed = False

  def counters(self) -> Dict[str, tf.Variable]:
    saved = {COUNTER_PREFIX + name: v for name, v in self._saved.items()}
    return {**saved, **(self.reanalyser.state if self.reanalyser else {})}

  @property
  def replay(self) -> 'ReplayServiceSource':
    """This source: a `checkpointing.Checkpointer` calls its `save`."""
    return self

  def save(self, path: str) -> None:
    """The service writes its buffer to `path` (on its machine, the
    learner's: `runner.py`); its counters go to the checkpoint."""
    counters = self._call(lambda: self.service.save.remote(path))
    for name, variable in self._saved.items():
      variable.assign(counters[name])
    self._replay_path, self._replay_step = path, self._learner.steps

  def restore_replay(self, replay: Optional[replay_lib.ReplayBuffer]) -> None:
    if replay is not None:
      self._ray.get(self.service.load.remote(replay, self._saved_counters()))
      self._replay_path = replay.restored_from
      self._replay_step = self._learner.steps
    self._last_env_steps = self.env_steps

  def _saved_counters(self) -> Dict[str, int]:
    return {name: int(v.numpy()) for name, v in self._saved.items()}

  def _call(self, call: Callable[[], Any]) -> Any:
    """The answer of `call()`, a call to the service, restoring and asking
    a restarted service again."""
    while True:
      try:
        return self._ray.get(call())
      except replay_service.NotRestoredError:
        self._restore_restarted()

  def _restore_restarted(self) -> None:
    """Restores a restarted service; logs what died and what was lost."""
    # Calls sent before the restart end on the new process before it is
    # restored (it refuses them): none of them touches the restored buffer.
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
    path = self._replay_path
    games, positions = self._ray.get(self.service.restore.remote(
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
        f'the replay of the checkpoint at learner step {self._replay_step}'
        if path else 'an empty replay (no checkpoint yet)',
        games, positions, lost_games, lost_steps, steps)
    self._last_env_steps = self.env_steps

  @property
  def env_steps(self) -> int:
    return int(self._stats.get('env_steps', 0))

  @property
  def published_version(self) -> Optional[int]:
    """The learner step of the newest published weights, if any."""
    return self._publisher.version

  def _publish(self) -> None:
    self._publisher.publish(self._learner.network, self._learner.steps)

  def _check_workers(self) -> None:
    """`health.Watch.check` of every worker: raises if one failed, logs
    deaths, restarts and nodes lost."""
    self._checked_at = time.monotonic()
    self._watch.check()

  def _request_batch(self) -> Any:  # An `ObjectRef` of the answer.
    return self.service.learner_batch.remote(self._kind, _SAMPLE_TIMEOUT)

  def sample(self) -> Tuple[types.Batch, Optional[np.ndarray]]:
    """The next batch; the following one is drawn meanwhile, so a draw
    sees priorities one step older than in one process."""
    if self._pending_update is not None:
      pending, self._pending_update = self._pending_update, None
      try:
        self._ray.get(pending)  # Surfaces a failed update.
      except replay_service.NotRestoredError:
        self._restore_restarted()
    if time.monotonic() - self._checked_at >= _CHECK_INTERVAL:
      self._check_workers()
    while True:
      request = self._next_batch or self._request_batch()
      self._next_batch = None
      try:
        result, counts = self._ray.get(request)
      except replay_service.NotRestoredError:
        self._restore_restarted()
        continue
      self._see(counts)
      self._next_batch = self._request_batch()
      self._drawn_at_restart = self._restarts
      if result is not None:
        batch, keys = result[:2]
        if self.reanalyser is not None:  # A `replay_service.Sampled`.
          batch = self.reanalyser.reanalyse_gathered(batch, result.inputs,
                                                     result.maps)
        return batch, keys if self._config.prioritized_replay else None
      self._check_workers()  # After `_SAMPLE_TIMEOUT` s without a batch.

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray) -> None:
    if self._drawn_at_restart != self._restarts:
      return  # Keys of the dead service's buffer.
    self._pending_update = self.service.update_priorities.remote(
        keys, np.asarray(priorities))

  def compile_function(self) -> Callable[[], None]:
    """Publishes the weights now, so the workers play while the learner
    compiles its step; returns a function with nothing to do."""
    if self.published_version is None:
      self._publish()
    return lambda: None

  def run_round(self, learn: data_sources.Learn,
                learner_steps: Callable[[], int],
                should_stop: Optional[Callable[[], bool]] = None) -> None:
    del should_stop  # One learner step per round: the loop checks it.
    if self.published_version is None:
      self._publish()
    learn()
    if learner_steps() - self.published_version >= self._publish_interval:
      self._publish()

  def stats(self) -> Dict[str, Any]:
    """`ReplayService.stats`; updates `env_steps`."""
    self._stats = self._call(self.service.stats.remote)
    self._see(self._stats)
    return self._stats

  def _see(self, counts: Dict[str, Any]) -> None:
    """Takes the service's newest counters: those of a batch asked for
    before a `stats` call may be older, and they only grow."""
    self._seen = {name: max(int(counts.get(name, 0)), seen)
                  for name, seen in self._seen.items()}

  def progress(self, elapsed: float) -> Dict[str, float]:
    stats = self.stats()
    returns, lengths = stats['returns'], stats['lengths']
    rate = (self.env_steps - self._last_env_steps) / max(elapsed, 1e-9)
    self._last_env_steps = self.env_steps
    scalars = {
        'selfplay/games': stats['games'],
        'selfplay/env_steps': self.env_steps,
        'selfplay/env_steps_per_second': rate,
        'selfplay/episode_return': np.mean(returns) if returns else None,
        'selfplay/game_length': np.mean(lengths) if returns else None,
        'replay/positions': stats['positions'],
        'replay/queued_games': stats['queued_games'],
        'replay/observed_train_ratio': stats['observed_ratio'],
        'replay/train_ratio_window': stats['ratio_window'],
        'replay/worst_train_ratio_deviation': stats['worst_ratio_deviation'],
        'weights/version': self.published_version,
    }
    scalars = {k: v for k, v in scalars.items() if v is not None}
    if self.reanalyser is not None:
      scalars.update(data_sources.reanalysis_progress(self.reanalyser))
    elif self.reanalyse_workers:
      batches = stats['reanalysed_batches'] - self._last_reanalysed
      self._last_reanalysed = stats['reanalysed_batches']
      scalars['reanalyse/batches'] = batches
      scalars['reanalyse/workers'] = len(self.reanalyse_workers)
    return scalars

  def close(self) -> None:
    """Keeps the service's last counters for `totals` (the run stops it)."""
    self.stats()
    self._closed = True

  def totals(self) -> str:
    stats = self._stats if self._closed else self.stats()
    return (f'{stats["games"]} games, {stats["env_steps"]} environment '
            f'steps, {stats["positions"]} positions in replay')
