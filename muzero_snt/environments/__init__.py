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
"""Environments as `dm_env.Environment`s, and tic-tac-toe opponents."""

from typing import Callable, Dict

from muzero_snt.environments.base import Environment
from muzero_snt.environments.checks import CheckedEnvironment
from muzero_snt.environments.gym_adapter import GymnasiumEnvironment
from muzero_snt.environments.tictactoe import TicTacToe
from muzero_snt.environments.tictactoe_players import game_value
from muzero_snt.environments.tictactoe_players import minimax_values
from muzero_snt.environments.tictactoe_players import optimal_actions
from muzero_snt.environments.tictactoe_players import PerfectPlayer
from muzero_snt.environments.tictactoe_players import play_game
from muzero_snt.environments.tictactoe_players import RandomPlayer

# Names of `make_environment`, matching the presets of the same name.
ENVIRONMENTS: Dict[str, Callable[[int], Environment]] = {
    'cartpole': lambda seed: GymnasiumEnvironment('CartPole-v1', seed=seed),
    'tictactoe': lambda seed: TicTacToe(seed=seed),
}


def make_environment(name: str, seed: int = 0) -> Environment:
  """Returns the environment called `name`, e.g. 'tictactoe' or 'cartpole'.

  Args:
    name: one of `ENVIRONMENTS`.
    seed: the seed of the environment's first reset (tic-tac-toe is
      deterministic and ignores it).

  Raises:
    ValueError: if `name` is unknown; the message lists the known names.
    ImportError: for 'cartpole' without gymnasium installed.
  """
  if name not in ENVIRONMENTS:
    raise ValueError(f'Unknown environment {name!r}; expected one of '
                     f'{sorted(ENVIRONMENTS)}.')
  return ENVIRONMENTS[name](seed)


__all__ = (
    'CheckedEnvironment',
    'ENVIRONMENTS',
    'Environment',
    'GymnasiumEnvironment',
    'PerfectPlayer',
    'RandomPlayer',
    'TicTacToe',
    'game_value',
    'make_environment',
    'minimax_values',
    'optimal_actions',
    'play_game',
)
