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
"""Tests for muzero_snt.search.tree: the search rules on hand-built trees."""

import math
from typing import NamedTuple, Sequence, Tuple

import numpy as np
import tensorflow as tf
from absl.testing import absltest

from muzero_snt.search import mcts
from muzero_snt.search import min_max_stats as min_max_stats_lib
from muzero_snt.search import node as node_lib
from muzero_snt.search import tree as tree_lib
from tests import testing

Node = node_lib.Node
NO_PARENT = tree_lib.NO_PARENT
UNEXPANDED = tree_lib.UNEXPANDED
INF = float('inf')
NUM_ACTIONS = 3


def _config(unvisited_q: str = 'minimum', discount: float = 0.9,
            num_players: int = 1):
  # pb_c_base 3 and pb_c_init 1 make the prior part easy to write down:
  # with N parent visits it is (log((N + 4) / 3) + 1) * sqrt(N) / (n + 1) * P.
  return testing.tiny_mlp_config(
      action_space_size=NUM_ACTIONS, pb_c_base=3, pb_c_init=1.,
      discount=discount, unvisited_q=unvisited_q, num_players=num_players)


class _N(NamedTuple):
  """One hand-built node: where it hangs and its statistics."""
  parent: int
  action: int
  to_play: int
  visits: int
  value_sum: float
  reward: float = 0.
  prior: Sequence[float] = (0., 0., 0.)


class _T(NamedTuple):
  """One hand-built tree: its nodes (node 0 the root) and Q bounds.

  In a two-player tree the players alternate at every level, as the search
  builds them: the sign convention comes from `config.num_players`.
  """
  nodes: Sequence[_N]
  root_legal: Sequence[bool]
  bounds: Tuple[float, float]  # (min_q, max_q)
  num_players: int = 1


def _make_tree(trees: Sequence[_T], dtype=tf.float64) -> tree_lib.Tree:
  """A `Tree` batch from hand-built trees.

  Every node that hangs from a parent gets its row (priors, the edge into
  it); a visited one is also linked from its parent's edge, which holds its
  statistics. An unvisited node is the new leaf of a backup: its edge is
  linked by `backpropagate`, which gets its reward.
  """
  batch_size = len(trees)
  num_nodes = max(len(t.nodes) for t in trees)
  shape = (batch_size, num_nodes)
  edges = np.zeros(shape + (NUM_ACTIONS, tree_lib.NUM_EDGE_STATISTICS))
  edges[..., tree_lib.CHILD] = UNEXPANDED
  edges[..., tree_lib.IN_EDGE] = NO_PARENT
  to_play = np.zeros(shape, np.int32)
  tree_stats = np.zeros((batch_size, 4))
  for b, t in enumerate(trees):
    tree_stats[b, tree_lib.MIN_Q], tree_stats[b, tree_lib.MAX_Q] = t.bounds
    for i, n in enumerate(t.nodes):
      to_play[b, i] = n.to_play
      edges[b, i, :, tree_lib.PRIOR] = n.prior
      if i == 0:
        tree_stats[b, tree_lib.ROOT_VISIT_COUNT] = n.visits
        tree_stats[b, tree_lib.ROOT_VALUE_SUM] = n.value_sum
      if n.parent == NO_PARENT:
        continue
      edges[b, i, :, tree_lib.IN_EDGE] = n.parent * NUM_ACTIONS + n.action
      if n.visits:
        edge = edges[b, n.parent, n.action]
        edge[tree_lib.VISIT_COUNT] = n.visits
        edge[tree_lib.VALUE_SUM] = n.value_sum
        edge[tree_lib.REWARD] = n.reward
        edge[tree_lib.CHILD] = i
  return tree_lib.Tree(
      edges=tf.constant(edges, dtype),
      to_play=tf.constant(to_play),
      hidden_state=tf.zeros(shape + (1,)),
      tree_stats=tf.constant(tree_stats, dtype),
      root_legal=tf.constant([t.root_legal for t in trees]))


def _node_statistics(tree: tree_lib.Tree) -> Tuple[np.ndarray, np.ndarray]:
  """`[B, N]` visit counts and value sums of every node, read where the
  search keeps them: the root's in `tree_stats`, the others' on the edge
  into them (0 for a node that hangs nowhere)."""
  edges = tree.edges.numpy()
  parent, action = tree.parent.numpy(), tree.action.numpy()
  visits = np.zeros(parent.shape)
  value_sum = np.zeros(parent.shape)
  visits[:, 0] = tree.root_visit_count.numpy()
  value_sum[:, 0] = tree.root_value_sum.numpy()
  for b, i in zip(*np.nonzero(parent != NO_PARENT)):
    edge = edges[b, parent[b, i], action[b, i]]
    visits[b, i] = edge[tree_lib.VISIT_COUNT]
    value_sum[b, i] = edge[tree_lib.VALUE_SUM]
  return visits, value_sum


def _reference_tree(t: _T):
  """The same tree as `mcts.Node`s, as `policy.search` would have built it.

  Every node of `t` is expanded: the root over its legal actions, the others
  over every action, each child a `Node` with its prior (visited or not).

  Returns:
    (nodes, stats): `nodes[i]` the `Node` of hand-built node i, and the
    tree's `MinMaxStats`.
  """
  nodes = []
  for i, n in enumerate(t.nodes):
    if i == 0:
      node = Node(0.)
    else:
      node = nodes[n.parent].children[n.action]
    node.to_play = n.to_play
    node.visit_count = n.visits
    node.value_sum = n.value_sum
    node.reward = n.reward
    actions = [a for a in range(NUM_ACTIONS) if i or t.root_legal[a]]
    node.children = {a: Node(n.prior[a]) for a in actions}
    nodes.append(node)
  stats = min_max_stats_lib.MinMaxStats(None)
  stats.minimum, stats.maximum = t.bounds
  return nodes, stats


def _by_players(fn, trees: Sequence[_T], unvisited_q: str = 'minimum',
                dtype=tf.float64, **changes):
  """`fn(config, tree)` on the batch of hand-built trees, once per number of
  players among them; each tree's rows from the run with its own number."""
  tree = _make_tree(trees, dtype)
  runs = {p: fn(_config(unvisited_q, num_players=p, **changes), tree)
          for p in {t.num_players for t in trees}}
  rows = [tf.nest.map_structure(lambda x, b=b: x[b], runs[t.num_players])
          for b, t in enumerate(trees)]
  return tf.nest.map_structure(lambda *x: tf.stack(x), *rows)


# Two trees over three actions, for `ucb_scores` and `select_leaves`.
#
# Tree 0: two players, known bounds [-1, 1]. The root (player 0, 2 visits,
# value 0.3 / 2 = 0.15) has visited a0 (node 1), not a1, and a2 is illegal.
# Node 1 (player 1, 2 visits, value -0.6 / 2 = -0.3) has visited a1 (node 2,
# player 0, 1 visit, value 0.4, reward 0.1).
TWO_PLAYERS = _T(
    nodes=(_N(NO_PARENT, NO_PARENT, 0, 2, 0.3, prior=(0.6, 0.4, 0.)),
           _N(0, 0, 1, 2, -0.6, reward=0., prior=(0.1, 0.7, 0.2)),
           _N(1, 1, 0, 1, 0.4, reward=0.1, prior=(0.4, 0.4, 0.2))),
    root_legal=(True, True, False),
    bounds=(-1., 1.),
    num_players=2)
# Tree 1: one player, no known bounds. The root (1 visit, value 0.5) has
# visited a0 (node 1, 1 visit, value 0.5, reward 0); a2 is illegal. The only
# Q seen is Q(root, a0) = 0 + 0.9 * 0.5 = 0.45, so max <= min and Q is not
# normalised.
ONE_PLAYER = _T(
    nodes=(_N(NO_PARENT, NO_PARENT, 0, 1, 0.5, prior=(0.5, 0.5, 0.)),
           _N(0, 0, 0, 1, 0.5, reward=0., prior=(1 / 3, 1 / 3, 1 / 3))),
    root_legal=(True, True, False),
    bounds=(0.45, 0.45))

# Prior parts: (log((N + 4) / 3) + 1) * sqrt(N) / (n + 1) * P.
C2 = (math.log(6 / 3) + 1) * math.sqrt(2)  # N = 2: 1.693147 * 1.414214
C1 = math.log(5 / 3) + 1  # N = 1: 1.510826


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
            tree_lib.ucb_scores(config, tree, tf.constant([0, 0])),
            tree_lib.ucb_scores(config, tree, tf.constant([1, 1]))),
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
        lambda config, tree: tree_lib.ucb_scores(config, tree,
                                                 tf.constant([0, 0])),
        [TWO_PLAYERS, ONE_PLAYER], dtype=tf.float32)
    self.assertEqual(scores.dtype, tf.float32)
    self.assertAllClose(scores, [[C2 / 3 * 0.6 + 0.635, C2 * 0.4, -INF],
                                 [C1 / 2 * 0.5 + 0.45, C1 * 0.5, -INF]],
                        rtol=1e-6, atol=0.)


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
    for field in ('to_play', 'parent', 'action', 'prior', 'hidden_state'):
      self.assertAllEqual(getattr(after, field), getattr(tree, field))

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
    self.assertAllEqual(tree_lib.edge_parent_action(tree, leaf_edge),
                        [[0, 1], [1, 2]])
    after = tree_lib.expand(
        tree, tf.constant(2), leaf_edge, policy_logits=logits,
        hidden_state=hidden, num_players=num_players)
    self.assertAllEqual(after.parent[:, 2], [0, 1])
    self.assertAllEqual(after.action[:, 2], [1, 2])
    self.assertAllEqual(after.to_play[:, 2], new_to_play)
    self.assertAllClose(after.prior[:, 2], [[1 / 8, 2 / 8, 5 / 8]] * 2,
                        rtol=0., atol=1e-12)
    self.assertAllEqual(after.children[:, 2], np.full((2, 3), UNEXPANDED))
    self.assertAllEqual(after.hidden_state[:, 2], [[5.], [6.]])
    # Nothing else changes; the statistics and the link from the parent
    # wait for the backup.
    self.assertAllEqual(after.edges[:, :2], tree.edges[:, :2])
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
            tree, tree_lib.select_leaves(config, tree)),
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
            tree, tree_lib.select_leaves(config, tree)),
        jit_compile=True)
    leaf_parent, leaf_action = _by_players(select, [TWO_PLAYERS, ONE_PLAYER])
    self.assertAllEqual(leaf_parent, [2, 1])
    self.assertAllEqual(leaf_action, [0, 0])


class InitTreeTest(testing.TestCase):

  def test_root_expanded_over_legal_actions(self):
    legal = tf.constant([[True, False, True], [False, True, False]])
    # Tree 0: logits 0, 9, log 3 over legal {0, 2}: priors 1/4, 0, 3/4 (the
    # illegal logit 9 plays no part). Tree 1: one legal action: prior 1.
    logits = tf.constant([[0., 9., math.log(3.)], [1., 2., 3.]], tf.float64)
    tree = tree_lib.init_tree(
        num_nodes=4, num_actions=NUM_ACTIONS, value=tf.zeros([2]),
        policy_logits=logits, hidden_state=tf.constant([[1., 2.], [3., 4.]]),
        to_play=tf.constant([1, 0]), legal=legal, known_bounds=None,
        dtype=tf.float64)
    self.assertAllClose(tree.prior[:, 0], [[0.25, 0., 0.75], [0., 1., 0.]],
                        rtol=0., atol=1e-12)
    self.assertAllEqual(tree.prior[:, 1:], np.zeros((2, 3, 3)))
    self.assertAllEqual(tree.to_play[:, 0], [1, 0])
    self.assertAllEqual(tree.hidden_state[:, 0], [[1., 2.], [3., 4.]])
    self.assertAllEqual(tree.children, np.full((2, 4, 3), UNEXPANDED))
    self.assertAllEqual(tree.edges[..., tree_lib.VISIT_COUNT],
                        np.zeros((2, 4, 3)))
    self.assertAllEqual(tree.root_visit_count, [0, 0])
    self.assertAllEqual(tree.parent, np.full((2, 4), NO_PARENT))
    # No known bounds: empty (min +inf, max -inf), as a fresh MinMaxStats.
    self.assertAllEqual(tree.min_q, [INF, INF])
    self.assertAllEqual(tree.max_q, [-INF, -INF])


if __name__ == '__main__':
  absltest.main()
