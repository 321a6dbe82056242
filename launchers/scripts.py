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
"""The commands pip installs: `muzero-snt-train` and `muzero-snt-evaluate`.

setup.py names these functions as the package's console scripts. Each runs
its launcher as `python -m launchers.train` does, as the `__main__`
module: absl's --help describes the flags of `__main__` (and its key
flags) under its docstring, so a launcher imported and called from here
instead would print neither. As under `python -m`, the working directory
comes first on the import path, so that `--environment=module:factory`
finds a module of the user's there.
"""

import os
import runpy
import sys


def _run_as_main(module: str) -> None:
  sys.path.insert(0, os.getcwd())
  runpy.run_module(module, run_name='__main__', alter_sys=True)


def train() -> None:
  """`muzero-snt-train`: the flags and behaviour of launchers/train.py."""
  _run_as_main('launchers.train')


def evaluate() -> None:
  """`muzero-snt-evaluate`: the flags and behaviour of launchers/evaluate.py.
  """
  _run_as_main('launchers.evaluate')
