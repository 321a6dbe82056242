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
"""A configuration derived from an environment's specs: any game, no preset.

The 'gymnasium' and 'openspiel' families build a task or game by name and
derive its configuration the same way.
"""

import dataclasses
import math
from typing import Any, Dict, Optional

from muzero_snt import config as config_lib
from muzero_snt.environments import base
from muzero_snt.environments import checks
from muzero_snt.environments import gym_adapter
from muzero_snt.environments import openspiel
from muzero_snt.environments import registry

# Presets whose configuration comes from the task or game they are given.
FAMILIES = ('gymnasium', 'openspiel')
# The episode length limit when the environment states none.
DEFAULT_MAX_MOVES = 1_000
# The most games the replay window keeps, and the most bytes of
# observations it may hold (fewer games for long episodes of images).
MAX_WINDOW_SIZE = 1_000
WINDOW_BYTES = 2**31
# Images at least this high and wide start with the paper's Atari
# down-sampling stem (a 16th of each side).
DOWNSAMPLE_SIDE = 64

_CONFIG_FIELDS = frozenset(f.name for f in dataclasses.fields(
    config_lib.MuZeroConfig))
# Read from the environment, never overridden.
_FROM_SPECS = ('action_space_size', 'observation_shape', 'num_players')
_NETWORK_FIELDS = frozenset(f.name for f in dataclasses.fields(
    config_lib.NetworkConfig))


def _hints(environment) -> Dict[str, Any]:
  """What the environment says of its episodes beyond its specs."""
  hints = {}
  if isinstance(environment, gym_adapter.GymnasiumEnvironment):
    spec = environment.gymnasium_env.spec
    if spec is not None and spec.max_episode_steps:
      hints['max_moves'] = int(spec.max_episode_steps)
  elif isinstance(environment, openspiel.OpenSpielEnvironment):
    game = environment.game
    hints['max_moves'] = environment.max_moves or game.max_game_length()
    if game.min_utility() < game.max_utility():
      hints['known_bounds'] = config_lib.KnownBounds(
          float(game.min_utility()), float(game.max_utility()))
  else:
    max_moves = getattr(environment, 'max_moves', None)
    if isinstance(max_moves, int) and not isinstance(max_moves, bool):
      hints['max_moves'] = max_moves
  return hints


def _network(shape, num_players: int,
             overrides: Dict[str, Any]) -> config_lib.NetworkConfig:
  # The pseudocode's: scalar values and rewards (an MSE) for board games,
  # 601 atoms (|v| up to about 90,000) for Atari's returns of any size.
  support = 0 if num_players == 2 else 601
  if len(shape) == 3:
    downsample = min(shape[:2]) >= DOWNSAMPLE_SIDE
    values = dict(
        kind='residual', channels=32, num_blocks=2, prediction_blocks=1,
        head_layers=(32,), downsample=downsample,
        # A board game's move is a square (or a few planes of squares);
        # another task's actions are constant planes.
        action_encoding=('board' if num_players == 2 and not downsample
                         else 'one_hot'))
  else:
    values = dict(kind='mlp', hidden_size=64, mlp_layers=(64, 64),
                  head_layers=(32,))
  values.update(value_support_size=support, reward_support_size=support)
  values.update({k: v for k, v in overrides.items() if k in _NETWORK_FIELDS})
  return config_lib.NetworkConfig(**values)


def config_for_environment(environment,
                           **overrides) -> config_lib.MuZeroConfig:
  """A configuration for `environment`, read from its specs.

  The network follows the observation's rank (a residual tower for
  `[H, W, C]`, else an MLP on it flattened), the other numbers the small
  presets': one-player games get the CartPole preset's search and targets,
  two-player games the board games' (discount 1, the game's result as value
  target, scalar values and rewards). `max_moves` is the environment's
  episode limit (a gymnasium task's time limit, an OpenSpiel game's longest
  game, an integer `max_moves` attribute of another environment), divided
  by an `action_repeat` override (rounded up), or 1,000.

  Args:
    environment: a `dm_env.Environment` (docs/environments.md).
    **overrides: `MuZeroConfig` and `NetworkConfig` fields (`channels=16`)
      to set instead of the derived ones; derived values (value targets,
      temperatures, the replay window) follow `max_moves` and
      `training_steps`.

  Raises:
    ValueError: naming the environment's method and value if its specs
      break the contract (`environments.environment_specs`), naming an
      override that is no field, or as `MuZeroConfig` for a bad value.
  """
  unknown = sorted(set(overrides) - _CONFIG_FIELDS - _NETWORK_FIELDS)
  if unknown:
    raise ValueError(
        f'config_for_environment got unknown settings {unknown}; expected '
        f'fields of MuZeroConfig or NetworkConfig.')
  from_specs = sorted(set(overrides) & set(_FROM_SPECS))
  if from_specs:
    raise ValueError(
        f'config_for_environment got {from_specs}, which the environment\'s '
        'specs set; change the environment instead.')
  environment = base.as_environment(environment)
  shape, num_actions, num_players = checks.environment_specs(environment)
  values = dict(_hints(environment))
  repeat = overrides.get('action_repeat', 1)
  if 'max_moves' in values and isinstance(repeat, int) and repeat > 1:
    # The environment's limit counts its steps, max_moves counts moves.
    values['max_moves'] = -(-values['max_moves'] // repeat)
  values.update({k: v for k, v in overrides.items() if k in _CONFIG_FIELDS})
  max_moves = values.setdefault('max_moves', DEFAULT_MAX_MOVES)
  training_steps = values.setdefault('training_steps', 10_000)
  for name in ('max_moves', 'training_steps'):  # Others derive from them.
    config_lib.check_int(name, values[name], 1)
  observation_bytes = 4 * math.prod(shape)
  values.setdefault('window_size', max(1, min(
      MAX_WINDOW_SIZE, WINDOW_BYTES // (max_moves * observation_bytes))))
  if num_players == 2:
    values.setdefault('discount', 1.0)
    values.setdefault('td_steps', max_moves)  # Monte Carlo, as board games.
    # AlphaZero's alpha is about 10 / (typical number of legal moves).
    values.setdefault('root_dirichlet_alpha',
                      min(1.0, max(0.03, 10 / num_actions)))
    # The pseudocode's 30 moves at temperature 1: all of a small game's.
    values.setdefault('visit_softmax_temperature_fn',
                      config_lib.MoveCountTemperature(
                          moves=min(30, max_moves)))
  else:
    values.setdefault('discount', 0.997)
    # The CartPole preset's n: most small games' episodes end sooner, and
    # their value targets are then the episodes' returns.
    values.setdefault('td_steps', min(50, max_moves))
    values.setdefault('root_dirichlet_alpha', 0.25)
    values.setdefault('visit_softmax_temperature_fn',
                      config_lib.TrainingStepTemperature(
                          boundaries=(training_steps / 2,
                                      training_steps * 3 / 4),
                          values=(1.0, 0.5, 0.25)))
    # The CartPole preset's: at the pseudocode's 0.25, a prior that leans
    # to one action draws the visits, which teach it to lean further.
    values.setdefault('root_exploration_fraction', 0.5)
    # Returns need not be bounded or centred on 0: an unvisited child's Q
    # of 0 could rank it above or below every visited one.
    values.setdefault('unvisited_q', 'parent')
  network = values.pop('network', None) or _network(shape, num_players,
                                                    overrides)
  # Adam, not the paper's momentum: on small games it learns in fewer
  # steps than momentum at the small presets' rate of 0.02.
  defaults = dict(num_simulations=25, batch_size=128, optimizer='adam',
                  lr_init=0.003, lr_decay_steps=training_steps,
                  checkpoint_interval=500)
  return config_lib.MuZeroConfig(**{
      **defaults, **values,
      'action_space_size': num_actions,
      'observation_shape': shape,
      'num_players': num_players,
      'network': network})


def family_config(family: str,
                  title: Optional[str] = None,
                  training_steps: Optional[int] = None
                 ) -> config_lib.MuZeroConfig:
  """The configuration of a `FAMILIES` family's task or game `title`, the
  gymnasium id or the OpenSpiel game (None: the family's default,
  `environments.ENVIRONMENTS`), over `training_steps` (None:
  `config_for_environment`'s 10,000).

  Raises:
    ValueError: if the task or game is unknown or not of the kind MuZero
      plays here (continuous actions, a dict observation, simultaneous
      moves, imperfect information, more than two players, ...).
    ImportError: naming the extra to install.
  """
  if family not in FAMILIES:
    raise ValueError(f'Unknown family {family!r}; expected one of '
                     f'{FAMILIES}.')
  environment = registry.make_environment(family, 0, title)
  overrides = {} if training_steps is None else dict(
      training_steps=training_steps)
  try:
    return config_for_environment(environment, **overrides)
  finally:
    environment.close()
