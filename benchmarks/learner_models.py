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
"""The models of benchmarks/learner.py: configs, batches and FLOPs."""

from typing import Any, Callable, Dict, Tuple

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import types
from muzero_snt.run import synthetic

MODELS = ('cartpole_mlp', 'tictactoe_residual', 'paper_residual',
          'minatar_residual')
# Forward, then a layer's input and weight gradients, each as costly.
TRAIN_FLOPS_PER_FORWARD_FLOP = 3
# FLOPs of the matmuls in one timing: about three 2048 x 2048 products.
_MATMUL_FLOPS_PER_TIMING = 3 * 2 * 2048**3


def make_config(model: str) -> config_lib.MuZeroConfig:
  """The configuration of a benchmarked model (K = 5 in all)."""
  if model == 'cartpole_mlp':
    return presets.make_cartpole_config()
  if model == 'tictactoe_residual':
    return presets.make_tictactoe_config()
  if model == 'paper_residual':
    # The appendix's board network on the tic-tac-toe board, with the paper
    # presets' warm-up, without which lr 0.2 overflows the loss.
    return presets.make_tictactoe_config().replace(
        network=presets.PAPER_BOARD_NETWORK,
        lr_warmup_steps=presets.PAPER_LR_WARMUP_STEPS)
  if model == 'minatar_residual':
    return presets.make_minatar_config()
  raise ValueError(f'Unknown model {model!r}; expected one of {MODELS}.')


def make_batch(config: config_lib.MuZeroConfig, batch_size: int,
               seed: int = 0) -> types.Batch:
  """A batch of the library's synthetic batches (`run/synthetic.py`)."""
  return next(synthetic.SyntheticBatches(config, batch_size, seed=seed))


def forward_flops(network: networks.MuZeroNetwork,
                  config: config_lib.MuZeroConfig) -> int:
  """FLOPs of the unrolled forward pass of one example from layer shapes:
  2 x H x W x k x k x C_in x C_out a convolution ('SAME', stride 1; not the
  strided Atari stem), 2 x in x out a dense layer; the representation once,
  the dynamics K times, the prediction K + 1 times."""
  if config.network.downsample:
    raise ValueError('forward_flops does not count the down-sampling stem.')
  height, width = 1, 1
  if config.network.kind == 'residual':
    height, width = config.observation_shape[:2]
  k = config.num_unroll_steps
  calls = {'representation': 1, 'dynamics': k, 'prediction': k + 1}
  total = 0
  # A layer's function is the first part of its variables' names.
  for variable in network.trainable_variables:
    scope, name = variable.name.split('/')[0], variable.name.split('/')[-1]
    if name != 'w:0':
      continue  # Biases and batch-norm parameters.
    if scope not in calls:
      raise ValueError(f'Variable {variable.name} is in none of {calls}.')
    if variable.shape.rank == 4:  # A convolution's [k, k, C_in, C_out].
      total += calls[scope] * 2 * height * width * variable.shape.num_elements()
    elif variable.shape.rank == 2:  # A dense layer's [in, out].
      total += calls[scope] * 2 * variable.shape.num_elements()
  return total


def make_matmuls(size: int, dtype: tf.DType = tf.float32
                 ) -> Dict[str, Tuple[Callable[[], Any], int, int]]:
  """`tf.matmul` of two N x N `dtype` matrices in a graph and under XLA:
  name -> (function, calls per timing, FLOPs per call)."""
  rng = np.random.default_rng(0)
  a, b = (tf.cast(tf.constant(rng.standard_normal((size, size)), tf.float32),
                  dtype) for _ in range(2))
  flops = 2 * size**3
  calls = max(1, round(_MATMUL_FLOPS_PER_TIMING / flops))
  matmuls = {}
  for name, jit_compile in (('matmul', False), ('matmul_xla', True)):
    matmul = tf.function(tf.matmul, jit_compile=jit_compile)
    # Reading one element waits for the product without copying it.
    matmuls[name] = (lambda matmul=matmul: matmul(a, b)[0, 0].numpy(), calls,
                     flops)
  return matmuls
