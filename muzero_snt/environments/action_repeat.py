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
"""Action repeat: each move held for several of the environment's steps."""

import dm_env
import numpy as np

from muzero_snt.environments import base


class ActionRepeat(base.Wrapper):
  """A one-player environment whose every action is held for `repeat` steps.

  A move returns the wrapped environment's last time step with the sum of
  the rewards; it stops early when the episode ends or the action is no
  longer legal.
  """

  def __init__(self, environment: dm_env.Environment, repeat: int):
    """Wraps `environment` (adapted by `base.as_environment`); a `ValueError`
    if `repeat` is not a positive integer or it has two players."""
    repeat = base.check_int('action_repeat', repeat, 1)
    environment = base.as_environment(environment)
    if environment.num_players != 1:
      raise ValueError(
          f'action_repeat={repeat} needs a one-player environment, got '
          f'{type(environment).__name__} with {environment.num_players} '
          'players.')
    super().__init__(environment)
    self._repeat = repeat
    self._frames = 0

  @property
  def frames(self) -> int:
    """The wrapped environment's steps in the current episode."""
    return self._frames

  def to_play(self) -> int:
    return 0

  def frame_stack(self):
    return self._environment.frame_stack()

  def reset(self) -> dm_env.TimeStep:
    self._frames = 0
    return self._environment.reset()

  def step(self, action) -> dm_env.TimeStep:
    time_step = self._environment.step(action)
    if time_step.first():  # The step after a LAST one starts an episode.
      self._frames = 0
      return time_step
    self._frames += 1
    reward = float(time_step.reward)
    for _ in range(self._repeat - 1):
      if time_step.last() or action not in self.legal_actions():
        break
      time_step = self._environment.step(action)
      self._frames += 1
      reward += float(time_step.reward)
    return time_step._replace(reward=np.float32(reward))
