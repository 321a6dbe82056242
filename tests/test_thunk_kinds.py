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
"""Tests of benchmarks/thunk_kinds.py on a hand-made trace."""

import os

import pytest
from tensorflow.tsl.profiler.protobuf import xplane_pb2

from benchmarks import thunk_kinds


def _space():
  """Two threads of one plane; durations in picoseconds (1 ms = 1e9)."""
  space = xplane_pb2.XSpace()
  plane = space.planes.add(name='/host:CPU')
  names = {1: 'convolution.3', 2: 'convolution.17', 3: 'MatMul_4.32',
           4: 'ThunkExecutor::Execute', 5: 'end: MatMul', 6: 'while.2',
           7: 'copy', 8: 'TFE_Py_ExecuteCancelable'}
  for key, name in names.items():
    plane.event_metadata[key].id = key
    plane.event_metadata[key].name = name
  threads = [
      [(4, 9e9), (1, 2e9), (3, 1e9), (6, 5e9), (5, 1e6), (7, 5e8)],
      [(8, 9e9), (2, 3e9), (1, 1e9), (3, 2e9)],
  ]
  for events in threads:
    line = plane.lines.add()
    for key, duration in events:
      event = line.events.add()
      event.metadata_id = key
      event.duration_ps = int(duration)
  return space


@pytest.mark.parametrize('name,kind', [
    ('MatMul_4.32', 'MatMul'), ('MatMul', 'MatMul'),
    ('add_select_fusion.3', 'add_select_fusion'),
    ('wrapped_reduce-window.101', 'wrapped_reduce-window'),
    ('convolution.12.1', 'convolution'), ('fusion_2', 'fusion'),
    ('copy', 'copy')])
def test_kind_of_drops_numeric_suffixes(name, kind):
  assert thunk_kinds.kind_of(name) == kind


def test_thunks_are_summed_by_kind_over_threads_per_call():
  stats = thunk_kinds.thunk_kinds(_space(), calls=2)
  # Convolutions: 3 runs, 2 + 3 + 1 ms; matmuls 2 runs, 1 + 2 ms; one copy
  # of 0.5 ms. The executor, the Python call, `end:` markers and the loop
  # (which spans its body's thunks) are left out. Per call of 2.
  assert stats == [
      thunk_kinds.KindStats('convolution', 1.5, 3.),
      thunk_kinds.KindStats('MatMul', 1., 1.5),
      thunk_kinds.KindStats('copy', 0.5, 0.25),
  ]
  table = thunk_kinds.format_table(stats, top=2)
  assert 'thunks a call: 3, their time summed over threads: 4.750 ms' in table
  assert '| convolution | 1.5 | 3.000 |' in table
  assert 'copy |' not in table  # Below the top 2.


def test_calls_must_be_positive():
  with pytest.raises(ValueError, match='calls must be positive, got 0'):
    thunk_kinds.thunk_kinds(_space(), calls=0)


def test_read_space_finds_the_profilers_file(tmp_path):
  directory = tmp_path / 'plugins' / 'profile' / 'run'
  os.makedirs(directory)
  (directory / 'host.xplane.pb').write_bytes(_space().SerializeToString())
  space = thunk_kinds.read_space(str(tmp_path))
  assert thunk_kinds.thunk_kinds(space, 1)[0].kind == 'convolution'
  with pytest.raises(FileNotFoundError, match='No \\*.xplane.pb under'):
    thunk_kinds.read_space(str(tmp_path / 'plugins' / 'profile' / 'none'))
