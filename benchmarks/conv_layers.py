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
"""One 3x3 convolution layer on a small board, three ways.

The forms `benchmarks/conv_forms.py` times:

  * `native`: `tf.nn.conv2d` (oneDNN's kernels on x86);
  * `dense`: `networks.board_conv.BoardConv2D` with `use_matmul`: one
    `[B, H*W*C] x [H*W*C, H*W*C]` matmul, its matrix assembled from the
    kernel once for the calls (`board_conv.assembled_weights`);
  * `im2col`: the layer's patches gathered from the input, then one
    `[B*H*W, kh*kw*C] x [kh*kw*C, C]` matmul (`im2col_conv2d`; not used by
    the library).

All three make the convolution's multiply-adds, padding taps included.
"""

from typing import Any, Callable, Dict, Sequence

import numpy as np
import sonnet as snt
import tensorflow as tf

from benchmarks import flops as flops_lib
from benchmarks import reporting
from muzero_snt import mixed_precision
from muzero_snt.networks import board_conv

FORMS = ('native', 'dense', 'im2col')


def im2col_conv2d(inputs: tf.Tensor, kernel: tf.Tensor) -> tf.Tensor:
  """A stride-1 'SAME' NHWC convolution as patches times the kernel.

  Each output cell's `kh x kw` window (zeros outside the board) is gathered
  from `inputs` `[B, H, W, C_in]` into a row of `kh*kw*C_in` values, and
  the rows multiply `kernel` `[kh, kw, C_in, C_out]` as one
  `[kh*kw*C_in, C_out]` matrix.
  """
  _, height, width, in_channels = inputs.shape
  kernel_height, kernel_width, _, out_channels = kernel.shape
  cells = height * width
  taps = kernel_height * kernel_width
  # tap_table[p, q] is the tap carrying cell p to cell q (taps: none);
  # invert it to source[q, t], the cell tap t of q reads (cells: padding).
  table = board_conv.tap_table(height, width, kernel_height, kernel_width)
  source = np.full([cells, taps], cells, np.int32)
  for p, q in zip(*np.nonzero(table < taps)):
    source[q, table[p, q]] = p
  flat = tf.reshape(inputs, [-1, cells, in_channels])
  flat = tf.concat([flat, tf.zeros_like(flat[:, :1])], axis=1)
  patches = tf.gather(flat, source, axis=1)  # [B, cells, taps, C_in]
  outputs = tf.matmul(tf.reshape(patches, [-1, taps * in_channels]),
                      tf.reshape(kernel, [taps * in_channels, out_channels]))
  return tf.reshape(outputs, [-1, height, width, out_channels])


def make_layer_step(form: str, calls: int, inputs: tf.Tensor,
                    conv: board_conv.BoardConv2D,
                    dtype: tf.DType) -> Callable[[], Any]:
  """`calls` convolutions + ReLU forward and backward, as a graph function.

  The kernel (`conv.w`, float32) is read in `dtype`, as in the learner's
  compute-dtype scope; returns a function whose call waits for the result.
  """
  if form not in FORMS:
    raise ValueError(f'Unknown form {form!r}; expected one of {FORMS}.')
  holder = snt.Sequential([conv])  # `assembled_weights` reads submodules.

  def layer(h, kernel):
    if form == 'native':
      return tf.nn.conv2d(h, kernel, 1, 'SAME')
    if form == 'im2col':
      return im2col_conv2d(h, kernel)
    return conv(h)  # BoardConv2D: the assembled dense matrix.

  @tf.function(autograph=False)
  def step(x):
    with tf.GradientTape() as tape:
      tape.watch(x)
      with mixed_precision.compute_dtype_scope(dtype):
        kernel = tf.cast(conv.w, dtype)
        h = tf.cast(x, dtype)
        with board_conv.assembled_weights(holder, h.shape, dtype):
          for _ in range(calls):
            h = tf.nn.relu(layer(h, kernel))
      loss = tf.reduce_sum(tf.square(tf.cast(h, tf.float32)))
    grad_x, grad_w = tape.gradient(loss, [x, conv.w])
    return tf.reduce_sum(grad_x) + tf.reduce_sum(grad_w)

  return lambda: step(inputs).numpy()


def layer_flops(batch_size: int, board: int, channels: int) -> int:
  """Forward + backward FLOPs of one call of a 3x3 'SAME' layer."""
  return 3 * 2 * batch_size * board * board * 9 * channels * channels


def run(batch_size: int, channels: int, board: int, calls: Sequence[int],
        dtypes: Sequence[str], repeats: int, timed_calls: int,
        matmul_size: int) -> Dict[str, Any]:
  """Times the forms; returns a JSON-serialisable dict (see module doc)."""
  rng = np.random.default_rng(0)
  inputs = tf.constant(rng.standard_normal(
      (batch_size, board, board, channels)), tf.float32)
  conv = board_conv.BoardConv2D(channels, 3, with_bias=False,
                                use_matmul=True)
  conv(inputs)  # Creates the kernel.
  previous = board_conv.MAX_DENSE_ENTRIES
  board_conv.MAX_DENSE_ENTRIES = (board * board * channels)**2
  try:
    results = []
    for dtype_name in dtypes:
      dtype = mixed_precision.get_compute_dtype(dtype_name)
      matmuls = flops_lib.make_matmuls(matmul_size, dtype)
      tasks = dict(matmuls)  # name -> (function, calls, work per call).
      for count in calls:
        for form in FORMS:
          tasks[f'{form}_{count}'] = (
              make_layer_step(form, count, inputs, conv, dtype), timed_calls,
              count * layer_flops(batch_size, board, channels))
      for function, _, _ in tasks.values():
        function()  # Traces.
      rates = reporting.rotated_rates(tasks, repeats)
      ceiling = [max(a, b) for a, b in zip(rates['matmul'],
                                           rates['matmul_xla'])]
      results.append({
          'dtype': dtype_name,
          'flops_per_second': rates,
          'fraction_of_matmul': {
              name: [r / c for r, c in zip(rates[name], ceiling)]
              for name in rates if name not in matmuls},
      })
  finally:
    board_conv.MAX_DENSE_ENTRIES = previous
  return {'machine': reporting.machine(), 'batch_size': batch_size,
          'channels': channels, 'board': board, 'matmul_size': matmul_size,
          'results': results}


def format_table(output: Dict[str, Any]) -> str:
  """The medians of `run`'s output, a line per dtype and measurement."""
  output = reporting.with_medians(output)
  lines = [f'{"dtype":<10}{"form":<12}{"GFLOP/s":>9}{"% of matmul":>13}']
  for result in output['results']:
    for name, fraction in result['fraction_of_matmul'].items():
      rate = result['flops_per_second'][name]['median']
      lines.append(f'{result["dtype"]:<10}{name:<12}{rate / 1e9:>9.1f}'
                   f'{100 * fraction["median"]:>13.1f}')
    for name in ('matmul', 'matmul_xla'):
      rate = result['flops_per_second'][name]['median']
      lines.append(f'{result["dtype"]:<10}{name:<12}{rate / 1e9:>9.1f}')
  return '\n'.join(lines)
