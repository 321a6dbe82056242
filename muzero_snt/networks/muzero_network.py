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
"""MuZeroNetwork, the pseudocode's two inferences, and `make_network`."""

from typing import Optional, Sequence, Tuple

import sonnet as snt
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import types
from muzero_snt import value_transforms
from muzero_snt.networks import board_conv
from muzero_snt.networks import mlp
from muzero_snt.networks import projection as projection_lib
from muzero_snt.networks import residual


class MuZeroNetwork(snt.Module):
  """The three functions of MuZero (arXiv:1911.08265, section 2) as a module."""

  def __init__(self,
               representation: snt.Module,
               dynamics: snt.Module,
               prediction: snt.Module,
               observation_shape: Sequence[int],
               num_actions: int,
               value_support_size: int = 0,
               reward_support_size: int = 0,
               projection: Optional[snt.Module] = None,
               name: Optional[str] = None):
    """Constructs a `MuZeroNetwork`.

    Args:
      representation: h, `(observation, is_training) -> hidden_state`.
      dynamics: g, `(hidden_state, action, is_training) -> (hidden_state,
        reward)` with the reward a scalar `[B]` or logits `[B, S]`.
      prediction: f, `(hidden_state, is_training) -> (policy_logits, value)`
        with the value a scalar `[B]` or logits `[B, S]`.
      observation_shape: the shape of one observation, without the batch.
      value_support_size: atoms of the value head, 0 for a scalar head.
      reward_support_size: atoms of the reward head, 0 for a scalar head.
      projection: the consistency loss's `projection.Projection`, or None.
    """
    super().__init__(name=name)
    self.representation = representation
    self.dynamics = dynamics
    self.prediction = prediction
    self.observation_shape = tuple(observation_shape)
    self.num_actions = num_actions
    self.value_support_size = value_support_size
    self.reward_support_size = reward_support_size
    self.projection = projection

  def _decode(self, head_output: tf.Tensor,
              support_size: int) -> Tuple[tf.Tensor, Optional[tf.Tensor]]:
    """A head's output -> (`[B]` scalar, `[B, S]` logits or None)."""
    if not support_size:
      return head_output, None
    scalar = value_transforms.support_to_scalar(
        tf.cast(head_output, tf.float32))
    return tf.cast(scalar, head_output.dtype), head_output

  def initial_inference(self,
                        observation: tf.Tensor,
                        is_training: bool = False) -> types.NetworkOutput:
    """h (`represent`) then f; reward zero."""
    hidden_state = self.represent(observation, is_training)
    policy_logits, value_output = self.prediction(
        hidden_state, is_training=is_training)
    value, value_logits = self._decode(value_output, self.value_support_size)
    return types.NetworkOutput(
        value=value,
        reward=tf.zeros_like(value),
        policy_logits=policy_logits,
        hidden_state=hidden_state,
        value_logits=value_logits)

  def recurrent_inference(self,
                          hidden_state: tf.Tensor,
                          action: tf.Tensor,
                          is_training: bool = False) -> types.NetworkOutput:
    """g then f on `[B, ...]` hidden states and `[B]` actions in [0, A).

    Raises:
      ValueError: if the action is not a `[B]` integer tensor, or (eagerly)
        holds a value outside [0, A).
    """
    action = tf.convert_to_tensor(action)
    if action.shape.rank != 1:
      raise ValueError(f'Expected actions of shape [B], got shape '
                       f'{action.shape.as_list()}.')
    if not action.dtype.is_integer:
      raise ValueError(
          f'Expected integer actions, got dtype {action.dtype.name}.')
    if tf.executing_eagerly():
      values = action.numpy()
      bad = values[(values < 0) | (values >= self.num_actions)]
      if bad.size:
        raise ValueError(
            f'Action {int(bad[0])} is outside the action space '
            f'[0, {self.num_actions}).')
    next_state, reward_output = self.dynamics(
        hidden_state, action, is_training=is_training)
    policy_logits, value_output = self.prediction(
        next_state, is_training=is_training)
    value, value_logits = self._decode(value_output, self.value_support_size)
    reward, reward_logits = self._decode(reward_output,
                                         self.reward_support_size)
    return types.NetworkOutput(
        value=value,
        reward=reward,
        policy_logits=policy_logits,
        hidden_state=next_state,
        value_logits=value_logits,
        reward_logits=reward_logits)

  def represent(self, observation: tf.Tensor,
                is_training: bool = False) -> tf.Tensor:
    """h alone: `[B, *observation_shape]` -> hidden states (no heads).

    Raises:
      ValueError: if the observation's shape does not fit the network.
    """
    observation = tf.convert_to_tensor(observation)
    shape = tuple(observation.shape)
    if len(shape) != len(self.observation_shape) + 1 or (
        tuple(shape[1:]) != self.observation_shape):
      expected = ', '.join(map(str, self.observation_shape))
      raise ValueError(f'Expected observations of shape [B, {expected}], '
                       f'got shape {list(shape)}.')
    return self.representation(observation, is_training=is_training)

  def project(self, hidden_state: tf.Tensor,
              with_head: bool = False) -> tf.Tensor:
    """The consistency loss's projection of `[B, ...]` hidden states.

    Raises:
      ValueError: if the network was built without a projection.
    """
    if self.projection is None:
      raise ValueError(
          'This network has no projection for the consistency loss: build '
          'it from a config with consistency_loss_weight > 0.')
    return self.projection(hidden_state, with_head=with_head)

  def get_weights(self) -> Sequence[tf.Variable]:
    """The pseudocode's `get_weights`: the trainable variables."""
    return self.trainable_variables

  def create_variables(self) -> None:
    """Builds every variable eagerly, before any `tf.function` or restore."""
    output = self.initial_inference(tf.zeros((1,) + self.observation_shape))
    self.recurrent_inference(output.hidden_state, tf.zeros([1], tf.int32))
    if self.projection is not None:
      self.project(output.hidden_state, with_head=True)


def make_network(config: config_lib.MuZeroConfig) -> MuZeroNetwork:
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
  return MuZeroNetwork(
      representation,
      dynamics,
      prediction,
      observation_shape=config.observation_shape,
      num_actions=num_actions,
      value_support_size=net.value_support_size,
      reward_support_size=net.reward_support_size,
      projection=projection,
      name='muzero_network')
