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
"""Tests for Gumbel MuZero's search on tensors (gumbel_search.py): its rules
and Sequential Halving by hand, the search against mctx.

The independent route is mctx's `gumbel_muzero_policy` on the JAX copy of
the same network (tests/search/gumbel_fixtures.py), given the same Gumbel
sample: in float64 on both sides the actions, visit counts and improved
policies must agree to 1e-5; in float32 (the library's network and XLA
against mctx's float32) the actions and visit counts still agree, and the
policies to 1e-4, sigma(q) amplifying float32 rounding (docs/gumbel.md).
Skipped without JAX and mctx (`pip install -e '.[test]'` installs them).
"""

import itertools

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt import networks
from muzero_snt.search import base
from muzero_snt.search import compiled_search
from muzero_snt.search import gumbel_search
from muzero_snt.search import tree as tree_lib
from tests import testing
from tests.search import gumbel_fixtures as fixtures

try:
  import jax  # pylint: disable=g-import-not-at-top
  import mctx  # pylint: disable=g-import-not-at-top
except ImportError:
  jax = mctx = None

parameterized = testing.parameterized
BATCH_SIZE = 8
# (players, simulations, considered actions m) of the conformance tests.
CASES = tuple(itertools.product((1, 2), (1, 2, 4, 16, 50), (2, 4, 16)))


def _network(config, seed: int = 0):
  tf.random.set_seed(seed)
  network = networks.make_network(config)
  network.create_variables()
  return network


def _search(config, network, observation, legal, gumbel, dtype, jit):
  """`gumbel_search` with XLA (`jit`), or eagerly: quicker than tracing."""
  def search(observation, to_play, legal, gumbel):
    return gumbel_search.gumbel_search(config, network, observation, to_play,
                                       legal, noise=gumbel, dtype=dtype)
  if jit:
    search = tf.function(search, jit_compile=True)
  return search(observation, np.zeros(len(legal), np.int32), legal, gumbel)


@absltest.skipIf(mctx is None, 'JAX and mctx are not installed.')
class MctxConformanceTest(testing.TestCase):

  @parameterized.parameters(*CASES)
  def test_float64_equals_mctx(self, num_players, num_simulations, m):
    config = fixtures.make_config(num_players, num_simulations, m)
    network = _network(config)
    observation, legal = fixtures.random_inputs(BATCH_SIZE, seed=m)
    with jax.enable_x64(True):
      expected = fixtures.mctx_policy(
          jax, mctx, config, network, observation.astype(np.float64), legal,
          seed=num_simulations, float64=True)
    self.assertEqual(expected.gumbel.dtype, np.float64)
    output = _search(config, fixtures.Float64Model(network), observation,
                     legal, expected.gumbel, tf.float64, jit=False)
    self.assertAllEqual(output.action, expected.action)
    self.assertAllEqual(output.visit_counts, expected.visit_counts)
    self.assertAllClose(output.policy, expected.policy, rtol=0., atol=1e-5)
    self.assertAllEqual(output.finite, [True] * 3)

  @parameterized.parameters((1, 16, 4), (2, 50, 16), (2, 4, 2))
  def test_float32_network_under_xla_agrees_with_mctx(self, num_players,
                                                      num_simulations, m):
    config = fixtures.make_config(num_players, num_simulations, m)
    network = _network(config, seed=1)
    observation, legal = fixtures.random_inputs(BATCH_SIZE, seed=7)
    expected = fixtures.mctx_policy(jax, mctx, config, network, observation,
                                    legal, seed=3, float64=False)
    output = _search(config, network, observation, legal, expected.gumbel,
                     tf.float32, jit=True)
    self.assertAllEqual(output.action, expected.action)
    self.assertAllEqual(output.visit_counts, expected.visit_counts)
    self.assertAllClose(output.policy, expected.policy, rtol=0., atol=1e-4)

  @parameterized.parameters(1, 2)
  def test_compiled_search_without_noise_agrees_with_mctx(self,
                                                          num_players):
    # CompiledSearch: NumPy inputs (the mask made from rows of legal
    # actions), padding to a power of two, XLA; mctx with gumbel_scale 0.
    config = fixtures.make_config(num_players, 16, 4)
    network = _network(config, seed=2)
    observation, legal = fixtures.random_inputs(5, seed=4)
    expected = fixtures.mctx_policy(jax, mctx, config, network, observation,
                                    legal, seed=0, float64=False,
                                    gumbel_scale=0.)
    search = compiled_search.CompiledSearch(config, network)
    mask = base.legal_actions_to_mask(
        [np.flatnonzero(row) for row in legal], fixtures.NUM_ACTIONS)
    output = search(observation, [0] * 5, mask, np.random.default_rng(0),
                    add_noise=False)
    self.assertAllEqual(output.action, expected.action)
    self.assertAllEqual(output.visit_counts, expected.visit_counts)
    self.assertAllClose(output.policy, expected.policy, rtol=0., atol=1e-4)


class CompiledGumbelSearchTest(testing.TestCase):

  def test_muzero_policy_returns_no_action(self):
    config = fixtures.make_config(1, 4, 4).replace(search_policy='muzero')
    search = compiled_search.CompiledSearch(config, _network(config))
    observation, legal = fixtures.random_inputs(2, seed=0)
    output = search(observation, [0, 0], legal, np.random.default_rng(0))
    self.assertIsNone(output.action)

  def test_noise_draws_a_gumbel_sample_from_the_seed(self):
    # With one legal action in 4 considered and g drawn, the search can
    # only play the legal action; with all legal, two seeds that play
    # different first actions at 1 simulation show g is used.
    config = fixtures.make_config(1, 1, 4)
    search = compiled_search.CompiledSearch(config, _network(config))
    observation = np.zeros((64, fixtures.OBSERVATION_SIZE), np.float32)
    legal = np.ones((64, fixtures.NUM_ACTIONS), bool)
    output = search.search_with_seed(observation, [0] * 64, legal, [1, 2])
    # 64 positions with the same logits: the action is the argmax of
    # g + logits, which must vary with g across the batch.
    self.assertGreater(len(set(output.action.tolist())), 1)
    self.assertAllEqual(output.visit_counts[np.arange(64), output.action],
                        [1] * 64)
    quiet = search.search_with_seed(observation, [0] * 64, legal, [1, 2],
                                    add_noise=False)
    self.assertLen(set(quiet.action.tolist()), 1)


# The rules at one node: one node's numbers worked out by hand.
#
# The node has three actions, priors (0.5, 0.3, 0.2), visits (2, 1, 0),
# child value sums (1.0, 0.3, 0) and rewards (0.1, 0, 0); discount 0.5 and
# network value 0.2. One player: Q = (0.1 + 0.5 * 1.0 / 2, 0 + 0.5 * 0.3) =
# (0.35, 0.15). v_mix = (0.2 + 3 * (0.5 * 0.35 + 0.3 * 0.15) / 0.8) / 4 =
# 0.25625. Completed Q (0.35, 0.15, 0.25625), min-max normalised (1, 0,
# 0.53125), times (50 + 2) * 1: sigma = (52, 0, 27.625).
PRIOR = [0.5, 0.3, 0.2]
VISITS = [2., 1., 0.]


def _edges():
  """`[1, 3, 6]` the node's row of `Tree.edges`."""
  edges = np.zeros((1, 3, tree_lib.NUM_EDGE_STATISTICS), np.float64)
  edges[0, :, tree_lib.PRIOR] = PRIOR
  edges[0, :, tree_lib.VISIT_COUNT] = VISITS
  edges[0, :, tree_lib.VALUE_SUM] = [1.0, 0.3, 0.]
  edges[0, :, tree_lib.REWARD] = [0.1, 0., 0.]
  return tf.constant(edges)


def _config(num_players=1):
  return testing.tiny_mlp_config().replace(
      action_space_size=3, discount=0.5, num_players=num_players,
      gumbel_c_visit=50., gumbel_c_scale=1.)


class GumbelRulesTest(testing.TestCase):

  def test_child_q_one_and_two_players(self):
    self.assertAllClose(tree_lib.child_q(_config(1), _edges()),
                        [[0.35, 0.15, 0.]])
    # Two players: the child's value is the other player's: 0.1 - 0.25.
    self.assertAllClose(tree_lib.child_q(_config(2), _edges()),
                        [[-0.15, -0.15, 0.]])

  def test_mixed_value(self):
    value = gumbel_search.mixed_value(
        tf.constant([0.2], tf.float64), tf.constant([[0.35, 0.15, 9.]],
                                                    tf.float64),
        tf.constant([VISITS], tf.float64), tf.constant([PRIOR], tf.float64))
    self.assertAllClose(value, [0.25625])

  def test_mixed_value_without_visits_is_the_network_value(self):
    value = gumbel_search.mixed_value(
        tf.constant([0.7]), tf.zeros([1, 3]), tf.zeros([1, 3]),
        tf.constant([PRIOR]))
    self.assertAllClose(value, [0.7])

  def test_sigma_completed_q(self):
    sigma = gumbel_search.sigma_completed_q(_config(), _edges(),
                                           tf.constant([0.2], tf.float64))
    self.assertAllClose(sigma, [[52., 0., 27.625]])
    # c_scale multiplies: 0.1 as mctx's default value_scale.
    config = _config().replace(gumbel_c_scale=0.1)
    sigma = gumbel_search.sigma_completed_q(config, _edges(),
                                           tf.constant([0.2], tf.float64))
    self.assertAllClose(sigma, [[5.2, 0., 2.7625]])

  def test_sigma_of_equal_q_is_zero(self):
    # No visits: every completed Q is the network value; range 0.
    edges = _edges().numpy()
    edges[..., tree_lib.VISIT_COUNT] = 0.
    sigma = gumbel_search.sigma_completed_q(_config(), tf.constant(edges),
                                           tf.constant([0.2], tf.float64))
    self.assertAllClose(sigma, [[0., 0., 0.]])

  def test_root_scores_keep_the_considered_legal_actions(self):
    sigma = tf.constant([[52., 0., 27.625]], tf.float64)
    logits = tf.constant([[1., 2., 3.]], tf.float64)
    gumbel = tf.constant([[0., 1., -1.]], tf.float64)
    legal = tf.constant([[True, True, False]])
    visits = tf.constant([[1., 1., 0.]], tf.float64)
    scores = gumbel_search.root_scores(gumbel, logits, sigma, visits,
                                      tf.constant([1]), legal)
    # Logits less their legal maximum 2: g + logits + sigma = (51, 1).
    self.assertAllClose(scores, [[51., 1., -np.inf]])
    scores = gumbel_search.root_scores(gumbel, logits, sigma, visits,
                                      tf.constant([0]), legal)
    self.assertAllClose(scores, [[-np.inf, -np.inf, -np.inf]])

  def test_interior_scores(self):
    sigma = tf.constant([[52., 0., 27.625]], tf.float64)
    scores = gumbel_search.interior_scores(
        sigma, tf.constant([PRIOR], tf.float64),
        tf.constant([VISITS], tf.float64))
    logits = np.log(PRIOR) + [52., 0., 27.625]
    improved = np.exp(logits - logits.max())
    improved /= improved.sum()
    self.assertAllClose(scores, [improved - np.array(VISITS) / 4.])
    self.assertAllClose(scores, [[0.5, -0.25, 0.]], atol=1e-9)

  def test_improved_policy_is_zero_on_illegal_actions(self):
    policy = gumbel_search.improved_policy(
        tf.constant([[0., 5., np.log(2.)]], tf.float64),
        tf.constant([[1., 0., 1.]], tf.float64),
        tf.constant([[True, False, True]]))
    # exp(0 + 1) : exp(log 2 + 1) = 1 : 2.
    self.assertAllClose(policy, [[1 / 3, 0., 2 / 3]])


class ConsideredVisitsTest(testing.TestCase):

  @parameterized.parameters(
      # m = 4, n = 8: two phases; 8 // (2 * 4) = 1 visit each for 4
      # actions, then 8 // (2 * 2) = 2 visits each for the best 2.
      (4, 8, (0, 0, 0, 0, 1, 1, 2, 2)),
      # m = 4, n = 16: 2 visits each for 4 (8), then 4 each for 2 (8).
      (4, 16, (0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)),
      # m = 16, n = 4: the budget ends inside the first phase.
      (16, 4, (0, 0, 0, 0)),
      # m = 2, n = 5: one phase of floor(5 / 2) = 2 visits each, then the
      # two stay (never fewer than two) with 2 each again.
      (2, 5, (0, 0, 1, 1, 2)),
      # m = 3: ceil(log2 3) = 2 phases; 6 // (2 * 3) = 1, then 2 actions
      # with 6 // (2 * 2) = 1 visit each, then again.
      (3, 6, (0, 0, 0, 1, 1, 2)),
      # m = 1 (one legal action) and m = 0: the one action, every time.
      (1, 3, (0, 1, 2)),
      (0, 2, (0, 1)),
  )
  def test_schedule(self, m, n, expected):
    self.assertEqual(gumbel_search.considered_visits(m, n), expected)

  def test_table_rows_are_the_schedules_of_each_count(self):
    self.assertEqual(gumbel_search.visit_table(2, 3),
                     ((0, 1, 2), (0, 1, 2), (0, 0, 1)))

  @parameterized.parameters((-1, 4), (2, -1), (2.0, 4), (True, 4))
  def test_refuses_bad_arguments(self, m, n):
    with self.assertRaisesRegex(ValueError, 'must be an integer >= 0'):
      gumbel_search.considered_visits(m, n)



if __name__ == '__main__':
  absltest.main()
