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
"""The replay service: one `ReplayBuffer` shared by actors and the learner.

Run as an asynchronous Ray actor (`runner.py`); plain Python otherwise, so
its tests need no Ray. Self-play actors `insert` whole finished games; the
learner takes K-step batches with `sample_batch` and sends the new
priorities back with `update_priorities`. The `rate_limiter.RateLimiter`
decides when: a game waits in a queue until the limiter admits it into the
buffer (an actor whose last games still wait is held in `insert`; actors
send a round's games while playing the next, so an actor is at most two
rounds ahead), and `sample_batch` waits until the admitted data
owes the learner a step.

`save(path)` writes the buffer (the `ReplayBuffer.save` file a
`checkpointing.Checkpointer` verifies and restores) and returns the
limiter's counters, which the learner checkpoints beside its variables;
`restore(path, counters)` and `load(buffer, counters)` continue from them.
Games still queued are not saved: like games in progress, they are lost
when the run stops.

A service made with `wait_for_restore` holds no buffer until its first
`restore` or `load`: it refuses the learner's calls (`NotRestoredError`)
and holds the actors' until then. `runner.py` makes it so and restores it
at once; Ray restarts a service whose process died with the same
arguments, so the restarted one waits for the learner, which restores the
replay of its last checkpoint (`replay_source.py`), and the games the
actors sent meanwhile go into that buffer.

Reanalysis (`config.reanalyze_fraction > 0`, docs/reanalysis.md): the
service picks each batch's rows to reanalyse and reads their stored
positions (`reanalysis.choose_rows`, `reanalysis.gather_inputs`), since the
games are here; the windows leave unmoved, with the board symmetries
(`config.board_symmetries`) that move each row once it is reanalysed,
drawn here so that a checkpoint's replay resumes the same draws. With no
reanalyse workers the learner takes them with the batch
(`sample_with_inputs`) and reanalyses in its process. With workers,
a worker takes a batch and its inputs (`take_for_reanalysis`), computes the
new targets and hands the batch back (`put_reanalysed`) to a small queue
the learner takes from (`take_reanalysed`). The limiter grants a step when
the learner takes a batch, as without workers, so its counts stay one
grant per learner step; a worker takes a batch only while the data owes
the learner more steps than the batches already taken and not yet learned
from, and at most `reanalysis_queue` such batches exist. The batches of a
worker that dies (or of any worker, at `restore`) are dropped.
"""

import asyncio
import collections
import secrets
from typing import Any, Deque, Dict, List, NamedTuple, Optional, Tuple

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt import types
from muzero_snt.distributed import rate_limiter as rate_limiter_lib

# Episode returns and lengths kept for `stats` between two calls.
_RECENT = 1000
# The counters of a new run (`restore(None, NO_COUNTS)`).
NO_COUNTS = {'env_steps': 0, 'counted_env_steps': 0, 'learner_steps': 0,
             'games': 0}


class NotRestoredError(RuntimeError):
  """A learner's call to a service that awaits `restore` or `load`."""


class Game(NamedTuple):
  """A finished self-play game as an actor sends it."""
  trajectory: trajectory_lib.Trajectory
  episode_return: float
  policy_version: int  # Learner step of the newest weights that played it.


class _Queued(NamedTuple):
  actor: int
  game: Game


class Sampled(NamedTuple):
  """A batch with what its reanalysis needs (`reanalysis.Inputs`).

  The windows are as stored (the search reads stored positions); `maps`
  are the board symmetries (`ReplayBuffer.draw_symmetries`) that move
  each row once reanalysed (`Reanalyser.reanalyse_gathered`).
  """
  batch: types.Batch
  keys: np.ndarray  # [B, 2] (game id, position).
  inputs: reanalysis.Inputs
  maps: np.ndarray  # [B] int64, all 0 (the identity) without symmetries.


class ReplayService:
  """A replay buffer behind a rate limiter, for separate processes."""

  def __init__(self, config: config_lib.MuZeroConfig, train_ratio: float,
               seed: int = 0,
               max_ahead: int = rate_limiter_lib.DEFAULT_MAX_AHEAD,
               reanalysis_queue: int = 2, wait_for_restore: bool = False):
    """Constructs an empty service.

    Args:
      config: the run's configuration (replay settings, batch size and
        reanalyze_fraction).
      train_ratio: learner steps per environment step.
      seed: seed of the buffer's sampling and of the rows to reanalyse.
      max_ahead: learner steps the admitted games may be ahead by
        (`rate_limiter.RateLimiter`).
      reanalysis_queue: batches that reanalyse workers may hold (being
        reanalysed, or ready for the learner) at a time (>= 1).
      wait_for_restore: refuse the learner's calls and hold the actors'
        until the first `restore` or `load` (see the module docstring).
    """
    if (isinstance(reanalysis_queue, bool) or
        not isinstance(reanalysis_queue, int) or reanalysis_queue < 1):
      raise ValueError(f'reanalysis_queue must be a positive integer, got '
                       f'{reanalysis_queue!r}.')
    self._config = config
    self._seed = seed
    self._restored = not wait_for_restore
    self._buffer = replay_lib.ReplayBuffer(config, seed=seed)
    self._limiter = rate_limiter_lib.RateLimiter(train_ratio, max_ahead)
    self._queue: Deque[_Queued] = collections.deque()
    self._queued_per_actor: Dict[int, int] = collections.Counter()
    self._changed: Optional[asyncio.Condition] = None
    self._games = 0
    self._recent_returns: Deque[float] = collections.deque(maxlen=_RECENT)
    self._recent_lengths: Deque[int] = collections.deque(maxlen=_RECENT)
    self._policy_versions: List[int] = []
    self._registrations: Dict[int, List[int]] = {}
    # Reanalysis: the rows' generator; batches out with workers, by ticket.
    self._rows_rng = np.random.default_rng([seed, 1])
    self._reanalysis_queue = reanalysis_queue
    # From a random start: a ticket of a dead service's batch, handed back
    # to the one Ray restarted in its place, matches none of its own.
    self._tickets = secrets.randbits(62)
    self._taken: Dict[int, int] = {}  # {ticket: worker}
    self._ready: Deque[Tuple[int, types.Batch, np.ndarray]] = (
        collections.deque())
    self._reanalysed = 0

  def _condition(self) -> asyncio.Condition:
    # Made in the event loop that runs the methods (Ray's, or a test's).
    if self._changed is None:
      self._changed = asyncio.Condition()
    return self._changed

  def _admit_queued(self) -> int:
    """Moves queued games into the buffer while the limiter allows."""
    admitted = 0
    while self._queue and self._limiter.can_admit(
        self._queue[0].game.trajectory.length):
      actor, game = self._queue.popleft()
      self._queued_per_actor[actor] -= 1
      counted = self._buffer.num_positions >= self._config.batch_size
      self._buffer.save_game(game.trajectory)
      self._limiter.admit(game.trajectory.length, counted=counted)
      self._games += 1
      self._recent_returns.append(game.episode_return)
      self._recent_lengths.append(game.trajectory.length)
      self._policy_versions.append(game.policy_version)
      admitted += 1
    return admitted

  def _check_restored(self) -> None:
    if not self._restored:
      raise NotRestoredError(
          'The replay service holds no buffer yet: it awaits restore or '
          'load (a service Ray restarted after its process died).')

  async def _notify(self) -> None:
    async with self._condition():
      self._condition().notify_all()

  def register(self, actor: int, pid: int) -> int:
    """Records a (re)started actor's process; returns how many times actor
    `actor` registered before (its incarnation)."""
    pids = self._registrations.setdefault(actor, [])
    pids.append(pid)
    return len(pids) - 1

  async def register_reanalyser(self, worker: int, pid: int) -> int:
    """`register` for reanalyse worker `worker` (keyed apart from the
    self-play actors); the batches an earlier process of it held are
    dropped, so the others may take their place."""
    incarnation = self.register(-1 - worker, pid)
    dropped = [t for t, w in self._taken.items() if w == worker]
    for ticket in dropped:
      del self._taken[ticket]
    if dropped:
      await self._notify()
    return incarnation

  def registrations(self) -> Dict[int, List[int]]:
    """{actor: process ids of its incarnations, oldest first}."""
    return {actor: list(pids) for actor, pids in self._registrations.items()}

  async def insert(self, actor: int, games: List[Game]) -> int:
    """Queues finished games; admits what the limiter allows.

    Waits first until the games this actor queued before are admitted, so
    an actor is held when it is too far ahead of the learner.

    Args:
      actor: the sending actor's index.
      games: whole finished games (`Game`).

    Returns:
      The games admitted into the buffer by this call (any actor's).
    """
    for game in games:
      if not game.trajectory.finished:
        raise ValueError(f'actor {actor} sent an unfinished game of '
                         f'{game.trajectory.length} moves; only whole '
                         'finished games enter the replay.')
    condition = self._condition()
    async with condition:
      await condition.wait_for(
          lambda: self._restored and not self._queued_per_actor[actor])
      for game in games:
        self._queue.append(_Queued(actor, game))
        self._queued_per_actor[actor] += 1
      admitted = self._admit_queued()
      if admitted:
        # The learner may sample now, and other actors' games be in.
        condition.notify_all()
    return admitted

  async def sample_batch(self, timeout: Optional[float] = None,
                         augment: bool = True
                        ) -> Optional[Tuple[types.Batch, np.ndarray]]:
    """The next K-step batch, once the limiter owes the learner a step.

    Args:
      timeout: seconds to wait at most (None: no limit).
      augment: as `ReplayBuffer.sample_batch`'s.

    Returns:
      (batch, keys) as `ReplayBuffer.sample_batch` returns them, or None if
      `timeout` passed first (the caller may check its actors and ask again).
    """
    self._check_restored()
    condition = self._condition()
    async with condition:
      # Games are admitted whenever the limiter allows, so none that could
      # be is left queued while the learner waits: only an admission (in
      # `insert`, or below after a step) makes `can_sample` true.
      if self._admit_queued():
        condition.notify_all()
      try:
        await asyncio.wait_for(condition.wait_for(self._limiter.can_sample),
                               timeout)
      except asyncio.TimeoutError:
        return None
      self._limiter.sample()
      batch = self._buffer.sample_batch(augment)
      # The step may let queued games in, and their actors go on.
      self._admit_queued()
      condition.notify_all()
    return batch

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
    if sampled is None:
      return None
    return self._with_inputs(*sampled)

  async def take_for_reanalysis(self, worker: int,
                                timeout: Optional[float] = None
                               ) -> Optional[Tuple[int, Sampled]]:
    """A batch and its reanalysis inputs for reanalyse worker `worker`.

    Waits until the admitted data owes the learner more steps than the
    batches workers hold, and fewer than `reanalysis_queue` are held.

    Returns:
      (ticket, `Sampled`), the ticket to hand back with the batch; or None
      if `timeout` seconds passed first.
    """
    condition = self._condition()

    def can_take():
      held = len(self._taken)
      return (self._restored and held < self._reanalysis_queue and
              self._limiter.owed() > held)

    async with condition:
      if self._admit_queued():
        condition.notify_all()
      try:
        await asyncio.wait_for(condition.wait_for(can_take), timeout)
      except asyncio.TimeoutError:
        return None
      ticket = self._tickets
      self._tickets += 1
      self._taken[ticket] = worker
      return ticket, self._with_inputs(
          *self._buffer.sample_batch(augment=False))

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
    """The oldest reanalysed batch and its keys, granting a learner step;
    None if `timeout` seconds passed first."""
    self._check_restored()
    condition = self._condition()
    async with condition:
      try:
        await asyncio.wait_for(condition.wait_for(
            lambda: self._ready and self._limiter.can_sample()), timeout)
      except asyncio.TimeoutError:
        return None
      ticket, batch, keys = self._ready.popleft()
      del self._taken[ticket]
      self._limiter.sample()
      # The step may let queued games in, and their actors go on; and a
      # worker take another batch.
      self._admit_queued()
      condition.notify_all()
    return batch, keys

  async def learner_batch(self, kind: str, timeout: Optional[float] = None
                         ) -> Tuple[Any, Dict[str, int]]:
    """The learner's next batch, and the counters once it is drawn.

    The learner keeps the counters to say what is lost if this process
    dies (`replay_source.py`).

    Args:
      kind: 'sample' (`sample_batch`), 'inputs' (`sample_with_inputs`) or
        'reanalysed' (`take_reanalysed`).
      timeout: seconds to wait at most.

    Returns:
      (that method's answer, `counters()`).
    """
    if kind == 'sample':
      result = await self.sample_batch(timeout)
    elif kind == 'inputs':
      result = await self.sample_with_inputs(timeout)
    elif kind == 'reanalysed':
      result = await self.take_reanalysed(timeout)
    else:
      raise ValueError(f"kind must be 'sample', 'inputs' or 'reanalysed', "
                       f'got {kind!r}.')
    return result, self.counters()

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray
                       ) -> None:
    """`ReplayBuffer.update_priorities` on the service's buffer."""
    self._check_restored()
    self._buffer.update_priorities(keys, priorities)

  def save(self, path: str) -> Dict[str, int]:
    """Writes the buffer to `path`; returns the counters to checkpoint."""
    self._check_restored()
    self._buffer.save(path)
    return self.counters()

  def counters(self) -> Dict[str, int]:
    """The limiter's counters and the games admitted."""
    return dict(self._limiter.state(), games=self._games)

  async def restore(self, path: Optional[str],
                    counters: Dict[str, int]) -> Tuple[int, int]:
    """Continues from a buffer file and the counters saved with it.

    Args:
      path: a file `save` wrote, or None for an empty buffer (then the
        counters' env_steps and games are 0; learner_steps may not be).
      counters: as `save` returns them.

    Returns:
      The games and positions in the buffer restored (before the games
      that waited for it are admitted).
    """
    if path is None:
      buffer = replay_lib.ReplayBuffer(self._config, seed=self._seed)
    else:
      buffer = replay_lib.ReplayBuffer.restore(self._config, path)
    self._restore(buffer, counters)
    restored = buffer.num_games, buffer.num_positions
    await self._notify()
    return restored

  async def load(self, buffer: replay_lib.ReplayBuffer,
                 counters: Dict[str, int]) -> None:
    """Continues from a restored buffer and the counters saved with it."""
    self._restore(buffer, counters)
    await self._notify()

  def _restore(self, buffer: replay_lib.ReplayBuffer,
               counters: Dict[str, int]) -> None:
    if not isinstance(buffer, replay_lib.ReplayBuffer):
      raise TypeError(f'load needs a ReplayBuffer, got {buffer!r}.')
    self._buffer = buffer
    # Batches drawn from the buffer replaced are dropped.
    self._taken.clear()
    self._ready.clear()
    self._limiter.restore(counters['env_steps'],
                          counters['counted_env_steps'],
                          counters['learner_steps'])
    self._games = int(counters['games'])
    self._restored = True

  def stats(self) -> Dict[str, Any]:
    """Counters, the observed ratio and the games since the last call."""
    self._check_restored()
    limiter = self._limiter
    stats = dict(
        self.counters(),
        positions=self._buffer.num_positions,
        stored_games=self._buffer.num_games,
        queued_games=len(self._queue),
        observed_ratio=limiter.observed_ratio(),
        ratio_window=limiter.ratio_window,
        worst_ratio_deviation=limiter.worst_deviation,
        reanalysed_batches=self._reanalysed,
        reanalysis_held=len(self._taken),
        returns=list(self._recent_returns),
        lengths=list(self._recent_lengths),
        policy_versions=list(self._policy_versions))
    self._recent_returns.clear()
    self._recent_lengths.clear()
    self._policy_versions.clear()
    return stats
