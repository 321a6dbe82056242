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
"""Environments as `dm_env.Environment`s, and their fixed opponents."""

from muzero_snt.environments.atari import AtariEnvironment
from muzero_snt.environments.base import as_environment
from muzero_snt.environments.base import DmEnvAdapter
from muzero_snt.environments.base import Environment
from muzero_snt.environments.checks import CheckedEnvironment
from muzero_snt.environments.checks import environment_specs
from muzero_snt.environments.checks import EnvironmentSpecs
from muzero_snt.environments.factories import factory_name
from muzero_snt.environments.factories import load_factory
from muzero_snt.environments.gym_adapter import GymnasiumEnvironment
from muzero_snt.environments.minatar_adapter import MinAtarEnvironment
from muzero_snt.environments.openspiel import OpenSpielEnvironment
from muzero_snt.environments.openspiel_players import MCTSPlayer
from muzero_snt.environments.registry import ENVIRONMENTS
from muzero_snt.environments.registry import EnvironmentEntry
from muzero_snt.environments.registry import make_environment
from muzero_snt.environments.registry import titled_environments
from muzero_snt.environments.tictactoe import TicTacToe
from muzero_snt.environments.tictactoe_players import game_value
from muzero_snt.environments.tictactoe_players import minimax_values
from muzero_snt.environments.tictactoe_players import optimal_actions
from muzero_snt.environments.tictactoe_players import PerfectPlayer
from muzero_snt.environments.tictactoe_players import play_game
from muzero_snt.environments.tictactoe_players import RandomPlayer

__all__ = (
    'AtariEnvironment',
    'CheckedEnvironment',
    'DmEnvAdapter',
    'ENVIRONMENTS',
    'Environment',
    'EnvironmentEntry',
    'EnvironmentSpecs',
    'GymnasiumEnvironment',
    'MCTSPlayer',
    'MinAtarEnvironment',
    'OpenSpielEnvironment',
    'PerfectPlayer',
    'RandomPlayer',
    'TicTacToe',
    'as_environment',
    'environment_specs',
    'factory_name',
    'game_value',
    'load_factory',
    'make_environment',
    'minimax_values',
    'optimal_actions',
    'play_game',
    'titled_environments',
)
