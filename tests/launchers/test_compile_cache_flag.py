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
"""Tests of the launchers' --compile_cache."""

import os
import re
import subprocess
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# A short run whose learner step XLA compiles.
_TRAIN = (sys.executable, '-m', 'launchers.train', '--preset=cartpole',
          '--data=synthetic', '--training_steps=1', '--batch_size=4',
          '--num_unroll_steps=1', '--hidden_size=8')


def _train(*flags: str, **environment: str) -> subprocess.CompletedProcess:
  clean = {k: v for k, v in os.environ.items()
           if k not in ('TF_XLA_FLAGS', 'MUZERO_SNT_COMPILE_CACHE',
                        'TF_CPP_MIN_LOG_LEVEL')}
  result = subprocess.run(
      [*_TRAIN, *flags], cwd=_ROOT, capture_output=True, text=True,
      timeout=600, env=dict(clean, PYTHONPATH=_ROOT, **environment))
  assert result.returncode == 0, result.stderr[-3000:]
  return result


def _entries(directory: str):
  return sorted(name for _, _, names in os.walk(directory)
                for name in names if name.endswith('.pb'))


def test_runs_share_compiled_programs_without_native_errors(tmp_path):
  directory = str(tmp_path / 'xla')
  _train(f'--compile_cache={directory}')
  entries = _entries(directory)
  assert entries  # The learner step's program, published at the end.
  # The second run loads it: no new entry, and none of the native errors
  # loading logs.
  second = _train(f'--compile_cache={directory}')
  assert _entries(directory) == entries
  assert re.search(r'Starting TensorFlow; XLA compile cache \S+ '
                   rf'\({len(entries)} programs\)', second.stderr)
  assert ' E0000 ' not in second.stderr and 'ERROR' not in second.stderr, (
      second.stderr[-3000:])


def test_the_default_cache_is_the_users_and_empty_turns_it_off(tmp_path):
  _train(XDG_CACHE_HOME=str(tmp_path))
  assert _entries(str(tmp_path / 'muzero_snt' / 'xla'))
  _train('--compile_cache=', XDG_CACHE_HOME=str(tmp_path / 'other'))
  assert not os.path.exists(tmp_path / 'other' / 'muzero_snt')
