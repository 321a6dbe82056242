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
"""The environment interface of muzero_snt: `dm_env` plus legal moves.

A plain `dm_env` environment need not subclass `Environment`:
`as_environment` adapts it (docs/environments.md has the whole contract).
"""

import abc
import importlib
from typing import Optional

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt import frames

# Rewards and discounts are float32 scalars, the dtype the learner trains in.
REWARD_SPEC = specs.Array(shape=(), dtype=np.float32, name='reward')
DISCOUNT_SPEC = specs.BoundedArray(
    shape=(), dtype=np.float32, minimum=0., maximum=1., name='discount')

_ZERO = np.float32(0.)
_ONE = np.float32(1.)


class Environment(dm_env.Environment):
  """A `dm_env.Environment` that also says who moves and which moves are legal.

  The pseudocode's `Game.legal_actions` and `Game.to_play`. Players are 0 and
  1 (always 0 with one player); the reward after an action is for the player
  who took it, a float32 scalar (build time steps with `transition`,
  `termination` and `truncation`). A `step()` on a fresh environment or after
  a LAST time step starts a new episode; an illegal action raises a
  `ValueError`.
  """

  @abc.abstractmethod
  def legal_actions(self) -> np.ndarray:
    """Returns `[L]` int32 indices of the legal actions, in increasing order."""

  @abc.abstractmethod
  def to_play(self) -> int:
    """Returns the player about to move (0 or 1)."""

  @property
  @abc.abstractmethod
  def num_players(self) -> int:
    """The number of players: 1 or 2."""

  def frame_stack(self) -> Optional[frames.FrameStack]:
    """The layout of stacked observations (`frames.stack_observations`),
    whose frames self-play stores once; None if they are not stacked."""
    return None

  def reward_spec(self) -> specs.Array:
    return REWARD_SPEC

  def discount_spec(self) -> specs.BoundedArray:
    return DISCOUNT_SPEC


class Wrapper(Environment):
  """An environment around another, `environment`, which it forwards to.

  Attributes the wrapper lacks (`board`, `set_state`, ...) are the wrapped
  environment's; dunders are not, so that copying and pickling do not recurse.
  """

  def __init__(self, environment: dm_env.Environment):
    self._environment = environment

  @property
  def environment(self) -> dm_env.Environment:
    return self._environment

  def __getattr__(self, name):
    if name.startswith('__') or name == '_environment':
      raise AttributeError(name)
    return getattr(self._environment, name)

  def observation_spec(self):
    return self._environment.observation_spec()

  def action_spec(self):
    return self._environment.action_spec()

  def reward_spec(self):
    return self._environment.reward_spec()

  def discount_spec(self):
    return self._environment.discount_spec()

  def legal_actions(self) -> np.ndarray:
    return self._environment.legal_actions()

  def to_play(self) -> int:
    return self._environment.to_play()

  @property
  def num_players(self) -> int:
    return self._environment.num_players

  def close(self):
    self._environment.close()


def _is_number_array(value) -> bool:
  return isinstance(value, (np.ndarray, np.generic, int, float, list,
                            tuple)) and np.asarray(value).dtype.kind in 'biuf'


class DmEnvAdapter(Wrapper):
  """A plain `dm_env.Environment` seen through `Environment`.

  What the wrapped environment lacks takes its one-player meaning:
  `legal_actions()` every action of the action spec, `to_play()` player 0,
  `num_players` 1. Numeric observations (and their spec), scalar rewards
  and discounts become float32; anything else passes unchanged, for
  `checks.CheckedEnvironment` to name. A `TypeError` if `environment` is not
  a `dm_env.Environment`, a `ValueError` if it has two players but no
  `to_play()`.
  """

  def __init__(self, environment: dm_env.Environment):
    if not isinstance(environment, dm_env.Environment):
      raise TypeError(f'Expected a dm_env.Environment, got {environment!r}.')
    super().__init__(environment)
    num_players = getattr(environment, 'num_players', 1)
    if num_players == 2 and not hasattr(environment, 'to_play'):
      raise ValueError(
          f'{type(environment).__name__} has num_players 2 but no '
          'to_play(); expected a to_play() method returning the player to '
          'move, 0 or 1.')
    self._num_players = num_players

  def observation_spec(self):
    spec = self._environment.observation_spec()
    if (isinstance(spec, specs.Array) and spec.dtype.kind in 'biuf' and
        spec.dtype != np.float32):
      return spec.replace(dtype=np.float32)
    return spec

  def reward_spec(self):
    spec = self._environment.reward_spec()
    if isinstance(spec, specs.Array) and spec.shape == ():
      return REWARD_SPEC
    return spec

  def discount_spec(self):
    spec = self._environment.discount_spec()
    if isinstance(spec, specs.Array) and spec.shape == ():
      return DISCOUNT_SPEC
    return spec

  def reset(self) -> dm_env.TimeStep:
    return self._convert(self._environment.reset())

  def step(self, action) -> dm_env.TimeStep:
    return self._convert(self._environment.step(action))

  def legal_actions(self) -> np.ndarray:
    if hasattr(self._environment, 'legal_actions'):
      return self._environment.legal_actions()
    return np.arange(self._environment.action_spec().num_values, dtype=np.int32)

  def to_play(self) -> int:
    if hasattr(self._environment, 'to_play'):
      return self._environment.to_play()
    return 0

  @property
  def num_players(self) -> int:
    return self._num_players

  def _convert(self, timestep):
    if not isinstance(timestep, dm_env.TimeStep):
      return timestep  # For the checks to name.
    observation, reward, discount = (timestep.observation, timestep.reward,
                                     timestep.discount)
    if _is_number_array(observation):
      observation = np.asarray(observation, np.float32)
    if _is_number_array(reward) and np.ndim(reward) == 0:
      reward = np.float32(reward)
    if _is_number_array(discount) and np.ndim(discount) == 0:
      discount = np.float32(discount)
    return timestep._replace(observation=observation, reward=reward,
                             discount=discount)


def as_environment(environment) -> Environment:
  """`environment` itself if it is an `Environment`, else a `DmEnvAdapter`
  (which raises as it says) of a `dm_env.Environment`, else a `TypeError`."""
  if isinstance(environment, Environment):
    return environment
  if not isinstance(environment, dm_env.Environment):
    raise TypeError(
        f'Expected a dm_env.Environment (or a muzero_snt '
        f'environments.Environment), got {environment!r}.')
  return DmEnvAdapter(environment)


class OnePlayerEnvironment(Environment):
  """An environment of one player, 0, with every one of its actions legal."""

  _num_actions: int

  def action_spec(self) -> specs.DiscreteArray:
    return specs.DiscreteArray(num_values=self._num_actions, dtype=np.int32,
                               name='action')

  def legal_actions(self) -> np.ndarray:
    return np.arange(self._num_actions, dtype=np.int32)

  def to_play(self) -> int:
    return 0

  @property
  def num_players(self) -> int:
    return 1


def import_optional(module: str, user: str, extra: str, package: str):
  """Imports `module`; if missing, says that `user` needs `package`."""
  try:
    return importlib.import_module(module)
  except ImportError as e:
    raise ImportError(
        f"{user} needs the optional {package.split('==')[0]} package: pip "
        f"install -e '.[{extra}]' (or pip install {package}).") from e


def next_timestep(reward, observation, terminated: bool,
                  truncated: bool) -> dm_env.TimeStep:
  """The time step after a move that ended the game, cut it short or not."""
  if terminated:
    return termination(reward, observation)
  if truncated:
    return truncation(reward, observation)
  return transition(reward, observation)


def transition(reward, observation) -> dm_env.TimeStep:
  """`dm_env.transition` with a float32 reward and discount 1."""
  return dm_env.transition(np.float32(reward), observation, discount=_ONE)


def termination(reward, observation) -> dm_env.TimeStep:
  """`dm_env.termination` with a float32 reward and discount 0."""
  return dm_env.termination(np.float32(reward), observation)._replace(
      discount=_ZERO)


def truncation(reward, observation) -> dm_env.TimeStep:
  """`dm_env.truncation` with a float32 reward and discount 1."""
  return dm_env.truncation(np.float32(reward), observation, discount=_ONE)


def as_action(action) -> Optional[int]:
  """An integer scalar (int, NumPy, 0-d array) as an int; else (bools and
  floats too) None."""
  if isinstance(action, (bool, np.bool_)):
    return None
  if isinstance(action, (int, np.integer)):
    return int(action)
  if (isinstance(action, np.ndarray) and action.shape == () and
      np.issubdtype(action.dtype, np.integer)):
    return int(action)
  return None


def check_action(action, num_actions: int) -> int:
  """Returns `action` as an int in 0..num_actions - 1, else raises."""
  index = as_action(action)
  if index is None or not 0 <= index < num_actions:
    raise ValueError(f'Illegal action {action!r}: expected an integer in '
                     f'0..{num_actions - 1}.')
  return index


def check_int(name: str, value, minimum: int,
              maximum: Optional[int] = None) -> int:
  """Returns `value` as an int if it lies in `minimum..maximum`, else raises."""
  number = as_action(value)
  if (number is None or number < minimum or
      (maximum is not None and number > maximum)):
    expected = (f'an integer >= {minimum}' if maximum is None else
                f'an integer in {minimum}..{maximum}')
    raise ValueError(f'{name} must be {expected}, got {value!r}.')
  return number
