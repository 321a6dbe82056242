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
"""The thunks of XLA:CPU programs in a profiler trace, summed by kind.

XLA:CPU runs a compiled program as a sequence of thunks: one per fusion,
matmul, convolution, copy, scatter or loop. With
`XLA_FLAGS=--xla_cpu_enable_xprof_traceme=true`, each run of a thunk is an
event of TensorFlow's profiler (`tf.profiler.experimental.start/stop`),
named after its HLO instruction (`convolution.12`, `MatMul_4.32`,
`add_select_fusion.3`), on the thread that ran it. `thunk_kinds` sums the
events of an XSpace by kind (`kind_of`: the name without its numeric
suffixes) over all threads, so its total can exceed the wall time of a
program run on several threads.

Left out: the runtime's own events (the executor, the eager runtime, the
Python call), which span the thunks they run, and the control-flow thunks
(`while`, `conditional`, `call`), whose events span their bodies' thunks;
counting either would count the same time twice.
"""

import glob
import os
import re
from typing import Iterable, List, NamedTuple

from tensorflow.tsl.profiler.protobuf import xplane_pb2

# Events of the runtime around the thunks, by name prefix.
RUNTIME_PREFIXES = (
    'BlockUntilReady', 'CpuExecutable', 'Eager', 'ExecutorDoneCallback',
    'ExecutorState', 'FunctionRun', 'KernelAndDevice', 'ParallelFor',
    'SlinkyThreadPool', 'TFE_', 'ThunkExecutor', '__inference',
    'convert_to_tensor', 'end: ', 'tf.constant')
# Thunks that run other thunks.
CONTROL_KINDS = ('while', 'conditional', 'call')


class KindStats(NamedTuple):
  """One kind of thunk: its runs and their summed time, per traced call."""
  kind: str
  count: float
  milliseconds: float


def kind_of(name: str) -> str:
  """The kind of an HLO instruction's name: `MatMul_4.32` -> `MatMul`,
  `add_select_fusion.3` -> `add_select_fusion`, `copy` -> `copy`."""
  kind = re.sub(r'(\.\d+)+$', '', name)
  return re.sub(r'_\d+$', '', kind)


def is_thunk(name: str) -> bool:
  """Whether an event is a thunk's own run (see the module docstring)."""
  return (not name.startswith(RUNTIME_PREFIXES) and
          kind_of(name) not in CONTROL_KINDS)


def thunk_kinds(space: xplane_pb2.XSpace, calls: int) -> List[KindStats]:
  """Thunk runs of `space` by kind, per call of `calls` traced ones,
  largest summed time first.

  Raises:
    ValueError: if `calls` is not positive.
  """
  if calls <= 0:
    raise ValueError(f'calls must be positive, got {calls}.')
  counts, picoseconds = {}, {}
  for plane in space.planes:
    for line in plane.lines:
      for event in line.events:
        name = plane.event_metadata[event.metadata_id].name
        if not is_thunk(name):
          continue
        kind = kind_of(name)
        counts[kind] = counts.get(kind, 0) + 1
        picoseconds[kind] = picoseconds.get(kind, 0) + event.duration_ps
  stats = [KindStats(kind, counts[kind] / calls,
                     picoseconds[kind] / 1e9 / calls) for kind in counts]
  return sorted(stats, key=lambda s: (-s.milliseconds, s.kind))


def read_space(logdir: str) -> xplane_pb2.XSpace:
  """The XSpace the profiler wrote under `logdir` (its newest).

  Raises:
    FileNotFoundError: if there is none.
  """
  paths = glob.glob(os.path.join(logdir, '**', '*.xplane.pb'),
                    recursive=True)
  if not paths:
    raise FileNotFoundError(f'No *.xplane.pb under {logdir}: was the '
                            'profiler started and stopped there?')
  space = xplane_pb2.XSpace()
  with open(max(paths, key=os.path.getmtime), 'rb') as f:
    space.ParseFromString(f.read())
  return space


def format_table(stats: Iterable[KindStats], top: int) -> str:
  """A Markdown table of the `top` kinds, with the totals of all."""
  stats = list(stats)
  lines = [
      f'thunks a call: {sum(s.count for s in stats):,.0f}, their time summed '
      f'over threads: {sum(s.milliseconds for s in stats):.3f} ms',
      '',
      '| kind | runs a call | ms a call |',
      '|---|---:|---:|',
  ]
  lines += [f'| {s.kind} | {s.count:,.1f} | {s.milliseconds:.3f} |'
            for s in stats[:top]]
  return '\n'.join(lines)
