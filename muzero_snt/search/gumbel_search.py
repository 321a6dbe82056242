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

Danihelka et al., "Policy improvement by planning with Gumbel" (ICLR 2022):
MuZero's trees, expansion and backup (`batched.py`) with the paper's descent,
at the root Gumbel-Top-m (the m legal actions of highest g + logits) and
Sequential Halving among them (section 3), below it section 5's rule. Without
noise g = 0. Tested against `mctx.gumbel_muzero_policy` and a NumPy rendition
of the paper (tests/search/gumbel_reference.py).
"""

import math
from typing import List, Optional, Tuple

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.search import batched
from muzero_snt.search import tree as tree_lib

# Root scores are clipped below here, so that a logit of an illegal action
# never reaches the argmax among considered actions.
_LOW_SCORE = -1e9
# The smallest range of Q the min-max normalisation divides by.
_EPSILON = 1e-8


def mixed_value(raw_value: tf.Tensor, q: tf.Tensor, visits: tf.Tensor,
                prior: tf.Tensor) -> tf.Tensor:
  """`[B]` v_mix (eq. 33) of `[B]` network values and `[B, A]` Q, N, pi:
  (v + sum_b N(b) * sum_{a visited} pi(a) q(a) / sum_{a visited} pi(a)) /
  (1 + sum_b N(b)). A prior of 0 counts as the smallest positive float, so
  that a visited action of prior 0 keeps a weight."""
  dtype = q.dtype
  visited = visits > 0
  zero = tf.zeros_like(q)
  prior = tf.maximum(prior, np.finfo(dtype.as_numpy_dtype).tiny)
  total_visits = tf.reduce_sum(visits, axis=1)
  visited_prior = tf.reduce_sum(tf.where(visited, prior, zero), axis=1)
  weighted_q = tf.reduce_sum(tf.where(visited, prior * q, zero), axis=1) / (
      tf.where(visited_prior > 0, visited_prior, tf.ones_like(visited_prior)))
  return (tf.cast(raw_value, dtype) + total_visits * weighted_q) / (
      total_visits + 1)


def sigma_completed_q(config: config_lib.MuZeroConfig, edges: tf.Tensor,
                      raw_value: tf.Tensor) -> tf.Tensor:
  """`[B, A]` sigma(completed Q) at one node per tree (appendix D, eq. 8),
  from its `[B, A, 6]` row of `Tree.edges` and `[B]` network value v of
  v_mix (`Tree.raw_value`): (c_visit + max_b N(b)) * c_scale * q, q the
  visited actions' Q and the others' v_mix, min-max normalised over the
  node's actions. A root's illegal actions take v_mix too and so enter the
  min-max range, as in mctx; the callers mask their scores."""
  visits = edges[:, :, tree_lib.VISIT_COUNT]
  q = tree_lib.child_q(config, edges)
  value = mixed_value(raw_value, q, visits, edges[:, :, tree_lib.PRIOR])
  completed = tf.where(visits > 0, q, value[:, None])
  low = tf.reduce_min(completed, axis=1, keepdims=True)
  high = tf.reduce_max(completed, axis=1, keepdims=True)
  normalized = (completed - low) / tf.maximum(high - low, _EPSILON)
  scale = (config.gumbel_c_visit + tf.reduce_max(visits, axis=1,
                                                 keepdims=True))
  return scale * config.gumbel_c_scale * normalized


def root_scores(gumbel: tf.Tensor, logits: tf.Tensor, sigma_q: tf.Tensor,
                visits: tf.Tensor, considered_visit: tf.Tensor,
                legal: tf.Tensor) -> tf.Tensor:
  """`[B, A]` g + logits + sigma(q) of the root actions still considered:
  those whose visit count equals `[B]` `considered_visit`
  (`considered_visits`); the others and the illegal actions score -inf."""
  dtype = sigma_q.dtype
  minus_inf = tf.constant(-np.inf, dtype)
  logits = tf.where(legal, tf.cast(logits, dtype), minus_inf)
  logits = logits - tf.reduce_max(logits, axis=1, keepdims=True)
  score = tf.maximum(tf.cast(gumbel, dtype) + logits + sigma_q, _LOW_SCORE)
  considered = tf.equal(visits, tf.cast(considered_visit, dtype)[:, None])
  return tf.where(considered & legal, score, minus_inf)


def interior_scores(sigma_q: tf.Tensor, prior: tf.Tensor,
                    visits: tf.Tensor) -> tf.Tensor:
  """`[B, A]` pi'(a) - N(a) / (1 + sum_b N(b)) below the root (section 5),
  with log(prior) for the logits (softmax drops the constant)."""
  improved = tf.nn.softmax(tf.math.log(prior) + sigma_q, axis=1)
  total = tf.reduce_sum(visits, axis=1, keepdims=True)
  return improved - visits / (1 + total)


def improved_policy(logits: tf.Tensor, sigma_q: tf.Tensor,
                    legal: tf.Tensor) -> tf.Tensor:
  """`[B, A]` pi' = softmax(logits + sigma(q)) on legal actions (eq. 11)."""
  dtype = sigma_q.dtype
  scores = tf.where(legal, tf.cast(logits, dtype) + sigma_q,
                    tf.constant(-np.inf, dtype))
  return tf.nn.softmax(scores, axis=1)


def considered_visits(num_considered: int,
                      num_simulations: int) -> Tuple[int, ...]:
  """Sequential Halving of n simulations among m root actions: n ints, entry
  s the visit count, before simulation s, of the root action it visits (the
  highest `root_scores` among those of that count: those still in the
  halving; m <= 1: the one action's, 0, 1, ...).

  Karnin et al. (2013), as section 3.2 uses it: each phase gives every one
  of the k actions left max(1, floor(n / (ceil(log2 m) * k))) visits, then
  keeps the better half (at least two).

  Raises:
    ValueError: if m or n is not an integer >= 0.
  """
  for name, value in (('num_considered', num_considered),
                      ('num_simulations', num_simulations)):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
      raise ValueError(f'{name} must be an integer >= 0, got {value!r}.')
  if num_considered <= 1:
    return tuple(range(num_simulations))
  phases = math.ceil(math.log2(num_considered))
  schedule: List[int] = []
  visits = 0  # Of every action still in the halving.
  remaining = num_considered
  while len(schedule) < num_simulations:
    for _ in range(max(1, num_simulations // (phases * remaining))):
      schedule.extend([visits] * remaining)
      visits += 1
    remaining = max(2, remaining // 2)
  return tuple(schedule[:num_simulations])


def visit_table(max_considered: int,
                num_simulations: int) -> Tuple[Tuple[int, ...], ...]:
  """`[m + 1, n]`: row k is `considered_visits(k, n)`."""
  return tuple(considered_visits(k, num_simulations)
               for k in range(max_considered + 1))


def select_leaves(config: config_lib.MuZeroConfig, tree: tree_lib.Tree,
                  root_logits: tf.Tensor, gumbel: tf.Tensor,
                  considered_visit: tf.Tensor) -> tf.Tensor:
  """`[B]` int32 the flat edge into each tree's new leaf: `root_scores`
  (`considered_visit` from Sequential Halving), then `interior_scores`."""
  num_nodes, num_actions = tf.shape(tree.edges)[1], tf.shape(tree.edges)[2]
  node_rows = tree_lib.flatten(tree.edges, 2)  # [B * N, A, 6]
  flat_raw_value = tf.reshape(tree.raw_value, [-1])  # [B * N]
  root_edges = tree.edges[:, 0]  # [B, A, 6]
  root = tree_lib.node_index(tree, tf.zeros_like(considered_visit))  # [B]
  root_sigma = sigma_completed_q(config, root_edges, tree.raw_value[:, 0])
  action = tree_lib.first_argmax(root_scores(
      gumbel, root_logits, root_sigma, root_edges[:, :, tree_lib.VISIT_COUNT],
      considered_visit, tree.root_legal))

  def step(node, edge):
    # (next node, leaf edge or -1) of each tree after taking `edge`.
    child = tf.cast(
        tf.gather(tf.reshape(node_rows, [-1, tree_lib.NUM_EDGE_STATISTICS]),
                  edge)[:, tree_lib.CHILD], tf.int32)
    found = tf.equal(child, tree_lib.UNEXPANDED)
    return (tf.where(found, node, node - node % num_nodes + child),
            tf.where(found, edge, -1))

  def body(node, leaf_edge):
    # A tree that has found its leaf edge stays; its scores are ignored.
    edges = tf.gather(node_rows, node)  # [B, A, 6]
    sigma_q = sigma_completed_q(config, edges, tf.gather(flat_raw_value, node))
    chosen = tree_lib.first_argmax(interior_scores(
        sigma_q, edges[:, :, tree_lib.PRIOR],
        edges[:, :, tree_lib.VISIT_COUNT]))
    next_node, found_edge = step(node, node * num_actions + chosen)
    searching = leaf_edge < 0
    return (tf.where(searching, next_node, node),
            tf.where(searching, found_edge, leaf_edge))

  _, leaf_edge = tf.while_loop(
      lambda node, leaf_edge: tf.reduce_any(leaf_edge < 0), body,
      step(root, root * num_actions + action))
  return leaf_edge


def gumbel_search(config: config_lib.MuZeroConfig,
                  network,
                  observation: tf.Tensor,
                  to_play: tf.Tensor,
                  legal_actions_mask: tf.Tensor,
                  seed: Optional[tf.Tensor] = None,
                  add_noise: bool = True,
                  noise: Optional[tf.Tensor] = None,
                  dtype: tf.DType = tf.float32,
                  check_inputs: bool = True) -> batched.BatchedSearchOutput:
  """Gumbel MuZero's search from B positions (arguments and errors as
  `batched.batched_search`'s, the noise the roots' Gumbel sample g): policy
  pi' and the action Sequential Halving selects."""
  # Gumbel MuZero normalises Q at each node: the trees' bounds are unused.
  roots = batched.expand_roots(
      config, network, observation, to_play, legal_actions_mask, seed=seed,
      add_noise=add_noise, noise=noise, dtype=dtype,
      check_inputs=check_inputs, known_bounds=None)
  num_simulations = config.num_simulations
  legal = roots.tree.root_legal
  root_logits = tf.cast(roots.output.policy_logits, dtype)
  gumbel = tf.zeros_like(root_logits) if roots.noise is None else roots.noise

  max_considered = config.gumbel_max_considered_actions
  table = tf.constant(visit_table(max_considered, num_simulations),
                      tf.int32, shape=[max_considered + 1, num_simulations])
  num_considered = tf.minimum(
      max_considered, tf.reduce_sum(tf.cast(legal, tf.int32), axis=1))

  def select(tree, simulation):
    return select_leaves(config, tree, root_logits, gumbel,
                         tf.gather(table[:, simulation - 1], num_considered))

  tree, finite = batched.run_simulations(config, network, roots, select)
  root_edges = tree.edges[:, 0]  # [B, A, 6]
  counts = root_edges[:, :, tree_lib.VISIT_COUNT]  # [B, A]
  sigma_q = sigma_completed_q(config, root_edges, tree.raw_value[:, 0])
  # The action the halving leaves: of the most visited ones, the best.
  action = tree_lib.first_argmax(root_scores(
      gumbel, root_logits, sigma_q, counts,
      tf.cast(tf.reduce_max(counts, axis=1), tf.int32), legal))
  return batched.BatchedSearchOutput(
      visit_counts=tf.cast(counts, tf.int32),
      policy=tf.cast(improved_policy(root_logits, sigma_q, legal), tf.float32),
      root_value=batched.root_value(tree),
      action=action,
      finite=finite,
      tree=tree)
