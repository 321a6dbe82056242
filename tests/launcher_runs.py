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
"""Runs of `launchers.train` in a subprocess, signalled at a chosen moment.
"""

import os
import subprocess
import sys
import time
from typing import Callable, Dict, Optional, Sequence, Tuple

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A small self-play run that would go on for long.
TRAIN = (
    sys.executable, '-m', 'launchers.train', '--preset=tictactoe',
    '--training_steps=100000', '--checkpoint_interval=20', '--batch_size=8',
    '--num_unroll_steps=2', '--channels=4', '--num_simulations=4',
    '--nojit_compile', '--num_envs=2', '--train_ratio=1', '--log_every=1000')


def signal_launcher(directory: str, signum: int,
                    when: Callable[[str, int], bool],
                    extra: Sequence[str] = (),
                    environment: Optional[Dict[str, str]] = None
                   ) -> Tuple[int, str]:
  """Runs `TRAIN` and sends it `signum` once `when(directory)` holds.

  Args:
    directory: the run's checkpoints go to `directory`/run, what it prints
      to `directory`/log.txt.
    signum: the signal to send.
    when: called every 0.05 s with `directory` and the run's pid until it
      returns True.
    extra: more flags (a flag given twice takes the last value).
    environment: variables added to the run's environment.

  Returns:
    The exit code (negative: killed by that signal) and what it printed.
  """
  log_path = os.path.join(directory, 'log.txt')
  with open(log_path, 'w') as log:
    process = subprocess.Popen(
        [*TRAIN, f'--checkpoint_dir={os.path.join(directory, "run")}',
         *extra],
        cwd=_REPO, stdout=log, stderr=subprocess.STDOUT,
        env=dict(os.environ, PYTHONPATH=_REPO, CUDA_VISIBLE_DEVICES='',
                 **(environment or {})))
    try:
      # Only bounds a hung run: a loaded 2-core machine takes minutes.
      deadline = time.time() + 600
      while (process.poll() is None and time.time() < deadline and
             not when(directory, process.pid)):
        time.sleep(0.05)
      process.send_signal(signum)
      process.wait(timeout=300)
    finally:
      if process.poll() is None:
        process.kill()
        process.wait()
  with open(log_path) as f:
    return process.returncode, f.read()


def printed(text: str) -> Callable[[str, int], bool]:
  """A `when` for `signal_launcher`: once the run has printed `text`."""

  def holds(directory: str, unused_pid: int = 0) -> bool:
    with open(os.path.join(directory, 'log.txt')) as f:
      return text in f.read()

  return holds
