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
"""MinAtar's miniature Atari games (Young and Tian, 2019) as `dm_env`."""

from typing import Optional

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt.environments import atari
from muzero_snt.environments import base

# MinAtar's games, by the module names `minatar.Environment` takes.
GAMES = ('asterix', 'breakout', 'freeway', 'seaquest', 'space_invaders')
# No-op, left, up, right, down, fire: MinAtar's DQN baseline plays all six.
NUM_ACTIONS = 6
GRID_SIZE = 10
# The most object planes (Seaquest's): every game padded to them, one shape.
MAX_CHANNELS = 10
# MinAtar's default, used by its published baselines (arXiv:1903.03176).
STICKY_ACTION_PROBABILITY = 0.1
# `numpy.random.RandomState` takes seeds in 0..2**32 - 1.
_MAX_SEED = 2**32 - 1


class MinAtarEnvironment(base.OnePlayerEnvironment):
  """One MinAtar game (arXiv:1903.03176), as its baselines play it.

  An observation is the current float32 `[10, 10, C]` state, unstacked (the
  games show motion on their own planes). Actions last one frame; rewards
  are unclipped. The game's end is a termination (discount 0),
  `max_episode_steps` a truncation.
  """

  _num_actions = NUM_ACTIONS

  def __init__(self,
               game: str,
               seed: int = 0,
               *,
               sticky_action_probability: float = STICKY_ACTION_PROBABILITY,
               difficulty_ramping: bool = True,
               num_channels: Optional[int] = None,
               max_episode_steps: Optional[int] = None):
    """Creates the game; `sticky_action_probability` is in [0, 1].

    Args:
      game: one of `GAMES`, up to case and underscores ('SpaceInvaders').
      seed: in 0..2**32 - 1, of MinAtar's `RandomState`, which continues
        across resets.
      difficulty_ramping: MinAtar's option (Asterix, Seaquest, Invaders).
      num_channels: planes of an observation, at least the game's (4 to
        10); None for the game's own.

    Raises:
      ImportError: if minatar is not installed.
      TypeError: if `game` is not a string.
      ValueError: if the game is unknown or an argument out of range.
    """
    minatar = base.import_optional('minatar', 'MinAtarEnvironment', 'minatar',
                                   'minatar==1.0.15')
    if not isinstance(game, str):
      raise TypeError(
          f"game must be a string such as 'breakout', got {game!r}.")
    name = atari.rom_id(game, GAMES)
    if name is None:
      raise ValueError(
          f'Unknown MinAtar game {game!r}; expected one of {list(GAMES)} '
          '(case and underscores do not matter).')
    seed = base.check_int('seed', seed, 0, _MAX_SEED)
    probability = sticky_action_probability
    if (isinstance(probability, (bool, np.bool_)) or
        not isinstance(probability, (int, float, np.floating)) or
        not 0 <= probability <= 1):
      raise ValueError(f'sticky_action_probability must be a number in '
                       f'[0, 1], got {probability!r}.')
    if not isinstance(difficulty_ramping, (bool, np.bool_)):
      raise ValueError(
          f'difficulty_ramping must be a bool, got {difficulty_ramping!r}.')
    if max_episode_steps is not None:
      max_episode_steps = base.check_int('max_episode_steps',
                                         max_episode_steps, 1)
    env = minatar.Environment(name,
                              sticky_action_prob=float(probability),
                              difficulty_ramping=bool(difficulty_ramping))
    env.seed(seed)
    game_channels = int(env.state_shape()[2])
    if num_channels is None:
      num_channels = game_channels
    else:
      num_channels = base.check_int(f'num_channels (of {name})',
                                    num_channels, game_channels)
    self._env = env
    self._game = name
    self._game_channels = game_channels
    self._num_channels = num_channels
    self._max_episode_steps = max_episode_steps
    self._episode_steps = 0
    self._reset_next_step = True

  @property
  def game(self) -> str:
    """MinAtar's name of the game, e.g. 'space_invaders'."""
    return self._game

  @property
  def max_episode_steps(self) -> Optional[int]:
    return self._max_episode_steps

  @property
  def minatar_env(self):
    """The wrapped `minatar.Environment`."""
    return self._env

  def observation_spec(self) -> specs.BoundedArray:
    return specs.BoundedArray(
        shape=(GRID_SIZE, GRID_SIZE, self._num_channels), dtype=np.float32,
        minimum=0., maximum=1., name='observation')

  def reset(self) -> dm_env.TimeStep:
    self._env.reset()
    self._episode_steps = 0
    self._reset_next_step = False
    return dm_env.restart(self._observation())

  def step(self, action) -> dm_env.TimeStep:
    if self._reset_next_step:
      return self.reset()
    index = base.check_action(action, NUM_ACTIONS)
    reward, terminal = self._env.act(index)
    self._episode_steps += 1
    truncated = (self._max_episode_steps is not None and
                 self._episode_steps >= self._max_episode_steps)
    self._reset_next_step = bool(terminal) or truncated
    return base.next_timestep(reward, self._observation(), terminal, truncated)

  def _observation(self) -> np.ndarray:
    observation = np.zeros(
        (GRID_SIZE, GRID_SIZE, self._num_channels), np.float32)
    observation[..., :self._game_channels] = self._env.state()
    return observation
