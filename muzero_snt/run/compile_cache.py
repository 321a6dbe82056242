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
"""A persistent cache of XLA's compiled programs, shared by runs.

TensorFlow writes each entry of `--tf_xla_persistent_cache_directory` in
place, and a process reading a partly written entry fails that compile: so
each process gets a directory of its own, seeded with hard links to the
shared entries, and `publish` hard-links its complete entries back. Entry
keys hold neither TensorFlow's version, nor the CPU, nor XLA's options, so
the shared entries live in a subdirectory named by all three (`cache_key`).
`enable` imports no TensorFlow: it sets `TF_XLA_FLAGS` (docs/benchmarks.md).
"""

import atexit
import hashlib
import importlib.metadata
import os
import platform
import shutil
import socket
import sys
from typing import List, Optional

from muzero_snt.run import run_lock

_FLAG = '--tf_xla_persistent_cache_directory'
_ENTRY_SUFFIX = '.pb'
# The field of an `XlaSerializedCacheEntry` holding the compiled program,
# written last (after `key` and `hlo_module`).
_EXECUTABLE_FIELD = 3
# Where each process's own directories live, inside the shared one.
_PROCESSES = '.processes'
# The cache `enable` started in this process.
_ENABLED = None


def default_directory() -> str:
  """`$MUZERO_SNT_COMPILE_CACHE`, else the user's cache directory:
  `$XDG_CACHE_HOME` (or ~/.cache), then muzero_snt/xla."""
  if os.environ.get('MUZERO_SNT_COMPILE_CACHE'):
    return os.environ['MUZERO_SNT_COMPILE_CACHE']
  base = os.environ.get('XDG_CACHE_HOME') or os.path.join(
      os.path.expanduser('~'), '.cache')
  return os.path.join(base, 'muzero_snt', 'xla')


def _tensorflow_version() -> str:
  module = sys.modules.get('tensorflow')
  if module is not None and hasattr(module, '__version__'):
    return module.__version__
  try:
    return importlib.metadata.version('tensorflow')
  except importlib.metadata.PackageNotFoundError:
    pass
  # Another distribution of the package: tensorflow-cpu, tf-nightly, ...
  for distribution in importlib.metadata.packages_distributions().get(
      'tensorflow', ()):
    return importlib.metadata.version(distribution)
  return 'unknown'


def _cpu_description() -> str:
  """The CPU's model and instruction-set flags (Linux), or its name."""
  try:
    with open('/proc/cpuinfo') as f:
      lines = f.read().splitlines()
  except OSError:
    lines = []
  wanted = ('model name', 'flags', 'Features', 'CPU part')
  first = {}
  for line in lines:
    name, _, value = line.partition(':')
    name = name.strip()
    if name in wanted and name not in first:
      first[name] = ' '.join(sorted(value.split()))
  return f'{platform.machine()} {platform.processor()} {sorted(first.items())}'


def cache_key() -> str:
  """The subdirectory of this TensorFlow, CPU and XLA options' entries,
  e.g. 'tf2.21.0-3f2a9c01d4e5' (a hash of the CPU's description,
  `XLA_FLAGS` and `TF_XLA_FLAGS` without the cache's flag)."""
  other_flags = ' '.join(
      flag for flag in os.environ.get('TF_XLA_FLAGS', '').split()
      if not flag.startswith(_FLAG))
  described = '\n'.join((_cpu_description(),
                         os.environ.get('XLA_FLAGS', ''), other_flags))
  digest = hashlib.sha256(described.encode()).hexdigest()[:12]
  return f'tf{_tensorflow_version()}-{digest}'


def is_complete(path: str) -> bool:
  """Whether the file at `path` is a whole cache entry: its top-level
  protobuf fields end exactly at the end of the file, the compiled
  program (written last) among them."""
  try:
    with open(path, 'rb') as f:
      data = f.read()
  except OSError:
    return False

  def varint(position: int):
    value, shift = 0, 0
    while position < len(data):
      byte = data[position]
      value |= (byte & 0x7f) << shift
      position += 1
      if not byte & 0x80:
        return value, position
      shift += 7
    return None, position

  position, executable = 0, False
  while position < len(data):
    tag, position = varint(position)
    if not tag:  # Cut short, or field number 0: not a message.
      return False
    wire_type = tag & 7
    if wire_type == 0:
      value, position = varint(position)
      if value is None:
        return False
    elif wire_type == 1:
      position += 8
    elif wire_type == 2:
      length, position = varint(position)
      if length is None:
        return False
      position += length
      executable = tag >> 3 == _EXECUTABLE_FIELD and length > 0
    elif wire_type == 5:
      position += 4
    else:  # Groups (3, 4) are not used by these messages.
      return False
  return executable and position == len(data)


def _entries(directory: str) -> List[str]:
  try:
    return sorted(name for name in os.listdir(directory)
                  if name.endswith(_ENTRY_SUFFIX))
  except FileNotFoundError:
    return []


def _publish(source: str, shared: str) -> int:
  """Hard-links `source`'s complete entries missing from `shared` there."""
  published = 0
  have = set(_entries(shared))
  for name in _entries(source):
    path = os.path.join(source, name)
    if name in have or not is_complete(path):
      continue
    try:
      os.link(path, os.path.join(shared, name))
      published += 1
    except FileExistsError:  # Another process published it first.
      pass
  return published


class CompileCache:
  """The shared entries of `directory` (created if missing) and this
  process's own directory. Call `start` before the first XLA compile, and
  `close` at the end."""

  def __init__(self, directory: str):
    self.directory = directory
    self.shared = os.path.join(directory, cache_key())
    host = socket.gethostname().replace(os.sep, '_')
    self._host_prefix = f'{host}-'
    self.private = os.path.join(self.shared, _PROCESSES,
                                f'{host}-{os.getpid()}')
    self._flags_before = None
    self.seeded = 0  # The shared entries when this process started.

  def start(self) -> None:
    """Seeds this process's directory and points TensorFlow at it, after
    publishing and removing those of this host's ended processes."""
    processes = os.path.join(self.shared, _PROCESSES)
    os.makedirs(processes, exist_ok=True)
    for name in os.listdir(processes):
      pid = name[len(self._host_prefix):]
      path = os.path.join(processes, name)
      if (name.startswith(self._host_prefix) and pid.isdigit() and
          path != self.private and not run_lock.is_alive(int(pid))):
        _publish(path, self.shared)
        shutil.rmtree(path, ignore_errors=True)
    shutil.rmtree(self.private, ignore_errors=True)
    os.makedirs(self.private)
    for name in _entries(self.shared):
      os.link(os.path.join(self.shared, name),
              os.path.join(self.private, name))
      self.seeded += 1
    self._flags_before = os.environ.get('TF_XLA_FLAGS')
    flags = self._flags_before or ''
    os.environ['TF_XLA_FLAGS'] = f'{flags} {_FLAG}={self.private}'.strip()

  def keep_from_children(self) -> None:
    """Has TensorFlow read `TF_XLA_FLAGS`, then restores it, so that child
    processes (Ray's workers) do not write into this process's directory."""
    # pylint: disable=g-import-not-at-top
    from tensorflow.python.client import pywrap_tf_session
    # pylint: enable=g-import-not-at-top
    # A getter of TensorFlow's XLA flags: the first parses them all.
    pywrap_tf_session.TF_GetXlaAutoJitEnabled()
    if self._flags_before is None:
      os.environ.pop('TF_XLA_FLAGS', None)
    else:
      os.environ['TF_XLA_FLAGS'] = self._flags_before

  def publish(self) -> int:
    """Shares the complete entries this process wrote; returns how many."""
    return _publish(self.private, self.shared)

  def close(self) -> None:
    """Publishes, then removes this process's directory."""
    try:
      self.publish()
    except OSError:
      pass
    shutil.rmtree(self.private, ignore_errors=True)


def enable(directory: Optional[str]) -> Optional[CompileCache]:
  """Starts a `CompileCache` in `directory`, closed when the process exits.

  Returns None without `directory` or if `TF_XLA_FLAGS` names a cache
  already; later calls return the first's (TensorFlow reads its flags once).
  Raises OSError if `directory` cannot be used.
  """
  global _ENABLED
  if _ENABLED is not None:
    return _ENABLED
  if not directory or _FLAG in os.environ.get('TF_XLA_FLAGS', ''):
    return None
  cache = CompileCache(directory)
  cache.start()
  atexit.register(cache.close)
  _ENABLED = cache
  return cache
