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
"""Hand-built search trees, and the same trees as the reference's `Node`s."""

import math
from typing import NamedTuple, Sequence, Tuple

import numpy as np
import tensorflow as tf

from muzero_snt.search import mcts
from muzero_snt.search import tree as tree_lib
from tests import testing

Node = mcts.Node
NO_PARENT = tree_lib.NO_PARENT
UNEXPANDED = tree_lib.UNEXPANDED
INF = float('inf')
NUM_ACTIONS = 3


def make_config(unvisited_q: str = 'minimum', discount: float = 0.9,
                num_players: int = 1):
  # pb_c_base 3 and pb_c_init 1 make the prior part easy to write down:
  # with N parent visits it is (log((N + 4) / 3) + 1) * sqrt(N) / (n + 1) * P.
  return testing.tiny_mlp_config(
      action_space_size=NUM_ACTIONS, pb_c_base=3, pb_c_init=1.,
      discount=discount, unvisited_q=unvisited_q, num_players=num_players)


class N(NamedTuple):
  """One hand-built node: where it hangs and its statistics."""
  parent: int
  action: int
  to_play: int
  visits: int
  value_sum: float
  reward: float = 0.
  prior: Sequence[float] = (0., 0., 0.)


class T(NamedTuple):
  """One hand-built tree: its nodes (node 0 the root) and Q bounds.

  In a two-player tree the players alternate at every level, as the search
  builds them: the sign convention comes from `config.num_players`.
  """
  nodes: Sequence[N]
  root_legal: Sequence[bool]
  bounds: Tuple[float, float]  # (min_q, max_q)
  num_players: int = 1


def make_tree(trees: Sequence[T], dtype=tf.float64) -> tree_lib.Tree:
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
      raw_value=tf.zeros(shape, dtype),
      tree_stats=tf.constant(tree_stats, dtype),
      root_legal=tf.constant([t.root_legal for t in trees]))


def edge_parent_action(tree: tree_lib.Tree, edges: tf.Tensor):
  """`(node, action)` int32 of flat edge indices, the node within its tree."""
  num_nodes, num_actions = tf.shape(tree.edges)[1], tf.shape(tree.edges)[2]
  return edges // num_actions % num_nodes, edges % num_actions


def parent_action(tree: tree_lib.Tree):
  """`[B, N]` int32 each node's parent and the action into it, read from its
  in-edge (`NO_PARENT` for roots and unexpanded nodes)."""
  in_edge = tf.cast(tree.edges[:, :, 0, tree_lib.IN_EDGE], tf.int32)
  num_actions = tf.shape(tree.edges)[2]
  return (tf.where(in_edge < 0, NO_PARENT, in_edge // num_actions),
          tf.where(in_edge < 0, NO_PARENT, in_edge % num_actions))


def node_statistics(tree: tree_lib.Tree) -> Tuple[np.ndarray, np.ndarray]:
  """`[B, N]` visit counts and value sums of every node, read where the
  search keeps them: the root's in `tree_stats`, the others' on the edge
  into them (0 for a node that hangs nowhere)."""
  edges = tree.edges.numpy()
  parent, action = (x.numpy() for x in parent_action(tree))
  visits = np.zeros(parent.shape)
  value_sum = np.zeros(parent.shape)
  visits[:, 0] = tree.root_visit_count.numpy()
  value_sum[:, 0] = tree.root_value_sum.numpy()
  for b, i in zip(*np.nonzero(parent != NO_PARENT)):
    edge = edges[b, parent[b, i], action[b, i]]
    visits[b, i] = edge[tree_lib.VISIT_COUNT]
    value_sum[b, i] = edge[tree_lib.VALUE_SUM]
  return visits, value_sum


def reference_tree(t: T):
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
  stats = mcts.MinMaxStats(None)
  stats.minimum, stats.maximum = t.bounds
  return nodes, stats


def by_players(fn, trees: Sequence[T], unvisited_q: str = 'minimum',
               dtype=tf.float64, **changes):
  """`fn(config, tree)` on the batch of hand-built trees, once per number of
  players among them; each tree's rows from the run with its own number."""
  tree = make_tree(trees, dtype)
  runs = {p: fn(make_config(unvisited_q, num_players=p, **changes), tree)
          for p in {t.num_players for t in trees}}
  rows = [tf.nest.map_structure(lambda x, b=b: x[b], runs[t.num_players])
          for b, t in enumerate(trees)]
  return tf.nest.map_structure(lambda *x: tf.stack(x), *rows)


# Two trees over three actions, for `batched.ucb_scores` and
# `batched.select_leaves`.
#
# Tree 0: two players, known bounds [-1, 1]. The root (player 0, 2 visits,
# value 0.3 / 2 = 0.15) has visited a0 (node 1), not a1, and a2 is illegal.
# Node 1 (player 1, 2 visits, value -0.6 / 2 = -0.3) has visited a1 (node 2,
# player 0, 1 visit, value 0.4, reward 0.1).
TWO_PLAYERS = T(
    nodes=(N(NO_PARENT, NO_PARENT, 0, 2, 0.3, prior=(0.6, 0.4, 0.)),
           N(0, 0, 1, 2, -0.6, reward=0., prior=(0.1, 0.7, 0.2)),
           N(1, 1, 0, 1, 0.4, reward=0.1, prior=(0.4, 0.4, 0.2))),
    root_legal=(True, True, False),
    bounds=(-1., 1.),
    num_players=2)
# Tree 1: one player, no known bounds. The root (1 visit, value 0.5) has
# visited a0 (node 1, 1 visit, value 0.5, reward 0); a2 is illegal. The only
# Q seen is Q(root, a0) = 0 + 0.9 * 0.5 = 0.45, so max <= min and Q is not
# normalised.
ONE_PLAYER = T(
    nodes=(N(NO_PARENT, NO_PARENT, 0, 1, 0.5, prior=(0.5, 0.5, 0.)),
           N(0, 0, 0, 1, 0.5, reward=0., prior=(1 / 3, 1 / 3, 1 / 3))),
    root_legal=(True, True, False),
    bounds=(0.45, 0.45))

# Prior parts: (log((N + 4) / 3) + 1) * sqrt(N) / (n + 1) * P.
C2 = (math.log(6 / 3) + 1) * math.sqrt(2)  # N = 2: 1.693147 * 1.414214
C1 = math.log(5 / 3) + 1  # N = 1: 1.510826


