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
"""When a run of launchers.train writes its lines (benchmarks/startup.py)."""

import os
import re
import subprocess
import time
from typing import Dict, List

# What is timed, in seconds from the process's start.
MEASURES = ('first_log', 'first_move', 'first_step', 'end')
# The line of each measure but `end`: an absl log line, the compile's end
# (self-play moves next), the first progress line after a learner step.
_LINES = {'first_log': re.compile(r'^[IWEF]\d{4} '),
          'first_move': re.compile(r'\] Compiled the '),
          'first_step': re.compile(r'learner step [1-9]\d*/')}


def line_times(command: List[str], cwd: str,
               check: bool = True) -> Dict[str, float]:
  """Runs `command`; when its first line of each `_LINES` kind arrived, and
  when it ended, in seconds from its start.

  Raises:
    RuntimeError: with its last lines, if it fails and `check`.
  """
  environment = {k: v for k, v in os.environ.items()
                 if k not in ('TF_XLA_FLAGS', 'MUZERO_SNT_COMPILE_CACHE',
                              'TF_CPP_MIN_LOG_LEVEL', 'PYTHONPATH')}
  start = time.perf_counter()
  process = subprocess.Popen(
      command, cwd=cwd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
      text=True, env=environment)
  times, lines = {}, []
  for line in process.stderr:
    now = time.perf_counter() - start
    lines.append(line)
    for name, pattern in _LINES.items():
      if name not in times and pattern.search(line):
        times[name] = now
  process.wait()
  times['end'] = time.perf_counter() - start
  if process.returncode and check:
    raise RuntimeError(f'{command} in {cwd} failed:\n'
                       + ''.join(lines[-30:]))
  return times
