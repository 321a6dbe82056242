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
"""make_network: a MuZeroNetwork from a config."""

from muzero_snt import config as config_lib
from muzero_snt.networks import board_conv
from muzero_snt.networks import mlp
from muzero_snt.networks import muzero_network
from muzero_snt.networks import projection as projection_lib
from muzero_snt.networks import residual


def make_network(
    config: config_lib.MuZeroConfig) -> muzero_network.MuZeroNetwork:
  """Builds the network that `config.network` describes (variables lazily)."""
  net = config.network
  num_actions = config.action_space_size
  if net.kind == 'mlp':
    representation = mlp.MLPRepresentation(
        net.hidden_size, net.mlp_layers, name='representation')
    dynamics = mlp.MLPDynamics(
        num_actions, net.hidden_size, net.mlp_layers, net.head_layers,
        net.reward_support_size, name='dynamics')
    prediction = mlp.MLPPrediction(
        num_actions, net.mlp_layers, net.head_layers, net.value_support_size,
        name='prediction')
  else:
    representation = residual.ResidualRepresentation(
        net.channels, net.num_blocks, downsample=net.downsample,
        batch_norm=net.batch_norm, zero_init=net.zero_init_residual,
        name='representation')
    dynamics = residual.ResidualDynamics(
        num_actions, net.channels, net.num_blocks, net.head_layers,
        net.reward_support_size, action_encoding=net.action_encoding,
        batch_norm=net.batch_norm,
        reward_head_channels=net.reward_head_channels,
        zero_init=net.zero_init_residual, name='dynamics')
    prediction = residual.ResidualPrediction(
        num_actions, net.channels, net.prediction_blocks, net.head_layers,
        net.value_support_size, batch_norm=net.batch_norm,
        policy_head_channels=net.policy_head_channels,
        value_head_channels=net.value_head_channels,
        zero_init=net.zero_init_residual, name='prediction')
    for module in (representation, dynamics, prediction):
      for conv in module.submodules:
        if isinstance(conv, board_conv.BoardConv2D):
          conv.use_matmul = net.conv_as_matmul
  projection = None
  if config.consistency_loss_weight > 0:
    projection = projection_lib.Projection(
        net.projection_hidden, net.projection_size, net.projection_head_hidden,
        name='projection')
  return muzero_network.MuZeroNetwork(
      representation,
      dynamics,
      prediction,
      observation_shape=config.observation_shape,
      num_actions=num_actions,
      value_support_size=net.value_support_size,
      reward_support_size=net.reward_support_size,
      projection=projection,
      name='muzero_network')
