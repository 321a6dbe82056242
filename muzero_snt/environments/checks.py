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
"""A wrapper that checks an environment against a MuZero configuration."""

import math
from typing import Optional, Sequence

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt.environments import base


class CheckedEnvironment(base.Environment):
  """Checks every exchange with an environment and raises on the first fault.

  Faults would otherwise surface as shape errors deep in the search or as
  silently wrong targets. A `ValueError` names the value and what was
  expected when the specs or an observation differ from the configuration
  or an observation is not finite; an illegal action is passed to `step()`
  (before it is forwarded); a reward is missing or not finite; or the legal
  actions of a non-terminal state are empty, out of range, duplicated or not
  integers. Other attributes are read from the wrapped environment.
  """

  def __init__(self,
               environment: base.Environment,
               observation_shape: Sequence[int],
               action_space_size: int,
               observation_dtype=np.float32):
    """Checks the specs of `environment`.

    Args:
      environment: the environment to check.
      observation_shape, observation_dtype: those of every observation.
      action_space_size: the number of actions.

    Raises:
      TypeError: if `environment` is not a `base.Environment`.
      ValueError: if its specs do not match.
    """
    if not isinstance(environment, base.Environment):
      raise TypeError(
          f'CheckedEnvironment wraps a muzero_snt environments.Environment '
          f'(with legal_actions and to_play), got {type(environment)!r}.')
    self._environment = environment
    self._observation_shape = tuple(observation_shape)
    self._observation_dtype = np.dtype(observation_dtype)
    self._check_finite = np.issubdtype(self._observation_dtype, np.inexact)
    self._action_space_size = action_space_size
    self._step_type: Optional[dm_env.StepType] = None
    self._episode_step = 0

    spec = environment.observation_spec()
    if (not isinstance(spec, specs.Array) or
        spec.shape != self._observation_shape or
        spec.dtype != self._observation_dtype):
      raise ValueError(
          f'The observation spec {spec!r} does not match the configuration: '
          f'expected shape {self._observation_shape} and dtype '
          f'{self._observation_dtype.name}.')
    spec = environment.action_spec()
    if (not isinstance(spec, specs.DiscreteArray) or
        spec.num_values != action_space_size):
      raise ValueError(
          f'The action spec {spec!r} does not match the configuration: '
          f'expected a DiscreteArray of {action_space_size} actions.')

  @classmethod
  def from_config(cls, environment: base.Environment,
                  config) -> 'CheckedEnvironment':
    """Checks `environment` against a `MuZeroConfig`'s shapes."""
    return cls(environment, config.observation_shape, config.action_space_size)

  @property
  def environment(self) -> base.Environment:
    """The wrapped environment."""
    return self._environment

  def __getattr__(self, name):
    # Only called for names the wrapper lacks; dunders stay the wrapper's own
    # so that copying and pickling do not recurse.
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

  def reset(self) -> dm_env.TimeStep:
    return self._check_timestep(self._environment.reset())

  def step(self, action) -> dm_env.TimeStep:
    if self._step_type in (dm_env.StepType.FIRST, dm_env.StepType.MID):
      legal = self._environment.legal_actions()
      index = base.as_action(action)
      if index is None or index not in legal:
        raise ValueError(
            f'Illegal action {action!r} at step {self._episode_step} of the '
            f'episode: expected one of the legal actions {legal.tolist()}.')
    return self._check_timestep(self._environment.step(action))

  def close(self):
    self._environment.close()

  def frame_stack(self):
    return self._environment.frame_stack()

  def legal_actions(self) -> np.ndarray:
    return self._environment.legal_actions()

  def to_play(self) -> int:
    return self._environment.to_play()

  @property
  def num_players(self) -> int:
    return self._environment.num_players

  def _check_timestep(self, timestep: dm_env.TimeStep) -> dm_env.TimeStep:
    """Records where the episode is, then checks `timestep`."""
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
          f'The observation at {where} has shape {shape} and dtype {dtype}; '
          f'expected shape {self._observation_shape} and dtype '
          f'{self._observation_dtype.name}{fix}.')
    if self._check_finite and not np.isfinite(observation).all():
      index = np.argwhere(~np.isfinite(observation))[0].tolist()
      raise ValueError(
          f'The observation of {type(self._environment).__name__} at '
          f'{where} is not finite: {observation[tuple(index)]} at index '
          f'{index}; expected finite values.')

    if not timestep.first():
      reward = timestep.reward
      if not (math.isfinite(reward) if isinstance(reward, float) else
              reward is not None and np.all(np.isfinite(reward))):
        raise ValueError(
            f'The reward at {where} is {reward!r}; expected a finite number.')

    if not timestep.last():
      self._check_legal_actions(where)
    return timestep

  def _check_legal_actions(self, where: str):
    legal = np.asarray(self._environment.legal_actions())
    expected = (f'expected distinct integer actions in '
                f'0..{self._action_space_size - 1}')
    if legal.size == 0:
      raise ValueError(
          f'There are no legal actions at {where}, a non-terminal state; '
          f'{expected}.')
    # Python's min, max and set are cheaper than NumPy's on a few actions.
    values = legal.tolist() if legal.ndim == 1 else None
    if (values is None or legal.dtype.kind not in 'iu' or
        min(values) < 0 or max(values) >= self._action_space_size or
        len(set(values)) != len(values)):
      raise ValueError(
          f'The legal actions at {where} are {legal.tolist()}; {expected}.')
