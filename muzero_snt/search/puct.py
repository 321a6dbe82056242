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
"""MuZero's pUCT descent on the tree tensors (`mcts.ucb_score`).

Appendix B of arXiv:1911.08265, with the reference's fix of the value part
(`mcts.py`, defect 2): `ucb_scores` is `mcts.ucb_score` for every child of
one node per tree, and `select_leaves` is `run_mcts`'s descent (`select_child`
until an unexpanded child) for all trees at once, ties to the lowest action.
Gumbel MuZero's descent is `gumbel_search.select_leaves`.
"""

from typing import Tuple

import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.search import tree as tree_lib


def node_statistics(tree: tree_lib.Tree,
                    nodes: tf.Tensor) -> Tuple[tf.Tensor, tf.Tensor]:
  """`(visit_count, value_sum)`, each `[B]`, of `nodes[b]` of each tree b.

  Those of the edge into the node, or the root's own.
  """
  in_edge = tf.cast(
      tree_lib.gather_rows(tree.edges[:, :, 0, tree_lib.IN_EDGE],
                           tree_lib.node_index(tree, nodes)), tf.int32)
  edge = tf.gather(tree_lib.flatten(tree.edges, 3), tree_lib.edge_index(
      tree, tf.zeros_like(in_edge), tf.maximum(in_edge, 0)))  # [B, 6]
  is_root = in_edge < 0
  return (tf.where(is_root, tree.root_visit_count,
                   edge[:, tree_lib.VISIT_COUNT]),
          tf.where(is_root, tree.root_value_sum, edge[:, tree_lib.VALUE_SUM]))


def _normalize(tree: tree_lib.Tree, q: tf.Tensor) -> tf.Tensor:
  """`MinMaxStats.normalize` of `[B, A]` Q values with each tree's bounds."""
  low = tree.min_q[:, None]
  high = tree.max_q[:, None]
  # The reference returns Q unchanged while max <= min. tf.where evaluates
  # both branches: the division's inf/nan in the unused one is discarded.
  return tf.where(high > low, (q - low) / (high - low), q)


def _node_terms(config: config_lib.MuZeroConfig, visit_count: tf.Tensor,
                value_sum: tf.Tensor) -> tf.Tensor:
  """`[B, 3]` the parts of pUCT at a node that depend on the node alone.

  `(log((N + c2 + 1) / c2) + c1, sqrt(N), unvisited Q)`, with N the node's
  visits (`mcts.ucb_score`) and the unvisited Q that `config.unvisited_q`
  says (`mcts.unvisited_q_value`; 0 for 'minimum', where it is not used).
  The descent computes them once per node, from the chosen edge: XLA keeps
  a log or sqrt broadcast over the actions out of the fused scores.
  """
  dtype = visit_count.dtype
  base = tf.constant(config.pb_c_base, dtype)
  pb_c = tf.math.log((visit_count + base + 1) / base) + config.pb_c_init
  if config.unvisited_q == 'parent':
    unvisited = value_sum / tf.maximum(visit_count, 1)
    unvisited = tf.where(visit_count > 0, unvisited, 0)
  else:
    unvisited = tf.zeros_like(visit_count)
  return tf.stack([pb_c, tf.sqrt(visit_count), unvisited], axis=1)


def _scores(config: config_lib.MuZeroConfig, tree: tree_lib.Tree,
            edges: tf.Tensor, node_terms: tf.Tensor,
            at_root: tf.Tensor) -> tf.Tensor:
  """pUCT of every action at one node per tree, from the node's edges.

  Args:
    config: see `ucb_scores`.
    tree: the trees (for their Q bounds and root legality).
    edges: `[B, A, 6]` the node's row of `edges`.
    node_terms: `[B, 3]` the node's `_node_terms`.
    at_root: `[B, 1]` bool whether the node is the root.

  Returns:
    `[B, A]` scores.
  """
  dtype = edges.dtype
  child_visits = edges[:, :, tree_lib.VISIT_COUNT]
  # The reference's order of operations (mcts.ucb_score).
  pb_c = node_terms[:, 0:1] * (node_terms[:, 1:2] / (child_visits + 1))
  prior_score = pb_c * edges[:, :, tree_lib.PRIOR]

  # Q(s, a) of each child, from the parent's player (mcts.q_value).
  visited = child_visits > 0
  child_value = edges[:, :, tree_lib.VALUE_SUM] / tf.maximum(child_visits,
                                                             1)
  if config.num_players == 2:
    child_value = -child_value  # The child's player is the other one.
  q = edges[:, :, tree_lib.REWARD] + config.discount * child_value
  if config.unvisited_q == 'minimum':
    value_score = tf.where(visited, _normalize(tree, q), tf.zeros([], dtype))
  else:
    value_score = _normalize(tree, tf.where(visited, q, node_terms[:, 2:3]))
  scores = prior_score + value_score
  illegal = tf.logical_and(at_root, tf.logical_not(tree.root_legal))
  return tf.where(illegal, tf.constant(-float('inf'), dtype), scores)


def ucb_scores(config: config_lib.MuZeroConfig, tree: tree_lib.Tree,
               nodes: tf.Tensor) -> tf.Tensor:
  """`mcts.ucb_score` of every action at `nodes[b]` of each tree b.

  pUCT of appendix B of arXiv:1911.08265, in the reference's order of
  operations: prior part `(log((N + c2 + 1) / c2) + c1) * (sqrt(N) / (n + 1))
  * P`; value part the normalised Q(s, a) = r + g * (+-v) of a visited
  child, and for an unvisited one what `config.unvisited_q` says
  (`mcts.unvisited_q_value`). At a root, illegal actions score -inf.

  Args:
    config: supplies `pb_c_base`, `pb_c_init`, `discount`, `unvisited_q`.
    tree: the trees.
    nodes: `[B]` int32 one expanded node per tree.

  Returns:
    `[B, A]` scores.
  """
  terms = _node_terms(config, *node_statistics(tree, nodes))
  edges = tree_lib.gather_rows(tree.edges, tree_lib.node_index(tree, nodes))
  return _scores(config, tree, edges, terms,
                 at_root=tf.equal(nodes, 0)[:, None])


def select_leaves(config: config_lib.MuZeroConfig,
                  tree: tree_lib.Tree) -> tf.Tensor:
  """Descends each tree from the root by pUCT to an unexpanded child.

  `run_mcts`'s `while node.expanded(): select_child(...)` for all trees at
  once; a tree that has reached its leaf waits for the others. Each step
  reads the node's row of `edges`; the next node's statistics are those of
  the chosen edge.

  Args:
    config: see `ucb_scores`.
    tree: the trees.

  Returns:
    `[B]` int32 the flat index (`tree.edge_index`) of the edge from the last
    expanded node of each path to the new leaf.
  """
  batch_size = tf.shape(tree.tree_stats)[0]
  num_nodes, num_actions = tf.shape(tree.edges)[1], tf.shape(tree.edges)[2]
  node_rows = tree_lib.flatten(tree.edges, 2)  # [B * N, A, 6]
  edge_rows = tree_lib.flatten(tree.edges, 3)  # [B * N * A, 6]

  def cond(node, leaf_edge, node_terms):
    del node, node_terms
    return tf.reduce_any(leaf_edge < 0)

  def body(node, leaf_edge, node_terms):
    # node: [B] flat. A tree that has found its leaf edge stays at its node;
    # its scores and terms are computed and ignored.
    edges = tf.gather(node_rows, node)  # [B, A, 6]
    chosen = tree_lib.first_argmax(_scores(
        config, tree, edges, node_terms,
        at_root=tf.equal(node % num_nodes, 0)[:, None]))
    edge = node * num_actions + chosen
    stats = tf.gather(edge_rows, edge)  # [B, 6]
    child = tf.cast(stats[:, tree_lib.CHILD], tf.int32)
    searching = leaf_edge < 0
    found = tf.logical_and(searching, tf.equal(child, tree_lib.UNEXPANDED))
    return (tf.where(searching & ~found, node - node % num_nodes + child,
                     node),
            tf.where(found, edge, leaf_edge),
            _node_terms(config, stats[:, tree_lib.VISIT_COUNT],
                        stats[:, tree_lib.VALUE_SUM]))

  roots = tree_lib.node_index(tree, tf.zeros([batch_size], tf.int32))
  _, leaf_edge, _ = tf.while_loop(
      cond, body, (roots, tf.fill([batch_size], -1),
                   _node_terms(config, tree.root_visit_count,
                               tree.root_value_sum)))
  return leaf_edge


