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
"""Tests of benchmarks/startup.py: when a run writes its lines."""

import os
import sys

from benchmarks import startup

# Lines as a run of launchers.train writes them, with pauses between.
_RUN = """
import sys, time
def say(line):
  time.sleep(0.2)
  sys.stderr.write(line + '\\n')
  sys.stderr.flush()
say('a native line before logging starts')
say('I1205 04:55:53.093876 1 experiment.py:296] Run: preset tictactoe.')
say('I1205 04:56:21.741212 1 training_loop.py:406] Compiled the learner '
    'step with the search beside it in 25.6 s.')
say('I1205 04:56:22.011651 1 progress.py:114] learner step 0/2  loss -')
say('I1205 04:56:22.296000 1 progress.py:114] learner step 2/2  loss 24.1')
"""


def test_line_times_follow_the_runs_lines_in_order():
  times = startup.line_times([sys.executable, '-c', _RUN], '.')
  assert list(times) == ['first_log', 'first_move', 'compile_s',
                         'first_step', 'end']
  assert times['compile_s'] == 25.6  # What the launcher's line says.
  # Each line comes 0.2 s after the one before it; the first log line is
  # the second line, the first learner step the fifth.
  assert 0.4 <= times['first_log'] < times['first_move'] < times[
      'first_step'] <= times['end']
  assert times['first_step'] - times['first_log'] >= 0.6


def test_cached_programs_counts_the_caches_entries(tmp_path):
  # Two programs of 1 MiB and 3 MiB in a version's directory, and files
  # that are not programs (a process's directory, a lock).
  version = tmp_path / 'tf2.21.0-abc'
  (version / '.processes' / '12').mkdir(parents=True)
  for name, size in (('xla_compile_cache__1__2__XLA_CPU_JIT.pb', 2**20),
                     ('xla_compile_cache__3__4__XLA_CPU_JIT.pb', 3 * 2**20),
                     ('LOCK', 10)):
    (version / name).write_bytes(b'x' * size)
  # A running process's link to a program it compiled: not another one.
  (version / '.processes' / '12' /
   'xla_compile_cache__5__6__XLA_CPU_JIT.pb').write_bytes(b'x' * 99)
  assert startup.cached_programs(os.fspath(tmp_path)) == {
      'programs': 2, 'program_mb': 4.0}
