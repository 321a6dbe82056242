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
"""Training targets of a recorded game (the pseudocode's `make_target`)."""

from typing import NamedTuple

import numpy as np


class Target(NamedTuple):
  """The training targets of one K-step window: one row of the `Batch`
  fields of the same names."""
  target_value: np.ndarray
  target_reward: np.ndarray
  target_policy: np.ndarray
  policy_mask: np.ndarray


def value_targets(to_play: np.ndarray, rewards: np.ndarray,
                  root_values: np.ndarray, discount: float, num_players: int,
                  terminal: bool, bootstrap_value: float,
                  td_steps: int) -> np.ndarray:
  """`[T]` float64 n-step value targets z_t for the player to move at t, of
  a game's `[T]` arrays (`Trajectory`), g = `discount`, n = `td_steps` >= 1.

  z_t = sum_{i<n} g^i s(t, t+i) r_{t+i} + g^n s(t, t+n) v_{t+n}, with v the
  root values and s(t, j) = +1 if the same player moves at t and j, else -1
  (the pseudocode's `make_target` value, with the two-player signs it
  leaves out; docs/pseudocode.md, defect 3). Past the end, rewards are 0 and
  the bootstrap is 0 after a terminal state, else `bootstrap_value` for the
  player to move after the last move. Computed in O(T) from discounted
  suffix sums R_t = sigma_t r_t + g R_{t+1}, sigma = +1 for player 0, -1
  for player 1.
  """
  t_max = len(rewards)
  g = discount
  sigma = 1. - 2. * to_play  # [T]
  signed_rewards = (sigma * rewards).tolist()
  suffix = [0.] * (t_max + 1)  # R_t, with R_T = 0.
  for t in range(t_max - 1, -1, -1):
    suffix[t] = signed_rewards[t] + g * suffix[t + 1]
  suffix = np.asarray(suffix)  # [T+1]
  bootstrap = np.zeros(t_max + 1)  # [T+1] sigma_j v_j, 0 at a terminal end.
  bootstrap[:t_max] = sigma * root_values
  if not terminal:
    next_player = (int(to_play[-1]) + 1) % num_players
    bootstrap[t_max] = (1. - 2. * next_player) * bootstrap_value
  t = np.arange(t_max)
  end = np.minimum(t + td_steps, t_max)  # [T] the bootstrap index b.
  scale = g ** (end - t).astype(np.float64)
  return sigma * (suffix[:t_max] - scale * suffix[end] +
                  scale * bootstrap[end])


def window_targets(values: np.ndarray, rewards: np.ndarray,
                   policies: np.ndarray, index: int,
                   num_unroll_steps: int) -> Target:
  """The float32 `Target` of the K-step window at `index` in [0, T) of a
  game's `[T]` value targets and rewards and `[T, A]` visit distributions.

  Unroll step k is position index + k; positions past the end are absorbing
  (value, policy and mask 0); the reward of step k is that of the k-th
  action, at column k - 1 (docs/pseudocode.md, defects 4 and 5).
  """
  k = num_unroll_steps
  t_max = len(rewards)
  inside = min(index + k + 1, t_max) - index  # Positions inside the game.
  acted = min(index + k, t_max) - index  # Actions with a real reward.
  target_value = np.zeros(k + 1, np.float32)
  target_value[:inside] = values[index:index + inside]
  target_reward = np.zeros(k, np.float32)
  target_reward[:acted] = rewards[index:index + acted]
  target_policy = np.zeros((k + 1, policies.shape[1]), np.float32)
  target_policy[:inside] = policies[index:index + inside]
  policy_mask = np.zeros(k + 1, np.float32)
  policy_mask[:inside] = 1.
  return Target(target_value, target_reward, target_policy, policy_mask)


def actions_window(actions: np.ndarray, action_space_size: int, index: int,
                   num_unroll_steps: int,
                   rng: np.random.Generator) -> np.ndarray:
  """`[K]` int32 actions a[index .. index+K-1] of a game, padded past the end.

  Past the last move the targets are absorbing, so any action is valid;
  uniformly random ones, drawn from `rng` only then, teach that every
  action leads from an absorbing state to an absorbing state.
  """
  k = num_unroll_steps
  real = actions[index:index + k].astype(np.int32)
  if len(real) == k:
    return real  # Inside the game: no draw, the generator is untouched.
  padding = rng.integers(0, action_space_size, k - len(real))
  return np.concatenate([real, padding.astype(np.int32)])
