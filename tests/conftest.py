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
"""Test session set-up: quiet TensorFlow, on the CPU, with one compile cache.

The test processes of a run (pytest-xdist's workers) and the launchers
they start share one XLA compile cache (`muzero_snt.run.compile_cache`):
`MUZERO_SNT_COMPILE_CACHE` if set (a CI cache kept between runs, say; empty
for none), else a temporary directory removed at the end of the run, so
that no test writes to the user's cache. It saves the compiles of the
launchers' fresh processes, not the in-process tests', even kept between
runs (the whole suite in 0.93 of the time: docs/benchmarks.md, Start-up),
because an entry's key holds its function's name, numbered by all its
process traced before it, which xdist's scheduling changes.
"""

import os
import shutil
import tempfile

import pytest

from muzero_snt.run import compile_cache

os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
os.environ.setdefault('CUDA_VISIBLE_DEVICES', '')

# The cache this process made for the run, removed at its end.
_RUN_CACHE = None


def pytest_configure(config):
  global _RUN_CACHE
  if 'MUZERO_SNT_COMPILE_CACHE' not in os.environ:
    # Set before xdist starts its workers, which inherit it.
    _RUN_CACHE = tempfile.mkdtemp(prefix='muzero_snt_test_xla_')
    os.environ['MUZERO_SNT_COMPILE_CACHE'] = _RUN_CACHE
  if config.getoption('numprocesses', None) and not hasattr(
      config, 'workerinput'):
    return  # xdist's controller runs no test.
  compile_cache.enable(os.environ['MUZERO_SNT_COMPILE_CACHE'])


@pytest.fixture(scope='session', autouse=True)
def _compile_cache_kept_from_children():
  # At the first test, where TensorFlow's start-up lines are captured.
  cache = compile_cache.enable(None)  # This process's, if any.
  if cache is not None:
    cache.keep_from_children()


def pytest_unconfigure(config):
  del config  # Unused.
  if _RUN_CACHE is not None:
    shutil.rmtree(_RUN_CACHE, ignore_errors=True)
