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
"""A gymnasium environment with discrete actions as a `dm_env` environment."""

from typing import Any, Optional

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt.environments import base


class GymnasiumEnvironment(base.OnePlayerEnvironment):
  """A one-player gymnasium environment with a `Discrete` action space.

  Observations are float32 in the `Box` space's shape. `terminated` is a
  termination (discount 0), `truncated` a truncation (discount 1: the state
  after a time limit still has value). `seed` goes to the first reset only;
  later resets continue its random stream.
  """

  def __init__(self,
               env: Any,
               seed: Optional[int] = 0,
               **make_kwargs):
    """Makes or wraps `env`, a gymnasium id ('CartPole-v1') or a
    `gymnasium.Env`; `make_kwargs` go to `gymnasium.make`, with an id only.

    Raises:
      ImportError: if gymnasium is not installed.
      ValueError: if gymnasium cannot make `env`, its spaces are not
        `Discrete` actions and `Box` observations, or `make_kwargs` come
        with an instance.
    """
    gymnasium = base.import_optional('gymnasium', 'GymnasiumEnvironment',
                                     'envs', 'gymnasium')
    if isinstance(env, str):
      try:
        env = gymnasium.make(env, **make_kwargs)
      except gymnasium.error.Error as e:
        # gymnasium's message names the id and suggests close ones.
        raise ValueError(f'gymnasium cannot make {env!r}: {e}') from e
    elif make_kwargs:
      raise ValueError(
          f'Keyword arguments of gymnasium.make need an environment id, got '
          f'{sorted(make_kwargs)} with the instance {env!r}.')
    action_space = env.action_space
    if not isinstance(action_space, gymnasium.spaces.Discrete):
      raise ValueError(
          f'GymnasiumEnvironment needs a Discrete action space, got '
          f'{action_space!r}.')
    if not isinstance(env.observation_space, gymnasium.spaces.Box):
      raise ValueError(
          f'GymnasiumEnvironment needs a Box observation space, got '
          f'{env.observation_space!r}.')
    self._env = env
    self._seed = seed  # None after the first reset.
    self._num_actions = int(action_space.n)
    self._action_start = int(action_space.start)
    self._observation_shape = tuple(env.observation_space.shape)
    self._reset_next_step = True

  @property
  def gymnasium_env(self):
    return self._env

  def observation_spec(self) -> specs.Array:
    return specs.Array(shape=self._observation_shape, dtype=np.float32,
                       name='observation')

  def reset(self) -> dm_env.TimeStep:
    # gymnasium's `reset(seed=None)` continues the random stream.
    observation, _ = self._env.reset(seed=self._seed)
    self._seed = None
    self._reset_next_step = False
    return dm_env.restart(self._observation(observation))

  def step(self, action) -> dm_env.TimeStep:
    if self._reset_next_step:
      return self.reset()
    index = base.check_action(action, self._num_actions)
    observation, reward, terminated, truncated, _ = self._env.step(
        index + self._action_start)
    self._reset_next_step = terminated or truncated
    return base.next_timestep(reward, self._observation(observation),
                              terminated, truncated)

  def close(self):
    self._env.close()

  def _observation(self, observation) -> np.ndarray:
    return np.asarray(observation, dtype=np.float32).reshape(
        self._observation_shape)
