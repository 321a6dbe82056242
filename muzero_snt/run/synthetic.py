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
"""Synthetic batches with learnable targets, for smoke runs and benchmarks."""

from typing import Iterator

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import types


class SyntheticBatches:
  """An endless stream of `Batch`es that fit a config.

  The targets are fixed functions drawn once from `seed`: values a linear
  function of the observation (squashed to [-1, 1], times `value_scale`),
  rewards a function of the action, policies a softmax of the observation;
  a `terminal_fraction` of windows runs past the end of a game. With a
  consistency loss each next observation is the previous one shifted by a
  fixed amount per action, modulo 1. Batch i is drawn from seed `(seed, i)`,
  so a stream started at `start=n` continues one that produced n batches.
  """

  def __init__(self,
               config: config_lib.MuZeroConfig,
               batch_size: int,
               seed: int = 0,
               value_scale: float = 3.,
               terminal_fraction: float = 0.2,
               start: int = 0):
    if batch_size <= 0:
      raise ValueError(f'batch_size must be positive, got {batch_size!r}.')
    if start < 0:
      raise ValueError(f'start must be >= 0, got {start!r}.')
    self._config = config
    self._batch_size = batch_size
    self._seed = seed
    self._index = start
    rng = np.random.default_rng(seed)
    size = int(np.prod(config.observation_shape))
    a = config.action_space_size
    self._value_weights = rng.normal(0., 1. / np.sqrt(size), size)
    self._policy_weights = rng.normal(0., 1. / np.sqrt(size), (size, a))
    self._action_rewards = rng.uniform(-1., 1., a)
    # Drawn last: the draws above, and so every batch, stay as they were.
    self._action_shifts = rng.uniform(0., 1., a)
    self._value_scale = value_scale
    self._terminal_fraction = terminal_fraction

  def __iter__(self) -> Iterator[types.Batch]:
    return self

  def __next__(self) -> types.Batch:
    config = self._config
    rng = np.random.default_rng([self._seed, self._index])
    self._index += 1
    b, k, a = self._batch_size, config.num_unroll_steps, (
        config.action_space_size)
    observation = rng.uniform(0., 1., (b,) + config.observation_shape)
    flat = observation.reshape(b, -1)
    action = rng.integers(0, a, (b, k))
    root_value = np.tanh(flat @ self._value_weights) * self._value_scale
    # Later positions' values drift from the root's with the rewards.
    reward = self._action_rewards[action]  # [B, K]
    value = root_value[:, None] - np.concatenate(
        [np.zeros((b, 1)), np.cumsum(reward, axis=1)], axis=1)  # [B, K+1]
    logits = flat @ self._policy_weights
    policy = np.exp(logits - logits.max(-1, keepdims=True))
    policy /= policy.sum(-1, keepdims=True)
    policy = np.repeat(policy[:, None], k + 1, axis=1)  # [B, K+1, A]
    mask = np.ones((b, k + 1))
    # A game ending in the window acts at 0..L-1; L is terminal (value 0, no
    # policy, the reward of action L-1 real), later ones absorbing (reward 0).
    ends = rng.uniform(size=b) < self._terminal_fraction
    length = rng.integers(1, k + 1, b)
    for i in np.flatnonzero(ends):
      mask[i, length[i]:] = 0.
      policy[i, length[i]:] = 0.
      value[i, length[i]:] = 0.
      reward[i, length[i]:] = 0.
    next_observation = None
    if config.consistency_loss_weight > 0:
      shift = np.cumsum(self._action_shifts[action], axis=1)  # [B, K]
      shift = shift.reshape((b, k) + (1,) * len(config.observation_shape))
      next_observation = np.mod(observation[:, None] + shift, 1.)
      next_observation *= mask[:, 1:].reshape(shift.shape)
      next_observation = next_observation.astype(np.float32)
    return types.Batch(
        next_observation=next_observation,
        observation=observation.astype(np.float32),
        action=action.astype(np.int32),
        target_value=value.astype(np.float32),
        target_reward=reward.astype(np.float32),
        target_policy=policy.astype(np.float32),
        policy_mask=mask.astype(np.float32),
        weight=np.ones(b, np.float32))
