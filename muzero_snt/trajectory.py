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
"""One game's record and its training targets (the pseudocode's `Game`)."""

from typing import Dict, Optional, Sequence

import numpy as np

from muzero_snt import frames as frames_lib
from muzero_snt import move_checks
from muzero_snt import targets as targets_lib

Target = targets_lib.Target

# A move's arrays besides its observation (or frame), by property name.
MOVE_ARRAYS = ('to_play', 'actions', 'rewards', 'policies', 'root_values',
                'legal_actions')


class Trajectory:
  """The record of one game: what `play_game` stores, without the environment.

  With a `frame_stack`, move t stores only its newest frame, and
  `observation(t)` stacks frames and actions (the pseudocode's
  `Game.make_image`). `make_target` is the pseudocode's `Game.make_target`
  with its defects fixed (docs/pseudocode.md, defects 3, 4 and 5).
  """

  def __init__(self,
               action_space_size: int,
               num_players: int = 1,
               discount: float = 1.0,
               frame_stack: Optional[frames_lib.FrameStack] = None):
    """An empty trajectory of A = `action_space_size`, 1 or 2 alternating
    players, a discount in (0, 1] and the observations' `frame_stack`
    layout if they stack frames; a `ValueError` if one is out of range."""
    move_checks.check_game(action_space_size, num_players, discount)
    if frame_stack is not None:
      if not isinstance(frame_stack, frames_lib.FrameStack):
        raise TypeError(f'frame_stack must be a frames.FrameStack or None, '
                        f'got {frame_stack!r}.')
      frame_stack = frames_lib.make_frame_stack(*frame_stack)
    self._action_space_size = int(action_space_size)
    self._num_players = int(num_players)
    self._discount = float(discount)
    self._frame_stack = frame_stack
    self._observation_key = 'observations' if frame_stack is None else 'frames'
    self._moves = {name: [] for name in
                   (self._observation_key,) + MOVE_ARRAYS}
    self._arrays: Optional[Dict[str, np.ndarray]] = None
    self._terminal: Optional[bool] = None
    self._bootstrap_value = 0.
    self._value_targets: Dict[int, np.ndarray] = {}

  @classmethod
  def from_arrays(cls, action_space_size: int, num_players: int,
                  discount: float, observations: Optional[np.ndarray],
                  to_play: np.ndarray, actions: np.ndarray,
                  rewards: np.ndarray, policies: np.ndarray,
                  root_values: np.ndarray, terminal: bool,
                  bootstrap_value: float = 0.,
                  legal_actions: Optional[np.ndarray] = None,
                  frames: Optional[np.ndarray] = None,
                  frame_stack: Optional[frames_lib.FrameStack] = None
                 ) -> 'Trajectory':
    """A finished trajectory from the constructor's arguments, `[T, ...]`
    arrays named as the properties and `finish`'s, checked as `append` and
    `finish` do (`legal_actions` None: all legal). With a `frame_stack`,
    `frames` `[T, H, W, C]` replace `observations` (then None)."""
    trajectory = cls(action_space_size, num_players, discount, frame_stack)
    if legal_actions is None:
      legal_actions = np.ones((np.shape(actions)[0], action_space_size), bool)
    stack = trajectory.frame_stack
    if (observations is None) == (stack is None) or (
        frames is None) != (stack is None):
      raise ValueError('from_arrays takes observations without a '
                       'frame_stack, frames with one.')
    stored = (move_checks.check_observations(0, observations, None)
              if stack is None else frames_lib.check_frames(stack, frames))
    trajectory._moves = move_checks.check_moves(
        0, len(stored), action_space_size, num_players, to_play, actions,
        rewards, policies, root_values, legal_actions)
    trajectory._moves[trajectory._observation_key] = stored
    trajectory.finish(terminal, bootstrap_value)
    return trajectory

  @property
  def observation_shape(self):
    """The shape of one observation (None before the first move)."""
    if self._frame_stack is not None:
      return self._frame_stack.observation_shape
    if self._arrays is not None:
      return self._arrays['observations'].shape[1:]
    if len(self._moves['observations']):
      return self._moves['observations'][0].shape
    return None

  def append(self, observation: np.ndarray, to_play: int, action: int,
             reward: float, policy: np.ndarray, root_value: float,
             legal_actions: Optional[np.ndarray] = None) -> None:
    """Records one move (the pseudocode's `apply` + `store_search_statistics`).

    `to_play` is 0 in one-player games; `reward` (what followed `action`) and
    `root_value` are for the mover; `policy` is the search's `[A]` visit
    distribution and `legal_actions` an `[A]` bool mask (None: all).

    Raises:
      ValueError: after `finish`, or naming the move and a value out of
        range or, with a frame stack, an observation that is not the stack
        of the frames and actions before it.
    """
    self._store(self._checked_move(observation, to_play, action, reward,
                                   policy, root_value, legal_actions))

  @staticmethod
  def append_batch(trajectories: Sequence['Trajectory'],
                   observations: np.ndarray, to_play: Sequence[int],
                   actions: Sequence[int], rewards: Sequence[float],
                   policies: np.ndarray, root_values: Sequence[float],
                   legal_actions: np.ndarray) -> None:
    """Records one move in each of B unfinished trajectories, as B `append`
    calls of the `[B, ...]` arguments, checked once as arrays when they can.

    A bad value raises `append`'s error for the first game holding one,
    prefixed with the game's index; then no trajectory has changed.
    """
    rows = None
    num_games = len(trajectories)
    shapes = {t.observation_shape for t in trajectories} - {None}
    games = {(t.action_space_size, t.num_players) for t in trajectories}
    if num_games and len(shapes) <= 1 and len(games) == 1 and all(
        not t.finished and t.frame_stack is None for t in trajectories):
      (action_space_size, num_players), = games
      try:
        stored = move_checks.check_observations(
            0, observations, shapes.pop() if shapes else None)
        arrays = move_checks.check_moves(
            0, num_games, action_space_size, num_players,
            np.asarray(to_play), np.asarray(actions),
            np.asarray(rewards, np.float64), policies,
            np.asarray(root_values, np.float64), legal_actions)
        arrays['observations'] = stored
        # Copies: a view would keep every move's whole batch in memory.
        rows = [{name: (value[i].copy() if value.ndim > 1 else value[i])
                 for name, value in arrays.items()}
                for i in range(num_games)]
      except ValueError:
        pass  # The per-game checks below name the game and the move.
    if rows is None:
      rows = []
      for i, trajectory in enumerate(trajectories):
        try:
          rows.append(trajectory._checked_move(  # pylint: disable=protected-access
              observations[i], to_play[i], actions[i], rewards[i],
              policies[i], root_values[i], legal_actions[i]))
        except ValueError as error:
          raise ValueError(f'game {i}: {error}') from error
    for trajectory, row in zip(trajectories, rows):
      trajectory._store(row)  # pylint: disable=protected-access

  def _checked_move(self, observation, to_play, action, reward, policy,
                    root_value, legal_actions) -> Dict[str, np.ndarray]:
    if self.finished:
      raise ValueError(f'Cannot append move {self.length}: the trajectory is '
                       'finished.')
    first = self.length
    if legal_actions is None:
      legal_actions = np.ones(self._action_space_size, bool)
    observations = move_checks.check_observations(
        first, np.asarray(observation)[None],
        self.observation_shape)
    arrays = move_checks.check_moves(
        first, 1, self._action_space_size, self._num_players,
        np.asarray([to_play]), np.asarray([action]),
        np.asarray([reward], np.float64), np.asarray(policy)[None],
        np.asarray([root_value], np.float64),
        np.asarray(legal_actions)[None])
    if self._frame_stack is None:
      arrays['observations'] = observations
    else:
      # The earlier frames this observation shows, and the actions before.
      recent = self._moves['frames'][
          max(0, first - self._frame_stack.num_frames + 1):]
      actions = self._moves['actions']
      led = [int(actions[j - 1]) if j >= 1 else 0
             for j in range(first - len(recent), first + 1)]
      arrays['frames'] = frames_lib.checked_frame(
          self._frame_stack, observations[0], recent, led, first)[None]
    return {name: value[0] for name, value in arrays.items()}

  def _store(self, row: Dict[str, np.ndarray]) -> None:
    for name, value in row.items():
      self._moves[name].append(value)

  def finish(self, terminal: bool, bootstrap_value: float = 0.) -> None:
    """Closes the record of a `terminal` or truncated game, whose
    `bootstrap_value` is the value after the last move for the player to
    move there (0 if terminal). A `ValueError` if the trajectory is empty or
    finished, or `bootstrap_value` not finite or non-zero when terminal."""
    if self.finished:
      raise ValueError('finish() called twice: the trajectory is already '
                       'finished.')
    if not len(self._moves['actions']):
      raise ValueError('Cannot finish a trajectory with no moves.')
    move_checks.check_ending(terminal, bootstrap_value)
    self._arrays = {}
    for name, values in self._moves.items():
      self._arrays[name] = (values if isinstance(values, np.ndarray)
                            else np.stack(values))
      # Targets are cached from these arrays, so they must not change.
      self._arrays[name].setflags(write=False)
    self._moves = None
    self._terminal = bool(terminal)
    self._bootstrap_value = float(bootstrap_value)

  def _array(self, name: str) -> np.ndarray:
    if self._arrays is not None:
      return self._arrays[name]
    if not len(self._moves[name]):
      raise ValueError(f'The trajectory has no moves, so no {name} yet.')
    return np.stack(self._moves[name])

  @property
  def action_space_size(self) -> int:
    return self._action_space_size

  @property
  def num_players(self) -> int:
    return self._num_players

  @property
  def discount(self) -> float:
    return self._discount

  @property
  def frame_stack(self) -> Optional[frames_lib.FrameStack]:
    """The layout of stacked observations; None if they are stored whole."""
    return self._frame_stack

  @property
  def finished(self) -> bool:
    return self._arrays is not None

  @property
  def length(self) -> int:
    """Number of moves T."""
    if self._arrays is not None:
      return len(self._arrays['actions'])
    return len(self._moves['actions'])

  def observations_at(self, indices: Sequence[int]) -> np.ndarray:
    """`[B, *obs]` the observations of positions `indices` in [0, T)."""
    indices = np.asarray(indices, np.int64).reshape(-1)
    bad = (indices < 0) | (indices >= self.length)
    if bad.any():
      raise ValueError(f'index must be a position in [0, {self.length}), got '
                       f'{indices[bad][0].item()!r}.')
    if self._frame_stack is None:
      return self._array('observations')[indices]
    return frames_lib.stack_observations(
        self._frame_stack, self._array('frames'), self._array('actions'),
        indices)

  def observation(self, index: int) -> np.ndarray:
    """`[*obs]` the observation at position `index` (`observations_at`)."""
    self._check_index(index)
    return self.observations_at([index])[0]

  @property
  def observations(self) -> np.ndarray:
    """`[T, *obs]` the observation at each position (stacked if need be)."""
    if self._frame_stack is None:
      return self._array('observations')
    return self.observations_at(np.arange(self.length))

  @property
  def frames(self) -> np.ndarray:
    """`[T, H, W, C]` the frame of each move, with a frame stack."""
    if self._frame_stack is None:
      raise ValueError('This trajectory stores whole observations, no '
                       'frames (it has no frame_stack).')
    return self._array('frames')

  @property
  def to_play(self) -> np.ndarray:
    """`[T]` int64 the player to move at each position."""
    return self._array('to_play')

  @property
  def actions(self) -> np.ndarray:
    """`[T]` int64 the action taken at each position."""
    return self._array('actions')

  @property
  def rewards(self) -> np.ndarray:
    """`[T]` float64 the reward after each action, for its mover."""
    return self._array('rewards')

  @property
  def policies(self) -> np.ndarray:
    """`[T, A]` float32 the search's visit distributions."""
    return self._array('policies')

  @property
  def root_values(self) -> np.ndarray:
    """`[T]` float64 the search's root values, for the mover."""
    return self._array('root_values')

  @property
  def legal_actions(self) -> np.ndarray:
    """`[T, A]` bool the actions legal at each position."""
    return self._array('legal_actions')

  @property
  def terminal(self) -> Optional[bool]:
    """Whether the game ended in a terminal state (None until finished)."""
    return self._terminal

  @property
  def bootstrap_value(self) -> float:
    """The value after the last move of a truncated game (0 if terminal)."""
    return self._bootstrap_value

  def _check_finished(self, what: str):
    if not self.finished:
      raise ValueError(f'{what} needs a finished trajectory; call finish() '
                       'first.')

  def value_targets(self, td_steps: int) -> np.ndarray:
    """`[T]` float64 `targets.value_targets` of this game, cached."""
    self._check_finished('value_targets')
    move_checks.check_count('td_steps', td_steps, 1)
    td_steps = int(td_steps)
    if td_steps not in self._value_targets:
      targets = targets_lib.value_targets(
          self.to_play, self.rewards, self.root_values, self._discount,
          self._num_players, self._terminal, self._bootstrap_value, td_steps)
      targets.setflags(write=False)
      self._value_targets[td_steps] = targets
    return self._value_targets[td_steps]

  def make_target(self, index: int, num_unroll_steps: int,
                  td_steps: int) -> Target:
    """The float32 `targets.window_targets` of the window at `index` (a
    `ValueError` if unfinished or an argument is out of range)."""
    self._check_finished('make_target')
    self._check_index(index)
    move_checks.check_count('num_unroll_steps', num_unroll_steps, 0)
    return targets_lib.window_targets(
        self.value_targets(td_steps), self.rewards, self.policies,
        int(index), int(num_unroll_steps))

  def actions_window(self, index: int, num_unroll_steps: int,
                     rng: np.random.Generator) -> np.ndarray:
    """`[K]` int32 `targets.actions_window` at position `index`."""
    self._check_index(index)
    move_checks.check_count('num_unroll_steps', num_unroll_steps, 0)
    return targets_lib.actions_window(self.actions, self._action_space_size,
                                      int(index), int(num_unroll_steps), rng)

  def _check_index(self, index: int):
    if not move_checks.is_int(index) or not 0 <= index < self.length:
      raise ValueError(f'index must be a position in [0, {self.length}), got '
                       f'{index!r}.')
