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
"""One residual tower layer's 3x3 convolution, three ways, against a matmul.

What bounds the paper tower's learner step on a small board is its 3x3
convolutions of 256 planes. This times one such layer, forward and backward
(`--calls` calls in a row sharing the kernel, as the K recurrent steps share
the dynamics' kernels, each followed by a ReLU), in a TF graph:

  * `native`: `tf.nn.conv2d` (oneDNN's kernels on x86);
  * `dense`: `networks.board_conv.BoardConv2D` with `use_matmul`: one
    `[B, H*W*C] x [H*W*C, H*W*C]` matmul, its matrix assembled from the
    kernel once for the calls (`board_conv.assembled_weights`);
  * `im2col`: the layer's patches gathered from the input, then one
    `[B*H*W, kh*kw*C] x [kh*kw*C, C]` matmul (`im2col_conv2d`; not used by
    the library).

All three make the convolution's multiply-adds, padding taps included (`2 *
B * H*W * kh*kw * C^2` a call forward, 3x that forward and backward). Each of
`--repeats` rounds times each form and an N x N matmul of the same dtype
(`flops.make_matmuls`, graph and XLA) in turns; reported: median GFLOP/s and
the median per-round fraction of the faster matmul.

    python -m benchmarks.conv_forms --batch_size=128 --dtypes=float32,bfloat16

See docs/benchmarks.md, "The tower's layer".
"""

from typing import Sequence

from absl import app
from absl import flags

from benchmarks import conv_layers
from benchmarks import reporting
from muzero_snt import mixed_precision

BATCH_SIZE = flags.DEFINE_integer('batch_size', 128, 'examples a call.')
CHANNELS = flags.DEFINE_integer('channels', 256, 'planes in and out.')
BOARD = flags.DEFINE_integer('board', 3, 'the board is board x board.')
CALLS = flags.DEFINE_list('calls', ['1', '5'],
                          'calls sharing the kernel, one measurement each.')
DTYPES = flags.DEFINE_list('dtypes', ['float32', 'bfloat16'],
                           'compute dtypes, one measurement each.')
REPEATS = flags.DEFINE_integer('repeats', 7, 'timed rounds.')
TIMED_CALLS = flags.DEFINE_integer('timed_calls', 5,
                                   'calls of each function a round.')
MATMUL_SIZE = flags.DEFINE_integer('matmul_size', 2048,
                                   'N of the ceiling matmul.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None, 'where to write.')


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  reporting.check_positive(
      (BATCH_SIZE, CHANNELS, BOARD, REPEATS, TIMED_CALLS, MATMUL_SIZE))
  if BOARD.value > 3:
    raise app.UsageError(f'--board must be at most 3 (the kernel), got '
                         f'{BOARD.value}: larger boards have no dense form.')
  calls = reporting.positive_ints(CALLS)
  for name in DTYPES.value:
    if name not in mixed_precision.COMPUTE_DTYPES:
      raise app.UsageError(f'Unknown dtype {name!r} in --dtypes; expected '
                           f'some of {sorted(mixed_precision.COMPUTE_DTYPES)}.')
  output = conv_layers.run(BATCH_SIZE.value, CHANNELS.value, BOARD.value, calls,
               DTYPES.value, REPEATS.value, TIMED_CALLS.value,
               MATMUL_SIZE.value)
  print(conv_layers.format_table(output))
  reporting.report(output, OUTPUT_JSON.value)


if __name__ == '__main__':
  app.run(main)
