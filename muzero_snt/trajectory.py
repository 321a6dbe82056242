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

import math
from typing import Dict, NamedTuple, Optional

import numpy as np

# Visit distributions must sum to one within this tolerance.
POLICY_SUM_TOLERANCE = 1e-5


class Target(NamedTuple):
  """The training targets of one K-step window (one row of a `Batch`).

  Attributes:
    target_value: `[K+1]` n-step value targets, 0 past the end of the game.
    target_reward: `[K]` reward of the k-th action at column k-1, 0 past the
      end of the game.
    target_policy: `[K+1, A]` search visit distributions, 0 past the end.
    policy_mask: `[K+1]` 1 for positions inside the game, 0 past its end.
  """
  target_value: np.ndarray
  target_reward: np.ndarray
  target_policy: np.ndarray
  policy_mask: np.ndarray


def _is_int(value) -> bool:
  return isinstance(value, (int, np.integer)) and not isinstance(
      value, (bool, np.bool_))


def _check_count(name: str, value, minimum: int):
  if not _is_int(value) or value < minimum:
    raise ValueError(f'{name} must be an integer >= {minimum}, got {value!r}.')


def _first_bad(bad: np.ndarray) -> Optional[int]:
  """Index of the first True in a boolean `[T]` array, or None."""
  indices = np.flatnonzero(bad)
  return int(indices[0]) if indices.size else None


class Trajectory:
  """The record of one game: what `play_game` stores, without the environment.

  Move t holds the observation at position t, the player to move there, the
  action taken, the reward that followed (from the mover's perspective), the
  search's visit distribution over the full action space, the search's
  root value (from the mover's perspective) and the mask of the actions that
  were legal there (reanalysis searches the position again with them).
  `finish` closes the record: either the game reached a terminal state, or
  it was truncated and the value of the position after the last move is
  estimated by `bootstrap_value`.

  `make_target` is the pseudocode's `Game.make_target`, with its defects
  fixed (docs/pseudocode.md, defects 3, 4 and 5): two-player signs, the
  reward of unroll step k is the reward of the k-th action, and positions
  past the end of the game are absorbing and masked.

  Usage:

      trajectory = Trajectory(action_space_size=2, discount=0.997)
      for each move:
        trajectory.append(observation, to_play, action, reward, policy, value)
      trajectory.finish(terminal=True)
      target = trajectory.make_target(index, num_unroll_steps=5, td_steps=10)
  """

  def __init__(self,
               action_space_size: int,
               num_players: int = 1,
               discount: float = 1.0):
    """Constructs an empty trajectory.

    Args:
      action_space_size: the size A of the action space.
      num_players: 1, or 2 for games whose players alternate.
      discount: the discount g in (0, 1].

    Raises:
      ValueError: if an argument is out of range.
    """
    _check_count('action_space_size', action_space_size, 1)
    if num_players not in (1, 2):
      raise ValueError(f'num_players must be 1 or 2, got {num_players!r}.')
    if (not isinstance(discount, (int, float, np.floating)) or
        isinstance(discount, bool) or not 0. < discount <= 1.):
      raise ValueError(f'discount must be in (0, 1], got {discount!r}.')
    self._action_space_size = int(action_space_size)
    self._num_players = int(num_players)
    self._discount = float(discount)
    self._moves = {name: [] for name in (
        'observations', 'to_play', 'actions', 'rewards', 'policies',
        'root_values', 'legal_actions')}
    self._arrays: Optional[Dict[str, np.ndarray]] = None
    self._terminal: Optional[bool] = None
    self._bootstrap_value = 0.
    self._value_targets: Dict[int, np.ndarray] = {}

  @classmethod
  def from_arrays(cls,
                  action_space_size: int,
                  num_players: int,
                  discount: float,
                  observations: np.ndarray,
                  to_play: np.ndarray,
                  actions: np.ndarray,
                  rewards: np.ndarray,
                  policies: np.ndarray,
                  root_values: np.ndarray,
                  terminal: bool,
                  bootstrap_value: float = 0.,
                  legal_actions: Optional[np.ndarray] = None
                 ) -> 'Trajectory':
    """A finished trajectory from whole arrays (e.g. read from a checkpoint).

    The arguments are those of the constructor, then the `[T, ...]` arrays
    named as the properties, then those of `finish`; they are validated as
    `append` and `finish` validate them. `legal_actions` `[T, A]` None marks
    every action legal at every move.
    """
    trajectory = cls(action_space_size, num_players, discount)
    if legal_actions is None:
      legal_actions = np.ones((np.shape(actions)[0], action_space_size), bool)
    trajectory._moves = trajectory._checked_moves(
        0, observations, to_play, actions, rewards, policies, root_values,
        legal_actions)
    trajectory.finish(terminal, bootstrap_value)
    return trajectory

  def _checked_moves(self, first: int, observations, to_play, actions,
                     rewards, policies, root_values,
                     legal_actions) -> Dict[str, np.ndarray]:
    """Validates `[T, ...]` arrays of moves numbered from `first`."""
    num_actions = self._action_space_size
    # A copy: environments may reuse their observation buffer in place.
    observations = np.array(observations)
    n = observations.shape[0] if observations.ndim else -1
    arrays = {}
    for name, value in (('to_play', to_play), ('actions', actions),
                        ('rewards', rewards), ('root_values', root_values)):
      value = np.asarray(value)
      if value.shape != (n,):
        raise ValueError(f'{name} must have shape [{n}] (one per move), got '
                         f'{list(value.shape)}.')
      arrays[name] = value
    policies = np.asarray(policies)
    if policies.shape != (n, num_actions):
      raise ValueError(f'policy must have shape [{num_actions}] (the full '
                       f'action space) at every move, got '
                       f'{list(policies.shape[1:])} at move {first}.')
    if not np.issubdtype(observations.dtype, np.number) and not (
        observations.dtype == np.bool_):
      raise ValueError(f'observation must be a numeric array, got dtype '
                       f'{observations.dtype} at move {first}.')
    expected = self._observation_shape()
    if expected is not None and observations.shape[1:] != expected:
      raise ValueError(f'observation at move {first} has shape '
                       f'{list(observations.shape[1:])}, expected '
                       f'{list(expected)} as at move 0.')
    if np.issubdtype(observations.dtype, np.floating):
      bad = _first_bad(~np.isfinite(observations.reshape(n, -1)).all(-1))
      if bad is not None:
        raise ValueError(f'observation at move {first + bad} is not finite.')
    for name in ('to_play', 'actions'):
      value = arrays[name]
      if n and not np.issubdtype(value.dtype, np.integer):
        raise ValueError(f'{name} must hold integers, got {value[0]!r} at '
                         f'move {first}.')
    checks = (
        ('to_play',
         (arrays['to_play'] < 0) | (arrays['to_play'] >= self._num_players),
         arrays['to_play'], f'a player in [0, {self._num_players})'),
        ('action', (arrays['actions'] < 0) | (arrays['actions'] >= num_actions),
         arrays['actions'], f'in [0, {num_actions})'),
        ('reward', ~np.isfinite(arrays['rewards']), arrays['rewards'],
         'a finite number'),
        ('root_value', ~np.isfinite(arrays['root_values']),
         arrays['root_values'], 'a finite number'),
    )
    for name, bad, value, expected in checks:
      index = _first_bad(bad)
      if index is not None:
        raise ValueError(f'{name} at move {first + index} must be {expected}, '
                         f'got {value[index].item()!r}.')
    index = _first_bad(~np.isfinite(policies).all(-1) |
                       (policies < 0).any(-1))
    if index is not None:
      raise ValueError(f'policy at move {first + index} must be finite and '
                       f'non-negative, got {policies[index].tolist()}.')
    sums = policies.sum(-1, dtype=np.float64)
    index = _first_bad(np.abs(sums - 1.) > POLICY_SUM_TOLERANCE)
    if index is not None:
      raise ValueError(f'policy at move {first + index} must sum to 1 (within '
                       f'{POLICY_SUM_TOLERANCE}), got a sum of '
                       f'{sums[index]!r}.')
    legal_actions = np.asarray(legal_actions)
    if legal_actions.shape != (n, num_actions) or (
        legal_actions.dtype != np.bool_):
      raise ValueError(f'legal_actions must be a bool mask of shape '
                       f'[{num_actions}] at every move, got dtype '
                       f'{legal_actions.dtype} and shape '
                       f'{list(legal_actions.shape[1:])} at move {first}.')
    index = _first_bad(~legal_actions[np.arange(n), arrays['actions']])
    if index is not None:
      raise ValueError(f'action {arrays["actions"][index].item()} at move '
                       f'{first + index} is not in its legal_actions mask.')
    arrays['legal_actions'] = legal_actions
    arrays['observations'] = observations
    arrays['to_play'] = arrays['to_play'].astype(np.int64)
    arrays['actions'] = arrays['actions'].astype(np.int64)
    arrays['rewards'] = arrays['rewards'].astype(np.float64)
    arrays['root_values'] = arrays['root_values'].astype(np.float64)
    arrays['policies'] = policies.astype(np.float32)
    return arrays

  def _observation_shape(self):
    if self._arrays is not None:
      return self._arrays['observations'].shape[1:]
    if len(self._moves['observations']):
      return self._moves['observations'][0].shape
    return None

  def append(self, observation: np.ndarray, to_play: int, action: int,
             reward: float, policy: np.ndarray, root_value: float,
             legal_actions: Optional[np.ndarray] = None) -> None:
    """Records one move (the pseudocode's `apply` + `store_search_statistics`).

    Args:
      observation: the observation at this position, `[*obs]`.
      to_play: the player to move here (0 in one-player games).
      action: the action taken, in [0, A).
      reward: the reward that followed, for the player who moved.
      policy: `[A]` the search's visit distribution over the full action
        space (0 for actions it did not visit or that are illegal).
      root_value: the search's value of this position, for the player to
        move.
      legal_actions: `[A]` bool, the actions legal here; None: all of them.

    Raises:
      ValueError: after `finish`, or if a value is out of range; the message
        names the value and the move index.
    """
    if self.finished:
      raise ValueError(f'Cannot append move {self.length}: the trajectory is '
                       'finished.')
    first = self.length
    if legal_actions is None:
      legal_actions = np.ones(self._action_space_size, bool)
    arrays = self._checked_moves(
        first, np.asarray(observation)[None], np.asarray([to_play]),
        np.asarray([action]), np.asarray([reward], np.float64),
        np.asarray(policy)[None], np.asarray([root_value], np.float64),
        np.asarray(legal_actions)[None])
    for name, value in arrays.items():
      self._moves[name].append(value[0])

  def finish(self, terminal: bool, bootstrap_value: float = 0.) -> None:
    """Closes the record; no move can be appended afterwards.

    Args:
      terminal: True if the game reached a terminal state (whose value is
        0); False if it was truncated (e.g. CartPole's 500-step limit).
      bootstrap_value: for a truncated game, the value estimate of the
        position after the last move, from the perspective of the player to
        move there; it must be 0 for a terminal game.

    Raises:
      ValueError: if the trajectory is empty or already finished, or
        `bootstrap_value` is not finite or non-zero after a terminal state.
    """
    if self.finished:
      raise ValueError('finish() called twice: the trajectory is already '
                       'finished.')
    if not len(self._moves['actions']):
      raise ValueError('Cannot finish a trajectory with no moves.')
    if not isinstance(terminal, (bool, np.bool_)):
      raise ValueError(f'terminal must be True or False, got {terminal!r}.')
    if not math.isfinite(bootstrap_value):
      raise ValueError(f'bootstrap_value must be finite, got '
                       f'{bootstrap_value!r}.')
    if terminal and bootstrap_value != 0:
      raise ValueError(f'bootstrap_value must be 0 after a terminal state '
                       f'(its value is 0), got {bootstrap_value!r}.')
    self._arrays = {}
    for name, values in self._moves.items():
      # Lists after `append`; already arrays after `from_arrays`.
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
  def finished(self) -> bool:
    return self._arrays is not None

  @property
  def length(self) -> int:
    """Number of moves T."""
    if self._arrays is not None:
      return len(self._arrays['actions'])
    return len(self._moves['actions'])

  @property
  def observations(self) -> np.ndarray:
    """`[T, *obs]` the observation at each position."""
    return self._array('observations')

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
    """The n-step value target z_t of every position, n = td_steps.

    z_t = sum_{i<n} g^i s(t, t+i) r_{t+i} + g^n s(t, t+n) v_{t+n}, with v the
    root values and s(t, j) = +1 if the same player moves at t and j, else -1
    (the pseudocode's `make_target` value, with the two-player signs it
    leaves out). Rewards at or past the end are 0. The bootstrap term past
    the end is 0 after a terminal state; for a truncated game, a window that
    reaches the end bootstraps there instead: g^(T-t) s(t, T) times
    `bootstrap_value`, with the player to move after the last move,
    (to_play[T-1] + 1) % num_players.

    Computed once per `td_steps` in O(T) from discounted suffix sums in
    player 0's frame: with sigma_j = +1 for player 0 and -1 for player 1,
    s(t, j) = sigma_t sigma_j, and R_t = sigma_t r_t + g R_{t+1} gives
    sum_{t<=i<b} g^(i-t) sigma_i r_i = R_t - g^(b-t) R_b.

    Args:
      td_steps: n >= 1.

    Returns:
      `[T]` float64 value targets, each for the player to move at t.
    """
    self._check_finished('value_targets')
    _check_count('td_steps', td_steps, 1)
    td_steps = int(td_steps)
    if td_steps in self._value_targets:
      return self._value_targets[td_steps]
    t_max = self.length
    g = self._discount
    sigma = 1. - 2. * self.to_play  # [T]
    signed_rewards = (sigma * self.rewards).tolist()
    suffix = [0.] * (t_max + 1)  # R_t, with R_T = 0.
    for t in range(t_max - 1, -1, -1):
      suffix[t] = signed_rewards[t] + g * suffix[t + 1]
    suffix = np.asarray(suffix)  # [T+1]
    bootstrap = np.zeros(t_max + 1)  # [T+1] sigma_j v_j, 0 at a terminal end.
    bootstrap[:t_max] = sigma * self.root_values
    if not self._terminal:
      next_player = (int(self.to_play[-1]) + 1) % self._num_players
      bootstrap[t_max] = (1. - 2. * next_player) * self._bootstrap_value
    t = np.arange(t_max)
    end = np.minimum(t + td_steps, t_max)  # [T] the bootstrap index b.
    scale = g ** (end - t).astype(np.float64)
    targets = sigma * (suffix[:t_max] - scale * suffix[end] +
                       scale * bootstrap[end])
    targets.setflags(write=False)
    self._value_targets[td_steps] = targets
    return targets

  def make_target(self, index: int, num_unroll_steps: int,
                  td_steps: int) -> Target:
    """The targets of the K-step window starting at position `index`.

    Unroll step k (0..K) is position index + k. Its value target is
    `value_targets(td_steps)` there and its policy target the stored visit
    distribution. Fixes of the pseudocode:

    - Reward (defect 4): step k in 1..K predicts the reward of the k-th
      action, rewards[index + k - 1], stored at column k-1; step 0 has no
      reward target. The pseudocode pairs step k with rewards[index + k].
    - Past the end (defect 5): positions index + k >= T are absorbing: value
      0, policy 0 and policy mask 0; rewards of actions past the last move
      are 0. Position T itself still gets the real reward of the last move.
      After a truncation the true continuation is unknown, so treating the
      positions past the end as absorbing is an approximation there; the
      bootstrap value enters only the value targets before the end.

    Args:
      index: the window's first position, in [0, T).
      num_unroll_steps: K >= 0.
      td_steps: n >= 1.

    Returns:
      A float32 `Target`.

    Raises:
      ValueError: if the trajectory is not finished or an argument is out of
        range.
    """
    self._check_finished('make_target')
    self._check_index(index)
    _check_count('num_unroll_steps', num_unroll_steps, 0)
    values = self.value_targets(td_steps)
    k = int(num_unroll_steps)
    t_max = self.length
    inside = min(index + k + 1, t_max) - index  # Positions inside the game.
    acted = min(index + k, t_max) - index  # Actions with a real reward.
    target_value = np.zeros(k + 1, np.float32)
    target_value[:inside] = values[index:index + inside]
    target_reward = np.zeros(k, np.float32)
    target_reward[:acted] = self.rewards[index:index + acted]
    target_policy = np.zeros((k + 1, self._action_space_size), np.float32)
    target_policy[:inside] = self.policies[index:index + inside]
    policy_mask = np.zeros(k + 1, np.float32)
    policy_mask[:inside] = 1.
    return Target(target_value, target_reward, target_policy, policy_mask)

  def actions_window(self, index: int, num_unroll_steps: int,
                     rng: np.random.Generator) -> np.ndarray:
    """The K actions a[index .. index+K-1], padded past the end at random.

    The dynamics function is unrolled K steps whatever the game's length, so
    steps past the last move need some action. Their targets are absorbing
    (value, reward and policy 0, policy masked), so any action is a valid
    input there; uniformly random actions teach the model that every action
    leads on from an absorbing state to an absorbing state, rather than one
    fixed action that the search would never see elsewhere.

    Args:
      index: the window's first position, in [0, T).
      num_unroll_steps: K >= 0.
      rng: draws the padding actions, uniformly over [0, A); it is used
        only when the window runs past the end.

    Returns:
      `[K]` int32 actions.
    """
    self._check_index(index)
    _check_count('num_unroll_steps', num_unroll_steps, 0)
    k = int(num_unroll_steps)
    real = self.actions[index:index + k].astype(np.int32)
    if len(real) == k:
      return real  # Inside the game: no draw, the generator is untouched.
    padding = rng.integers(0, self._action_space_size, k - len(real))
    return np.concatenate([real, padding.astype(np.int32)])

  def _check_index(self, index: int):
    if not _is_int(index) or not 0 <= index < self.length:
      raise ValueError(f'index must be a position in [0, {self.length}), got '
                       f'{index!r}.')
