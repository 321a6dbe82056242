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
"""The three models of benchmarks/learner.py and random batches for them."""

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt import presets_minatar
from muzero_snt import types

MODELS = ('cartpole_mlp', 'tictactoe_residual', 'paper_residual',
          'minatar_residual')


def make_config(model: str) -> config_lib.MuZeroConfig:
  """The configuration of a benchmarked model (K = 5 in all three)."""
  if model == 'cartpole_mlp':
    return presets.make_cartpole_config()
  if model == 'tictactoe_residual':
    return presets.make_tictactoe_config()
  if model == 'paper_residual':
    # The tic-tac-toe board with the appendix's board-game network: 16
    # blocks of 256 planes, AlphaZero's heads, scalar value and reward;
    # the paper presets' warm-up, without which lr 0.2 overflows the loss
    # within 4 steps (docs/benchmarks.md).
    return presets.make_tictactoe_config().replace(
        network=presets.PAPER_BOARD_NETWORK,
        lr_warmup_steps=presets.PAPER_LR_WARMUP_STEPS)
  if model == 'minatar_residual':
    # The MinAtar preset: 2 blocks of 16 planes on the 10x10 grid, 61-atom
    # supports (the learner of the Breakout runs, docs/results.md).
    return presets_minatar.make_minatar_config()
  raise ValueError(f'Unknown model {model!r}; expected one of {MODELS}.')


def make_batch(config: config_lib.MuZeroConfig, batch_size: int,
               seed: int = 0) -> types.Batch:
  """A random `Batch` of NumPy arrays that fits `config`.

  Values and rewards of either sign, policies that sum to one, and absorbing
  tails: past a random game length the policy is masked and the targets 0.
  """
  rng = np.random.default_rng(seed)
  k, a = config.num_unroll_steps, config.action_space_size
  target_value = rng.uniform(-3., 3., (batch_size, k + 1))
  target_reward = rng.uniform(-2., 2., (batch_size, k))
  target_policy = rng.dirichlet(np.ones(a), (batch_size, k + 1))
  length = rng.integers(1, k + 2, batch_size)  # [B]
  inside = np.arange(k + 1)[None] < length[:, None]  # [B, K+1]
  target_value *= inside
  target_reward *= inside[:, 1:]
  target_policy *= inside[..., None]
  return types.Batch(
      observation=rng.uniform(0., 1., (batch_size,) +
                              config.observation_shape).astype(np.float32),
      action=rng.integers(0, a, (batch_size, k)).astype(np.int32),
      target_value=target_value.astype(np.float32),
      target_reward=target_reward.astype(np.float32),
      target_policy=target_policy.astype(np.float32),
      policy_mask=inside.astype(np.float32),
      weight=rng.uniform(0.5, 1.5, batch_size).astype(np.float32))
