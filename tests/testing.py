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
"""Shared test helpers: the test case base and random batches."""

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt import trajectory as trajectory_lib
from muzero_snt import types


class TestCase(tf.test.TestCase, parameterized.TestCase):
  """Base class of the tests: TensorFlow assertions plus parameterisation."""

  def setUp(self):
    super().setUp()
    tf.random.set_seed(0)


def tiny_mlp_config(support_size: int = 0,
                    **changes) -> config_lib.MuZeroConfig:
  """CartPole's shapes (4 inputs, 2 actions) with a tiny MLP network.

  Args:
    support_size: atoms of the value and reward heads (0: scalar heads).
    **changes: further `MuZeroConfig` fields to replace.
  """
  network = config_lib.NetworkConfig(
      kind='mlp',
      hidden_size=8,
      mlp_layers=(16,),
      head_layers=(8,),
      value_support_size=support_size,
      reward_support_size=support_size)
  return presets.make_cartpole_config().replace(network=network, **changes)


def random_batch(config: config_lib.MuZeroConfig,
                 batch_size: int,
                 seed: int = 0,
                 absorbing_tail: bool = True) -> types.Batch:
  """A random `Batch` of float32/int32 NumPy arrays that fits `config`.

  Targets are drawn in ranges a real game produces: values and rewards of
  either sign, policies that sum to one. With `absorbing_tail`, the last
  unroll steps of some examples lie past the end of their game: their policy
  target is zero and masked, their value and reward targets zero.
  """
  rng = np.random.default_rng(seed)
  k = config.num_unroll_steps
  a = config.action_space_size
  observation = rng.uniform(
      0., 1., (batch_size,) + config.observation_shape).astype(np.float32)
  action = rng.integers(0, a, (batch_size, k)).astype(np.int32)
  target_value = rng.uniform(-3., 3., (batch_size, k + 1)).astype(np.float32)
  target_reward = rng.uniform(-2., 2., (batch_size, k)).astype(np.float32)
  target_policy = rng.dirichlet(np.ones(a), (batch_size, k + 1))
  target_policy = target_policy.astype(np.float32)
  policy_mask = np.ones((batch_size, k + 1), np.float32)
  if absorbing_tail:
    # Example i acts at positions 0..length[i]-1; position length[i] is the
    # terminal state (its reward is real, its value 0), and every position
    # after it is absorbing (reward 0).
    length = rng.integers(1, k + 2, batch_size)
    for i in range(batch_size):
      policy_mask[i, length[i]:] = 0.
      target_policy[i, length[i]:] = 0.
      target_value[i, length[i]:] = 0.
      target_reward[i, length[i]:] = 0.
  weight = rng.uniform(0.5, 1.5, batch_size).astype(np.float32)
  return types.Batch(
      observation=observation,
      action=action,
      target_value=target_value,
      target_reward=target_reward,
      target_policy=target_policy,
      policy_mask=policy_mask,
      weight=weight)


def random_game(length: int, seed: int = 0) -> trajectory_lib.Trajectory:
  """A finished game of `length` random moves over CartPole's shapes (two
  actions, observations of 4), whose observations tell its positions apart."""
  rng = np.random.default_rng(seed)
  game = trajectory_lib.Trajectory(2, 1, 0.5)
  for _ in range(length):
    game.append(rng.normal(size=4).astype(np.float32), 0,
                int(rng.integers(2)), float(rng.normal()),
                rng.dirichlet(np.ones(2)), float(rng.normal()))
  game.finish(True)
  return game
