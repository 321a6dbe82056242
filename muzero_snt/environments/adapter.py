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
"""A plain `dm_env.Environment` as a muzero_snt `Environment`.

A user's game need not subclass `base.Environment`: a `dm_env` environment
with a `DiscreteArray` action spec is a one-player game in which every
action is legal, and one that also has `legal_actions()`, `to_play()` and
`num_players = 2` is a two-player game. `as_environment` wraps it;
docs/environments.md has the whole contract.
"""

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt.environments import base


def _is_number_array(value) -> bool:
  return isinstance(value, (np.ndarray, np.generic, int, float, list,
                            tuple)) and np.asarray(value).dtype.kind in 'biuf'


class DmEnvAdapter(base.Wrapper):
  """A plain `dm_env.Environment` seen through `base.Environment`.

  What the wrapped environment lacks takes its one-player meaning:
  `legal_actions()` every action of the action spec, `to_play()` player 0,
  `num_players` 1. Numeric observations become float32 (the network's
  dtype; the observation spec says so too) and scalar rewards and
  discounts float32; anything else passes unchanged, for
  `checks.CheckedEnvironment` to name. Other attributes are the wrapped
  environment's (`base.Wrapper`).
  """

  def __init__(self, environment: dm_env.Environment):
    """Wraps `environment`.

    Raises:
      TypeError: if `environment` is not a `dm_env.Environment`.
      ValueError: if it says it has two players but not whose move it is.
    """
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
      return base.REWARD_SPEC
    return spec

  def discount_spec(self):
    spec = self._environment.discount_spec()
    if isinstance(spec, specs.Array) and spec.shape == ():
      return base.DISCOUNT_SPEC
    return spec

  def reset(self) -> dm_env.TimeStep:
    return self._convert(self._environment.reset())

  def step(self, action) -> dm_env.TimeStep:
    return self._convert(self._environment.step(action))

  def legal_actions(self) -> np.ndarray:
    if hasattr(self._environment, 'legal_actions'):
      return self._environment.legal_actions()
    return np.arange(self._environment.action_spec().num_values,
                     dtype=np.int32)

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


def as_environment(environment) -> base.Environment:
  """`environment` itself if it is a `base.Environment`, else adapted.

  Raises:
    TypeError: if `environment` is not a `dm_env.Environment`.
    ValueError: as `DmEnvAdapter`.
  """
  if isinstance(environment, base.Environment):
    return environment
  if not isinstance(environment, dm_env.Environment):
    raise TypeError(
        f'Expected a dm_env.Environment (or a muzero_snt '
        f'environments.Environment), got {environment!r}.')
  return DmEnvAdapter(environment)
