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
"""The replay buffer: a window of games, sampled uniformly or by priority."""

from typing import List, Optional, Tuple

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import frames as frames_lib
from muzero_snt import position_table
from muzero_snt import replay_files
from muzero_snt import symmetries
from muzero_snt import trajectory as trajectory_lib
from muzero_snt import types

# Added to every priority so that no position has probability zero.
PRIORITY_EPSILON = 1e-6

class ReplayBuffer:
  """The pseudocode's `ReplayBuffer`: the last `window_size` games.

  Its stubs and defects fixed (docs/pseudocode.md, defect 7), B positions
  are drawn independently, with replacement: uniformly over all positions,
  weight 1 (picking a game first, as the pseudocode does, over-weights short
  games); or by priority (appendix G): P(i) = p_i^alpha / sum_j p_j^alpha,
  weight (N P(i))^-beta divided by the batch's largest (Schaul et al., 2016),
  new positions getting p = |search value - n-step return| + epsilon.
  Positions are keyed (game id, position); ids are never reused.
  """

  def __init__(self, config: config_lib.MuZeroConfig, seed: int = 0):
    if not isinstance(config, config_lib.MuZeroConfig):
      raise TypeError(f'config must be a MuZeroConfig, got {config!r}.')
    self._config = config
    self._rng = np.random.default_rng(seed)
    self._games: List[trajectory_lib.Trajectory] = []
    self._lengths = np.zeros(0, np.int64)  # [G]
    self._offsets = np.zeros(1, np.int64)  # [G+1] first flat index per game.
    self._priorities = np.zeros(0, np.float64)  # [N] p, epsilon included.
    self._scaled = np.zeros(0, np.float64)  # [N] p^alpha.
    self._cumulative = None  # [N] cumulative sum of p^alpha, when cached.
    self._targets = position_table.PositionTable()
    self._games_saved = 0
    self._restored_from: Optional[str] = None
    self._frame_stack: Optional[frames_lib.FrameStack] = None
    self._symmetries = symmetries.BoardSymmetries(
        config.board_symmetries, config.observation_shape,
        config.action_space_size)

  def __setstate__(self, state) -> None:
    self.__dict__.update(state)
    # `update_priorities` writes into these in place; arrays unpickled from
    # shared memory (a buffer Ray hands another process) are read-only.
    self._priorities = np.array(self._priorities, copy=True)
    self._scaled = np.array(self._scaled, copy=True)

  @property
  def config(self) -> config_lib.MuZeroConfig:
    return self._config

  @property
  def num_games(self) -> int:
    """Games stored now (at most `window_size`)."""
    return len(self._games)

  @property
  def num_positions(self) -> int:
    """Positions N over all stored games."""
    return int(self._offsets[-1])

  @property
  def sampling_mass(self) -> float:
    """What `_draw` picks positions in proportion to, summed: N uniform,
    sum of p^alpha prioritised."""
    if not self._config.prioritized_replay:
      return float(self.num_positions)
    return float(self._scaled.sum())

  @property
  def restored_from(self) -> Optional[str]:
    """The file `restore` read this buffer from; None for a new buffer."""
    return self._restored_from

  @property
  def games_saved(self) -> int:
    """Games ever saved; the next game gets this id."""
    return self._games_saved

  @property
  def game_ids(self) -> List[int]:
    """Ids of the stored games, oldest first."""
    first = self._games_saved - len(self._games)
    return list(range(first, self._games_saved))

  def game(self, game_id: int) -> trajectory_lib.Trajectory:
    """The stored game with id `game_id`."""
    first = self._games_saved - len(self._games)
    if not first <= game_id < self._games_saved:
      raise ValueError(f'game id {game_id} is not stored; stored ids are '
                       f'[{first}, {self._games_saved}).')
    return self._games[game_id - first]

  def save_game(self, trajectory: trajectory_lib.Trajectory) -> int:
    """Stores a finished game, evicting the oldest if the window is full;
    returns its id. A `ValueError` if the trajectory is not finished or does
    not fit the config or the stored games' frame layout."""
    config = self._config
    if not isinstance(trajectory, trajectory_lib.Trajectory):
      raise TypeError(f'save_game expects a Trajectory, got {trajectory!r}.')
    if not trajectory.finished:
      raise ValueError(f'save_game needs a finished trajectory; this one has '
                       f'{trajectory.length} moves and was not finished.')
    for name in ('action_space_size', 'num_players', 'discount'):
      if getattr(trajectory, name) != getattr(config, name):
        raise ValueError(f'Trajectory {name} {getattr(trajectory, name)!r} '
                         f'does not match the config\'s '
                         f'{getattr(config, name)!r}.')
    shape = tuple(trajectory.observation_shape)
    if shape != tuple(config.observation_shape):
      raise ValueError(f'Trajectory observation shape {list(shape)} does not '
                       f'match the config\'s observation_shape '
                       f'{list(config.observation_shape)}.')
    if self._games and trajectory.frame_stack != self._frame_stack:
      raise ValueError(f'Trajectory frame_stack {trajectory.frame_stack} '
                       f'differs from that of the stored games, '
                       f'{self._frame_stack}: a buffer\'s games share one '
                       'layout (a replay file of whole observations, from '
                       'before frames were stored once, cannot take games '
                       'of frames; start from an empty replay).')
    values = trajectory.value_targets(config.td_steps)
    priorities = np.abs(trajectory.root_values - values) + PRIORITY_EPSILON
    if len(self._games) >= config.window_size:
      # Evict before adding: the window never holds more than window_size.
      drop = int(self._lengths[0])
      self._games.pop(0)
      self._lengths = self._lengths[1:]
      self._priorities = self._priorities[drop:]
      self._scaled = self._scaled[drop:]
      self._targets.drop_front(drop)
    self._games.append(trajectory)
    self._append_targets(trajectory)
    self._frame_stack = trajectory.frame_stack
    self._lengths = np.append(self._lengths, trajectory.length)
    self._offsets = np.concatenate([[0], np.cumsum(self._lengths)])
    self._priorities = np.concatenate([self._priorities, priorities])
    self._scaled = np.concatenate(
        [self._scaled, priorities**config.priority_alpha])
    self._cumulative = None
    self._games_saved += 1
    return self._games_saved - 1

  def _append_targets(self, trajectory: trajectory_lib.Trajectory) -> None:
    self._targets.append(
        value=trajectory.value_targets(self._config.td_steps).astype(
            np.float32),
        reward=trajectory.rewards.astype(np.float32),
        policy=trajectory.policies.astype(np.float32),
        action=trajectory.actions.astype(np.int32))

  def _draw(self, batch_size: int) -> Tuple[np.ndarray, np.ndarray]:
    """Flat indices `[B]` of positions and their weights `[B]`."""
    n = self.num_positions
    if not self._config.prioritized_replay:
      return self._rng.integers(0, n, batch_size), np.ones(batch_size)
    if self._cumulative is None:
      self._cumulative = np.cumsum(self._scaled)
    total = self._cumulative[-1]
    u = self._rng.random(batch_size) * total
    flat = np.minimum(
        np.searchsorted(self._cumulative, u, side='right'), n - 1)
    probability = self._scaled[flat] / total
    weight = (n * probability)**-self._config.priority_beta
    return flat, weight / weight.max()

  def sample_batch(self, augment: bool = True
                  ) -> Tuple[types.Batch, np.ndarray]:
    """Draws `config.batch_size` K-step windows and their targets, moved by
    `augment` unless a caller changes targets first (reanalysis); a
    `ValueError` if the buffer is empty.

    Returns:
      A `Batch` of NumPy arrays (float32, actions int32), and its `[B, 2]`
      int64 keys (game id, position) for `update_priorities`.
    """
    if not self.num_positions:
      raise ValueError('sample_batch on an empty replay buffer: save a game '
                       'first.')
    config = self._config
    b, k = config.batch_size, config.num_unroll_steps
    flat, weight = self._draw(b)
    game_index = np.searchsorted(self._offsets, flat, side='right') - 1
    position = flat - self._offsets[game_index]
    # Each row's window t .. t+K, as `Trajectory.make_target` gives it.
    table = self._targets
    moves_left = self._offsets[game_index + 1] - flat  # [B] T - t >= 1
    steps = np.arange(k + 1)
    inside = steps < moves_left[:, None]  # [B, K+1]
    # Past its end, step j reads the game's last row, zeroed by `inside`.
    rows = flat[:, None] + np.minimum(steps, moves_left[:, None] - 1)
    target_value = np.where(inside, table.column('value')[rows],
                            np.float32(0))  # [B, K+1]
    target_reward = np.where(inside[:, :k], table.column('reward')[rows[:, :k]],
                             np.float32(0))  # [B, K]
    target_policy = np.where(inside[..., None], table.column('policy')[rows],
                             np.float32(0))  # [B, K+1, A]
    policy_mask = inside.astype(np.float32)  # [B, K+1]
    action = table.column('action')[rows[:, :k]]  # [B, K]
    # Past the end the actions are drawn uniformly, in batch order.
    padding = ~inside[:, :k]  # [B, K]
    num_padding = int(padding.sum())
    if num_padding:
      action[padding] = self._rng.integers(0, config.action_space_size,
                                           num_padding)
    games = self._games
    pairs = list(zip(game_index.tolist(), position.tolist()))
    if self._frame_stack is None:
      observations = [games[g].observations[t] for g, t in pairs]
    else:
      observations = [games[g].observation(t) for g, t in pairs]
    observation = np.stack(observations).astype(np.float32, copy=False)
    next_observation = None
    if config.consistency_loss_weight > 0:
      next_observation = np.zeros(
          (b, k) + tuple(config.observation_shape), np.float32)
      for i, (g, t) in enumerate(pairs):  # Steps 1 .. inside the game.
        inside_i = min(k + 1, int(moves_left[i]))
        if inside_i > 1:
          next_observation[i, :inside_i - 1] = games[g].observations_at(
              np.arange(t + 1, t + inside_i))
    batch = types.Batch(
        observation=observation,
        action=action,
        target_value=target_value,
        target_reward=target_reward,
        target_policy=target_policy,
        policy_mask=policy_mask,
        weight=weight.astype(np.float32),
        next_observation=next_observation)
    if augment:
      batch = self.augment(batch)
    first = self._games_saved - len(self._games)
    keys = np.stack([game_index + first, position], axis=-1).astype(np.int64)
    return batch, keys

  def augment(self, batch: types.Batch) -> types.Batch:
    """The batch, each window moved by a random `config.board_symmetries`
    map drawn from this buffer's generator."""
    return self._symmetries.sample(batch, self._rng)

  def draw_symmetries(self, rows: int) -> np.ndarray:
    """`[rows]` maps drawn as `augment` draws them, for a batch moved in
    another process."""
    return self._symmetries.draw(rows, self._rng)

  def _flat_indices(self, keys) -> Tuple[np.ndarray, np.ndarray]:
    """Flat indices of the stored keys `[B, 2]` and which keys are stored."""
    keys = np.asarray(keys)
    if keys.ndim != 2 or keys.shape[1] != 2 or (
        keys.size and not np.issubdtype(keys.dtype, np.integer)):
      raise ValueError(f'keys must be an integer array [B, 2] of (game id, '
                       f'position), got shape {list(keys.shape)} and dtype '
                       f'{keys.dtype}.')
    keys = keys.astype(np.int64)
    first = self._games_saved - len(self._games)
    game_id, position = keys[:, 0], keys[:, 1]
    for i in np.flatnonzero((game_id < 0) | (game_id >= self._games_saved)):
      raise ValueError(f'key {keys[i].tolist()}: game id {game_id[i]} was '
                       f'never saved (ids so far: [0, {self._games_saved})).')
    stored = game_id >= first
    index = np.where(stored, game_id - first, 0)
    length = np.where(stored, self._lengths[index] if len(self._games) else 0,
                      0)
    for i in np.flatnonzero(stored & ((position < 0) | (position >= length))):
      raise ValueError(f'key {keys[i].tolist()}: position {position[i]} is '
                       f'outside game {game_id[i]} of length {length[i]}.')
    flat = self._offsets[index] + position
    return flat[stored], stored

  def get_priorities(self, keys) -> np.ndarray:
    """`[B]` float64 priorities of keys `[B, 2]`, NaN for evicted games."""
    flat, stored = self._flat_indices(keys)
    out = np.full(stored.shape, np.nan)
    out[stored] = self._priorities[flat]
    return out

  def update_priorities(self, keys, priorities) -> None:
    """Sets the `[B]` priorities (+ PRIORITY_EPSILON) of `sample_batch`'s
    `[B, 2]` keys; keys of evicted games are ignored, and a repeated key's
    last priority wins. A `ValueError` names a key whose priority is not
    finite and non-negative, or that was never stored."""
    keys = np.asarray(keys)
    priorities = np.asarray(priorities, np.float64)
    if priorities.shape != keys.shape[:1]:
      raise ValueError(f'priorities must have shape [B] = '
                       f'{list(keys.shape[:1])} (one per key), got '
                       f'{list(priorities.shape)}.')
    bad = ~np.isfinite(priorities) | (priorities < 0)
    for i in np.flatnonzero(bad):
      raise ValueError(f'priority {priorities[i].item()!r} for key '
                       f'{np.asarray(keys[i]).tolist()} must be finite and '
                       '>= 0.')
    flat, stored = self._flat_indices(keys)
    p = priorities[stored] + PRIORITY_EPSILON
    self._priorities[flat] = p
    self._scaled[flat] = p**self._config.priority_alpha
    self._cumulative = None

  @property
  def frame_stack(self) -> Optional[frames_lib.FrameStack]:
    """The stored games' frame layout (None: whole observations)."""
    return self._frame_stack

  def contents(self) -> replay_files.Contents:
    """What `save` writes: the games, their priorities, the counter of ids
    and the sampling generator's state."""
    return replay_files.Contents(
        list(self._games), self._lengths.copy(), self._priorities.copy(),
        {'games_saved': self._games_saved,
         'rng_state': self._rng.bit_generator.state}, self._frame_stack)

  def save(self, path: str) -> None:
    """Writes the whole buffer to `path` atomically (`replay_files.write`)."""
    contents = self.contents()
    replay_files.write(path, self._config, contents.games,
                       contents.frame_stack, contents.priorities,
                       contents.meta)

  @classmethod
  def restore(cls, config: config_lib.MuZeroConfig, path: str,
              seed: Optional[int] = None) -> 'ReplayBuffer':
    """Reads a buffer written by `save`; it continues exactly where it was
    unless a `seed` restarts its sampling generator. A `ValueError` names
    `path` if the file's format or data do not fit `config`."""
    buffer = cls.from_contents(config, replay_files.read(path, config), seed)
    buffer._restored_from = path
    return buffer

  @classmethod
  def from_contents(cls, config: config_lib.MuZeroConfig,
                    contents: replay_files.Contents,
                    seed: Optional[int] = None) -> 'ReplayBuffer':
    """A buffer holding `contents` (`contents()`, or a file's), which
    fit `config`; `seed` as `restore`'s."""
    buffer = cls(config)
    buffer._games = list(contents.games)
    for game in buffer._games:
      buffer._append_targets(game)
    buffer._frame_stack = contents.frame_stack
    buffer._lengths = np.asarray(contents.lengths, np.int64)
    buffer._offsets = np.concatenate(
        [[0], np.cumsum(buffer._lengths)]).astype(np.int64)
    buffer._priorities = np.array(contents.priorities, np.float64)
    buffer._scaled = buffer._priorities**config.priority_alpha
    buffer._games_saved = int(contents.meta['games_saved'])
    if seed is None:
      buffer._rng.bit_generator.state = contents.meta['rng_state']
    else:
      buffer._rng = np.random.default_rng(seed)
    return buffer
