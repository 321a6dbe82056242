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

A `data_sources.DataSource` whose round is one learner step on a batch
from a shard drawn by its last reported sampling mass (`shards.py`). Ray
restarts a dead shard empty (`replay_service.NotRestoredError`); the
source restores it from the last checkpoint, with the learner's step
count, so the limiter owes no step until new games replace those lost.
"""

import pickle
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from absl import logging
import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import learning
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import types
from muzero_snt.distributed import health
from muzero_snt.distributed import ray_support
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import shards as shards_lib
from muzero_snt.distributed import weight_store
from muzero_snt.run import checkpointing
from muzero_snt.run import data_sources

_SAMPLE_TIMEOUT = 2.  # Seconds a batch request waits before a health check.
_CHECK_INTERVAL = 10.  # Seconds between health checks while batches come.
# Of several shards: seconds a batch may take past `_SAMPLE_TIMEOUT`, and a
# question may stay unanswered, before its shard leaves the sampling.
_BATCH_GRACE = 10.
_SILENT_SECONDS = 30.
COUNTER_PREFIX = 'distributed_'  # Marks the service's counters in a checkpoint.


class ReplayServiceSource:
  """Batches from the replay service, priorities back, weights out.

  Attributes:
    shards: the `ReplayService` actors' handles; `service` the first's.
    weight_store, workers, reanalyse_workers, evaluator: the other actors'
      handles (no evaluator: None).
    reanalyser: the in-process `Reanalyser` of every batch, or None.
  """

  def __init__(self, config: config_lib.MuZeroConfig,
               learner: learning.Learner, service: Any, weights: Any,
               publish_interval: int, workers: Sequence[Any] = (),
               evaluator: Optional[Any] = None,
               reanalyser: Optional[reanalysis.Reanalyser] = None,
               reanalyse_workers: Sequence[Any] = (), seed: int = 0):
    """Publishes `learner`'s weights to `weights` every `publish_interval`
    steps; `service` is one shard's handle or a list of them."""
    if reanalyser is not None and reanalyse_workers:
      raise ValueError('Batches are reanalysed either here (reanalyser) or '
                       'by reanalyse_workers, not both.')
    self._ray = ray_support.require_ray()
    self._config = config
    self._learner = learner
    self.shards = (list(service) if isinstance(service, (list, tuple))
                   else [service])
    self.service = self.shards[0]
    self._seed = seed
    self.weight_store = weights
    self.workers = tuple(workers)
    self.evaluator = evaluator
    self.reanalyse_workers = tuple(reanalyse_workers)
    self.reanalyser = reanalyser
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
    num_shards = len(self.shards)
    # Of the last checkpoint saved or restored, to which a restarted shard
    # goes back: counters (summed, each shard's), replay file, learner step.
    self._saved = checkpointing.counters(**replay_service.NO_COUNTS)
    self._shard_counters = [dict(replay_service.NO_COUNTS)] * num_shards
    self._replay_path: Optional[str] = None
    self._replay_step = 0
    # Restarts of each shard; the shard and its restarts at the last draw.
    self._restarts = [0] * num_shards
    self._drawn = (0, 0)
    # Each shard's newest counters known (what its death loses), and stats.
    self._seen = [dict(replay_service.NO_COUNTS) for _ in self.shards]
    self._shard_stats: List[Dict[str, Any]] = [{} for _ in self.shards]
    # Of several shards: last masses, `mass` calls (and when sent), the lost.
    self._masses: List[Optional[float]] = [None] * num_shards
    self._mass_calls: List[Optional[Tuple[Any, float]]] = [None] * num_shards
    self._lost: set = set()
    self._rng = np.random.default_rng([seed, 2])
    self._pending_update = None  # (shard, the call).
    self._next_batch = None  # (shard, the request), in flight.
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
    """Writes every shard's buffer into the replay file `path` (`shards.
    write`); their counters go to the checkpoint, summed, and the file."""
    buffers, counters = [], []
    for k, shard in enumerate(self.shards):
      answer = None
      while k not in self._lost:  # Asked again once restored.
        try:
          answer = self._get(k, shard.snapshot.remote())
          break
        except replay_service.NotRestoredError:
          self._restore_restarted(k)
      if answer is None:  # Saved empty: its games are lost (logged).
        buffers.append(self._empty_buffer(k))
        counters.append(dict(replay_service.NO_COUNTS, learner_steps=(
            self._seen[k]['learner_steps'])))
        continue
      buffers.append(pickle.loads(answer[0]))
      counters.append(answer[1])
    shards_lib.write(path, self._config, buffers, counters)
    for name, value in shards_lib.summed(counters).items():
      self._saved[name].assign(value)
    self._shard_counters = counters
    self._replay_path, self._replay_step = path, self._learner.steps

  def _empty_buffer(self, k: int) -> replay_lib.ReplayBuffer:
    return replay_lib.ReplayBuffer(
        shards_lib.shard_config(self._config, k, len(self.shards)),
        seed=shards_lib.shard_seed(self._seed, k))

  def _dealt(self, path: Optional[str],
             replay: Optional[replay_lib.ReplayBuffer] = None
            ) -> List[Tuple[replay_lib.ReplayBuffer, Dict[str, int]]]:
    """The shards' buffers and counters from replay file `path`, or `replay`."""
    parts = (shards_lib.read(self._config, path) if path else
             [shards_lib.Part(replay.contents(), None)])
    saved = {name: int(v.numpy()) for name, v in self._saved.items()}
    return shards_lib.deal(self._config, parts, len(self.shards),
                           self._seed, saved)

  def restore_replay(self, replay: Optional[replay_lib.ReplayBuffer]) -> None:
    if replay is not None:
      dealt = self._dealt(replay.restored_from, replay)
      self._ray.get([shard.load.remote(buffer, counters) for shard,
                     (buffer, counters) in zip(self.shards, dealt)])
      self._shard_counters = [counters for _, counters in dealt]
      self._replay_path = replay.restored_from
      self._replay_step = self._learner.steps
    self._last_env_steps = self.env_steps

  def _get(self, k: int, call: Any) -> Any:
    """`ray.get` of a call to shard `k`; of several shards, None if the
    answer does not come (the shard leaves the sampling). Raises
    `replay_service.NotRestoredError` if the shard awaits its restore."""
    if len(self.shards) == 1:
      return self._ray.get(call)
    timeout = _SAMPLE_TIMEOUT + _BATCH_GRACE
    try:
      return self._ray.get(call, timeout=timeout)
    except self._ray.exceptions.GetTimeoutError:
      self._leave(k, f'did not answer in {timeout:.0f} s')
    except self._ray.exceptions.RayActorError:
      self._leave(k, 'died')
    return None

  def _name(self, k: int) -> str:
    return ('The replay service' if len(self.shards) == 1 else
            f'Replay shard {k} (of {len(self.shards)})')

  def _restore_restarted(self, k: int) -> None:
    """Restores restarted shard `k`; logs what died and what was lost."""
    # Calls sent before the restart are waited for (the new process refuses
    # them) so that none touches the restored buffer.
    for name in ('_pending_update', '_next_batch'):
      pending = getattr(self, name)
      if pending is not None and pending[0] == k:
        setattr(self, name, None)
        try:
          self._ray.get(pending[1])
        except Exception:  # pylint: disable=broad-except
          pass  # Refused, or answered by the dead process: dropped.
    self._restarts[k] += 1
    saved = self._shard_counters[k]
    steps = self._learner.steps
    # The learner's steps (one shard), or those shard k granted.
    granted = steps if len(self.shards) == 1 else max(
        self._seen[k]['learner_steps'], saved['learner_steps'])
    path = self._replay_path
    buffer = self._dealt(path)[k][0] if path else self._empty_buffer(k)
    self._ray.get(self.shards[k].load.remote(
        buffer, dict(saved, learner_steps=granted)))
    lost_games = max(self._seen[k]['games'] - saved['games'], 0)
    lost_steps = max(self._seen[k]['env_steps'] - saved['env_steps'], 0)
    # The restored shard counts from the checkpoint's counters again.
    self._seen[k] = dict(replay_service.NO_COUNTS)
    self._masses[k] = buffer.sampling_mass
    self._lost.discard(k)
    self.stats()  # The counts restored, and the games admitted since.
    logging.warning(
        '%s\'s process died; Ray restarted it with %s (%d games, %d '
        'positions). Lost: the games admitted since (at least %d, of %d '
        'positions); the learner waits at step %d until new games replace '
        'them.', self._name(k),
        f'the replay of the checkpoint at learner step {self._replay_step}'
        if path else 'an empty replay (no checkpoint yet)',
        buffer.num_games, buffer.num_positions, lost_games, lost_steps,
        steps)
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
    """`health.Watch.check`: raises if a worker failed, logs the rest."""
    self._checked_at = time.monotonic()
    self._watch.check()

  def _request_batch(self) -> Tuple[int, Any]:
    """(shard, `ObjectRef`) of a batch request to a shard drawn by mass."""
    k = 0
    if len(self.shards) > 1:
      self._poll_masses()
      k = shards_lib.choose([0. if i in self._lost or m is None else m
                             for i, m in enumerate(self._masses)], self._rng)
    return k, self.shards[k].learner_batch.remote(self._kind, _SAMPLE_TIMEOUT)

  def _poll_masses(self) -> None:
    """Takes the `mass` answers that came (the first time, waiting up to
    `_SAMPLE_TIMEOUT` s) and asks again; a shard silent too long leaves."""
    now = time.monotonic()
    for k, shard in enumerate(self.shards):
      if self._mass_calls[k] is None:
        self._mass_calls[k] = (shard.mass.remote(), now)
    calls = [call for call, _ in self._mass_calls]
    first = all(m is None for m in self._masses)
    ready = self._ray.wait(calls, num_returns=len(calls),
                           timeout=_SAMPLE_TIMEOUT if first else 0)[0]
    for k, (call, sent) in enumerate(list(self._mass_calls)):
      if call not in ready:
        if now - sent >= _SILENT_SECONDS:
          self._leave(k, f'has not answered for {now - sent:.0f} s')
        continue
      self._mass_calls[k] = None
      try:
        self._masses[k] = self._ray.get(call)
      except replay_service.NotRestoredError:
        self._restore_restarted(k)
        continue
      except Exception:  # pylint: disable=broad-except
        self._leave(k, 'died')  # For good: Ray restarts none.
        continue
      if k in self._lost:
        self._lost.discard(k)
        logging.warning('%s answers again and is back in the sampling.',
                        self._name(k))

  def _leave(self, k: int, why: str) -> None:
    """Takes shard `k` out of the sampling, logging what it held."""
    if k in self._lost:
      return
    self._lost.add(k)
    held = self._shard_stats[k]
    logging.warning(
        '%s %s: its process or node is gone and Ray has not started it '
        'again (no live node has what replay_placement asks for, or it is '
        'still starting). Lost from the sampling: its %d positions (%d '
        'games) at its last count; the learner samples from the %d shards '
        'left, and takes the shard back when it answers.', self._name(k),
        why, held.get('positions', 0), held.get('games', 0),
        len(self.shards) - len(self._lost))

  def sample(self) -> Tuple[types.Batch, Optional[np.ndarray]]:
    """The next batch; the following one is drawn meanwhile, so a draw
    sees priorities one step older than in one process (batches of a
    shard that died since get no priority updates)."""
    if self._pending_update is not None:
      (k, pending), self._pending_update = self._pending_update, None
      try:
        self._get(k, pending)  # Surfaces a failed update.
      except replay_service.NotRestoredError:
        self._restore_restarted(k)
    if time.monotonic() - self._checked_at >= _CHECK_INTERVAL:
      self._check_workers()
    while True:
      k, request = self._next_batch or self._request_batch()
      self._next_batch = None
      try:
        answer = self._get(k, request)
      except replay_service.NotRestoredError:
        self._restore_restarted(k)
        continue
      if answer is None:  # The shard left the sampling.
        self._check_workers()
        continue
      result, counts = answer
      self._see(k, counts)
      self._next_batch = self._request_batch()
      self._drawn = (k, self._restarts[k])
      if result is not None:
        batch, keys = result[:2]
        if self.reanalyser is not None:  # A `replay_service.Sampled`.
          batch = self.reanalyser.reanalyse_gathered(batch, result.inputs,
                                                     result.maps)
        return batch, keys if self._config.prioritized_replay else None
      self._check_workers()  # After `_SAMPLE_TIMEOUT` s without a batch.

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray) -> None:
    k, restarts = self._drawn
    if self._restarts[k] != restarts or k in self._lost:
      return  # Keys of a dead shard's buffer.
    self._pending_update = (k, self.shards[k].update_priorities.remote(
        keys, np.asarray(priorities)))

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
    """`shards.combined_stats` of the shards' `stats` (a shard out of the
    sampling by its last); updates `env_steps`."""
    calls = {k: shard.stats.remote() for k, shard in enumerate(self.shards)
             if k not in self._lost}
    for k, call in calls.items():
      try:
        answer = self._get(k, call)
      except replay_service.NotRestoredError:
        # Refused as an earlier call was; the restore counts them again.
        self._restore_restarted(k)
        return self._stats
      if answer is not None:
        self._shard_stats[k] = answer
        self._see(k, answer)
    self._stats = shards_lib.combined_stats(
        [s for s in self._shard_stats if s])
    return self._stats

  def _see(self, k: int, counts: Dict[str, Any]) -> None:
    """Takes shard `k`'s newest counters (they only grow; a batch's may be
    older than the last `stats`)."""
    self._seen[k] = {name: max(int(counts.get(name, 0)), seen)
                     for name, seen in self._seen[k].items()}

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

  def close(self, failed: bool = False) -> None:
    """Sends the last weights and keeps the last counters for `totals`,
    before Ray stops (a send in flight then ends the process); a `failed`
    run only waits for the weights being sent."""
    self._publisher.close(send_waiting=not failed)
    if not failed:
      self.stats()
    self._closed = True

  def totals(self) -> str:
    stats = self._stats if self._closed else self.stats()
    return (f'{stats["games"]} games, {stats["env_steps"]} environment '
            f'steps, {stats["positions"]} positions in replay')
