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

On H x W <= kh x kw cells a stride-1 'SAME' convolution is a dense
`[H*W*C_in, H*W*C_out]` linear map with no more multiply-adds, which XLA:CPU
runs faster (docs/benchmarks.md, "Small boards: convolutions as one matmul").
"""

import contextlib
from typing import Iterator, Optional, Tuple

import numpy as np
import sonnet as snt
import tensorflow as tf

# The largest dense matrix used, in entries (4 MiB of float32): 256 planes on
# 3 x 3 gain nothing and cost 21 MB per matrix to assemble.
MAX_DENSE_ENTRIES = 1 << 20


def tap_table(height: int, width: int, kernel_height: int,
              kernel_width: int) -> np.ndarray:
  """`[H*W, H*W]` int32: entry `[p, q]` is the kernel tap `ty * kw + tx` by
  which a stride-1 'SAME' convolution (TensorFlow's padding) reads input
  cell p for output cell q, cells row by row, or `kh * kw` when none does."""
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
  """`snt.Conv2D` ('SAME', NHWC), with its variables, as one matmul on boards
  <= its kernel if `use_matmul` (set by `make_network`)."""

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
    # ((H, W, dtype), the dense matrix), set by `assembled_weights`.
    self._assembled: Optional[Tuple[Tuple[int, int, tf.DType],
                                    tf.Tensor]] = None

  def runs_as_matmul(self, input_shape) -> bool:
    """Whether a call on `[B, H, W, C]` inputs runs as the dense matmul."""
    shape = tf.TensorShape(input_shape)
    if not self.use_matmul or shape.rank != 4 or None in shape[1:]:
      return False
    _, height, width, channels = shape.as_list()
    taps = int(np.prod(np.broadcast_to(self.kernel_shape, 2)))
    cells = height * width
    return (cells <= taps and
            cells * channels * cells * self.output_channels <=
            MAX_DENSE_ENTRIES and
            tuple(np.broadcast_to(self.stride, 2)) == (1, 1) and
            tuple(np.broadcast_to(self.rate, 2)) == (1, 1) and
            self.data_format == 'NHWC')

  def dense_weights(self, height: int, width: int) -> tf.Tensor:
    """The `[H*W*C_in, H*W*C_out]` matrix of the convolution on H x W: entry
    `[p * C_in + i, q * C_out + o]` is `w[ty, tx, i, o]` for the tap carrying
    cell p to cell q, else 0."""
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
  """Inside the context, `module`'s `BoardConv2D`s reuse matrices made once
  for `[B, H, W, C]` feature maps of `dtype` (another rank changes nothing;
  another board size or dtype assembles its own): XLA does not hoist their
  assembly out of a search's `tf.while_loop` or the unrolled loss."""
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
