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
"""Tests for muzero_snt.search.tree: expansion and backup, hand-built trees."""

import math

import numpy as np
import tensorflow as tf
from absl.testing import absltest

from muzero_snt.search import mcts
from muzero_snt.search import tree as tree_lib
from tests import testing
from tests.search import tree_fixtures

NO_PARENT = tree_lib.NO_PARENT
UNEXPANDED = tree_lib.UNEXPANDED
INF = float('inf')
NUM_ACTIONS = tree_fixtures.NUM_ACTIONS
_N = tree_fixtures.N
_T = tree_fixtures.T
_config = tree_fixtures.make_config
_make_tree = tree_fixtures.make_tree
_node_statistics = tree_fixtures.node_statistics
_reference_tree = tree_fixtures.reference_tree
_by_players = tree_fixtures.by_players


class FirstArgmaxTest(testing.TestCase):

  def test_ties_go_to_the_lowest_index(self):
    scores = tf.constant([[1., 3., 3., 0.],
                          [2., 2., 2., 2.],
                          [-INF, 5., -INF, 5.],
                          [0., -1., -INF, -INF],
                          [-INF, -INF, -INF, 7.]])
    self.assertAllEqual(tree_lib.first_argmax(scores), [1, 0, 1, 0, 3])

  def test_under_xla(self):
    scores = tf.constant([[4., 4., 9., 9., 1.], [0., 0., 0., 0., 0.]])
    first = tf.function(tree_lib.first_argmax, jit_compile=True)(scores)
    self.assertAllEqual(first, [2, 0])

  def test_a_row_of_nan_gives_a_valid_index(self):
    # A diverged network makes every score NaN; the search must still index
    # its children with an action in [0, A) until the caller reports it.
    scores = tf.constant([[math.nan] * 3, [1., math.nan, 2.]])
    first = tree_lib.first_argmax(scores).numpy()
    self.assertTrue(np.all((first >= 0) & (first < 3)), first)


class BackpropagateTest(testing.TestCase):

  def test_hand_built_paths(self):
    # Tree 0: a path root -> 1 -> 2 -> 3 with alternating players 0, 1, 0, 1
    # and rewards 1.0, 0.5, -1.0 for moving into nodes 1, 2, 3; node 3 is
    # the new leaf, of value 2.0 for its player 1. Node 4 is a sibling of 1
    # off the path. No known bounds. Discount 0.5.
    path = _T(
        nodes=(_N(NO_PARENT, NO_PARENT, 0, 3, 0.6),
               _N(0, 0, 1, 2, -0.4, reward=1.0),
               _N(1, 2, 0, 1, 0.3, reward=0.5),
               _N(2, 1, 1, 0, 0., reward=-1.0),
               _N(0, 1, 1, 1, 0.7, reward=0.2)),
        root_legal=(True, True, True),
        bounds=(INF, -INF),
        num_players=2)
    # Tree 1: one player, root -> 1 (reward 0.4), node 1 the new leaf of
    # value 1.0; known bounds [-1, 1].
    short = _T(
        nodes=(_N(NO_PARENT, NO_PARENT, 0, 4, 2.0),
               _N(0, 2, 0, 0, 0., reward=0.4)),
        root_legal=(True, True, True),
        bounds=(-1., 1.))
    tree = _make_tree([path, short])
    leaf_edge = tree_lib.edge_index(tree, tf.constant([2, 0]),
                                    tf.constant([1, 2]))
    after = _by_players(
        lambda config, tree: tree_lib.backpropagate(
            config, tree, leaf_edge, leaf=tf.constant([3, 1]),
            value=tf.constant([2., 1.], tf.float64),
            reward=tf.constant([-1.0, 0.4], tf.float64)),
        [path, short], discount=0.5)
    # Tree 0, G = 2.0 for player 1 at node 3:
    # node 3: value_sum 0 + 2 = 2, visits 1. Its parent plays 0:
    #   Q(2, 3) = -1 + 0.5 * -(2 / 1) = -2; G = -1 + 0.5 * -2 = -2.
    # node 2: value_sum 0.3 - 2 = -1.7, visits 2, value -0.85. Parent 1:
    #   Q(1, 2) = 0.5 + 0.5 * 0.85 = 0.925; G = 0.5 + 0.5 * 2 = 1.5.
    # node 1: value_sum -0.4 + 1.5 = 1.1, visits 3, value 1.1 / 3. Parent 0:
    #   Q(0, 1) = 1 + 0.5 * -(1.1 / 3) = 0.816667; G = 1 + 0.5 * -1.5 = 0.25.
    # root: value_sum 0.6 + 0.25 = 0.85, visits 4; no Q.
    # Bounds: min -2, max 0.925. Node 4 is untouched.
    # Tree 1, G = 1.0 at node 1: value_sum 1, visits 1; Q(0, 1) = 0.4 + 0.5 *
    # 1 = 0.9 stays inside [-1, 1]; G = 0.9; root 2.0 + 0.9 = 2.9, visits 5.
    visits, value_sum = _node_statistics(after)
    self.assertAllClose(value_sum, [[0.85, 1.1, -1.7, 2.0, 0.7],
                                    [2.9, 1.0, 0., 0., 0.]],
                        rtol=0., atol=1e-12)
    self.assertAllEqual(visits, [[4, 3, 2, 1, 1], [5, 1, 0, 0, 0]])
    self.assertAllClose(after.min_q, [-2., -1.], rtol=0., atol=1e-12)
    self.assertAllClose(after.max_q, [0.925, 1.], rtol=0., atol=1e-12)
    # The edge into each leaf is linked on this first visit, with its reward.
    self.assertAllEqual(tree.children[0, 2], [-1, -1, -1])
    self.assertAllEqual(after.children[0, 2], [-1, 3, -1])
    self.assertAllEqual(after.children[1, 0], [-1, -1, 1])
    self.assertAllEqual([after.edges[0, 2, 1, tree_lib.REWARD],
                         after.edges[1, 0, 2, tree_lib.REWARD]], [-1.0, 0.4])
    for field in ('to_play', 'prior', 'hidden_state', 'raw_value'):
      self.assertAllEqual(getattr(after, field), getattr(tree, field))
    self.assertAllEqual(tree_fixtures.parent_action(after),
                        tree_fixtures.parent_action(tree))

    # The reference's backpropagate on the same path, from Nodes.
    nodes, stats = _reference_tree(path)
    mcts.backpropagate([nodes[0], nodes[1], nodes[2], nodes[3]], 2.0, 0.5,
                       stats)
    self.assertAllClose(value_sum[0, :4], [n.value_sum for n in nodes[:4]],
                        rtol=0., atol=1e-12)
    self.assertAllEqual(visits[0, :4], [n.visit_count for n in nodes[:4]])
    self.assertAllClose([after.min_q[0], after.max_q[0]],
                        [stats.minimum, stats.maximum], rtol=0., atol=1e-12)


class ExpandTest(testing.TestCase):

  @testing.parameterized.parameters((2, [1, 0]), (1, [0, 0]))
  def test_links_the_new_node(self, num_players, new_to_play):
    # Two trees with nodes 0 and 1; node 2 is created below node 0 of tree
    # 0 (player 0) by action 1 and below node 1 of tree 1 (player 1 in the
    # two-player game, 0 in the one-player one) by action 2.
    old_players = ([0, 1], [0, 1]) if num_players == 2 else ([0, 0], [0, 0])
    trees = [
        _T(nodes=(_N(NO_PARENT, NO_PARENT, old_players[b][0], 1, 0.),
                  _N(0, 0, old_players[b][1], 1, 0.),
                  _N(NO_PARENT, NO_PARENT, 0, 0, 0.)),
           root_legal=(True, True, True), bounds=(-1., 1.))
        for b in range(2)
    ]
    tree = _make_tree(trees)
    # The placeholder node 2 must not be linked before the expansion.
    unlinked = [[1, -1, -1], [-1, -1, -1], [-1, -1, -1]]
    self.assertAllEqual(tree.children, [unlinked, unlinked])
    hidden = tf.constant([[5.], [6.]])
    # Logits 0, log 2, log 5: priors 1/8, 2/8, 5/8. Shifted by 3 in tree 1:
    # the same priors (softmax ignores a constant).
    logits = tf.constant([[0., math.log(2.), math.log(5.)],
                          [3., 3. + math.log(2.), 3. + math.log(5.)]],
                         tf.float64)
    leaf_edge = tree_lib.edge_index(tree, tf.constant([0, 1]),
                                    tf.constant([1, 2]))
    self.assertAllEqual(tree_fixtures.edge_parent_action(tree, leaf_edge),
                        [[0, 1], [1, 2]])
    after = tree_lib.expand(
        tree, tf.constant(2), leaf_edge, policy_logits=logits,
        hidden_state=hidden, value=tf.constant([0.5, -0.75]),
        num_players=num_players)
    parent, action = tree_fixtures.parent_action(after)
    self.assertAllEqual(parent[:, 2], [0, 1])
    self.assertAllEqual(action[:, 2], [1, 2])
    self.assertAllEqual(after.to_play[:, 2], new_to_play)
    self.assertAllClose(after.prior[:, 2], [[1 / 8, 2 / 8, 5 / 8]] * 2,
                        rtol=0., atol=1e-12)
    self.assertAllEqual(after.children[:, 2], np.full((2, 3), UNEXPANDED))
    self.assertAllEqual(after.hidden_state[:, 2], [[5.], [6.]])
    self.assertAllEqual(after.raw_value[:, 2], [0.5, -0.75])
    # Nothing else changes; the statistics and the link from the parent
    # wait for the backup.
    self.assertAllEqual(after.edges[:, :2], tree.edges[:, :2])
    self.assertAllEqual(after.raw_value[:, :2], tree.raw_value[:, :2])
    self.assertAllEqual(after.tree_stats, tree.tree_stats)

    # The backup's first visit links the edge and stores its reward.
    linked = tree_lib.backpropagate(
        _config(num_players=num_players), after, leaf_edge,
        leaf=tf.constant(2),
        value=tf.zeros([2], tf.float64),
        reward=tf.constant([0.25, -0.5], tf.float64))
    self.assertAllEqual(linked.children[0, 0], [1, 2, -1])
    self.assertAllEqual(linked.children[1, 1], [-1, -1, 2])
    self.assertAllEqual([linked.edges[0, 0, 1, tree_lib.REWARD],
                         linked.edges[1, 1, 2, tree_lib.REWARD]], [0.25, -0.5])


class InitTreeTest(testing.TestCase):

  def test_root_expanded_over_legal_actions(self):
    legal = tf.constant([[True, False, True], [False, True, False]])
    # Tree 0: logits 0, 9, log 3 over legal {0, 2}: priors 1/4, 0, 3/4 (the
    # illegal logit 9 plays no part). Tree 1: one legal action: prior 1.
    logits = tf.constant([[0., 9., math.log(3.)], [1., 2., 3.]], tf.float64)
    tree = tree_lib.init_tree(
        num_nodes=4, num_actions=NUM_ACTIONS, value=tf.constant([0.5, -1.]),
        policy_logits=logits, hidden_state=tf.constant([[1., 2.], [3., 4.]]),
        to_play=tf.constant([1, 0]), legal=legal, known_bounds=None,
        dtype=tf.float64)
    self.assertAllClose(tree.prior[:, 0], [[0.25, 0., 0.75], [0., 1., 0.]],
                        rtol=0., atol=1e-12)
    self.assertAllEqual(tree.prior[:, 1:], np.zeros((2, 3, 3)))
    self.assertAllEqual(tree.to_play[:, 0], [1, 0])
    self.assertAllEqual(tree.hidden_state[:, 0], [[1., 2.], [3., 4.]])
    # The network's value of the root is kept; no node has a value yet.
    self.assertAllEqual(tree.raw_value, [[0.5, 0., 0., 0.], [-1., 0., 0., 0.]])
    self.assertEqual(tree.raw_value.dtype, tf.float64)
    self.assertAllEqual(tree.children, np.full((2, 4, 3), UNEXPANDED))
    self.assertAllEqual(tree.edges[..., tree_lib.VISIT_COUNT],
                        np.zeros((2, 4, 3)))
    self.assertAllEqual(tree.root_visit_count, [0, 0])
    self.assertAllEqual(tree_fixtures.parent_action(tree)[0],
                        np.full((2, 4), NO_PARENT))
    # No known bounds: empty (min +inf, max -inf), as a fresh MinMaxStats.
    self.assertAllEqual(tree.min_q, [INF, INF])
    self.assertAllEqual(tree.max_q, [-INF, -INF])


if __name__ == '__main__':
  absltest.main()
