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
"""MuZero's search as batched tensors, and what both batched searches share:
`batched_search` is `reference_search.search_trees` for B positions in one
XLA-compilable program (with float64 statistics, the same visits and root
values)."""

from typing import Callable, NamedTuple, Optional, Tuple

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import types
from muzero_snt.networks import board_conv
from muzero_snt.search import stateless_dirichlet
from muzero_snt.search import tree as tree_lib

# The network outputs checked for finiteness, in `BatchedSearchOutput.finite`.
CHECKED_OUTPUTS = ('value', 'reward', 'policy_logits')


class BatchedSearchOutput(NamedTuple):
  """`base.SearchOutput` as tensors, with `[3]` bool whether the network's
  `CHECKED_OUTPUTS` were finite and the searched trees."""
  visit_counts: tf.Tensor
  policy: tf.Tensor
  root_value: tf.Tensor
  action: Optional[tf.Tensor]
  finite: tf.Tensor
  tree: tree_lib.Tree


class Roots(NamedTuple):
  """The trees, the roots' `initial_inference`, its `all_finite` and the
  roots' `[B, A]` noise (None without noise)."""
  tree: tree_lib.Tree
  output: types.NetworkOutput
  finite: tf.Tensor
  noise: Optional[tf.Tensor]


def all_finite(output: types.NetworkOutput) -> tf.Tensor:
  """`[3]` bool: is every entry of each of `CHECKED_OUTPUTS` finite."""
  return tf.stack([tf.reduce_all(tf.math.is_finite(getattr(output, name)))
                   for name in CHECKED_OUTPUTS])


def draw_noise(config: config_lib.MuZeroConfig, legal: tf.Tensor,
               seed: tf.Tensor, dtype: tf.DType) -> tf.Tensor:
  """`[B, A]` the roots' noise from a `[2]` seed: MuZero's Dirichlet(alpha)
  over each row's legal actions (`stateless_dirichlet.py`), or Gumbel
  MuZero's Gumbel(0) samples -log(-log(u))."""
  if config.search_policy == 'gumbel':
    tiny = np.finfo(dtype.as_numpy_dtype).tiny
    uniform = tf.random.stateless_uniform(tf.shape(legal), seed, minval=tiny,
                                          maxval=1., dtype=dtype)
    return -tf.math.log(-tf.math.log(uniform))
  return stateless_dirichlet.dirichlet_noise(config.root_dirichlet_alpha,
                                             legal, seed, dtype)


def _checked(config: config_lib.MuZeroConfig, observation: tf.Tensor,
             to_play: tf.Tensor, legal_actions_mask: tf.Tensor,
             check_inputs: bool) -> tf.Tensor:
  """`observation` after a ValueError on shapes that would broadcast and,
  with `check_inputs`, run-time assertions of sizes and values (not XLA)."""
  num_actions = config.action_space_size
  if legal_actions_mask.shape.rank != 2 or (
      legal_actions_mask.shape[1] not in (None, num_actions)):
    raise ValueError(f'legal_actions_mask must be a [B, {num_actions}] bool '
                     f'mask, got shape {legal_actions_mask.shape}.')
  if to_play.shape.rank != 1:
    raise ValueError(f'to_play must be [B], got shape {to_play.shape}.')
  sizes = {t.shape[0] for t in (observation, to_play, legal_actions_mask)}
  sizes.discard(None)
  if len(sizes) > 1:
    raise ValueError(
        f'observation, to_play and legal_actions_mask must have the same '
        f'batch size, got shapes {observation.shape}, {to_play.shape} and '
        f'{legal_actions_mask.shape}.')
  if not check_inputs:
    return observation
  batch_size = tf.shape(observation)[0]
  players = 'to_play must be players in [0, num_players)'
  with tf.control_dependencies([
      tf.debugging.assert_equal(
          tf.shape(legal_actions_mask), tf.stack([batch_size, num_actions]),
          message='legal_actions_mask must be a [B, A] mask, B the '
          'observations\' batch'),
      tf.debugging.assert_equal(
          tf.shape(to_play), batch_size[None],
          message='to_play must have one player per observation'),
      tf.debugging.assert_equal(
          tf.reduce_any(legal_actions_mask, axis=1), True,
          message='every position needs a legal action (a row of '
          'legal_actions_mask without one would search action 0)'),
      tf.debugging.assert_non_negative(to_play, message=players),
      tf.debugging.assert_less(
          to_play, tf.cast(config.num_players, to_play.dtype),
          message=players)]):
    return tf.identity(observation)


def expand_roots(config: config_lib.MuZeroConfig, network,
                 observation: tf.Tensor, to_play: tf.Tensor,
                 legal_actions_mask: tf.Tensor, *, seed: Optional[tf.Tensor],
                 add_noise: bool, noise: Optional[tf.Tensor], dtype: tf.DType,
                 check_inputs: bool,
                 known_bounds: Optional[config_lib.KnownBounds]) -> Roots:
  """The prologue of both batched searches (arguments: `batched_search`'s):
  the checked inputs' `initial_inference`, the trees (Q bounds from
  `known_bounds`) and, with `add_noise`, `noise` or a drawn one.

  Raises:
    ValueError: if `add_noise` is set without a `seed` or `noise`, or, when
      tracing, a static shape disagrees with the others, the config or the
      network's policy logits.
  """
  if add_noise and seed is None and noise is None:
    raise ValueError('A batched search with add_noise=True needs a seed or '
                     'a noise sample.')
  num_actions = config.action_space_size
  observation = tf.convert_to_tensor(observation)
  to_play = tf.convert_to_tensor(to_play)
  legal = tf.convert_to_tensor(legal_actions_mask, tf.bool)
  observation = _checked(config, observation, to_play, legal, check_inputs)

  # At the root of the search tree we use the representation function to
  # obtain a hidden state given the current observation.
  output = network.initial_inference(observation)
  if output.policy_logits.shape[-1] not in (None, num_actions):
    raise ValueError(
        f'The network returns policy logits of shape '
        f'{output.policy_logits.shape}; the config has {num_actions} '
        'actions. Build the network from the same config.')
  tree = tree_lib.init_tree(config.num_simulations + 1, num_actions,
                            output.value, output.policy_logits,
                            output.hidden_state, to_play, legal,
                            known_bounds, dtype)
  if add_noise and noise is None:
    noise = draw_noise(config, legal, seed, dtype)
  noise = tf.cast(noise, dtype) if add_noise else None
  return Roots(tree, output, all_finite(output), noise)


def run_simulations(config: config_lib.MuZeroConfig, network, roots: Roots,
                    select_leaves: Callable[[tree_lib.Tree, tf.Tensor],
                                            tf.Tensor]
                   ) -> Tuple[tree_lib.Tree, tf.Tensor]:
  """`(tree, finite)` after simulations 1..num_simulations from `roots`:
  simulation s expands and backs up the leaves at the `[B]` flat edges
  `select_leaves(tree, s)` chooses; `finite` covers every network output."""
  num_actions = config.action_space_size

  def body(simulation, tree, finite):
    leaf_edge = select_leaves(tree, simulation)
    # Inside the search tree we use the dynamics function to obtain the next
    # hidden state given an action and the previous hidden state.
    output = network.recurrent_inference(
        tree_lib.gather_rows(tree.hidden_state, leaf_edge // num_actions),
        leaf_edge % num_actions)
    tree = tree_lib.expand(tree, simulation, leaf_edge, output.policy_logits,
                           output.hidden_state, output.value,
                           config.num_players)
    tree = tree_lib.backpropagate(config, tree, leaf_edge, simulation,
                                  output.value, output.reward)
    return simulation + 1, tree, tf.logical_and(finite, all_finite(output))

  hidden_state = roots.output.hidden_state
  with board_conv.assembled_weights(network, hidden_state.shape,
                                    hidden_state.dtype):
    return tf.while_loop(
        lambda simulation, *_: simulation <= config.num_simulations, body,
        (tf.constant(1), roots.tree, roots.finite))[1:]


def root_value(tree: tree_lib.Tree) -> tf.Tensor:
  """`[B]` float32 the roots' mean backed-up values, for the player to move."""
  return tf.cast(tree.root_value_sum / tree.root_visit_count, tf.float32)


def _node_terms(config: config_lib.MuZeroConfig, visit_count: tf.Tensor,
                value_sum: tf.Tensor) -> tf.Tensor:
  """`[B, 3]` (log((N + c2 + 1) / c2) + c1, sqrt(N), unvisited Q) of nodes,
  once per node: XLA keeps a log or sqrt out of fused scores."""
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
  """`[B, A]` pUCT at one node per tree, from its `[B, A, 6]` edges, its
  `_node_terms` and `[B, 1]` whether it is the root."""
  dtype = edges.dtype
  child_visits = edges[:, :, tree_lib.VISIT_COUNT]
  # The reference's order of operations (mcts.ucb_score).
  pb_c = node_terms[:, 0:1] * (node_terms[:, 1:2] / (child_visits + 1))
  prior_score = pb_c * edges[:, :, tree_lib.PRIOR]
  visited = child_visits > 0
  q = tree_lib.child_q(config, edges)
  if config.unvisited_q != 'minimum':
    q = tf.where(visited, q, node_terms[:, 2:3])
  low, high = tree.min_q[:, None], tree.max_q[:, None]
  # `MinMaxStats.normalize`; tf.where discards the unused branch's inf/nan.
  value_score = tf.where(high > low, (q - low) / (high - low), q)
  if config.unvisited_q == 'minimum':
    value_score = tf.where(visited, value_score, tf.zeros([], dtype))
  scores = prior_score + value_score
  illegal = tf.logical_and(at_root, tf.logical_not(tree.root_legal))
  return tf.where(illegal, tf.constant(-float('inf'), dtype), scores)


def ucb_scores(config: config_lib.MuZeroConfig, tree: tree_lib.Tree,
               nodes: tf.Tensor) -> tf.Tensor:
  """`[B, A]` `mcts.ucb_score` of every action at `[B]` expanded `nodes`
  (-inf for a root's illegal actions)."""
  in_edge = tf.cast(
      tree_lib.gather_rows(tree.edges[:, :, 0, tree_lib.IN_EDGE],
                           tree_lib.node_index(tree, nodes)), tf.int32)
  edge = tf.gather(tree_lib.flatten(tree.edges, 3), tree_lib.edge_index(
      tree, tf.zeros_like(in_edge), tf.maximum(in_edge, 0)))  # [B, 6]
  is_root = in_edge < 0
  terms = _node_terms(
      config,
      tf.where(is_root, tree.root_visit_count, edge[:, tree_lib.VISIT_COUNT]),
      tf.where(is_root, tree.root_value_sum, edge[:, tree_lib.VALUE_SUM]))
  edges = tree_lib.gather_rows(tree.edges, tree_lib.node_index(tree, nodes))
  return _scores(config, tree, edges, terms,
                 at_root=tf.equal(nodes, 0)[:, None])


def select_leaves(config: config_lib.MuZeroConfig,
                  tree: tree_lib.Tree) -> tf.Tensor:
  """`run_mcts`'s descent by pUCT for all trees at once: `[B]` int32 the
  flat index (`tree.edge_index`) of each path's edge to its new leaf."""
  batch_size = tf.shape(tree.tree_stats)[0]
  num_nodes, num_actions = tf.shape(tree.edges)[1], tf.shape(tree.edges)[2]
  node_rows = tree_lib.flatten(tree.edges, 2)  # [B * N, A, 6]
  edge_rows = tree_lib.flatten(tree.edges, 3)  # [B * N * A, 6]

  def body(node, leaf_edge, node_terms):
    # node: [B] flat. A tree that has found its leaf edge stays; its scores
    # are ignored.
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
      lambda node, leaf_edge, terms: tf.reduce_any(leaf_edge < 0), body,
      (roots, tf.fill([batch_size], -1),
       _node_terms(config, tree.root_visit_count, tree.root_value_sum)))
  return leaf_edge


def add_exploration_noise(config: config_lib.MuZeroConfig,
                          tree: tree_lib.Tree,
                          noise: tf.Tensor) -> tree_lib.Tree:
  """`mcts.add_exploration_noise` of fresh roots: prior*(1-f) + noise*f."""
  noise = tf.cast(noise, tree.edges.dtype)
  frac = config.root_exploration_fraction
  no_parent = tf.fill(tf.shape(tree.root_legal)[:1], tree_lib.NO_PARENT)
  root_row = tree_lib.node_edges(
      tree.prior[:, 0] * (1 - frac) + noise * frac, no_parent)
  return tree._replace(edges=tree_lib.set_rows(
      tree.edges, tree_lib.node_index(tree, tf.zeros_like(no_parent)),
      root_row))


def batched_search(config: config_lib.MuZeroConfig,
                   network,
                   observation: tf.Tensor,
                   to_play: tf.Tensor,
                   legal_actions_mask: tf.Tensor,
                   seed: Optional[tf.Tensor] = None,
                   add_noise: bool = True,
                   noise: Optional[tf.Tensor] = None,
                   dtype: tf.DType = tf.float32,
                   check_inputs: bool = True) -> BatchedSearchOutput:
  """MuZero's search from each of B positions, to call in a `tf.function`:
  its policy is the normalised visit counts.

  Args:
    network: a `MuZeroNetwork`, or any object with its two inferences.
    observation, to_play, legal_actions_mask: the positions (`base.py`).
    seed: `[2]` int stateless seed of the noise (`draw_noise`).
    add_noise: mix Dirichlet noise into the root priors.
    noise: `[B, A]` a given noise sample, used instead of drawing one.
    dtype: the tree's float type: float32, or float64 for results equal to
      the reference search's.
    check_inputs: assert the inputs' sizes and values when the search runs
      (XLA drops assertions: `CompiledSearch` checks them in NumPy).

  Raises:
    ValueError: as `expand_roots`.
    tf.errors.InvalidArgumentError: with `check_inputs`, outside XLA, if an
      input's size or value is wrong.
  """
  roots = expand_roots(
      config, network, observation, to_play, legal_actions_mask, seed=seed,
      add_noise=add_noise, noise=noise, dtype=dtype,
      check_inputs=check_inputs, known_bounds=config.known_bounds)
  if roots.noise is not None:
    roots = roots._replace(
        tree=add_exploration_noise(config, roots.tree, roots.noise))
  tree, finite = run_simulations(
      config, network, roots, lambda tree, _: select_leaves(config, tree))
  counts = tree.edges[:, 0, :, tree_lib.VISIT_COUNT]  # [B, A]
  policy = tf.cast(counts, tf.float32)
  return BatchedSearchOutput(
      visit_counts=tf.cast(counts, tf.int32),
      policy=policy / tf.reduce_sum(policy, axis=1, keepdims=True),
      root_value=root_value(tree),
      action=None,
      finite=finite,
      tree=tree)
