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
"""The search tree as fixed-size tensors, and the pseudocode's rules on it.

The batched search keeps B trees of N = num_simulations + 1 nodes each in
tensors: node statistics `[B, N]`, child links and priors `[B, N, A]`, hidden
states `[B, N, ...]`. Node 0 is the root; simulation s creates node s. The
rules are those of the reference search (`mcts.py`) with the same fixes of
the pseudocode's defects, written for a whole batch:

- `ucb_scores` is `mcts.ucb_score` for every child of one node per tree;
- `select_leaves` is the descent of `run_mcts` (`select_child` until an
  unexpanded child), ties to the lowest action;
- `expand` is `expand_node` (priors softmax(logits)) for one new node per
  tree;
- `backpropagate` is `mcts.backpropagate`: leaf to root, Q = r + g * (+-v)
  into the tree's min-max bounds, one sign convention for both players.

Every function here is plain TensorFlow on static shapes, so the whole
search compiles with XLA (`jit_compile=True`). Conventions as in `mcts.py`:
`to_play` moves at a node, `reward` belongs to the player who moved into it,
the value to the node's `to_play`.
"""

from typing import NamedTuple, Optional, Tuple

import tensorflow as tf

from muzero_snt import config as config_lib

UNEXPANDED = -1  # `children` entry of an action whose child does not exist.
NO_PARENT = -1  # `parent` and `action` of the root.


class Tree(NamedTuple):
  """B search trees of N nodes over A actions.

  Attributes:
    visit_count: `[B, N]` int32 visits of each node.
    value_sum: `[B, N]` sum of the values backed up through each node, for
      the node's `to_play`.
    reward: `[B, N]` the reward of moving into the node (0 at the root), for
      the parent's player.
    to_play: `[B, N]` int32 the player to move at the node.
    parent: `[B, N]` int32 the parent's index, `NO_PARENT` at the root.
    action: `[B, N]` int32 the action from the parent, `NO_PARENT` at the
      root.
    children: `[B, N, A]` int32 the child reached by each action, or
      `UNEXPANDED`.
    prior: `[B, N, A]` the prior of each action at the node (0 at unexpanded
      nodes, and at the root for illegal actions).
    hidden_state: `[B, N, ...]` the node's hidden state.
    root_legal: `[B, A]` bool the legal actions at the root.
    min_q: `[B]` the smallest Q seen in the tree (`MinMaxStats.minimum`).
    max_q: `[B]` the largest Q seen in the tree (`MinMaxStats.maximum`).
  """
  visit_count: tf.Tensor
  value_sum: tf.Tensor
  reward: tf.Tensor
  to_play: tf.Tensor
  parent: tf.Tensor
  action: tf.Tensor
  children: tf.Tensor
  prior: tf.Tensor
  hidden_state: tf.Tensor
  root_legal: tf.Tensor
  min_q: tf.Tensor
  max_q: tf.Tensor


def _rows(nodes: tf.Tensor) -> tf.Tensor:
  """`[B]` node indices -> `[B, 2]` (tree, node) indices for scatter/gather."""
  batch = tf.range(tf.shape(nodes)[0], dtype=nodes.dtype)
  return tf.stack([batch, nodes], axis=1)


def gather_nodes(values: tf.Tensor, nodes: tf.Tensor) -> tf.Tensor:
  """`values[b, nodes[b, ...], ...]` for each tree b.

  Args:
    values: `[B, N, ...]` per-node values.
    nodes: `[B]` or `[B, A]` int32 node indices.

  Returns:
    `[B, ...]` or `[B, A, ...]`.
  """
  return tf.gather(values, nodes, axis=1, batch_dims=1)


def set_nodes(values: tf.Tensor, nodes: tf.Tensor,
              updates: tf.Tensor) -> tf.Tensor:
  """`values` with `values[b, nodes[b], ...] = updates[b, ...]` for each b."""
  return tf.tensor_scatter_nd_update(values, _rows(nodes), updates)


def add_to_nodes(values: tf.Tensor, nodes: tf.Tensor,
                 updates: tf.Tensor) -> tf.Tensor:
  """`values` with `values[b, nodes[b], ...] += updates[b, ...]` for each b."""
  return tf.tensor_scatter_nd_add(values, _rows(nodes), updates)


def softmax_priors(policy_logits: tf.Tensor, dtype: tf.DType,
                   legal: Optional[tf.Tensor] = None) -> tf.Tensor:
  """`expand_node`'s priors: softmax of the logits over the given actions.

  As the reference: the maximum logit (over the legal actions) is subtracted
  before `exp`; illegal actions get prior 0.

  Args:
    policy_logits: `[B, A]` the network's logits.
    dtype: the search's float type.
    legal: `[B, A]` bool, or None for every action.

  Returns:
    `[B, A]` priors in `dtype`.
  """
  logits = tf.cast(policy_logits, dtype)
  if legal is not None:
    logits = tf.where(legal, logits, tf.constant(-float('inf'), dtype))
  exp = tf.exp(logits - tf.reduce_max(logits, axis=1, keepdims=True))
  return exp / tf.reduce_sum(exp, axis=1, keepdims=True)


def init_tree(num_nodes: int, num_actions: int, value: tf.Tensor,
              policy_logits: tf.Tensor, hidden_state: tf.Tensor,
              to_play: tf.Tensor, legal: tf.Tensor,
              known_bounds: Optional[config_lib.KnownBounds],
              dtype: tf.DType) -> Tree:
  """B trees whose root (node 0) is expanded over its legal actions.

  The root is expanded as `policy.search` expands it: priors softmax of the
  logits restricted to the legal actions, no visits yet. `value` is not
  stored: as in the pseudocode the root's value comes from the simulations
  alone.

  Args:
    num_nodes: N = num_simulations + 1.
    num_actions: A.
    value: `[B]` the root values (only their batch size and dtype are read).
    policy_logits: `[B, A]` the root logits.
    hidden_state: `[B, ...]` the root hidden states.
    to_play: `[B]` int32 the players to move at the roots.
    legal: `[B, A]` bool the legal actions.
    known_bounds: the config's known bounds of Q, or None.
    dtype: the float type of the statistics.

  Returns:
    The trees.
  """
  batch_size = tf.shape(value)[0]
  node_shape = tf.stack([batch_size, num_nodes])
  child_shape = tf.stack([batch_size, num_nodes, num_actions])
  root = tf.zeros([batch_size], tf.int32)
  hidden_shape = tf.concat(
      [node_shape, tf.shape(hidden_state)[1:]], axis=0)
  hidden = tf.zeros(hidden_shape, hidden_state.dtype)
  prior = tf.zeros(child_shape, dtype)
  if known_bounds is not None:
    low, high = float(known_bounds.min), float(known_bounds.max)
  else:
    low = config_lib.MAXIMUM_FLOAT_VALUE
    high = -config_lib.MAXIMUM_FLOAT_VALUE
  return Tree(
      visit_count=tf.zeros(node_shape, tf.int32),
      value_sum=tf.zeros(node_shape, dtype),
      reward=tf.zeros(node_shape, dtype),
      to_play=set_nodes(tf.zeros(node_shape, tf.int32), root,
                        tf.cast(to_play, tf.int32)),
      parent=tf.fill(node_shape, NO_PARENT),
      action=tf.fill(node_shape, NO_PARENT),
      children=tf.fill(child_shape, UNEXPANDED),
      prior=set_nodes(prior, root,
                      softmax_priors(policy_logits, dtype, legal)),
      hidden_state=set_nodes(hidden, root, hidden_state),
      root_legal=legal,
      min_q=tf.fill([batch_size], tf.constant(low, dtype)),
      max_q=tf.fill([batch_size], tf.constant(high, dtype)))


def _normalize(tree: Tree, q: tf.Tensor) -> tf.Tensor:
  """`MinMaxStats.normalize` of `[B, ...]` Q values with each tree's bounds."""
  low = tree.min_q
  high = tree.max_q
  while low.shape.rank < q.shape.rank:
    low, high = low[:, None], high[:, None]
  # The reference returns Q unchanged while max <= min. tf.where evaluates
  # both branches: the division's inf/nan in the unused one is discarded.
  return tf.where(high > low, (q - low) / (high - low), q)


def ucb_scores(config: config_lib.MuZeroConfig, tree: Tree,
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
  dtype = tree.value_sum.dtype
  children = gather_nodes(tree.children, nodes)  # [B, A]
  visited = children != UNEXPANDED
  safe_children = tf.maximum(children, 0)  # Any valid index; masked below.
  parent_visits = tf.cast(gather_nodes(tree.visit_count, nodes), dtype)
  child_visits = tf.where(
      visited,
      tf.cast(gather_nodes(tree.visit_count, safe_children), dtype),
      tf.zeros([], dtype))  # [B, A]
  prior = gather_nodes(tree.prior, nodes)  # [B, A]
  base = tf.constant(config.pb_c_base, dtype)
  pb_c = tf.math.log((parent_visits + base + 1) / base) + config.pb_c_init
  pb_c = pb_c[:, None] * (tf.sqrt(parent_visits)[:, None] /
                          (child_visits + 1))  # [B, A]
  prior_score = pb_c * prior

  # Q(s, a) of each child, from the parent's player (mcts.q_value).
  child_value_sum = gather_nodes(tree.value_sum, safe_children)
  child_value = child_value_sum / tf.maximum(child_visits, 1)
  same_player = (gather_nodes(tree.to_play, safe_children) ==
                 gather_nodes(tree.to_play, nodes)[:, None])
  child_value = tf.where(same_player, child_value, -child_value)
  child_reward = gather_nodes(tree.reward, safe_children)
  q = child_reward + config.discount * child_value
  if config.unvisited_q == 'minimum':
    value_score = tf.where(visited, _normalize(tree, q), tf.zeros([], dtype))
  else:
    if config.unvisited_q == 'parent':  # mcts.unvisited_q_value
      unvisited = gather_nodes(tree.value_sum, nodes) / tf.maximum(
          parent_visits, 1)
      unvisited = tf.where(parent_visits > 0, unvisited, 0)[:, None]
    else:
      unvisited = tf.zeros([], dtype)
    value_score = _normalize(tree, tf.where(visited, q, unvisited))
  scores = prior_score + value_score
  at_root = (nodes == 0)[:, None]
  illegal = tf.logical_and(at_root, tf.logical_not(tree.root_legal))
  return tf.where(illegal, tf.constant(-float('inf'), dtype), scores)


def first_argmax(scores: tf.Tensor) -> tf.Tensor:
  """`[B, A]` -> `[B]` int32 the lowest index among each row's maxima.

  `tf.argmax` does not promise which of equal maxima it returns; the
  reference search takes the lowest action. A row whose maximum is NaN (a
  diverged network) has no index equal to it; it gets 0, a valid index, so
  that the search runs on and reports the non-finite output.
  """
  num_actions = tf.shape(scores)[1]
  best = tf.reduce_max(scores, axis=1, keepdims=True)
  index = tf.range(num_actions, dtype=tf.int32)[None, :]
  first = tf.reduce_min(
      tf.where(scores == best, index, num_actions), axis=1)
  return tf.where(first < num_actions, first, 0)


def select_leaves(config: config_lib.MuZeroConfig,
                  tree: Tree) -> Tuple[tf.Tensor, tf.Tensor]:
  """Descends each tree from the root by pUCT to an unexpanded child.

  `run_mcts`'s `while node.expanded(): select_child(...)` for all trees at
  once; a tree that has reached its leaf waits for the others.

  Args:
    config: see `ucb_scores`.
    tree: the trees.

  Returns:
    `(parent, action)`: `[B]` int32 the last expanded node of each path and
    the action from it to the new leaf.
  """
  batch_size = tf.shape(tree.visit_count)[0]
  node = tf.zeros([batch_size], tf.int32)
  action = tf.zeros([batch_size], tf.int32)
  done = tf.zeros([batch_size], tf.bool)

  def cond(node, action, done):
    del node, action
    return tf.logical_not(tf.reduce_all(done))

  def body(node, action, done):
    chosen = first_argmax(ucb_scores(config, tree, node))  # [B]
    child = tf.gather(gather_nodes(tree.children, node), chosen[:, None],
                      axis=1, batch_dims=1)[:, 0]  # [B]
    action = tf.where(done, action, chosen)
    at_leaf = tf.logical_or(done, child == UNEXPANDED)
    node = tf.where(at_leaf, node, child)
    return node, action, at_leaf

  node, action, _ = tf.while_loop(cond, body, (node, action, done))
  return node, action


def expand(tree: Tree, new_node: tf.Tensor, parent: tf.Tensor,
           action: tf.Tensor, reward: tf.Tensor, policy_logits: tf.Tensor,
           hidden_state: tf.Tensor, num_players: int) -> Tree:
  """`expand_node` of node `new_node` in every tree, below `parent`.

  Args:
    tree: the trees.
    new_node: scalar int32 the index of the new node (the simulation's).
    parent: `[B]` int32 the expanded node the new one hangs from.
    action: `[B]` int32 the action from `parent`.
    reward: `[B]` the dynamics' reward for that action.
    policy_logits: `[B, A]` the prediction at the new node.
    hidden_state: `[B, ...]` the new node's hidden state.
    num_players: 1 or 2; the new node's player follows its parent's.

  Returns:
    The trees with the new node linked, every action of it a prior.
  """
  dtype = tree.value_sum.dtype
  batch_size = tf.shape(parent)[0]
  new = tf.fill([batch_size], new_node)
  parent_child = tf.stack([tf.range(batch_size), parent, action], axis=1)
  to_play = (gather_nodes(tree.to_play, parent) + 1) % num_players
  return tree._replace(
      reward=set_nodes(tree.reward, new, tf.cast(reward, dtype)),
      to_play=set_nodes(tree.to_play, new, to_play),
      parent=set_nodes(tree.parent, new, parent),
      action=set_nodes(tree.action, new, action),
      children=tf.tensor_scatter_nd_update(tree.children, parent_child, new),
      prior=set_nodes(tree.prior, new, softmax_priors(policy_logits, dtype)),
      hidden_state=set_nodes(tree.hidden_state, new,
                             tf.cast(hidden_state, tree.hidden_state.dtype)))


def backpropagate(config: config_lib.MuZeroConfig, tree: Tree,
                  leaf: tf.Tensor, value: tf.Tensor) -> Tree:
  """`mcts.backpropagate` from `leaf[b]` to the root of each tree b.

  G starts as the leaf's value, for the leaf's player. At each node on the
  way up: value_sum += G, visit_count += 1; then, below the root, Q(parent,
  node) = r + g * (+-value) widens the bounds and G becomes r + g * (+-G)
  for the parent's player (the sign flips when the players differ).

  Args:
    config: supplies `discount`.
    tree: the trees.
    leaf: `[B]` int32 the new leaves.
    value: `[B]` the network's values at the leaves.

  Returns:
    The updated trees.
  """
  dtype = tree.value_sum.dtype
  discount = tf.constant(config.discount, dtype)
  zero = tf.zeros([], dtype)
  active = tf.ones_like(leaf, tf.bool)
  g = tf.cast(value, dtype)

  def cond(tree, node, g, active):
    del tree, node, g
    return tf.reduce_any(active)

  def body(tree, node, g, active):
    safe = tf.maximum(node, 0)
    value_sum = add_to_nodes(tree.value_sum, safe, tf.where(active, g, zero))
    visit_count = add_to_nodes(tree.visit_count, safe,
                               tf.cast(active, tf.int32))
    parent = gather_nodes(tree.parent, safe)
    below_root = tf.logical_and(active, parent != NO_PARENT)
    safe_parent = tf.maximum(parent, 0)
    same_player = (gather_nodes(tree.to_play, safe) ==
                   gather_nodes(tree.to_play, safe_parent))
    reward = gather_nodes(tree.reward, safe)
    node_value = (gather_nodes(value_sum, safe) /
                  tf.cast(tf.maximum(gather_nodes(visit_count, safe), 1),
                          dtype))
    q = reward + discount * tf.where(same_player, node_value, -node_value)
    max_q = tf.where(below_root & (q > tree.max_q), q, tree.max_q)
    min_q = tf.where(below_root & (q < tree.min_q), q, tree.min_q)
    g = tf.where(below_root,
                 reward + discount * tf.where(same_player, g, -g), g)
    tree = tree._replace(value_sum=value_sum, visit_count=visit_count,
                         min_q=min_q, max_q=max_q)
    return tree, tf.where(below_root, parent, node), g, below_root

  tree, _, _, _ = tf.while_loop(cond, body, (tree, leaf, g, active))
  return tree
