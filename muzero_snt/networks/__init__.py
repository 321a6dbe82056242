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
"""Representation, dynamics and prediction networks as Sonnet modules."""

from muzero_snt.networks.mlp import board_action_planes
from muzero_snt.networks.mlp import column_action_planes
from muzero_snt.networks.mlp import one_hot_planes
from muzero_snt.networks.mlp import one_hot_vector
from muzero_snt.networks.mlp import scale_hidden_state
from muzero_snt.networks.mlp import MLPDynamics
from muzero_snt.networks.mlp import MLPPrediction
from muzero_snt.networks.mlp import MLPRepresentation
from muzero_snt.networks.mlp import ValueHead
from muzero_snt.networks.muzero_network import MuZeroNetwork
from muzero_snt.networks.muzero_network import make_network
from muzero_snt.networks.projection import Projection
from muzero_snt.networks.residual import ResidualDynamics
from muzero_snt.networks.residual import ResidualPrediction
from muzero_snt.networks.residual import ResidualRepresentation
from muzero_snt.networks.tower import ConvBlock
from muzero_snt.networks.tower import DownsampleStem
from muzero_snt.networks.tower import ResidualBlock
from muzero_snt.networks.tower import ResidualTower

__all__ = (
    'ConvBlock',
    'DownsampleStem',
    'MLPDynamics',
    'MLPPrediction',
    'MLPRepresentation',
    'MuZeroNetwork',
    'Projection',
    'ResidualBlock',
    'ResidualDynamics',
    'ResidualPrediction',
    'ResidualRepresentation',
    'ResidualTower',
    'ValueHead',
    'board_action_planes',
    'column_action_planes',
    'make_network',
    'one_hot_planes',
    'one_hot_vector',
    'scale_hidden_state',
)
