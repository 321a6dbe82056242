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
"""Tests of the resource checks: memory estimates and directories."""

import collections
import multiprocessing
import os
import shutil
import tempfile
from unittest import mock

from absl.testing import parameterized
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt.run import resources
from tests import testing

NetworkConfig = config_lib.NetworkConfig


def _hand_mlp_config(**changes):
  """4 inputs, 2 actions, hidden state 3, torso (5,), heads (2,), scalar.

  155 trainable weights and 131 activations per example at K = 2, as
  tests/run/test_network_size.py works out.
  """
  network = NetworkConfig(kind='mlp', hidden_size=3, mlp_layers=(5,),
                          head_layers=(2,))
  fields = dict(batch_size=4, num_unroll_steps=2, window_size=10,
                max_moves=7, network=network)
  fields.update(changes)
  return presets.make_cartpole_config().replace(**fields)


class MemoryTest(testing.TestCase):

  def test_hand_worked_estimate(self):
    # network: 155 weights x (value, momentum slot, gradient) x 4 bytes.
    # batch: B=4 x 4 bytes x (4 obs + K 2 actions + 2 rewards + (K+1) x
    #   (2 policy + value + mask) 9 + 1 weight) = 16 x 21 = 336.
    # unroll: 4 x 4 x 131 = 2096.
    # replay: a position holds 4 x 4 (observation) + 2 x 4 (policy) + 2 x 1
    #   (legal mask) + 4 x 8 (to_play, action, reward, root value) = 58
    #   bytes of moves, + 8 (value target) + 16 (priorities) = 82; 10 games
    #   x 7 moves x 82 = 5740, the saved copy 10 x 7 x 58 = 4060, 3 games in
    #   flight 3 x 7 x 58 = 1218.
    config = _hand_mlp_config()
    estimate = resources.estimate_memory(config, games_in_flight=3)
    self.assertEqual(estimate,
                     resources.MemoryEstimate(1860, 336, 2096, 11018))
    self.assertEqual(estimate.total, 15310)
    self.assertEqual(resources.replay_position_bytes(config), 82)
    # Adam keeps two slots; prioritised replay a cumulative sum too.
    self.assertEqual(
        resources.estimate_memory(config.replace(optimizer='adam')).network,
        155 * 4 * 4)
    self.assertEqual(resources.replay_position_bytes(
        config.replace(prioritized_replay=True)), 90)
    self.assertEqual(resources.estimate_memory(
        config, with_replay=False, replay_save_copy=False).replay, 0)
    # One checkpoint: moves and a priority per position, a length, terminal
    # flag and bootstrap value per game, variables + slot, and 64 KiB of
    # headers, names and metadata.
    self.assertEqual(resources.checkpoint_bytes(config),
                     70 * (58 + 8) + 10 * 17 + 155 * 2 * 4 + 65536)

  def test_refused_just_above_the_limit_accepted_at_it(self):
    config = _hand_mlp_config()
    # 0.9 x 17011 = 15309.9 < 15310 <= 0.9 x 17012 = 15310.8.
    with self.assertRaises(resources.ResourceError) as error:
      resources.check_memory(config, available_bytes=17011,
                             games_in_flight=3)
    self.assertIsInstance(error.exception, ValueError)
    message = str(error.exception)
    self.assertIn('needs about 0.00 GB', message)
    self.assertIn('(90% of 0.00 GB available)', message)
    self.assertIn('The largest part is the replay', message)
    self.assertIn('10 games of up to 7 moves at 82 bytes a position', message)
    self.assertIn('window_size', message)
    estimate = resources.check_memory(config, available_bytes=17012,
                                      games_in_flight=3)
    self.assertEqual(estimate.total, 15310)
    with self.assertRaisesRegex(ValueError, r'fraction must be in \(0, 1\]'):
      resources.check_memory(config, available_bytes=1, fraction=1.5)

  @parameterized.named_parameters(
      ('network', dict(network=NetworkConfig(kind='residual', channels=100000,
                                             action_encoding='board')),
       'the network', 'config.network.channels or config.network.num_blocks'),
      ('batch', dict(network=testing.tiny_mlp_config().network,
                     observation_shape=(100000,), batch_size=100000,
                     num_unroll_steps=1, window_size=1, max_moves=1),
       'the batch', 'lower config.batch_size'),
      ('unroll', dict(num_unroll_steps=2000, batch_size=4096),
       'the unroll', 'lower config.num_unroll_steps or config.batch_size'),
      ('replay', dict(window_size=10**6, max_moves=10**4), 'the replay',
       'lower config.window_size (games kept) or config.max_moves'),
  )
  def test_message_names_the_largest_part(self, changes, part, flag):
    config = presets.make_tictactoe_config().replace(
        board_symmetries='none', **changes)

    def refuse_variables(next_creator, **kwargs):
      del next_creator, kwargs
      raise AssertionError('check_memory created a TensorFlow variable.')

    with tf.variable_creator_scope(refuse_variables):
      with self.assertRaises(resources.ResourceError) as error:
        resources.check_memory(config, available_bytes=24 * 10**9)
    message = str(error.exception)
    self.assertIn(f'The largest part is {part}', message)
    self.assertIn(flag, message)
    self.assertIn('more than the 21.60 GB it may use (90% of 24.00 GB '
                  'available)', message)

  def test_gigabytes_in_the_message(self):
    # Tic-tac-toe positions: (27 + 9) x 4 + 9 + 4 x 8 + 8 + 2 x 8 = 209
    # bytes, 185 of them moves. 10^6 games x 10^4 moves x (209 + 185 saved)
    # = 3940 GB; with one example a batch, network, batch and unroll add
    # less than a megabyte.
    config = presets.make_tictactoe_config().replace(
        window_size=10**6, max_moves=10**4, batch_size=1)
    self.assertEqual(resources.replay_position_bytes(config), 209)
    with self.assertRaises(resources.ResourceError) as error:
      resources.check_memory(config, available_bytes=10**9)
    message = str(error.exception)
    self.assertIn('needs about 3940.00 GB of memory, more than the 0.90 GB',
                  message)
    self.assertIn('replay 3940.00 GB.', message)


def _write(path, text):
  os.makedirs(os.path.dirname(path), exist_ok=True)
  with open(path, 'w') as f:
    f.write(text)


class AvailableMemoryTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    self.root = tempfile.mkdtemp()
    self.addCleanup(shutil.rmtree, self.root)
    self.meminfo = os.path.join(self.root, 'meminfo')
    self.cgroup = os.path.join(self.root, 'cgroup')
    _write(self.meminfo, 'MemTotal:       16000000 kB\n'
           'MemFree:         1000000 kB\n'
           'MemAvailable:    8000000 kB\n')

  def _available(self):
    return resources.available_memory_bytes(self.meminfo, self.cgroup)

  def test_meminfo_without_a_cgroup_limit(self):
    self.assertEqual(self._available(), 8000000 * 1024)
    _write(os.path.join(self.cgroup, 'memory.max'), 'max\n')
    self.assertEqual(self._available(), 8000000 * 1024)
    os.remove(os.path.join(self.cgroup, 'memory.max'))
    _write(os.path.join(self.cgroup, 'memory/memory.limit_in_bytes'),
           '9223372036854771712\n')
    self.assertEqual(self._available(), 8000000 * 1024)

  def test_cgroup_v2_limit_minus_usage_less_inactive_cache(self):
    gib = 1 << 30
    _write(os.path.join(self.cgroup, 'memory.max'), f'{4 * gib}\n')
    _write(os.path.join(self.cgroup, 'memory.current'), f'{gib}\n')
    _write(os.path.join(self.cgroup, 'memory.stat'),
           f'anon 1234\nactive_file 99\ninactive_file {gib // 4}\n')
    self.assertEqual(self._available(), 4 * gib - 3 * gib // 4)
    # Above the machine's MemAvailable, the machine's is the bound.
    _write(os.path.join(self.cgroup, 'memory.max'), f'{64 * gib}\n')
    self.assertEqual(self._available(), 8000000 * 1024)

  def test_cgroup_v1_limit(self):
    _write(os.path.join(self.cgroup, 'memory/memory.limit_in_bytes'),
           '3000000000\n')
    _write(os.path.join(self.cgroup, 'memory/memory.usage_in_bytes'),
           '1000000000\n')
    _write(os.path.join(self.cgroup, 'memory/memory.stat'),
           'cache 5\ntotal_inactive_file 200000000\n')
    self.assertEqual(self._available(), 3000000000 - 800000000)

  def test_without_meminfo_the_free_pages(self):
    os.remove(self.meminfo)
    total = os.sysconf('SC_PHYS_PAGES') * os.sysconf('SC_PAGE_SIZE')
    available = self._available()
    self.assertGreater(available, 0)
    self.assertLessEqual(available, total)


def _check_as_nobody(path, what, connection):
  """Forked child: runs the check as user nobody, sends back the error."""
  try:
    os.setgid(65534)
    os.setuid(65534)
  except OSError as e:
    # A sandbox whose user namespace maps root alone (Bazel's) has no
    # other user to become.
    connection.send(f'skip: cannot become user nobody ({e})')
    return
  try:
    resources.check_output_directory(path, what)
    connection.send('no error')
  except resources.ResourceError as e:
    connection.send(str(e))
  except Exception as e:  # pylint: disable=broad-except
    connection.send(f'unexpected {e!r}')


class OutputDirectoryTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    self.root = tempfile.mkdtemp()
    self.addCleanup(shutil.rmtree, self.root)

  def test_creates_a_missing_directory_and_leaves_nothing_in_it(self):
    path = os.path.join(self.root, 'a', 'b')
    resources.check_output_directory(path, 'checkpoint_dir',
                                     min_free_bytes=1)
    self.assertTrue(os.path.isdir(path))
    self.assertEqual(os.listdir(path), [])

  def test_an_empty_path_is_refused(self):
    with self.assertRaisesRegex(resources.ResourceError,
                                'logdir is empty: give a directory path'):
      resources.check_output_directory('', 'logdir')

  def test_a_file_is_refused(self):
    path = os.path.join(self.root, 'file')
    _write(path, 'x')
    with self.assertRaisesRegex(
        resources.ResourceError,
        f'checkpoint_dir={path} is a file, not a directory'):
      resources.check_output_directory(path, 'checkpoint_dir')
    with self.assertRaisesRegex(
        resources.ResourceError,
        f'export_dir={path}/sub cannot be created'):
      resources.check_output_directory(os.path.join(path, 'sub'),
                                       'export_dir')

  def test_read_only_directory_is_refused(self):
    read_only = os.path.join(self.root, 'read_only')
    os.makedirs(read_only)
    os.chmod(self.root, 0o755)
    os.chmod(read_only, 0o555)
    self.addCleanup(os.chmod, read_only, 0o755)
    cases = ((read_only, 'is not writable (Permission denied): fix its '
              'permissions'),
             (os.path.join(read_only, 'new'),
              'cannot be created (Permission denied)'))
    for path, expected in cases:
      if os.geteuid() == 0:
        # Root writes anywhere; user nobody, in a forked child, does not.
        receive, send = multiprocessing.Pipe(duplex=False)
        child = multiprocessing.get_context('fork').Process(
            target=_check_as_nobody, args=(path, 'logdir', send))
        child.start()
        self.assertTrue(receive.poll(30))
        message = receive.recv()
        child.join(30)
        if message.startswith('skip: '):
          self.skipTest(message[len('skip: '):])
      else:
        with self.assertRaises(resources.ResourceError) as error:
          resources.check_output_directory(path, 'logdir')
        message = str(error.exception)
      self.assertIn(f'logdir={path} {expected}', message)

  def test_checkpoint_space_counts_every_checkpoint_retention_holds(self):
    config = _hand_mlp_config()
    one = 70 * (58 + 8) + 10 * 17 + 155 * 2 * 4 + 65536  # 71,566.
    # Three kept, the next written before the oldest goes, 64 KiB of small
    # files (run_config.json, the index file, their temporary copies).
    self.assertEqual(resources.checkpoint_space_needed(
        config, os.path.join(self.root, 'new'), max_to_keep=3),
                     4 * one + 65536)
    self.assertEqual(resources.checkpoint_space_needed(
        config, self.root, max_to_keep=1), 2 * one + 65536)
    # A resume: the checkpoint files already there are part of the peak;
    # other files are not.
    for name, size in (('ckpt-5.index', 1000),
                       ('ckpt-5.data-00000-of-00001', 2000),
                       ('replay-5.npz', 3000), ('notes.txt', 5000),
                       ('replay-5.npz.bak', 7000)):
      with open(os.path.join(self.root, name), 'wb') as f:
        f.write(bytes(size))
    self.assertEqual(resources.checkpoint_space_needed(
        config, self.root, max_to_keep=3), 4 * one + 65536 - 6000)
    # The next checkpoint needs its own bytes, whatever is there.
    with open(os.path.join(self.root, 'replay-4.npz'), 'wb') as f:
      f.write(bytes(10**6))
    self.assertEqual(resources.checkpoint_space_needed(
        config, self.root, max_to_keep=3), one)

  def test_too_little_free_space_is_refused(self):
    usage = collections.namedtuple('usage', 'total used free')
    with mock.patch.object(resources.shutil, 'disk_usage',
                           return_value=usage(10**12, 10**12 - 5 * 10**8,
                                              5 * 10**8)):
      resources.check_output_directory(self.root, 'checkpoint_dir',
                                       min_free_bytes=5 * 10**8)
      with self.assertRaises(resources.ResourceError) as error:
        resources.check_output_directory(self.root, 'checkpoint_dir',
                                         min_free_bytes=2 * 10**9)
    self.assertEqual(
        str(error.exception),
        f'checkpoint_dir={self.root} has 500,000,000 bytes (0.50 GB) of '
        'disk free, less than the 2,000,000,000 bytes (2.00 GB) needed: free '
        'some space or choose a directory on another disk.')
    with mock.patch.object(resources.shutil, 'disk_usage',
                           return_value=usage(10**12, 10**12 - 5 * 10**8,
                                              5 * 10**8)):
      with self.assertRaises(resources.ResourceError) as error:
        resources.check_output_directory(
            self.root, 'checkpoint_dir', min_free_bytes=2 * 10**9,
            needed_for='4 checkpoints')
    self.assertIn('the 2,000,000,000 bytes (2.00 GB) needed (4 checkpoints): '
                  'free some space', str(error.exception))


if __name__ == '__main__':
  tf.test.main()
