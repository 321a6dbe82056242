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
"""Tests of the console scripts and of what the launchers' --help lists."""

import os
import re
import subprocess
import sys

from absl import flags

from launchers import evaluate
from launchers import train

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# The flags a run starts with (common_flags.py).
_FIRST_FLAGS = {'preset', 'env', 'checkpoint_dir', 'logdir',
                'num_simulations', 'seed'}


def _listed(help_text: str) -> set:
  return set(re.findall(r'^  --(?:\[no\])?(\w+):', help_text, re.M))


def test_short_help_of_each_launcher_lists_the_shared_flags():
  # What --help prints for the launcher run as __main__.
  assert _FIRST_FLAGS <= _listed(flags.FLAGS.module_help(train))
  assert _FIRST_FLAGS <= _listed(flags.FLAGS.module_help(evaluate))


def test_train_script_runs_the_launcher_as_main():
  # What `muzero-snt-train --help` runs, from the source tree.
  result = subprocess.run(
      [sys.executable, '-c', 'from launchers import scripts; '
       'scripts.train()', '--help'],
      cwd=_ROOT, capture_output=True, text=True, timeout=300)
  help_text = result.stdout
  assert help_text.startswith('Trains MuZero'), (help_text[:200],
                                                 result.stderr[-2000:])
  assert f'\n{_ROOT}/launchers/train.py:\n' in help_text
  listed = _listed(help_text)
  assert _FIRST_FLAGS <= listed, sorted(listed)
  assert {'data', 'training_steps', 'num_actors'} <= listed


def test_train_script_finds_an_environment_in_the_working_directory(
    tmp_path):
  # A console script's path starts with its own directory, not the working
  # one that `python -m` adds; the script adds it, so that a user's
  # usergame.py beside them loads. `-P` leaves the working directory out
  # of the interpreter's own path, as a console script's.
  (tmp_path / 'usergame.py').write_text(
      'def make(seed):\n  raise SystemExit(f"usergame.make({seed}) called")\n')
  result = subprocess.run(
      [sys.executable, '-P', '-c', 'from launchers import scripts; '
       'scripts.train()', '--environment=usergame:make'],
      cwd=tmp_path, capture_output=True, text=True, timeout=300,
      env={**os.environ, 'PYTHONPATH': _ROOT})
  assert 'usergame.make(0) called' in result.stderr, result.stderr[-2000:]
