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
"""Tests for the batched search (tree.py, batched.py) against the reference,
and for its pUCT scores and descent on hand-built trees.

The reference is `reference_search.search`, the pseudocode's search on
`Node`s. With noise off the batched search must visit exactly the same
actions. Two routes to the network's numbers are compared: TensorFlow's
kernels (the reference's `NetworkModel`) and XLA (`jit_compile=True`).
They differ in the last bits of float32, which the value decoding h^-1 of a
categorical head amplifies; so the root values of an XLA search are compared
with a reference whose network runs under XLA too (`fixtures.XlaModel`).
"""

import math

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt import presets
from muzero_snt import types
from muzero_snt.environments import tictactoe
from muzero_snt.search import base
from muzero_snt.search import batched
from muzero_snt.search import mcts
from muzero_snt.search import model as model_lib
from muzero_snt.search import reference_search
from muzero_snt.search import stateless_dirichlet
from muzero_snt.search import tree as tree_lib
from tests import testing
from tests.search import batched_fixtures as fixtures
from tests.search import oracle
from tests.search import tree_fixtures

parameterized = testing.parameterized
NUM_ACTIONS = tree_fixtures.NUM_ACTIONS
TWO_PLAYERS = tree_fixtures.TWO_PLAYERS
ONE_PLAYER = tree_fixtures.ONE_PLAYER
C1 = tree_fixtures.C1
C2 = tree_fixtures.C2
_config = tree_fixtures.make_config
_reference_tree = tree_fixtures.reference_tree
_by_players = tree_fixtures.by_players
INF = float('inf')


class ConformanceTest(testing.TestCase):

  @parameterized.parameters(*sorted(fixtures.CONFIGS))
  def test_float64_equals_reference(self, name):
    setup = fixtures.setup(name)
    reference = setup.tf_reference
    output = setup.batched(tf.float64, jit_compile=False)
    self.assertAllEqual(output.finite, [True, True, True])
    self.assertAllEqual(output.visit_counts, reference.visit_counts)
    self.assertAllEqual(output.visit_counts.numpy().sum(axis=1),
                        [setup.config.num_simulations] * fixtures.NUM_ROOTS)
    self.assertAllClose(output.policy, reference.policy, rtol=0., atol=1e-7)
    self.assertAllClose(output.root_value, reference.root_value, rtol=0.,
                        atol=1e-6)
    # The tree keeps the network's value of every node: the roots', and
    # each new node's from its parent's hidden state and the action into it.
    tree = output.tree
    self.assertAllClose(
        tree.raw_value[:, 0],
        setup.network.initial_inference(setup.observation).value, rtol=0.,
        atol=1e-6)
    parent, action = (x.numpy() for x in tree_fixtures.parent_action(tree))
    for b in range(2):
      recurrent = setup.network.recurrent_inference(
          tf.gather(tree.hidden_state[b], parent[b, 1:]), action[b, 1:])
      self.assertAllClose(tree.raw_value[b, 1:], recurrent.value, rtol=0.,
                          atol=1e-5)

  # XLA compiles take seconds: two configs that differ in every respect.
  @parameterized.product(name=('one_player_scalar', 'two_players_support'),
                         dtype=(tf.float64, tf.float32))
  def test_xla_equals_reference(self, name, dtype):
    setup = fixtures.setup(name)
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
  mask = base.legal_actions_to_mask(legal, 9)
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
    cls.network = fixtures.make_network(cls.config, seed=7)
    (cls.observation, cls.to_play, cls.legal,
     cls.mask) = _tictactoe_positions(16, seed=0)

  def _reference(self, model):
    return reference_search.search(
        self.config, model, self.observation, self.to_play, self.mask,
        np.random.default_rng(0), add_noise=False)

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
    reference = self._reference(fixtures.XlaModel(self.network))
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


class ExplorationNoiseTest(testing.TestCase):

  LEGAL = np.array([True, False, True, True, False, True, False, False, True])

  def test_gumbel_muzero_draws_gumbel_samples(self):
    # Gumbel(0): mean the Euler-Mascheroni constant 0.577216, variance
    # pi^2 / 6 = 1.644934, excess kurtosis 2.4. n = 40,000 draws: standard
    # errors sqrt(1.644934 / n) = 0.0064 for the mean and
    # sqrt(4.4 * 1.644934^2 / n) = 0.0173 for the variance; allow 5 of them.
    config = presets.make_tictactoe_config().replace(search_policy='gumbel')
    legal = tf.constant(np.tile(self.LEGAL, (4000, 1)))
    gumbel = batched.draw_noise(config, legal, tf.constant([5, 6]),
                                tf.float64).numpy()
    self.assertEqual(gumbel.shape, (4000, 9))
    self.assertAllClose(gumbel.mean(), 0.577216, rtol=0., atol=0.032)
    self.assertAllClose(gumbel.var(), math.pi**2 / 6, rtol=0., atol=0.087)
    # Every action gets a sample, legal or not (Gumbel-Top-m masks them).
    self.assertTrue(np.all(np.isfinite(gumbel)))

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
    noise = batched.draw_noise(config, tf.constant(legal), seed, tf.float64)
    self.assertAllEqual(noise, stateless_dirichlet.dirichlet_noise(
        0.3, tf.constant(legal), seed, tf.float64))
    noisy = batched.add_exploration_noise(config, tree, noise)
    # prior * (1 - f) + noise * f, prior the softmax over the legal actions.
    exp = np.where(legal, np.exp(logits), 0.)
    prior = exp / exp.sum(axis=1, keepdims=True)
    noise = noise.numpy()
    self.assertAllClose(noisy.prior[:, 0], prior * 0.75 + noise * 0.25,
                        rtol=0., atol=1e-12)
    self.assertTrue(np.all(noisy.prior.numpy()[:, 0][~legal] == 0.))
    self.assertAllEqual(noisy.prior[:, 1:], tree.prior[:, 1:])

  def test_search_with_noise_uses_the_mixed_priors(self):
    setup = fixtures.setup('two_players_scalar')
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
    noise = stateless_dirichlet.dirichlet_noise(
        config.root_dirichlet_alpha, tf.constant(legal), seed,
        tf.float64).numpy()
    frac = config.root_exploration_fraction
    self.assertAllClose(output.tree.prior[:, 0],
                        prior * (1 - frac) + noise * frac, rtol=0., atol=1e-6)
    visits = output.visit_counts.numpy()
    self.assertTrue(np.all(visits[~legal] == 0))
    self.assertAllEqual(visits.sum(axis=1), [config.num_simulations] * 8)


class InputChecksTest(testing.TestCase):
  """Inputs that would broadcast or search an illegal action are errors."""

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    cls.setup = fixtures.setup('two_players_scalar')  # 5 actions, 2 players.
    cls.config = cls.setup.config.replace(num_simulations=4)

  def _search(self, legal, to_play=(0, 1, 0, 1), network=None,
              signature=None):
    search = tf.function(
        lambda o, t, l: batched.batched_search(
            self.config, network or self.setup.network, o, t, l,
            add_noise=False), input_signature=signature)
    return search(self.setup.observation[:4],
                  tf.constant(to_play, tf.int32), tf.constant(legal))

  def test_static_shapes_that_would_broadcast_are_refused(self):
    # Before the check a [1, A] mask stood for every row, and a [B, 1] mask
    # for every action.
    with self.assertRaisesRegex(
        ValueError, r'same batch size, got shapes \(4, 6\), \(4,\) and '
        r'\(1, 5\)'):
      self._search(np.ones((1, 5), bool))
    with self.assertRaisesRegex(ValueError, r'legal_actions_mask must be a '
                                r'\[B, 5\] bool mask, got shape \(4, 1\)'):
      self._search(np.ones((4, 1), bool))

  def test_dynamic_shapes_and_values_are_asserted(self):
    signature = [tf.TensorSpec([None, 6], tf.float32),
                 tf.TensorSpec([None], tf.int32),
                 tf.TensorSpec([None, None], tf.bool)]
    with self.assertRaisesRegex(tf.errors.InvalidArgumentError,
                                r'legal_actions_mask must be a \[B, A\] '
                                r'mask'):
      self._search(np.ones((4, 1), bool), signature=signature)
    legal = np.ones((4, 5), bool)
    legal[2] = False  # Would search action 0, illegal.
    with self.assertRaisesRegex(tf.errors.InvalidArgumentError,
                                r'every position needs a legal action'):
      self._search(legal, signature=signature)
    with self.assertRaisesRegex(tf.errors.InvalidArgumentError,
                                r'to_play must be players in \[0, '
                                r'num_players\)'):
      self._search(np.ones((4, 5), bool), to_play=(0, 1, 2, 0))
    output = self._search(np.ones((4, 5), bool), signature=signature)
    self.assertAllEqual(output.visit_counts.numpy().sum(axis=1), [4] * 4)

  def test_a_network_of_another_action_space_is_refused(self):
    network = fixtures.make_network(
        self.config.replace(action_space_size=4), seed=0)
    with self.assertRaisesRegex(ValueError, r'policy logits of shape '
                                r'\(4, 4\); the config has 5 actions'):
      self._search(np.ones((4, 5), bool), network=network)


class UcbScoresTest(testing.TestCase):

  # Value part of an unvisited child, per `unvisited_q`, at (tree 0 root,
  # tree 1 root, tree 0 node 1, tree 1 node 1):
  # 'minimum': 0 everywhere.
  # 'zero': normalize(0): (0 + 1) / 2 = 0.5 in tree 0; 0 in tree 1 (max <=
  #   min: unnormalised).
  # 'parent': normalize(parent value): root of tree 0 (0.15 + 1) / 2 = 0.575,
  #   root of tree 1 0.5 (unnormalised), node 1 of tree 0 (-0.3 + 1) / 2 =
  #   0.35 (node 1's value is player 1's, the perspective of its Q), node 1
  #   of tree 1 0.5.
  @testing.parameterized.parameters(
      ('minimum', (0., 0., 0., 0.)),
      ('zero', (0.5, 0., 0.5, 0.)),
      ('parent', (0.575, 0.5, 0.35, 0.5)))
  def test_hand_built_scores(self, unvisited_q, unvisited):
    u_root0, u_root1, u_node0, u_node1 = unvisited
    expected_roots = [
        # Tree 0 root, N = 2. a0: prior part C2 / 3 * 0.6 = 0.478898; Q =
        # 0 + 0.9 * -(-0.3) = 0.27 (node 1's value is the opponent's),
        # normalised (0.27 + 1) / 2 = 0.635: 1.113898. a1 unvisited: C2 * 0.4
        # = 0.957796. a2 illegal: -inf.
        [C2 / 3 * 0.6 + 0.635, C2 * 0.4 + u_root0, -INF],
        # Tree 1 root, N = 1. a0: C1 / 2 * 0.5 = 0.377706 plus the
        # unnormalised Q 0.45: 0.827706. a1: C1 * 0.5 = 0.755413.
        [C1 / 2 * 0.5 + 0.45, C1 * 0.5 + u_root1, -INF],
    ]
    expected_nodes = [
        # Tree 0 node 1, N = 2. a1 visited: C2 / 2 * 0.7 = 0.838072; Q = 0.1
        # + 0.9 * -0.4 = -0.26, normalised 0.37: 1.208072. a0 and a2 are
        # unvisited: C2 * 0.1 = 0.239449, C2 * 0.2 = 0.478898. Action 2 is
        # illegal at the root only: here it has a finite score.
        [C2 * 0.1 + u_node0, C2 / 2 * 0.7 + 0.37, C2 * 0.2 + u_node0],
        # Tree 1 node 1, N = 1: C1 / 3 = 0.503609 for each unvisited child.
        [C1 / 3 + u_node1] * 3,
    ]
    trees = [TWO_PLAYERS, ONE_PLAYER]
    roots, nodes = _by_players(
        lambda config, tree: (
            batched.ucb_scores(config, tree, tf.constant([0, 0])),
            batched.ucb_scores(config, tree, tf.constant([1, 1]))),
        trees, unvisited_q)
    self.assertAllClose(roots, expected_roots, rtol=0., atol=1e-12)
    self.assertAllClose(nodes, expected_nodes, rtol=0., atol=1e-12)

    # The reference's ucb_score on the same trees built from Nodes.
    for b, t in enumerate(trees):
      config = _config(unvisited_q, num_players=t.num_players)
      reference, stats = _reference_tree(t)
      for scores, node in ((roots, reference[0]), (nodes, reference[1])):
        for a in range(NUM_ACTIONS):
          if a not in node.children:
            self.assertEqual(scores[b, a], -INF)
            continue
          self.assertAllClose(
              scores[b, a],
              mcts.ucb_score(config, node, node.children[a], stats),
              rtol=0., atol=1e-12)

  def test_float32_statistics(self):
    scores = _by_players(
        lambda config, tree: batched.ucb_scores(config, tree,
                                                 tf.constant([0, 0])),
        [TWO_PLAYERS, ONE_PLAYER], dtype=tf.float32)
    self.assertEqual(scores.dtype, tf.float32)
    self.assertAllClose(scores, [[C2 / 3 * 0.6 + 0.635, C2 * 0.4, -INF],
                                 [C1 / 2 * 0.5 + 0.45, C1 * 0.5, -INF]],
                        rtol=1e-6, atol=0.)


class SelectLeavesTest(testing.TestCase):

  # The scores of UcbScoresTest (value parts there):
  # 'minimum': tree 0 root a0 1.113898 > a1 0.957796: to node 1; there a1
  #   1.208072 > a2 0.478898 > a0: to node 2, a leaf whose children are all
  #   unvisited, priors 0.4, 0.4, 0.2 -> C1 * 0.4 twice: the tie goes to a0.
  #   Tree 1 root a0 0.827706 > a1 0.755413: to node 1, three equal scores
  #   C1 / 3: a0.
  # 'zero': tree 0 root a1 0.957796 + 0.5 = 1.457796 > a0 1.113898: the leaf
  #   is the root's a1. Tree 1 as with 'minimum' (its normalize(0) is 0).
  # 'parent': tree 0 root a1 1.532796 wins; tree 1 root a1 0.755413 + 0.5 =
  #   1.255413 > a0 0.827706.
  @testing.parameterized.parameters(
      ('minimum', [2, 1], [0, 0]),
      ('zero', [0, 1], [1, 0]),
      ('parent', [0, 0], [1, 1]))
  def test_descends_to_the_predicted_leaf(self, unvisited_q, parent, action):
    leaf_parent, leaf_action = _by_players(
        lambda config, tree: tree_fixtures.edge_parent_action(
            tree, batched.select_leaves(config, tree)),
        [TWO_PLAYERS, ONE_PLAYER], unvisited_q)
    self.assertAllEqual(leaf_parent, parent)
    self.assertAllEqual(leaf_action, action)

    # The reference's descent (`select_child` while expanded) agrees.
    for b, t in enumerate([TWO_PLAYERS, ONE_PLAYER]):
      config = _config(unvisited_q, num_players=t.num_players)
      nodes, stats = _reference_tree(t)
      index = {id(node): i for i, node in enumerate(nodes)}
      node = nodes[0]
      while node.expanded():
        last = node
        chosen, node = mcts.select_child(config, node, stats)
      self.assertEqual((index[id(last)], chosen), (parent[b], action[b]))

  def test_under_xla(self):
    select = tf.function(
        lambda config, tree: tree_fixtures.edge_parent_action(
            tree, batched.select_leaves(config, tree)),
        jit_compile=True)
    leaf_parent, leaf_action = _by_players(select, [TWO_PLAYERS, ONE_PLAYER])
    self.assertAllEqual(leaf_parent, [2, 1])
    self.assertAllEqual(leaf_action, [0, 0])


if __name__ == '__main__':
  absltest.main()
