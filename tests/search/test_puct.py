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
"""Tests for muzero_snt.search.puct: pUCT scores and descent on hand-built
trees, against the reference's `ucb_score` and `select_child`."""

import tensorflow as tf
from absl.testing import absltest

from muzero_snt.search import mcts
from muzero_snt.search import puct
from muzero_snt.search import tree as tree_lib
from tests import testing
from tests.search import tree_fixtures

INF = float('inf')
NUM_ACTIONS = tree_fixtures.NUM_ACTIONS
TWO_PLAYERS = tree_fixtures.TWO_PLAYERS
ONE_PLAYER = tree_fixtures.ONE_PLAYER
C1 = tree_fixtures.C1
C2 = tree_fixtures.C2
_config = tree_fixtures.make_config
_reference_tree = tree_fixtures.reference_tree
_by_players = tree_fixtures.by_players


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
            puct.ucb_scores(config, tree, tf.constant([0, 0])),
            puct.ucb_scores(config, tree, tf.constant([1, 1]))),
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
        lambda config, tree: puct.ucb_scores(config, tree,
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
        lambda config, tree: tree_lib.edge_parent_action(
            tree, puct.select_leaves(config, tree)),
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
        lambda config, tree: tree_lib.edge_parent_action(
            tree, puct.select_leaves(config, tree)),
        jit_compile=True)
    leaf_parent, leaf_action = _by_players(select, [TWO_PLAYERS, ONE_PLAYER])
    self.assertAllEqual(leaf_parent, [2, 1])
    self.assertAllEqual(leaf_action, [0, 0])



if __name__ == '__main__':
  absltest.main()
