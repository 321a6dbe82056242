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
"""Gumbel MuZero's search as batched tensors, inside one compiled function.

Danihelka et al., "Policy improvement by planning with Gumbel" (ICLR 2022).
`gumbel_search` keeps the trees of the MuZero search (`tree.Tree`: the same
expansion and backup, `tree.expand` and `tree.backpropagate`) and changes how
the descent chooses and what the search returns:

- at the root, Gumbel-Top-m: the m legal actions of highest g + logits (g a
  Gumbel(0) sample per action) are searched, and Sequential Halving splits
  the simulations among them (`sequential_halving.py`), each simulation
  visiting the considered action of highest g + logits + sigma(completed Q);
- below the root, the deterministic argmax of pi'(a) - N(a) / (1 + sum N);
- the policy target is pi' = softmax(logits + sigma(completed Q)) at the
  root, and the action to play the one Sequential Halving leaves: no
  temperature, no Dirichlet noise.

The rules at a node are in `gumbel_rules.py`. The network's value of every
node (the "raw" value v of v_mix) is kept beside the tree. Without noise g
is 0, for evaluation. It is tested against `mctx.gumbel_muzero_policy` and
the NumPy rendition `gumbel_reference.py`; docs/gumbel.md lists the choices.
"""

from typing import NamedTuple, Optional

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.search import batched
from muzero_snt.search import gumbel_rules
from muzero_snt.search import sequential_halving
from muzero_snt.search import tree as tree_lib


class GumbelSearchOutput(NamedTuple):
  """The result of `gumbel_search` for B positions.

  Attributes:
    visit_counts: `[B, A]` int32 visits of each root action.
    policy: `[B, A]` float32 the improved policy pi' (the policy target).
    root_value: `[B]` float32 the root's mean backed-up value, for the player
      to move (as `batched.batched_search`'s).
    action: `[B]` int32 the action Sequential Halving selects, to play.
    finite: `[3]` bool as `batched.BatchedSearchOutput.finite`.
    tree: the searched trees.
  """
  visit_counts: tf.Tensor
  policy: tf.Tensor
  root_value: tf.Tensor
  action: tf.Tensor
  finite: tf.Tensor
  tree: tree_lib.Tree


def sample_gumbel(shape: tf.Tensor, seed: tf.Tensor,
                  dtype: tf.DType) -> tf.Tensor:
  """Gumbel(0) samples -log(-log(u)), u uniform in (0, 1), stateless."""
  tiny = np.finfo(dtype.as_numpy_dtype).tiny
  uniform = tf.random.stateless_uniform(shape, seed, minval=tiny, maxval=1.,
                                        dtype=dtype)
  return -tf.math.log(-tf.math.log(uniform))


def select_leaves(config: config_lib.MuZeroConfig, tree: tree_lib.Tree,
                  raw_value: tf.Tensor, root_logits: tf.Tensor,
                  gumbel: tf.Tensor, considered_visit: tf.Tensor) -> tf.Tensor:
  """Descends each tree to an unexpanded child by Gumbel MuZero's rules.

  The root's action is the considered one of highest g + logits + sigma(q)
  (`gumbel_rules.root_scores`); below, the first argmax of
  `gumbel_rules.interior_scores`.

  Args:
    config: the hyperparameters.
    tree: the trees.
    raw_value: `[B, N]` the network's value of each expanded node.
    root_logits: `[B, A]` the network's logits at the roots.
    gumbel: `[B, A]` the roots' Gumbel sample.
    considered_visit: `[B]` the visit count of the root actions Sequential
      Halving considers at this simulation.

  Returns:
    `[B]` int32 the flat index (`tree.edge_index`) of the edge into each new
    leaf.
  """
  num_nodes, num_actions = tf.shape(tree.edges)[1], tf.shape(tree.edges)[2]
  node_rows = tree_lib.flatten(tree.edges, 2)  # [B * N, A, 6]
  flat_raw_value = tf.reshape(raw_value, [-1])  # [B * N]
  root_edges = tree.edges[:, 0]  # [B, A, 6]
  root = tree_lib.node_index(tree, tf.zeros_like(considered_visit))  # [B]
  root_sigma = gumbel_rules.sigma_completed_q(config, root_edges,
                                              raw_value[:, 0])
  action = tree_lib.first_argmax(gumbel_rules.root_scores(
      gumbel, root_logits, root_sigma, root_edges[:, :, tree_lib.VISIT_COUNT],
      considered_visit, tree.root_legal))
  edge = root * num_actions + action

  def step(node, edge):
    """`(next node, leaf edge or -1)` of each tree after taking `edge`."""
    child = tf.cast(
        tf.gather(tf.reshape(node_rows, [-1, tree_lib.NUM_EDGE_STATISTICS]),
                  edge)[:, tree_lib.CHILD], tf.int32)
    found = tf.equal(child, tree_lib.UNEXPANDED)
    return (tf.where(found, node, node - node % num_nodes + child),
            tf.where(found, edge, -1))

  node, leaf_edge = step(root, edge)

  def body(node, leaf_edge):
    # A tree that has found its leaf edge stays at its node; its scores are
    # computed and ignored.
    edges = tf.gather(node_rows, node)  # [B, A, 6]
    sigma_q = gumbel_rules.sigma_completed_q(
        config, edges, tf.gather(flat_raw_value, node))
    chosen = tree_lib.first_argmax(gumbel_rules.interior_scores(
        sigma_q, edges[:, :, tree_lib.PRIOR],
        edges[:, :, tree_lib.VISIT_COUNT]))
    next_node, found_edge = step(node, node * num_actions + chosen)
    searching = leaf_edge < 0
    return (tf.where(searching, next_node, node),
            tf.where(searching, found_edge, leaf_edge))

  _, leaf_edge = tf.while_loop(
      lambda node, leaf_edge: tf.reduce_any(leaf_edge < 0), body,
      (node, leaf_edge))
  return leaf_edge


def gumbel_search(config: config_lib.MuZeroConfig,
                  network,
                  observation: tf.Tensor,
                  to_play: tf.Tensor,
                  legal_actions_mask: tf.Tensor,
                  seed: Optional[tf.Tensor] = None,
                  add_noise: bool = True,
                  gumbel: Optional[tf.Tensor] = None,
                  num_simulations: Optional[int] = None,
                  dtype: tf.DType = tf.float32,
                  check_inputs: bool = True) -> GumbelSearchOutput:
  """Gumbel MuZero's search from each of B positions; XLA-compilable.

  Call it inside a `tf.function` (see `compiled_search.CompiledSearch`).
  The inputs are those of `batched.batched_search`, checked by the same
  prologue (`batched.expand_roots`).

  Args:
    config: the hyperparameters (`num_simulations`, `num_players`,
      `action_space_size`, `discount`, `gumbel_*`).
    network: has `initial_inference` and `recurrent_inference` returning
      `types.NetworkOutput` tensors.
    observation: `[B, *observation_shape]` the current observations.
    to_play: `[B]` int the player to move in each position.
    legal_actions_mask: `[B, A]` bool the legal actions (at least one per
      row).
    seed: `[2]` int stateless seed of the Gumbel sample; needed if
      `add_noise` and no `gumbel` is given.
    add_noise: draw the Gumbel sample g; without it g = 0 (evaluation).
    gumbel: `[B, A]` a given Gumbel sample, used instead of drawing one.
    num_simulations: overrides `config.num_simulations` if given.
    dtype: float type of the tree's statistics.
    check_inputs: as `batched.batched_search`'s.

  Returns:
    `GumbelSearchOutput`.

  Raises:
    ValueError, tf.errors.InvalidArgumentError: as
      `batched.batched_search`.
  """
  # Gumbel MuZero normalises Q at each node (`gumbel_rules.py`): the trees'
  # bounds are not used.
  roots = batched.expand_roots(
      config, network, observation, to_play, legal_actions_mask,
      add_noise=add_noise, seed=seed, noise=gumbel,
      num_simulations=num_simulations, dtype=dtype, known_bounds=None,
      check_inputs=check_inputs)
  num_simulations = roots.num_simulations
  output, tree = roots.output, roots.tree
  legal = tree.root_legal
  batch_size = tf.shape(legal)[0]
  raw_value = tf.concat(
      [tf.cast(output.value, dtype)[:, None],
       tf.zeros(tf.stack([batch_size, num_simulations]), dtype)], axis=1)
  root_logits = tf.cast(output.policy_logits, dtype)
  if gumbel is not None:
    gumbel = tf.cast(gumbel, dtype)
  elif add_noise:
    gumbel = sample_gumbel(tf.shape(root_logits), seed, dtype)
  else:
    gumbel = tf.zeros_like(root_logits)

  # Row k of the table is the halving of a root with k actions to consider.
  max_considered = config.gumbel_max_considered_actions
  table = tf.constant(
      sequential_halving.visit_table(max_considered, num_simulations),
      tf.int32, shape=[max_considered + 1, num_simulations])
  num_considered = tf.minimum(
      max_considered, tf.reduce_sum(tf.cast(legal, tf.int32), axis=1))

  def body(simulation, tree, raw_value, finite):
    index = tf.stack([num_considered,
                      tf.fill([batch_size], simulation - 1)], axis=1)
    leaf_edge = select_leaves(config, tree, raw_value, root_logits, gumbel,
                              tf.gather_nd(table, index))
    tree, output = batched.simulate(config, network, tree, simulation,
                                    leaf_edge)
    new = tree_lib.node_index(tree, tf.fill([batch_size], simulation))
    raw_value = tree_lib.set_rows(raw_value, new,
                                  tf.cast(output.value, dtype))
    return (simulation + 1, tree, raw_value,
            tf.logical_and(finite, batched.all_finite(output)))

  tree, raw_value, finite = batched.run_simulations(
      network, roots, body, (tree, raw_value, roots.finite))

  root_edges = tree.edges[:, 0]  # [B, A, 6]
  counts = root_edges[:, :, tree_lib.VISIT_COUNT]  # [B, A]
  sigma_q = gumbel_rules.sigma_completed_q(config, root_edges,
                                           raw_value[:, 0])
  # The action left by the halving: of the most visited ones, the best.
  action = tree_lib.first_argmax(gumbel_rules.root_scores(
      gumbel, root_logits, sigma_q, counts,
      tf.cast(tf.reduce_max(counts, axis=1), tf.int32), legal))
  policy = gumbel_rules.improved_policy(root_logits, sigma_q, legal)
  return GumbelSearchOutput(
      visit_counts=tf.cast(counts, tf.int32),
      policy=tf.cast(policy, tf.float32),
      root_value=batched.root_value(tree),
      action=action,
      finite=finite,
      tree=tree)
