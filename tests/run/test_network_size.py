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
"""Tests of network_size: counts against real networks and by hand."""

import dataclasses

from absl.testing import parameterized
import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.run import network_size
from muzero_snt import networks
from muzero_snt import presets
from tests import testing

NetworkConfig = config_lib.NetworkConfig


def _hand_mlp_config():
  """4 inputs, 2 actions, hidden state 3, torso (5,), heads (2,), scalar.

  Parameters (in*out + out per layer):
    representation 4->5->3: 25 + 18 = 43
    dynamics 5->5->3: 30 + 18, reward head 3->2->1: 8 + 3; total 59
    prediction 3->5: 20, policy 5->2->2: 12 + 6, value 5->2->1: 12 + 3;
      total 53
  = 155 trainable. Kept activations per example (the rule of
  `activation_count`): representation 5*2 + 3 + 3 (scaled) = 16; dynamics
  5 (input) + 5*2 + 3 + 2*2 + 1 + 3 (scaled) = 26; prediction 5*2 + 2*2 + 2
  + 2*2 + 1 = 21. With K = 2: 16 + 2*26 + 3*21 = 131.
  """
  network = NetworkConfig(kind='mlp', hidden_size=3, mlp_layers=(5,),
                          head_layers=(2,))
  return presets.make_cartpole_config().replace(network=network,
                                                num_unroll_steps=2)


def _network_cases():
  board = presets.make_tictactoe_config()
  atari = presets.make_atari_small_config()
  return (
      ('mlp_scalar', testing.tiny_mlp_config()),
      ('mlp_categorical_no_torso', testing.tiny_mlp_config().replace(
          network=NetworkConfig(kind='mlp', hidden_size=5, mlp_layers=(),
                                head_layers=(4, 3), value_support_size=5,
                                reward_support_size=7))),
      ('residual_board', board),
      ('residual_board_several_planes', board.replace(
          action_space_size=20, network=board.network,
          board_symmetries='none')),  # 3 planes of 3x3.
      ('residual_wide_heads', board.replace(
          network=dataclasses.replace(board.network, policy_head_channels=5,
                                      value_head_channels=3,
                                      reward_head_channels=4))),
      ('residual_one_hot_no_batch_norm', board.replace(
          network=NetworkConfig(kind='residual', channels=6, num_blocks=2,
                                prediction_blocks=2, head_layers=(5,),
                                batch_norm=False))),
      ('residual_downsample_odd_sizes', atari.replace(
          observation_shape=(21, 13, 5), action_space_size=4,
          network=NetworkConfig(kind='residual', channels=5, num_blocks=1,
                                prediction_blocks=0, head_layers=(3,),
                                downsample=True, value_support_size=5,
                                reward_support_size=3))),
  )


class NetworkSizeTest(testing.TestCase):

  @parameterized.named_parameters(*_network_cases())
  def test_equals_the_variables_of_the_built_network(self, config):
    network = networks.make_network(config)
    network.create_variables()
    trainable = sum(int(np.prod(v.shape)) for v in network.trainable_variables)
    every = sum(int(np.prod(v.shape)) for v in network.variables)
    count = network_size.parameter_count(config)
    self.assertEqual(count.trainable, trainable)
    self.assertEqual(count.non_trainable, every - trainable)
    if config.network.kind == 'residual' and config.network.batch_norm:
      self.assertGreater(count.non_trainable, 0)

  def test_hand_worked_mlp(self):
    config = _hand_mlp_config()
    self.assertEqual(network_size.parameter_count(config),
                     network_size.ParameterCount(155, 0))
    self.assertEqual(network_size.activation_count(config), 131)

  def test_hand_worked_residual_activations(self):
    # Observations 2x2x1, 2 planes, one block, 3 actions on one board plane
    # (ceil(3 / 4)), scalar heads without hidden layers, K = 1; area 4.
    # representation: stem 3*4*2 + block 7*4*2 + scaled 4*2 = 88
    # dynamics: input 4*(2+1) + stem 24 + block 56 + reward conv 3*4*1
    #   + reward linear 1 + scaled 8 = 113
    # prediction: policy conv 3*4*2 + value conv 3*4*1 + policy linear 3
    #   + value linear 1 = 40
    # total 88 + 113 + 2*40 = 281.
    config = presets.make_tictactoe_config().replace(
        action_space_size=3, observation_shape=(2, 2, 1), num_unroll_steps=1,
        board_symmetries='none',
        network=NetworkConfig(kind='residual', channels=2, num_blocks=1,
                              prediction_blocks=0, head_layers=(),
                              action_encoding='board'))
    self.assertEqual(network_size.activation_count(config), 281)

  def test_paper_atari_network_counted_by_hand(self):
    # 3x3 convolutions: the stem 128->128, 2 blocks of 128, 128->256, 6
    # blocks of 256; 16 blocks of 256 in h and in g; g's stem 256+18->256.
    convs = 9 * (128 * 128 + 4 * 128 * 128 + 128 * 256 + 12 * 256 * 256 +
                 2 * 16 * 2 * 256 * 256 + 274 * 256)
    convs += 256 * (1 + 2 + 1)  # 1x1 reward, policy and value features.
    # Batch-norm scale and offset: h's 5 of 128 planes and 45 of 256; g's
    # 33 of 256 and 1 of 1; f's of 2 and 1 planes.
    norms = 2 * (5 * 128 + 45 * 256 + 33 * 256 + 1 + 2 + 1)
    # Reward and value heads 36->256->601, policy 72->18.
    linears = 2 * (36 * 256 + 256 + 256 * 601 + 601) + 72 * 18 + 18
    count = network_size.parameter_count(presets.make_atari_config())
    self.assertEqual(count.trainable, convs + norms + linears)
    self.assertEqual(count.trainable, 46_861_532)
    # Each of the 86 batch norms has two moving averages of 2 vectors (of
    # its planes) and a counter each: twice the scale-and-offset elements.
    self.assertEqual(count.non_trainable, 2 * norms + 2 * 86)


if __name__ == '__main__':
  tf.test.main()
