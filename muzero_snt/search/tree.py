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
"""The batched searches' trees as fixed-size tensors, and their updates.

B trees of N = num_simulations + 1 nodes over A actions; simulation s
creates node s. As in mctx, statistics are kept per edge (action a at node n
and its child), so a descent step reads one row `[A, 6]` and a backup step
rewrites one `[6]`, addressed by a flat index (cheaper for XLA than a tuple).
"""

from typing import NamedTuple, Optional

import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.search import mcts

UNEXPANDED = -1  # The `CHILD` of an edge whose child does not exist.
NO_PARENT = -1  # The `IN_EDGE` of a root.

# The last axis of `Tree.edges`: the action's prior; its child's visit count,
# value sum, reward and index; the edge into the node (parent * A + action),
# the same on each of its edges. Integers are exact (below 2**24) in the
# float type, so that a step reads or writes one row.
PRIOR, VISIT_COUNT, VALUE_SUM, REWARD, CHILD, IN_EDGE = range(6)
NUM_EDGE_STATISTICS = 6
# The last axis of `Tree.tree_stats`.
ROOT_VISIT_COUNT, ROOT_VALUE_SUM, MIN_Q, MAX_Q = range(4)


class Tree(NamedTuple):
  """B trees: `edges` `[B, N, A, 6]`, `to_play` `[B, N]` int32,
  `hidden_state` `[B, N, ...]`, `raw_value` `[B, N]` (the network's value
  of each node), `tree_stats` `[B, 4]` (the root's visit count and value
  sum, the smallest and largest Q seen) and `root_legal` `[B, A]` bool."""
  edges: tf.Tensor
  to_play: tf.Tensor
  hidden_state: tf.Tensor
  raw_value: tf.Tensor
  tree_stats: tf.Tensor
  root_legal: tf.Tensor

  @property
  def prior(self) -> tf.Tensor:
    return self.edges[..., PRIOR]

  @property
  def children(self) -> tf.Tensor:
    return tf.cast(self.edges[..., CHILD], tf.int32)

  @property
  def root_visit_count(self) -> tf.Tensor:
    return self.tree_stats[:, ROOT_VISIT_COUNT]

  @property
  def root_value_sum(self) -> tf.Tensor:
    return self.tree_stats[:, ROOT_VALUE_SUM]

  @property
  def min_q(self) -> tf.Tensor:
    return self.tree_stats[:, MIN_Q]

  @property
  def max_q(self) -> tf.Tensor:
    return self.tree_stats[:, MAX_Q]


def node_index(tree: Tree, nodes: tf.Tensor) -> tf.Tensor:
  """Flat indices b * N + nodes[b, ...] of `[B]` or `[B, ...]` nodes."""
  batch = tf.range(tf.shape(nodes)[0], dtype=nodes.dtype)
  batch = tf.reshape(batch, [-1] + [1] * (nodes.shape.rank - 1))
  return batch * tf.shape(tree.edges)[1] + nodes


def edge_index(tree: Tree, nodes: tf.Tensor,
               actions: tf.Tensor) -> tf.Tensor:
  """Flat indices (b * N + nodes[b]) * A + actions[b] of `[B]` edges."""
  return node_index(tree, nodes) * tf.shape(tree.edges)[2] + actions


def flatten(values: tf.Tensor, num_axes: int) -> tf.Tensor:
  """`values` with its first `num_axes` axes merged into one."""
  return tf.reshape(values,
                    tf.concat([[-1], tf.shape(values)[num_axes:]], axis=0))


def gather_rows(values: tf.Tensor, rows: tf.Tensor) -> tf.Tensor:
  """`[B, ...]` the flat rows `rows` `[B]` of `values` `[B, N, ...]`."""
  return tf.gather(flatten(values, 2), rows)


def set_rows(values: tf.Tensor, rows: tf.Tensor,
             updates: tf.Tensor) -> tf.Tensor:
  """`values` `[B, N, ...]` with flat rows `rows[b]` set to `updates[b]`."""
  flat = tf.tensor_scatter_nd_update(flatten(values, 2), rows[:, None],
                                     updates)
  return tf.reshape(flat, tf.shape(values))


def first_argmax(scores: tf.Tensor) -> tf.Tensor:
  """`[B, A]` -> `[B]` int32 the lowest index among each row's maxima, as
  the reference breaks ties (`tf.argmax` does on CPU and under XLA, tested);
  a row of NaN still gets an index in [0, A)."""
  return tf.argmax(scores, axis=1, output_type=tf.int32)


def child_q(config: config_lib.MuZeroConfig, edges: tf.Tensor) -> tf.Tensor:
  """`[B, A]` `mcts.q_value` of the children at `[B, A, 6]` `edges` (one
  node's row per tree), for the node's player; 0 if unvisited."""
  visits = edges[:, :, VISIT_COUNT]
  value = edges[:, :, VALUE_SUM] / tf.maximum(visits, 1)
  if config.num_players == 2:
    value = -value  # Players alternate at every level.
  q = edges[:, :, REWARD] + config.discount * value
  return tf.where(visits > 0, q, tf.zeros_like(q))


def softmax_priors(policy_logits: tf.Tensor, dtype: tf.DType,
                   legal: Optional[tf.Tensor] = None) -> tf.Tensor:
  """`[B, A]` softmax of the logits over the `legal` actions (or all)."""
  logits = tf.cast(policy_logits, dtype)
  if legal is not None:
    logits = tf.where(legal, logits, tf.constant(-float('inf'), dtype))
  exp = tf.exp(logits - tf.reduce_max(logits, axis=1, keepdims=True))
  return exp / tf.reduce_sum(exp, axis=1, keepdims=True)


def node_edges(prior: tf.Tensor, in_edge: tf.Tensor) -> tf.Tensor:
  """`[B, A, 6]` the rows of new nodes of `[B, A]` priors and `[B]` int32
  in-edges (parent * A + action within the tree, or `NO_PARENT`)."""
  zeros = tf.zeros_like(prior)
  in_edge = tf.broadcast_to(tf.cast(in_edge, prior.dtype)[:, None],
                            tf.shape(prior))
  return tf.stack([prior, zeros, zeros, zeros, zeros + UNEXPANDED, in_edge],
                  axis=-1)


def init_tree(num_nodes: int, num_actions: int, value: tf.Tensor,
              policy_logits: tf.Tensor, hidden_state: tf.Tensor,
              to_play: tf.Tensor, legal: tf.Tensor,
              known_bounds: Optional[config_lib.KnownBounds],
              dtype: tf.DType) -> Tree:
  """B trees of N nodes, their roots expanded over the `[B, A]` `legal`
  actions with their `[B]` `value`, `[B, A]` `policy_logits`, `[B, ...]`
  `hidden_state` and `[B]` `to_play`, and not visited (the root's value
  comes from the simulations, as in the pseudocode)."""
  batch_size = tf.shape(value)[0]
  node_shape = tf.stack([batch_size, num_nodes])
  root_edges = node_edges(softmax_priors(policy_logits, dtype, legal),
                          tf.fill([batch_size], NO_PARENT))
  other_edges = tf.broadcast_to(
      node_edges(tf.zeros([1, num_actions], dtype), [NO_PARENT])[:, None],
      tf.stack([batch_size, num_nodes - 1, num_actions,
                NUM_EDGE_STATISTICS]))
  other_hidden = tf.zeros(
      tf.concat([[batch_size, num_nodes - 1], tf.shape(hidden_state)[1:]], 0),
      hidden_state.dtype)
  bounds = mcts.MinMaxStats(known_bounds)
  return Tree(
      edges=tf.concat([root_edges[:, None], other_edges], axis=1),
      to_play=tf.concat([tf.cast(to_play, tf.int32)[:, None],
                         tf.zeros(node_shape - [0, 1], tf.int32)], axis=1),
      hidden_state=tf.concat([hidden_state[:, None], other_hidden], axis=1),
      raw_value=tf.concat([tf.cast(value, dtype)[:, None],
                           tf.zeros(node_shape - [0, 1], dtype)], axis=1),
      tree_stats=tf.tile(
          tf.constant([[0., 0., bounds.minimum, bounds.maximum]], dtype),
          [batch_size, 1]),
      root_legal=legal)


def expand(tree: Tree, new_node: tf.Tensor, leaf_edge: tf.Tensor,
           policy_logits: tf.Tensor, hidden_state: tf.Tensor,
           value: tf.Tensor, num_players: int) -> Tree:
  """`mcts.expand_node` of node `new_node` (scalar) of every tree, at the
  end of the `[B]` flat `leaf_edge`, with its `[B, A]` `policy_logits`,
  `[B, ...]` `hidden_state` and `[B]` `value` (the edge learns its child and
  reward in `backpropagate`)."""
  num_nodes, num_actions = tf.shape(tree.edges)[1], tf.shape(tree.edges)[2]
  new = node_index(tree, tf.fill(tf.shape(leaf_edge), new_node))
  to_play = (gather_rows(tree.to_play, leaf_edge // num_actions) + 1) % (
      num_players)
  row = node_edges(softmax_priors(policy_logits, tree.edges.dtype),
                   leaf_edge % (num_nodes * num_actions))
  return tree._replace(
      edges=set_rows(tree.edges, new, row),
      to_play=set_rows(tree.to_play, new, to_play),
      hidden_state=set_rows(tree.hidden_state, new,
                            tf.cast(hidden_state, tree.hidden_state.dtype)),
      raw_value=set_rows(tree.raw_value, new,
                         tf.cast(value, tree.raw_value.dtype)))


def backpropagate(config: config_lib.MuZeroConfig, tree: Tree,
                  leaf_edge: tf.Tensor, leaf: tf.Tensor, value: tf.Tensor,
                  reward: tf.Tensor) -> Tree:
  """`mcts.backpropagate` from the new leaves to the roots: walks up the
  edges (a node's statistics are its in-edge's) from `[B]` `leaf_edge` into
  `leaf` (scalar or `[B]`), with the leaves' `[B]` `value` and `reward`. The
  leaf edge gets its child and reward on its first visit."""
  dtype = tree.edges.dtype
  discount = tf.constant(config.discount, dtype)
  # Players alternate at every level (`expand`): one sign for every node.
  sign = -1. if config.num_players == 2 else 1.
  tree_size = tf.shape(tree.edges)[1] * tf.shape(tree.edges)[2]
  first_edge = tf.range(tf.shape(leaf_edge)[0]) * tree_size  # [B]
  leaf_reward = tf.cast(reward, dtype)
  leaf_child = tf.cast(leaf, dtype)

  def body(edges, edge, state):
    # edge: [B] the flat edge into the current node, or -1 - e once the walk
    # has passed the root after edge e (rewritten unchanged). state: [B, 3]
    # (G, min_q, max_q).
    g, min_q, max_q = tf.unstack(state, axis=1)
    active = edge >= 0
    index = tf.where(active, edge, -1 - edge)
    stats = tf.gather(edges, index)  # [B, 6]
    first = tf.equal(stats[:, VISIT_COUNT], 0)
    reward = tf.where(first, leaf_reward, stats[:, REWARD])
    visit_count = stats[:, VISIT_COUNT] + 1
    value_sum = stats[:, VALUE_SUM] + g
    updated = tf.stack([
        stats[:, PRIOR], visit_count, value_sum, reward,
        tf.where(first, leaf_child, stats[:, CHILD]), stats[:, IN_EDGE]], 1)
    edges = tf.tensor_scatter_nd_update(
        edges, index[:, None], tf.where(active[:, None], updated, stats))
    q = reward + discount * (sign * (value_sum / visit_count))
    state = tf.where(active[:, None], tf.stack([
        reward + discount * (sign * g),
        tf.where(q < min_q, q, min_q),
        tf.where(q > max_q, q, max_q)], axis=1), state)
    up = tf.cast(stats[:, IN_EDGE], tf.int32)  # Within the tree.
    return (edges, tf.where(active & (up >= 0), first_edge + up, -1 - index),
            state)

  state = tf.stack([tf.cast(value, dtype), tree.min_q, tree.max_q], axis=1)
  edges, _, state = tf.while_loop(
      lambda edges, edge, state: tf.reduce_any(edge >= 0), body,
      (flatten(tree.edges, 3), leaf_edge, state))
  return tree._replace(
      edges=tf.reshape(edges, tf.shape(tree.edges)),
      tree_stats=tf.stack([tree.root_visit_count + 1,
                           tree.root_value_sum + state[:, 0],
                           state[:, 1], state[:, 2]], axis=1))
