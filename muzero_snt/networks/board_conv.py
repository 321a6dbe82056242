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
"""A 2D convolution that runs as one matmul on boards no larger than its kernel.

On a board of H x W <= kh x kw cells (tic-tac-toe's 3 x 3 under a 3 x 3
kernel), a stride-1 'SAME' convolution mixes every input cell into nearly
every output cell, so it is a dense linear map from the `H*W*C_in` inputs
to the `H*W*C_out` outputs, whose `[H*W*C_in, H*W*C_out]` matrix holds the
kernel's taps where a tap connects two cells and zeros elsewhere. It costs
`(H*W)^2 * C_in * C_out` multiply-adds, no more than the convolution's
`H*W * kh*kw * C_in * C_out` (the zero padding included), and XLA:CPU runs
one matmul of that shape faster than the small convolution when the
matrix is small (docs/benchmarks.md, "Small boards: convolutions as one
matmul").

`BoardConv2D` is an `snt.Conv2D` with the same variables (`w` of shape
`[kh, kw, C_in, C_out]`, optional `b`), so checkpoints do not change; it
assembles the dense matrix from `w` (a gather, differentiable) on every call,
or once per search or unroll with `assembled_weights`, and falls back to the
convolution on larger boards, matrices over `MAX_DENSE_ENTRIES`, and other
strides.
"""

import contextlib
from typing import Iterator, Optional, Tuple

import numpy as np
import sonnet as snt
import tensorflow as tf

# The largest dense matrix used, in entries (4 MiB of float32): tic-tac-toe's
# 16 planes on 3 x 3 (144 x 144) gain from the matmul; the paper's 256 planes
# (2,304 x 2,304) do not, their convolutions already running near the
# matmul rate, and each of their matrices is 21 MB to assemble.
MAX_DENSE_ENTRIES = 1 << 20


def tap_table(height: int, width: int, kernel_height: int,
              kernel_width: int) -> np.ndarray:
  """`[H*W, H*W]` int32: which kernel tap carries input cell p to output q.

  Entry `[p, q]` is the index `ty * kw + tx` of the tap of a stride-1
  'SAME' convolution that reads input cell p when computing output cell q
  (cells numbered row by row), or `kh * kw` when no tap does (p is outside
  q's window). The 'SAME' window of output (qy, qx) reads input
  (qy + ty - (kh - 1) // 2, qx + tx - (kw - 1) // 2), as TensorFlow pads.
  """
  table = np.full([height * width, height * width],
                  kernel_height * kernel_width, np.int32)
  for qy in range(height):
    for qx in range(width):
      for ty in range(kernel_height):
        for tx in range(kernel_width):
          py = qy + ty - (kernel_height - 1) // 2
          px = qx + tx - (kernel_width - 1) // 2
          if 0 <= py < height and 0 <= px < width:
            table[py * width + px, qy * width + qx] = ty * kernel_width + tx
  return table


class BoardConv2D(snt.Conv2D):
  """`snt.Conv2D` ('SAME', NHWC) as one matmul on boards <= its kernel.

  Usage is `snt.Conv2D`'s: `BoardConv2D(channels, 3, use_matmul=True)(x)`.
  Without `use_matmul` (an attribute too: `make_network` sets it from
  `network.conv_as_matmul`) it is always the convolution.
  """

  def __init__(self,
               output_channels: int,
               kernel_shape: int,
               stride: int = 1,
               with_bias: bool = True,
               w_init: Optional[snt.initializers.Initializer] = None,
               use_matmul: bool = False,
               name: Optional[str] = None):
    super().__init__(output_channels, kernel_shape, stride=stride,
                     with_bias=with_bias, w_init=w_init, padding='SAME',
                     name=name)
    self.use_matmul = use_matmul
    # Set by `assembled_weights`: ((H, W, dtype), the dense matrix), made
    # once outside a search's loop.
    self._assembled: Optional[Tuple[Tuple[int, int, tf.DType],
                                    tf.Tensor]] = None

  def runs_as_matmul(self, input_shape) -> bool:
    """Whether a call on inputs of `input_shape` (`[B, H, W, C]`) is the
    dense matmul: a stride-1 NHWC convolution on H * W <= kh * kw cells
    whose matrix has at most `MAX_DENSE_ENTRIES` entries."""
    shape = tf.TensorShape(input_shape)
    if not self.use_matmul or shape.rank != 4 or None in shape[1:]:
      return False
    _, height, width, channels = shape.as_list()
    kernel_height, kernel_width = self.kernel_shape_2d
    cells = height * width
    return (cells <= kernel_height * kernel_width and
            cells * channels * cells * self.output_channels <=
            MAX_DENSE_ENTRIES and
            tuple(np.broadcast_to(self.stride, 2)) == (1, 1) and
            tuple(np.broadcast_to(self.rate, 2)) == (1, 1) and
            self.data_format == 'NHWC')

  @property
  def kernel_shape_2d(self):
    return tuple(int(k) for k in np.broadcast_to(self.kernel_shape, 2))

  def dense_weights(self, height: int, width: int) -> tf.Tensor:
    """The `[H*W*C_in, H*W*C_out]` matrix of the convolution on H x W.

    Row `p * C_in + i`, column `q * C_out + o` is `w[ty, tx, i, o]` for the
    tap (ty, tx) that carries cell p to cell q, else 0 (`tap_table`).
    """
    kernel_height, kernel_width, in_channels, out_channels = self.w.shape
    taps = kernel_height * kernel_width
    kernel = tf.reshape(self.w, [taps, in_channels, out_channels])
    kernel = tf.concat([kernel, tf.zeros_like(kernel[:1])], axis=0)
    table = tap_table(height, width, kernel_height, kernel_width)
    dense = tf.gather(kernel, table)  # [H*W (p), H*W (q), C_in, C_out]
    dense = tf.transpose(dense, [0, 2, 1, 3])  # [p, C_in, q, C_out]
    cells = height * width
    return tf.reshape(dense, [cells * in_channels, cells * out_channels])

  def __call__(self, inputs: tf.Tensor) -> tf.Tensor:
    if not self.runs_as_matmul(inputs.shape):
      return super().__call__(inputs)
    self._initialize(inputs)
    _, height, width, channels = inputs.shape
    key = (height, width, inputs.dtype)
    if self._assembled is not None and self._assembled[0] == key:
      dense = self._assembled[1]
    else:
      dense = self.dense_weights(height, width)
    outputs = tf.matmul(
        tf.reshape(inputs, [-1, height * width * channels]), dense)
    outputs = tf.reshape(outputs, [-1, height, width, self.output_channels])
    if self.with_bias:
      outputs = tf.nn.bias_add(outputs, self.b)
    return outputs


@contextlib.contextmanager
def assembled_weights(module, feature_shape,
                      dtype: tf.DType = tf.float32) -> Iterator[None]:
  """Inside the context, `module`'s `BoardConv2D`s reuse weights made once.

  A search calls the network once per simulation inside a `tf.while_loop`;
  XLA does not hoist the assembly of the dense matrices out of the loop (it
  inflates their size), so the search assembles them here, once, before the
  loop; the unrolled loss does the same for its K recurrent steps, whose
  gradients then reach each kernel through one matrix. The matrices are
  tensors of the enclosing function (or eager values), read while the
  context is open; a call on another board size or dtype assembles its own.

  Args:
    module: any object; the `BoardConv2D` submodules, whose variables
      exist, of an `snt.Module` or of another object with `submodules`
      (`mixed_precision.ComputeDtypeNetwork`) are affected.
    feature_shape: `[B, H, W, C]`, the shape of the feature maps (hidden
      states) the convolutions see; for any other rank nothing changes.
    dtype: the dtype the convolutions compute in (the network's compute
      dtype); the matrices are made in it.
  """
  feature_shape = tf.TensorShape(feature_shape)
  previous = []  # (conv, what it held before), restored on exit.
  if hasattr(module, 'submodules') and feature_shape.rank == 4:
    _, height, width, _ = feature_shape.as_list()
    for conv in module.submodules:
      if (isinstance(conv, BoardConv2D) and hasattr(conv, 'w') and
          conv.runs_as_matmul([1, height, width, conv.w.shape[2]])):
        previous.append((conv, conv._assembled))  # pylint: disable=protected-access
        conv._assembled = (  # pylint: disable=protected-access
            (height, width, dtype),
            tf.cast(conv.dense_weights(height, width), dtype))
  try:
    yield
  finally:
    for conv, assembled in previous:
      conv._assembled = assembled  # pylint: disable=protected-access
