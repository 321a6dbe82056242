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
"""The replay service: a `ReplayBuffer` shared by actors and the learner.

An asynchronous Ray actor (plain Python in tests), one per shard
(`shards.py`), behind a `rate_limiter`. For reanalysis (docs/reanalysis.md)
it chooses each batch's rows and reads their inputs (`Sampled`), so that a
checkpoint's replay resumes the same draws.
"""

import asyncio
import collections
import pickle
import secrets
from typing import (Any, Callable, Deque, Dict, List, NamedTuple, Optional,
                    Tuple)

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt import types
from muzero_snt.distributed import rate_limiter as rate_limiter_lib
from muzero_snt.distributed import shards as shards_lib

_RECENT = 1000  # Games whose return and length `stats` keeps between calls.
# The counters of a new run (`restore(None, NO_COUNTS)`).
NO_COUNTS = dict.fromkeys(shards_lib.COUNTER_NAMES, 0)


class NotRestoredError(RuntimeError):
  """A learner's call to a service that awaits `restore` or `load`."""


class Game(NamedTuple):
  """A finished self-play game as an actor sends it."""
  trajectory: trajectory_lib.Trajectory
  episode_return: float


class Sampled(NamedTuple):
  """A batch, its windows as stored, with what its reanalysis needs."""
  batch: types.Batch
  keys: np.ndarray  # [B, 2] (game id, position).
  inputs: reanalysis.Inputs
  maps: np.ndarray  # [B] int64 `draw_symmetries`, applied once reanalysed.


class ReplayService:
  """A replay buffer behind a rate limiter, for separate processes."""

  def __init__(self, config: config_lib.MuZeroConfig, train_ratio: float,
               seed: int = 0,
               max_ahead: int = rate_limiter_lib.DEFAULT_MAX_AHEAD,
               reanalysis_queue: int = 2, wait_for_restore: bool = False,
               shard: int = 0, num_shards: int = 1):
    """An empty service, shard `shard` of `num_shards`; `seed` is the run's
    (`shards.shard_seed` of the buffer and of the rows to reanalyse), and
    reanalyse workers may hold `reanalysis_queue` batches at a time. Made
    `wait_for_restore`, as Ray restarts a dead service, it refuses the
    learner's calls and holds the actors' until the first `restore` or
    `load` (queued games are not checkpointed)."""
    rate_limiter_lib.check_positive_int('reanalysis_queue', reanalysis_queue)
    self._config = shards_lib.shard_config(config, shard, num_shards)
    self._seed = shards_lib.shard_seed(seed, shard)
    self._restored = not wait_for_restore
    self._buffer = replay_lib.ReplayBuffer(self._config, seed=self._seed)
    self._limiter = rate_limiter_lib.RateLimiter(train_ratio, max_ahead)
    self._queue: Deque[Tuple[int, Game]] = collections.deque()  # (actor, _)
    self._queued_per_actor: Dict[int, int] = collections.Counter()
    self._changed: Optional[asyncio.Condition] = None
    self._games = 0
    # (return, length) of the games admitted since the last `stats`.
    self._recent: Deque[Tuple[float, int]] = collections.deque(maxlen=_RECENT)
    self._registrations: Dict[int, List[int]] = {}
    self._rows_rng = np.random.default_rng([self._seed, 1])  # To reanalyse.
    self._reanalysis_queue = reanalysis_queue
    # From a random start: a ticket of a dead service's batch, handed back
    # to the one Ray restarted in its place, matches none of its own.
    self._tickets = secrets.randbits(62)
    self._taken: Dict[int, int] = {}  # {ticket: worker}
    self._ready = collections.deque()  # (ticket, batch, keys)
    self._reanalysed = 0

  def _condition(self) -> asyncio.Condition:
    # Made in the event loop that runs the methods (Ray's, or a test's).
    if self._changed is None:
      self._changed = asyncio.Condition()
    return self._changed

  async def _notify(self) -> None:
    async with self._condition():
      self._condition().notify_all()

  def _check_restored(self) -> None:
    if not self._restored:
      raise NotRestoredError(
          'The replay service holds no buffer yet: it awaits restore or '
          'load (a service Ray restarted after its process died).')

  def _admit_queued(self) -> int:
    """Moves queued games into the buffer while the limiter allows."""
    admitted = 0
    while self._queue and self._limiter.can_admit(
        self._queue[0][1].trajectory.length):
      actor, game = self._queue.popleft()
      self._queued_per_actor[actor] -= 1
      counted = self._buffer.num_positions >= self._config.batch_size
      self._buffer.save_game(game.trajectory)
      self._limiter.admit(game.trajectory.length, counted=counted)
      self._games += 1
      self._recent.append((game.episode_return, game.trajectory.length))
      admitted += 1
    return admitted

  async def _when(self, ready: Callable[[], bool], timeout: Optional[float],
                  take: Callable[[], Any]) -> Any:
    """`take()` once `ready()`, or None after `timeout` seconds; queued
    games are admitted before and after (a learner step lets some in)."""
    condition = self._condition()
    async with condition:
      if self._admit_queued():
        condition.notify_all()
      try:
        await asyncio.wait_for(condition.wait_for(ready), timeout)
      except asyncio.TimeoutError:
        return None
      taken = take()
      self._admit_queued()
      condition.notify_all()
    return taken

  def register(self, actor: int, pid: int) -> int:
    """Records a (re)started actor's process; returns how many times actor
    `actor` registered before (its incarnation)."""
    pids = self._registrations.setdefault(actor, [])
    pids.append(pid)
    return len(pids) - 1

  async def register_reanalyser(self, worker: int, pid: int) -> int:
    """`register` for reanalyse worker `worker` (as actor -1 - worker); the
    batches an earlier process of it held are dropped."""
    incarnation = self.register(-1 - worker, pid)
    self._taken = {t: w for t, w in self._taken.items() if w != worker}
    await self._notify()  # Other workers may take their place.
    return incarnation

  def registrations(self) -> Dict[int, List[int]]:
    """{actor: process ids of its incarnations, oldest first}."""
    return {actor: list(pids) for actor, pids in self._registrations.items()}

  async def insert(self, actor: int, games: List[Game]) -> int:
    """Queues actor `actor`'s games once its earlier ones are admitted
    (holding it meanwhile); returns how many (any actor's) it admitted."""
    for game in games:
      if not game.trajectory.finished:
        raise ValueError(f'actor {actor} sent an unfinished game of '
                         f'{game.trajectory.length} moves; only whole '
                         'finished games enter the replay.')

    def take():
      self._queue.extend((actor, game) for game in games)
      self._queued_per_actor[actor] += len(games)
      return self._admit_queued()

    return await self._when(
        lambda: self._restored and not self._queued_per_actor[actor], None,
        take)

  async def sample_batch(self, timeout: Optional[float] = None,
                         augment: bool = True
                        ) -> Optional[Tuple[types.Batch, np.ndarray]]:
    """`ReplayBuffer.sample_batch(augment)` once the limiter owes the
    learner a step; None after `timeout` seconds (None: no limit)."""
    self._check_restored()

    def take():
      self._limiter.sample()
      return self._buffer.sample_batch(augment)

    return await self._when(self._limiter.can_sample, timeout, take)

  def _with_inputs(self, batch: types.Batch, keys: np.ndarray) -> Sampled:
    rows = reanalysis.choose_rows(self._config.reanalyze_fraction, len(keys),
                                  self._rows_rng)
    inputs = reanalysis.gather_inputs(self._config, keys, rows, self._buffer)
    return Sampled(batch, keys, inputs,
                   self._buffer.draw_symmetries(len(keys)))

  async def sample_with_inputs(self, timeout: Optional[float] = None
                              ) -> Optional[Sampled]:
    """`sample_batch` with the reanalysis inputs of the batch's chosen rows
    (a `reanalyze_fraction` of them), for a learner that reanalyses."""
    sampled = await self.sample_batch(timeout, augment=False)
    return None if sampled is None else self._with_inputs(*sampled)

  async def take_for_reanalysis(self, worker: int,
                                timeout: Optional[float] = None
                               ) -> Optional[Tuple[int, Sampled]]:
    """(ticket, `Sampled`) for reanalyse worker `worker` once the workers
    hold fewer than `reanalysis_queue` batches and than the steps owed;
    None if `timeout` seconds pass first."""

    def ready():
      held = len(self._taken)
      return (self._restored and held < self._reanalysis_queue and
              self._limiter.owed() > held)

    def take():
      ticket = self._tickets
      self._tickets += 1
      self._taken[ticket] = worker
      return ticket, self._with_inputs(
          *self._buffer.sample_batch(augment=False))

    return await self._when(ready, timeout, take)

  async def put_reanalysed(self, ticket: int, batch: types.Batch,
                           keys: np.ndarray) -> bool:
    """Queues a reanalysed batch for the learner; False if its ticket was
    dropped meanwhile (a `restore`, or its worker restarted)."""
    if ticket not in self._taken:
      return False
    self._ready.append((ticket, batch, keys))
    self._reanalysed += 1
    await self._notify()
    return True

  async def take_reanalysed(self, timeout: Optional[float] = None
                           ) -> Optional[Tuple[types.Batch, np.ndarray]]:
    """The oldest reanalysed (batch, keys), granting a step; None on timeout."""
    self._check_restored()

    def take():
      ticket, batch, keys = self._ready.popleft()
      del self._taken[ticket]
      self._limiter.sample()
      return batch, keys

    return await self._when(
        lambda: self._ready and self._limiter.can_sample(), timeout, take)

  async def learner_batch(self, kind: str, timeout: Optional[float] = None
                         ) -> Tuple[Any, Dict[str, int]]:
    """The answer of `sample_batch` ('sample'), `sample_with_inputs`
    ('inputs') or `take_reanalysed` ('reanalysed'), and `counters()` after
    it (from which the learner counts what a dead service lost)."""
    methods = {'sample': self.sample_batch, 'inputs': self.sample_with_inputs,
               'reanalysed': self.take_reanalysed}
    if kind not in methods:
      raise ValueError(f"kind must be 'sample', 'inputs' or 'reanalysed', "
                       f'got {kind!r}.')
    return await methods[kind](timeout), self.counters()

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray
                       ) -> None:
    self._check_restored()
    self._buffer.update_priorities(keys, priorities)

  def save(self, path: str) -> Dict[str, int]:
    """Writes the buffer to `path`; returns the counters to checkpoint."""
    self._check_restored()
    self._buffer.save(path)
    return self.counters()

  def snapshot(self) -> Tuple[bytes, Dict[str, int]]:
    """The pickled buffer and its counters, of one moment, for the
    learner's checkpoint (`shards.write`)."""
    self._check_restored()
    return pickle.dumps(self._buffer), self.counters()

  def mass(self) -> float:
    """`ReplayBuffer.sampling_mass`: what the learner picks shards by."""
    self._check_restored()
    return self._buffer.sampling_mass

  def counters(self) -> Dict[str, int]:
    return dict(self._limiter.state(), games=self._games)

  async def restore(self, path: Optional[str],
                    counters: Dict[str, int]) -> Tuple[int, int]:
    """`load` of the file `save` wrote (None: empty) -> (games, positions)."""
    buffer = (replay_lib.ReplayBuffer.restore(self._config, path) if path
              else replay_lib.ReplayBuffer(self._config, seed=self._seed))
    restored = buffer.num_games, buffer.num_positions
    await self.load(buffer, counters)
    return restored

  async def load(self, buffer: replay_lib.ReplayBuffer,
                 counters: Dict[str, int]) -> None:
    """Continues from a restored buffer and the counters saved with it."""
    if not isinstance(buffer, replay_lib.ReplayBuffer):
      raise TypeError(f'load needs a ReplayBuffer, got {buffer!r}.')
    self._buffer = buffer
    self._taken.clear()  # Batches of the buffer replaced are dropped.
    self._ready.clear()
    self._limiter.restore(**{k: counters[k] for k in self._limiter.state()})
    self._games = int(counters['games'])
    self._restored = True
    await self._notify()

  def stats(self) -> Dict[str, Any]:
    """Counters, the observed ratio and the games since the last call."""
    self._check_restored()
    stats = dict(
        self.counters(),
        positions=self._buffer.num_positions,
        queued_games=len(self._queue),
        observed_ratio=self._limiter.observed_ratio(),
        ratio_window=self._limiter.ratio_window,
        worst_ratio_deviation=self._limiter.worst_deviation,
        reanalysed_batches=self._reanalysed,
        reanalysis_held=len(self._taken),
        returns=[r for r, _ in self._recent],
        lengths=[n for _, n in self._recent])
    self._recent.clear()
    return stats
