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
"""Tests for the batched search (batched.py, compiled.py) against policy.py.

The reference is `policy.search`, the pseudocode's search on `Node`s. With
noise off the batched search must visit exactly the same actions. Two
routes to the network's numbers are compared: TensorFlow's kernels (the
reference's `NetworkModel`) and XLA (`jit_compile=True`). They differ in the
last bits of float32, and the value decoding h^-1 of a categorical head
amplifies that to ~1e-4 (`signed_parabolic` subtracts two numbers near 1);
so the root values of an XLA search are compared with a reference whose
network runs under XLA too (`_XlaModel`).
"""

import functools
import json
import math
import os
import subprocess
import sys

import numpy as np
import tensorflow as tf
from absl.testing import absltest

from muzero_snt import config as config_lib
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import types
from muzero_snt.environments import tictactoe
from muzero_snt.search import action_selection
from muzero_snt.search import batched
from muzero_snt.search import compiled
from muzero_snt.search import model as model_lib
from muzero_snt.search import policy
from muzero_snt.search import tree as tree_lib
from tests import testing
from tests.search import oracle

parameterized = testing.parameterized
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
RESULT_PREFIX = 'BATCHED_SEARCH_RESULT '
NUM_ROOTS = 64
NUM_ACTIONS = 5
OBSERVATION_SHAPE = (6,)

# name -> (value/reward support size, num_players, discount, known bounds,
# unvisited_q). Every pUCT rule for unvisited children is covered once.
CONFIGS = {
    'one_player_scalar': (0, 1, 0.997, None, 'zero'),
    'one_player_support': (21, 1, 0.997, None, 'parent'),
    'two_players_scalar': (0, 2, 1.0, config_lib.KnownBounds(-1., 1.),
                           'minimum'),
    'two_players_support': (21, 2, 1.0, config_lib.KnownBounds(-1., 1.),
                            'zero'),
}


def _config(name: str) -> config_lib.MuZeroConfig:
  support, players, discount, bounds, unvisited_q = CONFIGS[name]
  return testing.tiny_mlp_config(
      support, action_space_size=NUM_ACTIONS,
      observation_shape=OBSERVATION_SHAPE, num_players=players,
      discount=discount, known_bounds=bounds, unvisited_q=unvisited_q)


def _network(config, seed: int):
  """A network with random initial weights, the same for the same seed."""
  tf.random.set_seed(seed)
  network = networks.make_network(config)
  network.create_variables()
  return network


def _random_roots(config, batch_size: int, seed: int):
  """Random observations, players and legal masks (>= 1 legal per row)."""
  rng = np.random.default_rng(seed)
  a = config.action_space_size
  observation = rng.normal(
      size=(batch_size,) + config.observation_shape).astype(np.float32)
  to_play = rng.integers(0, config.num_players, batch_size).astype(np.int32)
  legal = rng.random((batch_size, a)) < 0.5
  legal[np.arange(batch_size), rng.integers(0, a, batch_size)] = True
  legal[0] = True  # Every action legal.
  legal[1] = np.arange(a) == 3  # A single legal action.
  return observation, to_play, legal


def _lists(legal):
  return [np.flatnonzero(row).tolist() for row in legal]


class _XlaModel:
  """A `model.Model` whose two inferences run under XLA, as in the search."""

  def __init__(self, network):
    self._initial = tf.function(
        lambda o: tuple(network.initial_inference(o)[:4]), jit_compile=True)
    self._recurrent = tf.function(
        lambda h, a: tuple(network.recurrent_inference(h, a)[:4]),
        jit_compile=True)

  def initial_inference(self, observation):
    outputs = self._initial(tf.constant(observation, tf.float32))
    return types.NetworkOutput(*(x.numpy() for x in outputs))

  def recurrent_inference(self, hidden_state, action):
    outputs = self._recurrent(tf.constant(hidden_state, tf.float32),
                              tf.constant(action, tf.int32))
    return types.NetworkOutput(*(x.numpy() for x in outputs))


class _Setup:
  """One config's network, random roots and reference searches."""

  def __init__(self, name: str, seed: int):
    self.config = _config(name)
    self.network = _network(self.config, seed)
    self.observation, self.to_play, self.legal = _random_roots(
        self.config, NUM_ROOTS, seed)

  def reference(self, model):
    return policy.search(self.config, model, self.observation, self.to_play,
                         _lists(self.legal), np.random.default_rng(0),
                         add_noise=False)

  @functools.cached_property
  def tf_reference(self):
    return self.reference(model_lib.NetworkModel(self.network))

  @functools.cached_property
  def xla_reference(self):
    return self.reference(_XlaModel(self.network))

  def batched(self, dtype, jit_compile):
    search = tf.function(
        lambda o, t, l: batched.batched_search(
            self.config, self.network, o, t, l, add_noise=False,
            dtype=dtype),
        jit_compile=jit_compile)
    return search(self.observation, self.to_play, self.legal)


@functools.lru_cache(maxsize=None)
def _setup(name: str) -> _Setup:
  return _Setup(name, seed=sorted(CONFIGS).index(name))


class ConformanceTest(testing.TestCase):

  @parameterized.parameters(*sorted(CONFIGS))
  def test_float64_equals_reference(self, name):
    setup = _setup(name)
    reference = setup.tf_reference
    output = setup.batched(tf.float64, jit_compile=False)
    self.assertAllEqual(output.finite, [True, True, True])
    self.assertAllEqual(output.visit_counts, reference.visit_counts)
    self.assertAllEqual(output.visit_counts.numpy().sum(axis=1),
                        [setup.config.num_simulations] * NUM_ROOTS)
    self.assertAllClose(output.policy, reference.policy, rtol=0., atol=1e-7)
    self.assertAllClose(output.root_value, reference.root_value, rtol=0.,
                        atol=1e-6)

  # XLA compiles take seconds: two configs that differ in every respect.
  @parameterized.product(name=('one_player_scalar', 'two_players_support'),
                         dtype=(tf.float64, tf.float32))
  def test_xla_equals_reference(self, name, dtype):
    setup = _setup(name)
    output = setup.batched(dtype, jit_compile=True)
    self.assertAllEqual(output.finite, [True, True, True])
    # Float32 statistics could order two near-equal pUCT scores differently
    # from the reference's float64; on these roots they never do.
    self.assertAllEqual(output.visit_counts, setup.tf_reference.visit_counts)
    self.assertAllEqual(output.visit_counts,
                        setup.xla_reference.visit_counts)
    self.assertAllClose(output.root_value, setup.xla_reference.root_value,
                        rtol=0., atol=1e-6 if dtype == tf.float64 else 1e-5)


def _tictactoe_positions(count: int, seed: int):
  """Positions reached by random play, none of them over."""
  rng = np.random.default_rng(seed)
  observation, to_play, legal = [], [], []
  while len(observation) < count:
    env = tictactoe.TicTacToe()
    timestep = env.reset()
    for _ in range(rng.integers(0, 8)):
      timestep = env.step(rng.choice(env.legal_actions()))
      if timestep.last():
        break
    if timestep.last():
      continue
    observation.append(env.observation())
    to_play.append(env.to_play())
    legal.append(env.legal_actions().tolist())
  mask = np.zeros((count, 9), bool)
  for i, actions in enumerate(legal):
    mask[i, actions] = True
  return np.stack(observation), np.array(to_play, np.int32), legal, mask


class _TensorFlowOracle:
  """The NumPy `oracle.TicTacToeOracle` inside a graph (no XLA)."""

  def __init__(self):
    self._oracle = oracle.TicTacToeOracle()

  def _call(self, function, *inputs):
    outputs = tf.numpy_function(lambda *x: tuple(function(*x)[:4]), inputs,
                                [tf.float32] * 4)
    for output, shape in zip(outputs, ([None], [None], [None, 9],
                                       [None, oracle.DONE + 1])):
      output.set_shape(shape)
    return types.NetworkOutput(*outputs)

  def initial_inference(self, observation):
    return self._call(self._oracle.initial_inference, observation)

  def recurrent_inference(self, hidden_state, action):
    return self._call(self._oracle.recurrent_inference, hidden_state, action)


class TicTacToeTest(testing.TestCase):

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    cls.config = presets.make_tictactoe_config()  # 25 simulations.
    cls.network = _network(cls.config, seed=7)
    (cls.observation, cls.to_play, cls.legal,
     cls.mask) = _tictactoe_positions(16, seed=0)

  def _reference(self, model):
    return policy.search(self.config, model, self.observation, self.to_play,
                         self.legal, np.random.default_rng(0),
                         add_noise=False)

  def _batched(self, network, dtype, jit_compile):
    search = tf.function(
        lambda o, t, l: batched.batched_search(
            self.config, network, o, t, l, add_noise=False, dtype=dtype),
        jit_compile=jit_compile)
    return search(self.observation, self.to_play, self.mask)

  def test_positions(self):
    # Both players to move, and positions from the empty board to late ones.
    self.assertEqual(set(self.to_play.tolist()), {0, 1})
    self.assertGreater(self.mask.sum(axis=1).max(), 7)
    self.assertLess(self.mask.sum(axis=1).min(), 5)

  def test_residual_network(self):
    # The compiled search with float32 statistics, as self-play runs it.
    output = self._batched(self.network, tf.float32, jit_compile=True)
    reference = self._reference(model_lib.NetworkModel(self.network))
    self.assertAllEqual(output.visit_counts, reference.visit_counts)
    reference = self._reference(_XlaModel(self.network))
    self.assertAllEqual(output.visit_counts, reference.visit_counts)
    self.assertAllClose(output.root_value, reference.root_value, rtol=0.,
                        atol=1e-5)

  def test_oracle(self):
    # Uniform priors and exact values: many pUCT scores tie exactly, and
    # both searches must break every tie towards the lowest action.
    reference = self._reference(oracle.TicTacToeOracle())
    output = self._batched(_TensorFlowOracle(), tf.float64,
                           jit_compile=False)
    self.assertAllEqual(output.visit_counts, reference.visit_counts)
    self.assertAllEqual(output.root_value, reference.root_value)


class _NaNNetwork:
  """Zero outputs, except one field of one inference that is NaN."""

  def __init__(self, field: str, inference: str):
    self._field = field
    self._inference = inference

  def _output(self, hidden_state, inference):
    batch_size = tf.shape(hidden_state)[0]
    fields = dict(value=tf.zeros([batch_size]),
                  reward=tf.zeros([batch_size]),
                  policy_logits=tf.zeros([batch_size, NUM_ACTIONS]),
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


class BatchedSearchTest(testing.TestCase):

  def test_numpy_lists_and_masks_equal_reference(self):
    setup = _setup('two_players_support')
    search = compiled.BatchedSearch(setup.config, setup.network,
                                    jit_compile=False, dtype=tf.float64)
    for legal in (setup.legal, _lists(setup.legal)):
      result = search(setup.observation, setup.to_play, legal, seed=[1, 2],
                      add_noise=False)
      self.assertIsInstance(result.visit_counts, np.ndarray)
      self.assertAllEqual(result.visit_counts,
                          setup.tf_reference.visit_counts)
      self.assertAllClose(result.policy, setup.tf_reference.policy, rtol=0.,
                          atol=1e-7)
      self.assertAllClose(result.root_value, setup.tf_reference.root_value,
                          rtol=0., atol=1e-6)

  def test_padding_leaves_the_real_rows_alone(self):
    setup = _setup('one_player_scalar')
    rows = slice(0, 5)
    inputs = (setup.observation[rows], setup.to_play[rows],
              setup.legal[rows])
    padded = compiled.BatchedSearch(
        setup.config, setup.network, jit_compile=False, dtype=tf.float64)(
            *inputs, seed=[0, 0], add_noise=False)
    unpadded = compiled.BatchedSearch(
        setup.config, setup.network, jit_compile=False, dtype=tf.float64,
        pad_batch=False)(*inputs, seed=[0, 0], add_noise=False)
    self.assertEqual(padded.visit_counts.shape, (5, NUM_ACTIONS))
    self.assertAllEqual(padded.visit_counts, unpadded.visit_counts)
    self.assertAllClose(padded.root_value, unpadded.root_value, rtol=0.,
                        atol=1e-6)
    # Rows are searched independently: the 64-root reference's first rows.
    self.assertAllEqual(padded.visit_counts,
                        setup.tf_reference.visit_counts[rows])

  def test_batches_padded_to_one_size_share_one_trace(self):
    setup = _setup('one_player_scalar')
    network = _CountingNetwork(setup.network)
    search = compiled.BatchedSearch(setup.config, network)
    for batch_size, padded_size in ((3, 4), (4, 4)):
      rows = slice(0, batch_size)
      result = search(setup.observation[rows], setup.to_play[rows],
                      setup.legal[rows], seed=[0, 0], add_noise=False)
      self.assertLen(result.visit_counts, batch_size)
      self.assertEqual(int(network.batch_size.numpy()), padded_size)
      self.assertEqual(network.traces, 1)

  def test_bad_inputs(self):
    setup = _setup('two_players_scalar')  # 2 players, 5 actions, obs [6].
    search = compiled.BatchedSearch(setup.config, setup.network,
                                    jit_compile=False)
    observation = setup.observation[:2]
    to_play = [0, 1]
    legal = [[0, 1], [2]]
    cases = [
        (ValueError, r'observation must have shape \[B, 6\] with B > 0, '
         r'got \[2, 5\]', (observation[:, :5], to_play, legal, [0, 0])),
        (ValueError, r'to_play must have 2 entries, got 3',
         (observation, [0, 1, 0], legal, [0, 0])),
        (ValueError, r'to_play holds player 2, outside \[0, 2\)',
         (observation, [0, 2], legal, [0, 0])),
        (ValueError, r'Position 1 has no legal action',
         (observation, to_play, np.array([[True] * 5, [False] * 5]),
          [0, 0])),
        (ValueError, r'legal_actions\[1\] is empty',
         (observation, to_play, [[0], []], [0, 0])),
        (ValueError, r'legal_actions\[0\] holds an action outside the action '
         r'space \[0, 5\): \[0, 7\]', (observation, to_play, [[0, 7], [1]],
                                      [0, 0])),
        (ValueError, r'legal_actions must be a \[2, 5\] mask, got \[2, 4\]',
         (observation, to_play, np.ones((2, 4), bool), [0, 0])),
        (TypeError, r'legal_actions\[0\] holds booleans \[True, False, '
         r'True, False, False\]; expected action indices',
         (observation, to_play, [[True, False, True, False, False],
                                 [False, True, False, False, False]],
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
        search(*args, add_noise=False)
    with self.assertRaisesRegex(ValueError,
                                r'dtype must be tf.float32 or tf.float64'):
      compiled.BatchedSearch(setup.config, setup.network, dtype=tf.float16)
    with self.assertRaisesRegex(ValueError, r'needs a seed'):
      batched.batched_search(setup.config, setup.network, observation,
                             to_play, np.ones((2, 5), bool), add_noise=True)

  @parameterized.parameters(
      ('value', 'recurrent', False), ('reward', 'recurrent', False),
      ('policy_logits', 'initial', False), ('value', 'initial', False),
      ('policy_logits', 'recurrent', True))
  def test_non_finite_network_output(self, field, inference, jit_compile):
    config = _config('two_players_scalar')
    search = compiled.BatchedSearch(config, _NaNNetwork(field, inference),
                                    jit_compile=jit_compile)
    with self.assertRaisesRegex(FloatingPointError,
                                f'returned a non-finite {field} during'):
      search(np.zeros((3, 6)), [0, 1, 0], np.ones((3, 5), bool), seed=[0, 1],
             add_noise=False)


class DirichletNoiseTest(testing.TestCase):

  LEGAL = np.array([True, False, True, True, False, True, False, False, True])

  @parameterized.parameters(tf.float32, tf.float64)
  def test_moments(self, dtype):
    n = 20_000
    alpha, k = 0.3, 5
    legal = np.tile(self.LEGAL, (n, 1))
    noise = batched.dirichlet_noise(alpha, tf.constant(legal),
                                    tf.constant([3, 4]), dtype).numpy()
    self.assertEqual(noise.dtype, dtype.as_numpy_dtype)
    self.assertTrue(np.all(noise[:, ~self.LEGAL] == 0.))
    self.assertAllClose(noise.sum(axis=1), np.ones(n),
                        rtol=0., atol=10 * np.finfo(noise.dtype).eps)
    # Each legal component of Dirichlet(alpha, ..., alpha) over k actions is
    # Beta(a, b) with a = alpha, b = (k - 1) alpha: mean 1/k = 0.2, variance
    # (1/k)(1 - 1/k) / (k alpha + 1) = 0.16 / 2.5 = 0.064. The mean of n
    # draws has standard error sqrt(0.064 / n) = 0.00179; allow 5 of them.
    a, b = alpha, (k - 1) * alpha
    mean = 1 / k
    variance = mean * (1 - mean) / (k * alpha + 1)
    self.assertAllClose(variance, 0.064)
    legal_noise = noise[:, self.LEGAL].astype(np.float64)
    self.assertAllClose(legal_noise.mean(axis=0), [mean] * k, rtol=0.,
                        atol=5 * math.sqrt(variance / n))
    # The sample variance has standard error sqrt((mu4 - variance^2) / n),
    # mu4 the fourth central moment of Beta(a, b), from its raw moments
    # E[X^j] = prod_{i<j} (a + i) / (a + b + i): mu4 = 0.01560 and the
    # standard error 0.00076; allow 5 of them.
    raw = [math.prod((a + i) / (a + b + i) for i in range(j))
           for j in range(5)]
    mu4 = (raw[4] - 4 * mean * raw[3] + 6 * mean**2 * raw[2] -
           3 * mean**4)
    self.assertAllClose(legal_noise.var(axis=0), [variance] * k, rtol=0.,
                        atol=5 * math.sqrt((mu4 - variance**2) / n))

  @parameterized.parameters(tf.float32, tf.float64)
  def test_underflow_fallback(self, dtype):
    # One legal action: exactly 1 there, 0 elsewhere.
    single = np.zeros((4, 9), bool)
    single[np.arange(4), [0, 3, 8, 8]] = True
    noise = batched.dirichlet_noise(0.3, tf.constant(single),
                                    tf.constant([0, 1]), dtype).numpy()
    self.assertAllEqual(noise, single.astype(noise.dtype))
    # alpha 1e-3: every Gamma draw of a row can underflow to 0; such a row
    # gets uniform noise over its legal actions instead of 0 / 0.
    legal = np.tile(self.LEGAL, (2000, 1))
    noise = batched.dirichlet_noise(1e-3, tf.constant(legal),
                                    tf.constant([0, 1]), dtype).numpy()
    self.assertFalse(np.isnan(noise).any())
    self.assertTrue(np.all(noise[:, ~self.LEGAL] == 0.))
    self.assertAllClose(noise.sum(axis=1), np.ones(2000), rtol=0.,
                        atol=10 * np.finfo(noise.dtype).eps)
    uniform = np.all(noise[:, self.LEGAL] == noise.dtype.type(1) / 5, axis=1)
    self.assertTrue(uniform.any(), 'the fallback was not exercised')

  def test_seeds(self):
    legal = tf.constant(np.tile(self.LEGAL, (8, 1)))

    def noise(seed):
      return batched.dirichlet_noise(0.3, legal, tf.constant(seed),
                                     tf.float32).numpy()

    self.assertAllEqual(noise([5, 6]), noise([5, 6]))
    different = noise([5, 6])[:, self.LEGAL] != noise([5, 7])[:, self.LEGAL]
    self.assertTrue(different.all())
    # Rows of one draw differ from each other.
    first = noise([5, 6])
    self.assertTrue(np.all(first[0, self.LEGAL] != first[1, self.LEGAL]))

  def test_add_exploration_noise_mixes_the_root_priors(self):
    config = presets.make_tictactoe_config()  # alpha 0.3, fraction 0.25.
    legal = np.array([[True] * 9, self.LEGAL])
    logits = np.array([np.arange(9.) / 4, np.linspace(1., -1., 9)])
    tree = tree_lib.init_tree(
        num_nodes=3, num_actions=9, value=tf.zeros([2]),
        policy_logits=tf.constant(logits), hidden_state=tf.zeros([2, 1]),
        to_play=tf.constant([0, 1]), legal=tf.constant(legal),
        known_bounds=None, dtype=tf.float64)
    seed = tf.constant([11, 12])
    noisy = batched.add_exploration_noise(config, tree, seed)
    # prior * (1 - f) + noise * f, prior the softmax over the legal actions.
    exp = np.where(legal, np.exp(logits), 0.)
    prior = exp / exp.sum(axis=1, keepdims=True)
    noise = batched.dirichlet_noise(0.3, tf.constant(legal), seed,
                                    tf.float64).numpy()
    self.assertAllClose(noisy.prior[:, 0], prior * 0.75 + noise * 0.25,
                        rtol=0., atol=1e-12)
    self.assertTrue(np.all(noisy.prior.numpy()[:, 0][~legal] == 0.))
    self.assertAllEqual(noisy.prior[:, 1:], tree.prior[:, 1:])

  def test_search_with_noise_uses_the_mixed_priors(self):
    setup = _setup('two_players_scalar')
    config = setup.config
    rows = slice(0, 8)
    seed = tf.constant([3, 9])
    search = tf.function(
        lambda o, t, l: batched.batched_search(
            config, setup.network, o, t, l, seed=seed, add_noise=True,
            dtype=tf.float64))
    output = search(setup.observation[rows], setup.to_play[rows],
                    setup.legal[rows])
    logits = setup.network.initial_inference(
        setup.observation[rows]).policy_logits.numpy().astype(np.float64)
    legal = setup.legal[rows]
    exp = np.where(legal, np.exp(logits - logits.max(axis=1, keepdims=True)),
                   0.)
    prior = exp / exp.sum(axis=1, keepdims=True)
    noise = batched.dirichlet_noise(config.root_dirichlet_alpha,
                                    tf.constant(legal), seed,
                                    tf.float64).numpy()
    frac = config.root_exploration_fraction
    self.assertAllClose(output.tree.prior[:, 0],
                        prior * (1 - frac) + noise * frac, rtol=0., atol=1e-6)
    visits = output.visit_counts.numpy()
    self.assertTrue(np.all(visits[~legal] == 0))
    self.assertAllEqual(visits.sum(axis=1), [config.num_simulations] * 8)


class SelectActionsTest(testing.TestCase):

  def test_temperature_zero_takes_the_most_visited(self):
    counts = tf.constant([[0, 3, 5, 5], [2, 2, 2, 2], [0, 0, 7, 0],
                          [1, 0, 0, 1], [0, 0, 0, 9]])
    for seed in ([0, 0], [1, 2]):
      actions = batched.select_actions(counts, tf.zeros([5]),
                                       tf.constant(seed))
      self.assertAllEqual(actions, [2, 0, 2, 0, 3])
    compiled_select = tf.function(batched.select_actions, jit_compile=True)
    self.assertAllEqual(
        compiled_select(counts, tf.zeros([5]), tf.constant([4, 4])),
        [2, 0, 2, 0, 3])

  @parameterized.parameters(1.0, 0.5)
  def test_sampling_frequencies(self, temperature):
    n = 20_000
    visits = np.array([0, 1, 3, 6, 10])
    # N^(1/T) / sum: T = 1 gives [0, 1, 3, 6, 10] / 20, T = 0.5 gives
    # [0, 1, 9, 36, 100] / 146.
    expected = visits**(1 / temperature) / np.sum(visits**(1 / temperature))
    self.assertAllClose(expected,
                        action_selection.visit_softmax(visits, temperature))
    actions = batched.select_actions(
        tf.constant(np.tile(visits, (n, 1))), tf.fill([n], temperature),
        tf.constant([7, 8])).numpy()
    frequencies = np.bincount(actions, minlength=5) / n
    # A frequency of n draws has standard error sqrt(p (1 - p) / n), at most
    # 0.0035; allow 5 of them, per action.
    self.assertAllClose(frequencies, expected, rtol=0.,
                        atol=5 * np.sqrt(expected * (1 - expected) / n))
    self.assertEqual(frequencies[0], 0.)  # Unvisited: never chosen.

  def test_rows_have_their_own_temperature(self):
    n = 4000
    visits = np.tile([[0, 4, 0, 1, 5]], (n, 1))
    temperature = np.where(np.arange(n) % 2 == 0, 0., 1.)
    actions = batched.select_actions(tf.constant(visits),
                                     tf.constant(temperature),
                                     tf.constant([1, 1])).numpy()
    self.assertTrue(np.all(actions[::2] == 4))  # T = 0: the most visited.
    sampled = actions[1::2]
    self.assertTrue(np.all(np.isin(sampled, [1, 3, 4])))
    self.assertLen(np.unique(sampled), 3)  # p = 0.4, 0.1, 0.5.


def _multi_device_check():
  """In the child: BatchedSearch on two replicas against one device."""
  # pylint: disable=g-import-not-at-top
  from muzero_snt import distribute
  # pylint: enable=g-import-not-at-top
  tf.config.set_logical_device_configuration(
      tf.config.list_physical_devices('CPU')[0],
      [tf.config.LogicalDeviceConfiguration()] * 2)
  strategy = distribute.make_strategy('mirrored')
  config = _config('two_players_scalar')
  network = _network(config, seed=3)
  with strategy.scope():
    mirrored_network = networks.make_network(config)
    mirrored_network.create_variables()
  for target, source in zip(mirrored_network.variables, network.variables):
    target.assign(source)
  observation, to_play, legal = _random_roots(config, 8, seed=5)

  def run(search, batch_size=8):
    result = search(observation[:batch_size], to_play[:batch_size],
                    legal[:batch_size], seed=[0, 1], add_noise=False)
    return {'visit_counts': result.visit_counts.tolist(),
            'root_value': result.root_value.tolist()}

  single = compiled.BatchedSearch(config, network, jit_compile=False)
  replicated = compiled.BatchedSearch(config, network, jit_compile=False,
                                      strategy=strategy)
  output = {
      'replicas': strategy.num_replicas_in_sync,
      'single': run(single),
      'replicated': run(replicated),
      # 5 rows, padded to 8 and split 4 + 4.
      'replicated_odd': run(replicated, batch_size=5),
  }
  try:
    compiled.BatchedSearch(config, network, jit_compile=True,
                           strategy=strategy)
    output['xla_outside_scope_error'] = None
  except ValueError as e:
    output['xla_outside_scope_error'] = str(e)
  output['replicated_xla'] = run(compiled.BatchedSearch(
      config, mirrored_network, jit_compile=True, strategy=strategy))
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
    script = ('from tests.search import test_batched; '
              'test_batched.child_main()')
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
    self.assertRegex(result['xla_outside_scope_error'] or '',
                     r'jit_compile=True on 2 replicas needs the network '
                     r'built under strategy.scope\(\)')


if __name__ == '__main__':
  absltest.main()
