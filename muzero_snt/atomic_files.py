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
"""Files replaced whole or not at all, even across a kill -9 or power loss:
a synced temporary file is renamed over the target and the directory synced.
"""

import os
import tempfile
from typing import BinaryIO, Callable


def write(path: str, write_content: Callable[[BinaryIO], None]) -> None:
  """Replaces `path` by what `write_content(binary_file)` writes."""
  directory = os.path.dirname(os.path.abspath(path))
  fd, temporary = tempfile.mkstemp(
      dir=directory, prefix='.' + os.path.basename(path) + '.', suffix='.tmp')
  try:
    with os.fdopen(fd, 'wb') as f:
      write_content(f)
      f.flush()
      os.fsync(f.fileno())
    os.replace(temporary, path)
  except BaseException:
    if os.path.exists(temporary):
      os.remove(temporary)
    raise
  try:  # Make the rename itself durable, where directories can be synced.
    directory_fd = os.open(directory, os.O_RDONLY)
    try:
      os.fsync(directory_fd)
    finally:
      os.close(directory_fd)
  except OSError:
    pass


def write_text(path: str, text: str) -> None:
  """Replaces `path` by `text` (UTF-8)."""
  write(path, lambda f: f.write(text.encode('utf-8')))
