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
"""Tests of the persistent XLA compile cache shared by runs."""

import os
import subprocess
import sys
import textwrap

import pytest

from muzero_snt.run import compile_cache

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _varint(value: int) -> bytes:
  out = b''
  while True:
    byte, value = value & 0x7f, value >> 7
    out += bytes([byte | (0x80 if value else 0)])
    if not value:
      return out


def _field(number: int, payload: bytes) -> bytes:
  """A length-delimited field (wire type 2)."""
  return _varint(number << 3 | 2) + _varint(len(payload)) + payload


# An entry as TensorFlow writes one: key (1), HLO (2), executable (3).
_ENTRY = (_field(1, b'k' * 5) + _field(2, b'h' * 200) +
          _field(3, b'x' * 300))


def _write(path: str, data: bytes) -> str:
  with open(path, 'wb') as f:
    f.write(data)
  return path


@pytest.fixture(name='clean_environment')
def _clean_environment(monkeypatch):
  for name in ('TF_XLA_FLAGS', 'XLA_FLAGS', 'MUZERO_SNT_COMPILE_CACHE'):
    monkeypatch.delenv(name, raising=False)
  return monkeypatch


def test_an_entry_is_complete_only_whole(tmp_path):
  path = str(tmp_path / 'e.pb')
  assert compile_cache.is_complete(_write(path, _ENTRY))
  # Cut anywhere, even between two fields, it is not.
  for end in range(len(_ENTRY)):
    assert not compile_cache.is_complete(_write(path, _ENTRY[:end])), end
  # Nor without its program, nor with bytes after it.
  assert not compile_cache.is_complete(_write(path, _ENTRY[:210]))
  assert not compile_cache.is_complete(_write(path, _ENTRY + b'\x00'))


def test_entries_are_kept_per_tensorflow_version_and_xla_options(
    clean_environment):
  key = compile_cache.cache_key()
  assert key.startswith('tf')
  clean_environment.setattr(compile_cache, '_tensorflow_version',
                            lambda: '9.9.9')
  other_version = compile_cache.cache_key()
  assert other_version.startswith('tf9.9.9-')
  assert other_version.split('-')[1] == key.split('-')[1]
  clean_environment.setenv('XLA_FLAGS', '--xla_cpu_enable_fast_math=true')
  assert compile_cache.cache_key() != other_version
  # The cache's own flag is not part of the key.
  clean_environment.setenv('TF_XLA_FLAGS',
                           '--tf_xla_persistent_cache_directory=/a')
  clean_environment.setenv('XLA_FLAGS', '')
  assert compile_cache.cache_key() == other_version


def test_default_directory_follows_the_environment(clean_environment):
  clean_environment.setenv('XDG_CACHE_HOME', '/c')
  assert compile_cache.default_directory() == '/c/muzero_snt/xla'
  clean_environment.setenv('MUZERO_SNT_COMPILE_CACHE', '/d')
  assert compile_cache.default_directory() == '/d'


def test_a_process_reads_shared_entries_and_shares_complete_ones(
    tmp_path, clean_environment):
  cache = compile_cache.CompileCache(str(tmp_path))
  os.makedirs(cache.shared)
  _write(os.path.join(cache.shared, 'old.pb'), _ENTRY)
  cache.start()
  assert cache.seeded == 1
  assert os.environ['TF_XLA_FLAGS'] == (
      f'--tf_xla_persistent_cache_directory={cache.private}')
  assert os.listdir(cache.private) == ['old.pb']
  assert os.path.samefile(os.path.join(cache.private, 'old.pb'),
                          os.path.join(cache.shared, 'old.pb'))
  # What TensorFlow writes there: one entry whole, one cut short.
  _write(os.path.join(cache.private, 'new.pb'), _ENTRY)
  _write(os.path.join(cache.private, 'cut.pb'), _ENTRY[:-1])
  assert cache.publish() == 1
  assert cache.publish() == 0
  assert sorted(os.listdir(cache.shared)) == ['.processes', 'new.pb',
                                              'old.pb']
  cache.close()
  assert os.listdir(os.path.join(cache.shared, '.processes')) == []


def test_an_ended_processs_entries_are_shared_by_the_next(
    tmp_path, clean_environment):
  ended = subprocess.run([sys.executable, '-c', 'import os; print(os.getpid())'],
                         capture_output=True, text=True, check=True)
  cache = compile_cache.CompileCache(str(tmp_path))
  processes = os.path.join(cache.shared, '.processes')
  host = os.path.basename(cache.private).rsplit('-', 1)[0]
  left = os.path.join(processes, f'{host}-{int(ended.stdout)}')
  os.makedirs(left)
  _write(os.path.join(left, 'a.pb'), _ENTRY)
  alive = os.path.join(processes, f'{host}-{os.getppid()}')
  os.makedirs(alive)
  cache.start()
  assert os.listdir(cache.private) == ['a.pb']
  assert sorted(os.listdir(processes)) == sorted(
      [os.path.basename(alive), os.path.basename(cache.private)])


def test_enable_starts_one_cache_per_process(tmp_path, clean_environment):
  clean_environment.setattr(compile_cache, '_ENABLED', None)
  clean_environment.setattr(compile_cache.atexit, 'register', lambda f: f)
  cache = compile_cache.enable(str(tmp_path / 'a'))
  assert compile_cache.enable(str(tmp_path / 'b')) is cache
  assert cache.shared.startswith(str(tmp_path / 'a'))
  assert not os.path.exists(tmp_path / 'b')
  cache.close()


def test_enable_leaves_a_cache_directory_given_in_tf_xla_flags(
    tmp_path, clean_environment):
  clean_environment.setattr(compile_cache, '_ENABLED', None)
  assert compile_cache.enable('') is None
  clean_environment.setenv('TF_XLA_FLAGS',
                           '--tf_xla_persistent_cache_directory=/mine')
  assert compile_cache.enable(str(tmp_path)) is None
  assert os.listdir(tmp_path) == []


def test_enable_refuses_a_file(tmp_path, clean_environment):
  clean_environment.setattr(compile_cache, '_ENABLED', None)
  path = _write(str(tmp_path / 'file'), b'')
  with pytest.raises(OSError):
    compile_cache.enable(path)
  assert 'TF_XLA_FLAGS' not in os.environ


# A learner step and a search, XLA-compiled, in a fresh process; prints a
# digest of their results and how many entries the process started with.
_STEP_AND_SEARCH = """
    import hashlib, os, sys
    from muzero_snt.run import compile_cache
    cache = compile_cache.enable(sys.argv[1])
    seeded = len(os.listdir(cache.private)) if cache else 0
    if cache:
      cache.keep_from_children()
      assert 'TF_XLA_FLAGS' not in os.environ
    import numpy as np
    import tensorflow as tf
    from muzero_snt import learning, networks
    from muzero_snt.search import compiled_search
    from tests import testing
    tf.random.set_seed(0)
    config = testing.tiny_mlp_config(num_simulations=4, batch_size=4,
                                     num_unroll_steps=2)
    network = networks.make_network(config)
    learner = learning.Learner(network, config, jit_compile=True)
    search = compiled_search.CompiledSearch(config, network)
    metrics = learner.step(testing.random_batch(config, 4))
    observations = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
    output = search.search_with_seed(observations, np.zeros(3, np.int32),
                                     np.ones((3, 2), bool), seed=[1, 2])
    digest = hashlib.sha256()
    for value in ([metrics['loss']] + [v.numpy() for v in
                                       network.trainable_variables] +
                  [x for x in output if x is not None]):
      digest.update(np.ascontiguousarray(value).tobytes())
    print(digest.hexdigest(), seeded)
"""


def test_results_are_bit_identical_with_and_without_the_cache(tmp_path):
  def run(directory):
    environment = {k: v for k, v in os.environ.items()
                   if k not in ('TF_XLA_FLAGS', 'MUZERO_SNT_COMPILE_CACHE')}
    result = subprocess.run(
        [sys.executable, '-c', textwrap.dedent(_STEP_AND_SEARCH), directory],
        cwd=_ROOT, capture_output=True, text=True, timeout=600,
        env=dict(environment, PYTHONPATH=_ROOT, TF_CPP_MIN_LOG_LEVEL='3'))
    assert result.returncode == 0, result.stderr[-3000:]
    digest, seeded = result.stdout.split()[-2:]
    return digest, int(seeded)

  directory = str(tmp_path / 'cache')
  cold, seeded_cold = run(directory)
  warm, seeded_warm = run(directory)
  without, _ = run('')
  assert seeded_cold == 0
  assert seeded_warm >= 2  # The learner step's program and the search's.
  assert cold == warm == without


# A training loop's start (the search and the learner step compiled in two
# threads) on a small tic-tac-toe network, in a fresh process; prints how
# many entries it started with and how many new ones it shares.
_LOOP_START = """
    import dataclasses, sys
    from muzero_snt.run import compile_cache
    cache = compile_cache.enable(sys.argv[1])
    import tensorflow as tf
    from muzero_snt import acting, learning, networks, presets, search
    from muzero_snt.environments import checks, tictactoe
    from muzero_snt.run import data_sources, training_loop
    config = presets.make_tictactoe_config()
    config = config.replace(
        num_simulations=4, batch_size=8, num_unroll_steps=2, td_steps=9,
        training_steps=1, window_size=50,
        network=dataclasses.replace(config.network, channels=4,
                                    prediction_blocks=0))
    tf.random.set_seed(0)
    network = networks.make_network(config)
    learner = learning.Learner(network, config, jit_compile=True)
    actor = acting.Actor(
        config, search.CompiledSearch(config, network),
        search.NetworkModel(network),
        lambda s: checks.CheckedEnvironment.from_config(
            tictactoe.TicTacToe(s), config), seed=3, num_envs=2)
    training_loop.TrainingLoop(
        config, learner, data_sources.SelfPlay(config, actor, train_ratio=0.5,
                                          seed=3),
        logger=None).run()
    print(cache.seeded, cache.publish())
"""


def test_a_second_run_compiles_nothing_new(tmp_path):
  # Every program of the loop's start is found in the cache by the next
  # run: the programs' names, part of the entries' keys, do not depend on
  # how the two compile threads interleave.
  def run():
    environment = {k: v for k, v in os.environ.items()
                   if k not in ('TF_XLA_FLAGS', 'MUZERO_SNT_COMPILE_CACHE')}
    result = subprocess.run(
        [sys.executable, '-c', textwrap.dedent(_LOOP_START),
         str(tmp_path / 'cache')],
        cwd=_ROOT, capture_output=True, text=True, timeout=600,
        env=dict(environment, PYTHONPATH=_ROOT, TF_CPP_MIN_LOG_LEVEL='3'))
    assert result.returncode == 0, result.stderr[-3000:]
    return [int(n) for n in result.stdout.split()[-2:]]

  seeded, shared = run()
  assert seeded == 0 and shared >= 2  # The searches and the learner step.
  for _ in range(2):
    assert run() == [shared, 0]
