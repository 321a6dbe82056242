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
"""

import asyncio
import collections
from typing import Any, Deque, Dict, List, NamedTuple, Optional, Tuple

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import replay as replay_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt import types
from muzero_snt.distributed import rate_limiter as rate_limiter_lib

# Episode returns and lengths kept for `stats` between two calls.
_RECENT = 1000


class Game(NamedTuple):
  """A finished self-play game as an actor sends it."""
  trajectory: trajectory_lib.Trajectory
  episode_return: float
  policy_version: int  # Learner step of the newest weights that played it.


class _Queued(NamedTuple):
  actor: int
  game: Game


class ReplayService:
  """A replay buffer behind a rate limiter, for separate processes."""

  def __init__(self, config: config_lib.MuZeroConfig, train_ratio: float,
               seed: int = 0,
               max_ahead: int = rate_limiter_lib.DEFAULT_MAX_AHEAD):
    """Constructs an empty service.

    Args:
      config: the run's configuration (replay settings and batch size).
      train_ratio: learner steps per environment step.
      seed: seed of the buffer's sampling.
      max_ahead: learner steps the admitted games may be ahead by
        (`rate_limiter.RateLimiter`).
    """
    self._config = config
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

  async def _notify(self) -> None:
    async with self._condition():
      self._condition().notify_all()

  def register(self, actor: int, pid: int) -> int:
    """Records a (re)started actor's process; returns how many times actor
    `actor` registered before (its incarnation)."""
    pids = self._registrations.setdefault(actor, [])
    pids.append(pid)
    return len(pids) - 1

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
      await condition.wait_for(lambda: not self._queued_per_actor[actor])
      for game in games:
        self._queue.append(_Queued(actor, game))
        self._queued_per_actor[actor] += 1
      admitted = self._admit_queued()
      if admitted:
        # The learner may sample now, and other actors' games be in.
        condition.notify_all()
    return admitted

  async def sample_batch(self, timeout: Optional[float] = None
                        ) -> Optional[Tuple[types.Batch, np.ndarray]]:
    """The next K-step batch, once the limiter owes the learner a step.

    Args:
      timeout: seconds to wait at most (None: no limit).

    Returns:
      (batch, keys) as `ReplayBuffer.sample_batch` returns them, or None if
      `timeout` passed first (the caller may check its actors and ask again).
    """
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
      batch = self._buffer.sample_batch()
      # The step may let queued games in, and their actors go on.
      self._admit_queued()
      condition.notify_all()
    return batch

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray
                       ) -> None:
    """`ReplayBuffer.update_priorities` on the service's buffer."""
    self._buffer.update_priorities(keys, priorities)

  def save(self, path: str) -> Dict[str, int]:
    """Writes the buffer to `path`; returns the counters to checkpoint."""
    self._buffer.save(path)
    return self.counters()

  def counters(self) -> Dict[str, int]:
    """The limiter's counters and the games admitted."""
    return dict(self._limiter.state(), games=self._games)

  async def restore(self, path: str, counters: Dict[str, int]) -> None:
    """Continues from a buffer file and the counters saved with it."""
    self._restore(replay_lib.ReplayBuffer.restore(self._config, path),
                  counters)
    await self._notify()

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
    self._limiter.restore(counters['env_steps'],
                          counters['counted_env_steps'],
                          counters['learner_steps'])
    self._games = int(counters['games'])

  def stats(self) -> Dict[str, Any]:
    """Counters, the observed ratio and the games since the last call."""
    limiter = self._limiter
    stats = dict(
        self.counters(),
        positions=self._buffer.num_positions,
        stored_games=self._buffer.num_games,
        queued_games=len(self._queue),
        observed_ratio=limiter.observed_ratio(),
        ratio_window=limiter.ratio_window,
        worst_ratio_deviation=limiter.worst_deviation,
        returns=list(self._recent_returns),
        lengths=list(self._recent_lengths),
        policy_versions=list(self._policy_versions))
    self._recent_returns.clear()
    self._recent_lengths.clear()
    self._policy_versions.clear()
    return stats
