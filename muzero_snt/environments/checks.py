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
"""Checks that an environment keeps docs/environments.md's contract: each
fault one `ValueError` naming the method, the value and what was expected."""

import math
from typing import NamedTuple, Optional, Sequence, Tuple

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt.environments import base


class EnvironmentSpecs(NamedTuple):
  """What a configuration needs to know of an environment."""
  observation_shape: Tuple[int, ...]
  action_space_size: int
  num_players: int


def environment_specs(environment) -> EnvironmentSpecs:
  """The checked specs of a `dm_env.Environment` (plain ones adapted); a
  `TypeError` for anything else, a `ValueError` if a spec is malformed or
  `num_players` is not 1 or 2."""
  environment = base.as_environment(environment)
  name = _name(environment)
  spec = environment.observation_spec()
  if not isinstance(spec, specs.Array) or not spec.shape:
    raise ValueError(
        f'observation_spec() of {name} returned {spec!r}; expected one '
        'dm_env.specs.Array of rank 1 or more (not a dict or a tuple of '
        'arrays, not a scalar).')
  action_spec = environment.action_spec()
  if not isinstance(action_spec, specs.DiscreteArray):
    raise ValueError(
        f'action_spec() of {name} returned {action_spec!r}; expected a '
        'dm_env.specs.DiscreteArray (actions numbered 0..num_values-1).')
  for method in ('reward_spec', 'discount_spec'):
    value = getattr(environment, method)()
    if not isinstance(value, specs.Array) or value.shape != ():
      raise ValueError(f'{method}() of {name} returned {value!r}; expected a '
                       'scalar dm_env.specs.Array (shape ()).')
  num_players = environment.num_players
  if num_players not in (1, 2) or isinstance(num_players, bool):
    raise ValueError(
        f'num_players of {name} is {num_players!r}; expected 1 or 2 (an '
        'attribute or property).')
  return EnvironmentSpecs(tuple(spec.shape), int(action_spec.num_values),
                          int(num_players))


def _is_finite_scalar(value) -> bool:
  if isinstance(value, float):  # The common case, at every step.
    return math.isfinite(value)
  try:
    return (value is not None and np.ndim(value) == 0 and
            bool(np.isfinite(value)))
  except TypeError:  # A string or another object.
    return False


def _shown(value) -> str:
  # A NumPy scalar as the Python number it holds.
  if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0:
    return repr(value.item())
  return repr(value)


def _name(environment) -> str:
  if isinstance(environment, base.DmEnvAdapter):
    environment = environment.environment
  return type(environment).__name__


class CheckedEnvironment(base.Wrapper):
  """Checks every exchange with an environment and raises on the first fault.

  Else a broken reward or move list would surface deep in the search or as
  a silently wrong value target. Checked: the specs against the
  configuration's; time steps (FIRST from `reset()`) with finite
  observations of the spec, finite scalar rewards and discounts in [0, 1];
  the action, before it reaches the environment; at non-terminal states,
  the legal actions (distinct, in range, at least one) and `to_play()`. Not
  checked: the action of a `step()` that starts an episode, and positions
  set up through the wrapped environment (`set_state`, ...).
  """

  def __init__(self,
               environment: dm_env.Environment,
               observation_shape: Sequence[int],
               action_space_size: int,
               observation_dtype=np.float32,
               num_players: Optional[int] = None):
    """Raises a `TypeError` for a non-`dm_env.Environment`, a `ValueError`
    if its specs are malformed or do not match."""
    environment = base.as_environment(environment)
    super().__init__(environment)
    self._name = _name(environment)
    self._observation_shape = tuple(observation_shape)
    self._observation_dtype = np.dtype(observation_dtype)
    self._check_finite = np.issubdtype(self._observation_dtype, np.inexact)
    self._action_space_size = action_space_size
    self._step_type: Optional[dm_env.StepType] = None
    self._episode_step = 0

    found = environment_specs(environment)
    self._one_player = found.num_players == 1
    spec = environment.observation_spec()
    if (spec.shape != self._observation_shape or
        spec.dtype != self._observation_dtype):
      raise ValueError(
          f'observation_spec() of {self._name} returned {spec!r}, which '
          f'does not match the configuration: expected shape '
          f'{self._observation_shape} and dtype '
          f'{self._observation_dtype.name}.')
    if found.action_space_size != action_space_size:
      raise ValueError(
          f'action_spec() of {self._name} returned '
          f'{environment.action_spec()!r}, which does not match the '
          f'configuration: expected a DiscreteArray of {action_space_size} '
          'actions.')
    if num_players is not None and found.num_players != num_players:
      raise ValueError(
          f'num_players of {self._name} is {found.num_players}, which does '
          f'not match the configuration: expected {num_players}.')

  @classmethod
  def from_config(cls, environment: dm_env.Environment,
                  config) -> 'CheckedEnvironment':
    """Checks `environment` against a `MuZeroConfig`."""
    return cls(environment, config.observation_shape,
               config.action_space_size, num_players=config.num_players)

  def reset(self) -> dm_env.TimeStep:
    return self._check_timestep(self._environment.reset(), 'reset()')

  def step(self, action) -> dm_env.TimeStep:
    if self._step_type in (dm_env.StepType.FIRST, dm_env.StepType.MID):
      legal = np.asarray(self._environment.legal_actions())
      index = base.as_action(action)
      if index is None or index not in legal:
        raise ValueError(
            f'Illegal action {action!r} at step {self._episode_step} of the '
            f'episode: expected one of the legal actions {legal.tolist()}.')
    return self._check_timestep(self._environment.step(action), 'step()')

  def frame_stack(self):
    return self._environment.frame_stack()

  def _check_timestep(self, timestep: dm_env.TimeStep,
                      method: str) -> dm_env.TimeStep:
    is_reset = method == 'reset()'
    method = f'{method} of {self._name}'
    if not isinstance(timestep, dm_env.TimeStep):
      raise ValueError(f'{method} returned {timestep!r}; expected a '
                       'dm_env.TimeStep.')
    if is_reset and not timestep.first():
      step_type = getattr(timestep.step_type, 'name', timestep.step_type)
      raise ValueError(f'{method} returned a {step_type} time step; '
                       'expected FIRST (dm_env.restart).')
    self._step_type = timestep.step_type
    self._episode_step = 0 if timestep.first() else self._episode_step + 1
    where = f'step {self._episode_step} of the episode'

    observation = timestep.observation
    shape = np.shape(observation)
    dtype = getattr(observation, 'dtype', type(observation))
    if shape != self._observation_shape or dtype != self._observation_dtype:
      fix = ''
      if dtype != self._observation_dtype:
        fix = (f' (convert it in the environment: np.asarray(x, '
               f'np.{self._observation_dtype.name}))')
      raise ValueError(
          f'{method} returned an observation of shape {shape} and dtype '
          f'{dtype} at {where}; expected shape {self._observation_shape} '
          f'and dtype {self._observation_dtype.name}, as its observation '
          f'spec{fix}.')
    if self._check_finite and not np.isfinite(observation).all():
      index = np.argwhere(~np.isfinite(observation))[0].tolist()
      raise ValueError(
          f'{method} returned an observation that is not finite at {where}: '
          f'{observation[tuple(index)]} at index {index}; expected finite '
          'values.')

    if not timestep.first():
      reward, discount = timestep.reward, timestep.discount
      if not _is_finite_scalar(reward):
        raise ValueError(f'{method} returned reward {_shown(reward)} at '
                         f'{where}; expected a finite scalar.')
      if not (_is_finite_scalar(discount) and 0 <= discount <= 1):
        raise ValueError(
            f'{method} returned discount {_shown(discount)} at {where}; '
            'expected a scalar in [0, 1] (a LAST time step with discount 0 '
            'ends the game, with discount 1 it cuts the episode short).')

    if not timestep.last():
      self._check_legal_actions(where)
      self._check_to_play(where)
    return timestep

  def _check_legal_actions(self, where: str):
    legal = np.asarray(self._environment.legal_actions())
    method = f'legal_actions() of {self._name}'
    if legal.size == 0:
      raise ValueError(
          f'{method} returned no actions at {where}, which is not the last; '
          'expected at least one (a game without moves ends with a LAST '
          'time step).')
    # At every move: on a few actions Python's min, max and set beat NumPy's.
    values = legal.tolist() if legal.ndim == 1 else None
    if (values is None or legal.dtype.kind not in 'iu' or
        min(values) < 0 or max(values) >= self._action_space_size or
        len(set(values)) != len(values)):
      raise ValueError(
          f'{method} returned {legal.tolist()} at {where}; expected '
          f'distinct integer actions in 0..{self._action_space_size - 1}.')

  def _check_to_play(self, where: str):
    player = self._environment.to_play()
    expected = (0,) if self._one_player else (0, 1)
    if base.as_action(player) not in expected:
      raise ValueError(
          f'to_play() of {self._name} returned {_shown(player)} at {where}; '
          f'expected {" or ".join(map(str, expected))}' +
          (' (num_players is 1).' if self._one_player else '.'))
