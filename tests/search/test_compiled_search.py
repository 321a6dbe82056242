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
"""Tests for CompiledSearch: NumPy in/out, seeds, padding, errors, replicas."""

import dataclasses
import json
import math
import os
import subprocess
import sys

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt import networks
from muzero_snt import types
from muzero_snt.search import base
from muzero_snt.search import batched
from muzero_snt.search import compiled_search
from muzero_snt.search import model as model_lib
from muzero_snt.search import reference_search
from tests import testing
from tests.search import batched_fixtures as fixtures

parameterized = testing.parameterized

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RESULT_PREFIX = 'BATCHED_SEARCH_RESULT '


class _NaNNetwork:
  """Zero outputs, except one field of one inference that is NaN."""

  def __init__(self, field: str, inference: str):
    self._field = field
    self._inference = inference

  def _output(self, hidden_state, inference):
    batch_size = tf.shape(hidden_state)[0]
    fields = dict(value=tf.zeros([batch_size]),
                  reward=tf.zeros([batch_size]),
                  policy_logits=tf.zeros([batch_size, fixtures.NUM_ACTIONS]),
                  hidden_state=hidden_state)
    if inference == self._inference:
      fields[self._field] += math.nan
    return types.NetworkOutput(**fields)

  def initial_inference(self, observation):
    return self._output(observation, 'initial')

  def recurrent_inference(self, hidden_state, action):
    del action
    return self._output(hidden_state, 'recurrent')


class _CountingNetwork:
  """A network that counts its traces and records the batch it was given."""

  def __init__(self, network):
    self._network = network
    self.traces = 0
    self.batch_size = tf.Variable(0)

  def create_variables(self):
    self._network.create_variables()

  def initial_inference(self, observation):
    self.traces += 1
    self.batch_size.assign(tf.shape(observation)[0])
    return self._network.initial_inference(observation)

  def recurrent_inference(self, hidden_state, action):
    return self._network.recurrent_inference(hidden_state, action)


class CompiledSearchTest(testing.TestCase):

  def test_numpy_masks_equal_reference(self):
    setup = fixtures.setup('two_players_support')
    search = compiled_search.CompiledSearch(
        setup.config, setup.network, jit_compile=False, dtype=tf.float64)
    for legal in (setup.legal, base.legal_actions_to_mask(
        fixtures.lists(setup.legal), fixtures.NUM_ACTIONS)):
      result = search(setup.observation, setup.to_play, legal,
                      np.random.default_rng(0), add_noise=False)
      self.assertIsInstance(result.visit_counts, np.ndarray)
      self.assertAllEqual(result.visit_counts,
                          setup.tf_reference.visit_counts)
      self.assertAllClose(result.policy, setup.tf_reference.policy, rtol=0.,
                          atol=1e-7)
      self.assertAllClose(result.root_value, setup.tf_reference.root_value,
                          rtol=0., atol=1e-6)

  def test_padding_leaves_the_real_rows_alone(self):
    setup = fixtures.setup('one_player_scalar')
    rows = slice(0, 5)
    inputs = (setup.observation[rows], setup.to_play[rows],
              setup.legal[rows])
    padded = compiled_search.CompiledSearch(
        setup.config, setup.network, jit_compile=False, dtype=tf.float64)(
            *inputs, np.random.default_rng(0), add_noise=False)
    unpadded = compiled_search.CompiledSearch(
        setup.config, setup.network, jit_compile=False, dtype=tf.float64,
        pad_batch=False)(*inputs, np.random.default_rng(0), add_noise=False)
    self.assertEqual(padded.visit_counts.shape, (5, fixtures.NUM_ACTIONS))
    self.assertAllEqual(padded.visit_counts, unpadded.visit_counts)
    self.assertAllClose(padded.root_value, unpadded.root_value, rtol=0.,
                        atol=1e-6)
    # Rows are searched independently: the 64-root reference's first rows.
    self.assertAllEqual(padded.visit_counts,
                        setup.tf_reference.visit_counts[rows])

  def test_batches_padded_to_one_size_share_one_trace(self):
    setup = fixtures.setup('one_player_scalar')
    network = _CountingNetwork(setup.network)
    search = compiled_search.CompiledSearch(setup.config, network)
    for batch_size, padded_size in ((3, 4), (4, 4)):
      rows = slice(0, batch_size)
      result = search(setup.observation[rows], setup.to_play[rows],
                      setup.legal[rows], np.random.default_rng(0),
                      add_noise=False)
      self.assertLen(result.visit_counts, batch_size)
      self.assertEqual(int(network.batch_size.numpy()), padded_size)
      self.assertEqual(network.traces, 1)

  def test_padded_sizes(self):
    # Powers of two up to 64, then multiples of an eighth of the next power
    # of two; always a multiple of the replicas.
    for batch_size, replicas, expected in (
        (1, 1, 1), (3, 1, 4), (33, 1, 64), (64, 1, 64), (65, 1, 80),
        (100, 1, 112), (129, 1, 160), (443, 1, 448), (614, 1, 640),
        (1024, 1, 1024), (1025, 1, 1280), (3, 8, 8), (65, 3, 81)):
      self.assertEqual(
          compiled_search._padded_size(batch_size, replicas), expected,
          (batch_size, replicas))

  def test_compile_function_runs_each_padded_size_once(self):
    setup = fixtures.setup('one_player_scalar')
    network = _CountingNetwork(setup.network)
    rows = tf.Variable(0)
    initial_inference = network.initial_inference

    def counting_initial_inference(observation):
      rows.assign_add(tf.shape(observation)[0])
      return initial_inference(observation)

    network.initial_inference = counting_initial_inference
    search = compiled_search.CompiledSearch(setup.config, network)
    self.assertEqual(search.padded_sizes(range(1, 6)), [8, 4, 2, 1])
    compile_searches = search.compile_function(range(1, 6))
    self.assertEqual(network.traces, 1)  # Traced by compile_function.
    self.assertEqual(int(rows.numpy()), 0)  # Nothing run yet.
    compile_searches()
    self.assertEqual(int(rows.numpy()), 8 + 4 + 2 + 1)
    # Self-play's searches then run those programs: no second trace.
    search(setup.observation[:3], setup.to_play[:3], setup.legal[:3],
           np.random.default_rng(0))
    self.assertEqual(network.traces, 1)
    self.assertEqual(int(rows.numpy()), 15 + 4)
    unpadded = compiled_search.CompiledSearch(setup.config, network,
                                              pad_batch=False)
    self.assertEqual(unpadded.padded_sizes([3, 1, 3, 2]), [3, 2, 1])

  def test_min_batch_size_runs_a_round_as_one_program(self):
    # A round of 5 games that end one by one: batches of 5, 4, ..., 1 run
    # as 8 rows each, one trace and one program, and each batch's rows get
    # what a search without padding gives them.
    setup = fixtures.setup('one_player_scalar')
    network = _CountingNetwork(setup.network)
    search = compiled_search.CompiledSearch(
        setup.config, network, jit_compile=False, dtype=tf.float64,
        min_batch_size=5)
    unpadded = compiled_search.CompiledSearch(
        setup.config, setup.network, jit_compile=False, dtype=tf.float64,
        pad_batch=False)
    self.assertEqual(search.padded_sizes(range(1, 6)), [8])
    self.assertEqual(search.padded_sizes([5, 9, 70]), [80, 16, 8])
    for batch_size in (5, 4, 3, 2, 1):
      rows = slice(0, batch_size)
      inputs = (setup.observation[rows], setup.to_play[rows],
                setup.legal[rows], np.random.default_rng(0))
      result = search(*inputs, add_noise=False)
      self.assertEqual(int(network.batch_size.numpy()), 8)
      expected = unpadded(*inputs, add_noise=False)
      self.assertAllEqual(result.visit_counts, expected.visit_counts)
      # The float32 network rounds by batch size (within a unit in the
      # last place); the tree's float64 statistics keep the visits exact.
      self.assertAllClose(result.root_value, expected.root_value, rtol=0.,
                          atol=1e-6)
    self.assertEqual(network.traces, 1)

  def test_min_batch_size_leaves_the_roots_noise_as_it_was(self):
    # Each root's Dirichlet noise is drawn from the seed and its row alone
    # (`stateless_dirichlet`), so padding a batch to more rows changes no
    # real root's noise: with noise on, the padded search (one program)
    # gives each batch the visits of the unpadded one, with XLA and without.
    setup = fixtures.setup('one_player_scalar')
    for jit_compile in (False, True):
      search = compiled_search.CompiledSearch(
          setup.config, setup.network, jit_compile=jit_compile,
          dtype=tf.float64, min_batch_size=5)
      unpadded = compiled_search.CompiledSearch(
          setup.config, setup.network, jit_compile=jit_compile,
          dtype=tf.float64, pad_batch=False)
      for batch_size in (5, 3, 1):
        rows = slice(0, batch_size)
        inputs = (setup.observation[rows], setup.to_play[rows],
                  setup.legal[rows])
        for seed in range(3):
          result = search(*inputs, np.random.default_rng(seed))
          expected = unpadded(*inputs, np.random.default_rng(seed))
          self.assertAllEqual(result.visit_counts, expected.visit_counts,
                              (jit_compile, batch_size, seed))
          noise_free = unpadded(*inputs, np.random.default_rng(seed),
                                add_noise=False)
          # The noise did change the search.
          self.assertNotAllEqual(expected.visit_counts,
                                 noise_free.visit_counts)

  def test_min_batch_size_errors(self):
    setup = fixtures.setup('one_player_scalar')
    for value in (0, -1, 2.0, True, None):
      with self.subTest(value), self.assertRaisesRegex(
          ValueError, f'min_batch_size must be a positive integer, got '
          f'{value!r}'):
        compiled_search.CompiledSearch(setup.config, setup.network,
                                       min_batch_size=value)
    with self.assertRaisesRegex(
        ValueError, 'min_batch_size=4 pads batches: it needs pad_batch'):
      compiled_search.CompiledSearch(setup.config, setup.network,
                                     pad_batch=False, min_batch_size=4)

  def test_large_batches_padded_to_one_size_share_one_trace(self):
    setup = fixtures.setup('one_player_scalar')
    network = _CountingNetwork(setup.network)
    search = compiled_search.CompiledSearch(setup.config, network)
    self.assertLen(setup.observation, 64)
    results = []
    for batch_size in (70, 80):  # Both pad to 80 (an eighth of 128 is 16).
      # The fixture's 64 roots, then its first ones again.
      rows = np.arange(batch_size) % 64
      result = search(setup.observation[rows], setup.to_play[rows],
                      setup.legal[rows], np.random.default_rng(0),
                      add_noise=False)
      self.assertLen(result.visit_counts, batch_size)
      self.assertEqual(int(network.batch_size.numpy()), 80)
      self.assertEqual(network.traces, 1)
      # Rows are searched independently: a root repeated 64 rows later gets
      # the same visits.
      self.assertAllEqual(result.visit_counts[64:batch_size],
                          result.visit_counts[:batch_size - 64])
      results.append(result.visit_counts)
    self.assertAllEqual(results[1][:70], results[0])

  def test_bad_inputs(self):
    # 2 players, 5 actions, observations [6].
    setup = fixtures.setup('two_players_scalar')
    search = compiled_search.CompiledSearch(setup.config, setup.network,
                                            jit_compile=False)
    observation = setup.observation[:2]
    to_play = [0, 1]
    legal = np.array([[True, True, False, False, False],
                      [False, False, True, False, False]])
    cases = [
        (ValueError, r'observations must have shape \[B, 6\] with B > 0, '
         r'got \[2, 5\]', (observation[:, :5], to_play, legal, [0, 0])),
        (ValueError, r'same batch size, got 2, 3 and 2',
         (observation, [0, 1, 0], legal, [0, 0])),
        (ValueError, r'to_play\[1\] must be a player in \[0, 2\), got 2',
         (observation, [0, 2], legal, [0, 0])),
        (ValueError, r'legal_actions_mask\[1\] has no legal action',
         (observation, to_play, np.array([[True] * 5, [False] * 5]),
          [0, 0])),
        (ValueError, r'legal_actions_mask must be a \[B, 5\] bool array, '
         r'got the ragged \[\[0\], \[\]\]',
         (observation, to_play, [[0], []], [0, 0])),
        (TypeError, r'legal_actions_mask must be a \[B, 5\] bool array, '
         r'got dtype int64; convert lists of legal action ids with '
         r'search\.legal_actions_to_mask', (observation, to_play,
                                            [[0, 7], [1, 2]], [0, 0])),
        (ValueError, r'legal_actions_mask must have shape \[B, 5\], got '
         r'\[2, 4\]', (observation, to_play, np.ones((2, 4), bool), [0, 0])),
        (TypeError, r'legal_actions_mask must be a \[B, 5\] bool array, '
         r'got dtype int64',
         (observation, to_play, np.array([[1, 0, 1, 0, 0], [0, 1, 0, 0, 0]]),
          [0, 0])),
        (ValueError, r'seed must be two integers, got \[1, 2, 3\]',
         (observation, to_play, legal, [1, 2, 3])),
        (ValueError, r'seed must be two integers, got None',
         (observation, to_play, legal, None)),
        (ValueError, r'seed must be two integers, got \[0.5, 1\]',
         (observation, to_play, legal, [0.5, 1])),
    ]
    for error, message, args in cases:
      with self.subTest(message), self.assertRaisesRegex(error, message):
        search.search_with_seed(*args, add_noise=False)
    with self.assertRaisesRegex(TypeError, r'rng must be a np.random.Generator'
                                r' \(e.g. .*\), got list'):
      search(observation, to_play, legal, [0, 0], add_noise=False)
    with self.assertRaisesRegex(ValueError,
                                r'dtype must be tf.float32 or tf.float64'):
      compiled_search.CompiledSearch(setup.config, setup.network,
                                     dtype=tf.float16)
    # The count of simulations is the config's, checked there.
    with self.assertRaisesRegex(ValueError, r'num_simulations must be a '
                                r'positive integer, got 0'):
      compiled_search.CompiledSearch(
          dataclasses.replace(setup.config, num_simulations=0),
          setup.network)
    with self.assertRaisesRegex(ValueError, r'needs a seed'):
      batched.batched_search(setup.config, setup.network, observation,
                             to_play, np.ones((2, 5), bool), add_noise=True)

  @parameterized.parameters(
      ('value', 'recurrent', False), ('reward', 'recurrent', False),
      ('policy_logits', 'initial', False), ('value', 'initial', False),
      ('policy_logits', 'recurrent', True))
  def test_non_finite_network_output(self, field, inference, jit_compile):
    config = fixtures.config_by_name('two_players_scalar')
    search = compiled_search.CompiledSearch(
        config, _NaNNetwork(field, inference), jit_compile=jit_compile)
    with self.assertRaisesRegex(
        FloatingPointError, f'returned a non-finite {field} during the '
        'search from finite observations: it has probably diverged'):
      search(np.zeros((3, 6)), [0, 1, 0], np.ones((3, 5), bool),
             np.random.default_rng(0), add_noise=False)

  def test_noise_seed_is_drawn_from_the_rng(self):
    setup = fixtures.setup('two_players_scalar')
    search = compiled_search.CompiledSearch(setup.config, setup.network,
                                            jit_compile=False)
    inputs = (setup.observation, setup.to_play, setup.legal)
    rng = np.random.default_rng(7)
    noisy = search(*inputs, rng, add_noise=True)
    # The actor's draw before the search took a generator: two ints below
    # 2**31 - 1, and nothing else.
    replay = np.random.default_rng(7)
    seed = replay.integers(0, 2**31 - 1, size=2)
    self.assertEqual(rng.random(), replay.random())
    self.assertAllEqual(
        noisy.visit_counts,
        search.search_with_seed(*inputs, seed, add_noise=True).visit_counts)
    # The noise shows: another seed gives other visits.
    self.assertNotAllEqual(
        noisy.visit_counts,
        search.search_with_seed(*inputs, seed + 1,
                                add_noise=True).visit_counts)
    # Without noise nothing is drawn.
    rng = np.random.default_rng(7)
    search(*inputs, rng, add_noise=False)
    self.assertEqual(rng.random(), np.random.default_rng(7).random())

  @parameterized.parameters('two_players_scalar', 'two_players_support')
  def test_host_noise_is_drawn_from_the_rng_as_the_reference_draws_it(
      self, name):
    # One rng.dirichlet per root over its legal actions, in batch order: the
    # float64 search then equals the reference search with noise, and both
    # leave the generator in the same state.
    setup = fixtures.setup(name)
    search = compiled_search.CompiledSearch(
        setup.config, setup.network, jit_compile=False, dtype=tf.float64,
        host_noise=True)
    inputs = (setup.observation, setup.to_play, setup.legal)
    rng, reference_rng = np.random.default_rng(7), np.random.default_rng(7)
    noisy = search(*inputs, rng, add_noise=True)
    expected = reference_search.search(
        setup.config, model_lib.NetworkModel(setup.network),
        setup.observation, setup.to_play, setup.legal, reference_rng,
        add_noise=True)
    self.assertAllEqual(noisy.visit_counts, expected.visit_counts)
    self.assertAllClose(noisy.root_value, expected.root_value, rtol=0.,
                        atol=1e-6)
    self.assertEqual(rng.random(), reference_rng.random())
    # The noise shows: without it the visits differ.
    self.assertNotAllEqual(
        noisy.visit_counts,
        search(*inputs, np.random.default_rng(7), add_noise=False)
        .visit_counts)
    # Without noise nothing is drawn.
    rng = np.random.default_rng(7)
    search(*inputs, rng, add_noise=False)
    self.assertEqual(rng.random(), np.random.default_rng(7).random())

  def test_host_noise_leaves_gumbel_muzero_drawing_its_sample(self):
    # host_noise is the MuZero search's Dirichlet noise; Gumbel MuZero still
    # draws its Gumbel sample in the program, from the same seed.
    setup = fixtures.setup('two_players_scalar')
    config = setup.config.replace(search_policy='gumbel',
                                  gumbel_max_considered_actions=2)
    inputs = (setup.observation, setup.to_play, setup.legal)
    results = [
        compiled_search.CompiledSearch(
            config, setup.network, jit_compile=False,
            host_noise=host_noise).search_with_seed(*inputs, [3, 4])
        for host_noise in (False, True)]
    self.assertAllEqual(results[1].action, results[0].action)
    self.assertAllEqual(results[1].visit_counts, results[0].visit_counts)

  def test_search_with_seed_draws_host_noise_from_the_seed(self):
    setup = fixtures.setup('two_players_scalar')
    search = compiled_search.CompiledSearch(setup.config, setup.network,
                                            jit_compile=False,
                                            host_noise=True)
    inputs = (setup.observation, setup.to_play, setup.legal)
    with_seed = search.search_with_seed(*inputs, [3, 4], add_noise=True)
    self.assertAllEqual(
        with_seed.visit_counts,
        search(*inputs, np.random.default_rng([3, 4]),
               add_noise=True).visit_counts)
    self.assertNotAllEqual(
        with_seed.visit_counts,
        search.search_with_seed(*inputs, [3, 5], add_noise=True).visit_counts)

  def test_runs_the_configs_num_simulations(self):
    setup = fixtures.setup('one_player_scalar')
    self.assertNotEqual(setup.config.num_simulations, 3)
    search = compiled_search.CompiledSearch(
        dataclasses.replace(setup.config, num_simulations=3), setup.network,
        jit_compile=False)
    result = search(setup.observation, setup.to_play, setup.legal,
                    np.random.default_rng(0), add_noise=False)
    self.assertAllEqual(result.visit_counts.sum(axis=1),
                        [3] * fixtures.NUM_ROOTS)


def _multi_device_check():
  """In the child: CompiledSearch on two replicas against one device."""
  # pylint: disable=g-import-not-at-top
  from muzero_snt.run import distribute
  # pylint: enable=g-import-not-at-top
  tf.config.set_logical_device_configuration(
      tf.config.list_physical_devices('CPU')[0],
      [tf.config.LogicalDeviceConfiguration()] * 2)
  strategy = distribute.make_strategy('mirrored')
  config = fixtures.config_by_name('two_players_scalar')
  network = fixtures.make_network(config, seed=3)
  with strategy.scope():
    mirrored_network = networks.make_network(config)
    mirrored_network.create_variables()
  for target, source in zip(mirrored_network.variables, network.variables):
    target.assign(source)
  observation, to_play, legal = fixtures.random_roots(config, 8, seed=5)

  def run(search, batch_size=8, add_noise=False):
    result = search(observation[:batch_size], to_play[:batch_size],
                    legal[:batch_size], np.random.default_rng(0),
                    add_noise=add_noise)
    return {'visit_counts': result.visit_counts.tolist(),
            'root_value': result.root_value.tolist()}

  single = compiled_search.CompiledSearch(config, network, jit_compile=False)
  replicated = compiled_search.CompiledSearch(
      config, network, jit_compile=False, strategy=strategy)
  output = {
      'replicas': strategy.num_replicas_in_sync,
      'single': run(single),
      'replicated': run(replicated),
      # 5 rows, padded to 8 and split 4 + 4.
      'replicated_odd': run(replicated, batch_size=5),
  }
  try:
    compiled_search.CompiledSearch(config, network, jit_compile=True,
                                   strategy=strategy)
    output['xla_outside_scope_error'] = None
  except ValueError as e:
    output['xla_outside_scope_error'] = str(e)
  replicated_xla = compiled_search.CompiledSearch(
      config, mirrored_network, jit_compile=True, strategy=strategy)
  output['replicated_xla'] = run(replicated_xla)
  # With noise: drawn for the whole batch, so each root's is the one-device
  # search's (with XLA and without).
  output['single_noise'] = run(single, add_noise=True)
  output['replicated_noise'] = run(replicated, add_noise=True)
  output['replicated_odd_noise'] = run(replicated, batch_size=5,
                                       add_noise=True)
  output['single_xla_noise'] = run(
      compiled_search.CompiledSearch(config, network, jit_compile=True),
      add_noise=True)
  output['replicated_xla_noise'] = run(replicated_xla, add_noise=True)
  return output


def child_main() -> None:
  """The child process: prints one JSON line for the test to read."""
  result = _multi_device_check()
  print(RESULT_PREFIX + json.dumps(result), flush=True)


class MultiDeviceTest(testing.TestCase):

  def test_two_replicas_match_one_device(self):
    # Logical devices must be configured before TensorFlow initialises its
    # runtime, which this process has done: the check runs in a child.
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(
        [ROOT] + [p for p in [env.get('PYTHONPATH')] if p])
    env['TF_CPP_MIN_LOG_LEVEL'] = '2'
    env['CUDA_VISIBLE_DEVICES'] = ''
    script = ('from tests.search import test_compiled_search; '
              'test_compiled_search.child_main()')
    process = subprocess.run([sys.executable, '-c', script], env=env,
                             cwd=ROOT, capture_output=True, text=True,
                             timeout=240, check=False)
    lines = [line for line in process.stdout.splitlines()
             if line.startswith(RESULT_PREFIX)]
    if process.returncode or not lines:
      self.fail(f'The child exited with {process.returncode}.\nstdout:\n'
                f'{process.stdout[-5000:]}\nstderr:\n'
                f'{process.stderr[-10000:]}')
    result = json.loads(lines[-1][len(RESULT_PREFIX):])
    self.assertEqual(result['replicas'], 2)
    single = result['single']
    for name in ('replicated', 'replicated_xla'):
      with self.subTest(name):
        self.assertAllEqual(result[name]['visit_counts'],
                            single['visit_counts'])
        self.assertAllClose(result[name]['root_value'], single['root_value'],
                            rtol=0., atol=1e-5)
    self.assertAllEqual(result['replicated_odd']['visit_counts'],
                        single['visit_counts'][:5])
    # Roots' noise: the same on two replicas as on one device.
    for name, reference in (('replicated_noise', 'single_noise'),
                            ('replicated_xla_noise', 'single_xla_noise')):
      with self.subTest(name):
        self.assertAllEqual(result[name]['visit_counts'],
                            result[reference]['visit_counts'])
    self.assertAllEqual(result['replicated_odd_noise']['visit_counts'],
                        result['single_noise']['visit_counts'][:5])
    # The noise changed the searches.
    self.assertNotAllEqual(result['single_noise']['visit_counts'],
                           single['visit_counts'])
    self.assertRegex(result['xla_outside_scope_error'] or '',
                     r'jit_compile=True on 2 replicas needs the network '
                     r'built under strategy.scope\(\)')


if __name__ == '__main__':
  absltest.main()

