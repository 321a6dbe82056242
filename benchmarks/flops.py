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
"""FLOPs of the learner step and the matmul rate that bounds it.

For benchmarks/learner.py: `forward_flops` counts the unrolled forward pass
of one example from the layers' shapes, `profiled_flops` counts the loss
and its gradients with TensorFlow's profiler, and `make_matmuls` builds the
N x N float32 `tf.matmul`s whose FLOP rate is the machine's practical
ceiling. See docs/benchmarks.md.
"""

from typing import Any, Callable, Dict, Tuple

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import losses
from muzero_snt import networks
from muzero_snt import types

# Forward + backward: the backward pass computes a gradient for the inputs
# and one for the weights of every layer, each as costly as its forward.
TRAIN_FLOPS_PER_FORWARD_FLOP = 3
# FLOPs of the matmuls in one timing: about three 2048 x 2048 products.
_MATMUL_FLOPS_PER_TIMING = 3 * 2 * 2048**3


def forward_flops(network: networks.MuZeroNetwork,
                  config: config_lib.MuZeroConfig) -> int:
  """FLOPs of the unrolled forward pass of one example, from layer shapes.

  2 * H * W * k * k * C_in * C_out per convolution (stride 1, 'SAME': the
  output keeps the board's H x W) and 2 * in * out per dense layer. Batch
  norm, activations, the hidden-state scaling and the losses are not
  counted. The representation runs once, the dynamics K times and the
  prediction K + 1 times.

  Args:
    network: a network whose variables exist.
    config: its configuration.

  Returns:
    The FLOP count.

  Raises:
    ValueError: for the strided Atari stem, which this does not count.
  """
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


def profiled_flops(network: networks.MuZeroNetwork,
                   config: config_lib.MuZeroConfig,
                   batch: types.Batch) -> float:
  """FLOPs per example of the loss and its gradients, by TF's profiler.

  Counts every op of the traced graph that has a registered FLOP count
  (convolutions and their two gradients, matmuls, element-wise ops); the
  optimizer update is left out.
  """

  @tf.function
  def loss_and_gradients(batch):
    with tf.GradientTape() as tape:
      loss = losses.unrolled_loss(network, batch, config.weight_decay).loss
    return tape.gradient(loss, network.trainable_variables)

  batch = tf.nest.map_structure(
      lambda x: None if x is None else tf.convert_to_tensor(x), batch)
  graph = loss_and_gradients.get_concrete_function(batch).graph
  options = tf.compat.v1.profiler.ProfileOptionBuilder.float_operation()
  options['output'] = 'none'
  profile = tf.compat.v1.profiler.profile(graph, options=options)
  return profile.total_float_ops / int(batch.action.shape[0])


def make_matmuls(size: int, dtype: tf.DType = tf.float32
                 ) -> Dict[str, Tuple[Callable[[], Any], int, int]]:
  """`tf.matmul` of two N x N `dtype` matrices, in a graph and under XLA.

  Returns:
    name -> (function, calls per timing, FLOPs per call).
  """
  rng = np.random.default_rng(0)
  a, b = (tf.cast(tf.constant(rng.standard_normal((size, size)), tf.float32),
                  dtype) for _ in range(2))
  flops = 2 * size**3
  calls = max(1, round(_MATMUL_FLOPS_PER_TIMING / flops))
  matmuls = {}
  for name, jit_compile in (('matmul', False), ('matmul_xla', True)):
    matmul = tf.function(tf.matmul, jit_compile=jit_compile)
    # Reading one element waits for the product (TF on the CPU is
    # synchronous already) without copying it.
    run_once = lambda matmul=matmul: matmul(a, b)[0, 0].numpy()
    matmuls[name] = (run_once, calls, flops)
  return matmuls
