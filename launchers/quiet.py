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
"""Starts TensorFlow without its native start-up messages.

TensorFlow's C++ side writes to the process's standard error before its own
log level applies: oneDNN and CUDA-driver notices, CPU feature hints, and
on a machine without a GPU a `cuInit` error that looks like a failure but is
not one. The launchers call `start_tensorflow()` before anything imports
TensorFlow: it sets `TF_CPP_MIN_LOG_LEVEL=2` (warnings and info off, errors
on) unless the environment sets it, and silences file descriptor 2 while
TensorFlow loads and finds its devices. Python's own errors are raised as
usual. `MUZERO_SNT_NATIVE_LOGS=1` keeps every native message.
"""

import contextlib
import os
import sys

from absl import logging as absl_logging


@contextlib.contextmanager
def _native_stderr_silenced():
  """Points file descriptor 2 at /dev/null inside the block."""
  sys.stderr.flush()
  saved = os.dup(2)
  null = os.open(os.devnull, os.O_WRONLY)
  os.dup2(null, 2)
  try:
    yield
  finally:
    sys.stderr.flush()
    os.dup2(saved, 2)
    os.close(saved)
    os.close(null)


def start_tensorflow(native_errors: bool = True) -> None:
  """Imports TensorFlow and initialises its devices, quietly.

  Args:
    native_errors: whether TensorFlow's C++ side logs its errors
      (`TF_CPP_MIN_LOG_LEVEL` 2; False: 3, fatal errors only). Its errors
      reach Python as exceptions either way; a run with the compile cache
      turns them off because loading an entry logs two false alarms
      (`launchers.common_flags.start_tensorflow`).
  """
  if os.environ.get('MUZERO_SNT_NATIVE_LOGS') == '1':
    return
  if 'tensorflow' in sys.modules:
    return  # Too late to silence its start; nothing to gain.
  os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2' if native_errors else '3')
  with _native_stderr_silenced():
    import tensorflow as tf  # pylint: disable=g-import-not-at-top
    tf.config.list_physical_devices()
  # TensorFlow's Python INFO lines would drown the run's own progress
  # lines: its own logger's, and the checkpoint saver's absl line about
  # every save's sharding time.
  tf.get_logger().setLevel('WARNING')
  absl_logging.get_absl_handler().addFilter(_drop_tensorflow_info)


def _drop_tensorflow_info(record) -> bool:
  """False for INFO records logged from inside TensorFlow's package."""
  return not (record.levelno <= absl_logging.converter.STANDARD_INFO and
              f'{os.sep}tensorflow{os.sep}' in record.pathname)
