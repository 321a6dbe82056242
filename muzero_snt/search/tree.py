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

B trees of N = num_simulations + 1 nodes over A actions; node 0 is the root
and simulation s creates node s. `init_tree` expands the roots, `expand` is
`mcts.expand_node` for one new node per tree, `backpropagate` is
`mcts.backpropagate`. Statistics are kept per edge, as in mctx:
`Tree.edges[b, n, a]` holds action a at node n and the child it leads to,
so a descent step reads one row `[A, 6]` and a backup step rewrites one
row `[6]`. Rows are addressed by flat indices (`node_index`, `edge_index`),
which XLA gathers and scatters more cheaply than tuples. Conventions as in
`mcts.py`.
"""

from typing import NamedTuple, Optional

import tensorflow as tf

from muzero_snt import config as config_lib

UNEXPANDED = -1  # The `CHILD` of an edge whose child does not exist.
NO_PARENT = -1  # The `IN_EDGE` of a root.

# The last axis of `Tree.edges`: the action's prior; the visit count, value
# sum and reward of its child and the child's index (`UNEXPANDED`); and the
# edge into the node itself (parent * A + action, or `NO_PARENT`), the same
# on each of the node's edges. Integers are stored exactly (below 2**24) in
# the float type, so that a step reads or writes one row.
PRIOR, VISIT_COUNT, VALUE_SUM, REWARD, CHILD, IN_EDGE = range(6)
NUM_EDGE_STATISTICS = 6
# The last axis of `Tree.tree_stats`.
ROOT_VISIT_COUNT, ROOT_VALUE_SUM, MIN_Q, MAX_Q = range(4)


class Tree(NamedTuple):
  """B search trees of N nodes over A actions.

  Attributes:
    edges: `[B, N, A, 6]` the statistics of each action at each node.
    to_play: `[B, N]` int32 the player to move at each node.
    hidden_state: `[B, N, ...]` each node's hidden state.
    tree_stats: `[B, 4]` the root's visit count and value sum, and the
      smallest and largest Q seen (`mcts.MinMaxStats`).
    root_legal: `[B, A]` bool the legal actions at the root.
  """
  edges: tf.Tensor
  to_play: tf.Tensor
  hidden_state: tf.Tensor
  tree_stats: tf.Tensor
  root_legal: tf.Tensor

  @property
  def prior(self) -> tf.Tensor:
    return self.edges[..., PRIOR]

  @property
  def children(self) -> tf.Tensor:
    return tf.cast(self.edges[..., CHILD], tf.int32)

  @property
  def parent(self) -> tf.Tensor:
    in_edge = tf.cast(self.edges[:, :, 0, IN_EDGE], tf.int32)
    return tf.where(in_edge < 0, NO_PARENT,
                    in_edge // tf.shape(self.edges)[2])

  @property
  def action(self) -> tf.Tensor:
    in_edge = tf.cast(self.edges[:, :, 0, IN_EDGE], tf.int32)
    return tf.where(in_edge < 0, NO_PARENT, in_edge % tf.shape(self.edges)[2])

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
  """`[B, A]` -> `[B]` int32 the lowest index among each row's maxima.

  `tf.argmax` keeps the first maximum on CPU and under XLA (tested), as the
  reference breaks ties; a row of NaN still gets an index in [0, A).
  """
  return tf.argmax(scores, axis=1, output_type=tf.int32)


def child_q(config: config_lib.MuZeroConfig, edges: tf.Tensor) -> tf.Tensor:
  """`[B, A]` Q = r + g * (+-v) of a node's children (`mcts.q_value`).

  Args:
    config: supplies `discount` and `num_players`.
    edges: `[B, A, 6]` one node's row of `Tree.edges` per tree.

  Returns:
    Q for the node's player; 0 where a child is unvisited.
  """
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
  """B trees whose roots are expanded over their legal actions, unvisited.

  Args:
    num_nodes: N = num_simulations + 1.
    num_actions: A.
    value: `[B]` the root values (only their batch size is read: as in the
      pseudocode the root's value comes from the simulations).
    policy_logits: `[B, A]` the root logits.
    hidden_state: `[B, ...]` the root hidden states.
    to_play: `[B]` int32 the players to move at the roots.
    legal: `[B, A]` bool the legal actions.
    known_bounds: the config's known bounds of Q, or None.
    dtype: the float type of the statistics.
  """
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
  if known_bounds is not None:
    low, high = float(known_bounds.min), float(known_bounds.max)
  else:
    low = config_lib.MAXIMUM_FLOAT_VALUE
    high = -config_lib.MAXIMUM_FLOAT_VALUE
  return Tree(
      edges=tf.concat([root_edges[:, None], other_edges], axis=1),
      to_play=tf.concat([tf.cast(to_play, tf.int32)[:, None],
                         tf.zeros(node_shape - [0, 1], tf.int32)], axis=1),
      hidden_state=tf.concat([hidden_state[:, None], other_hidden], axis=1),
      tree_stats=tf.tile(tf.constant([[0., 0., low, high]], dtype),
                         [batch_size, 1]),
      root_legal=legal)


def expand(tree: Tree, new_node: tf.Tensor, leaf_edge: tf.Tensor,
           policy_logits: tf.Tensor, hidden_state: tf.Tensor,
           num_players: int) -> Tree:
  """`mcts.expand_node` of node `new_node` of every tree over every action.

  Args:
    tree: the trees.
    new_node: scalar int32 the new node (the simulation's index).
    leaf_edge: `[B]` int32 the flat index of the edge into it.
    policy_logits: `[B, A]` the prediction at the new node.
    hidden_state: `[B, ...]` the new node's hidden state.
    num_players: 1 or 2; the new node's player follows its parent's.

  Returns:
    The trees with the new node's row, player and hidden state. The edge
    into it learns its child and reward in `backpropagate`.
  """
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
                            tf.cast(hidden_state, tree.hidden_state.dtype)))


def backpropagate(config: config_lib.MuZeroConfig, tree: Tree,
                  leaf_edge: tf.Tensor, leaf: tf.Tensor, value: tf.Tensor,
                  reward: tf.Tensor) -> Tree:
  """`mcts.backpropagate` from a new leaf to the root of each tree.

  Walks up by the edge into each node (a node's statistics are those of
  that edge): value_sum += G, visit_count += 1, then below the root
  Q(parent, node) widens the bounds and G becomes r + g * (+-G). The edge
  into the new leaf gets its child and reward on its first visit; the
  root's own statistics are updated once every walk is done.

  Args:
    config: supplies `discount` and `num_players`.
    tree: the trees.
    leaf_edge: `[B]` int32 the flat index of the edge into each new leaf.
    leaf: scalar or `[B]` int32 the new leaves' node index.
    value: `[B]` the network's values at the leaves.
    reward: `[B]` the dynamics' rewards for moving into them.
  """
  dtype = tree.edges.dtype
  discount = tf.constant(config.discount, dtype)
  # Players alternate at every level (`expand`): the sign is the same at
  # every node.
  sign = -1. if config.num_players == 2 else 1.
  tree_size = tf.shape(tree.edges)[1] * tf.shape(tree.edges)[2]
  first_edge = tf.range(tf.shape(leaf_edge)[0]) * tree_size  # [B]
  leaf_reward = tf.cast(reward, dtype)
  leaf_child = tf.cast(leaf, dtype)

  def cond(edges, edge, state):
    del edges, state
    return tf.reduce_any(edge >= 0)

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
      cond, body, (flatten(tree.edges, 3), leaf_edge, state))
  return tree._replace(
      edges=tf.reshape(edges, tf.shape(tree.edges)),
      tree_stats=tf.stack([tree.root_visit_count + 1,
                           tree.root_value_sum + state[:, 0],
                           state[:, 1], state[:, 2]], axis=1))
