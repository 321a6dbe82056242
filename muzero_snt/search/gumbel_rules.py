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
"""The rules of Gumbel MuZero at one node per tree, on `[B, A]` tensors.

Danihelka et al., "Policy improvement by planning with Gumbel" (ICLR 2022):

- completed Q (section 4, appendix D): a visited action keeps its Q; an
  unvisited one takes v_mix, the network's value of the node mixed with the
  prior-weighted mean Q of the visited actions, by their visit count;
- sigma(q) = (c_visit + max_b N(b)) * c_scale * q (eq. 8), q the completed Q
  min-max normalised over the node's actions;
- at the root, the score g + logits + sigma(q) of the actions Sequential
  Halving still considers (section 3);
- below the root, the deterministic choice argmax_a pi'(a) - N(a) / (1 +
  sum_b N(b)), pi' = softmax(logits + sigma(completed Q)) (section 5);
- the policy target pi' at the root over its legal actions (eq. 11).

Each function reads one node's statistics per tree; `gumbel_search.py`
applies them while it descends and after the simulations.
"""

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.search import tree as tree_lib

# Below this, a root score counts as minus infinity (a logit of an illegal
# action would otherwise reach the argmax among considered actions).
_LOW_SCORE = -1e9
# The smallest range of Q the min-max normalisation divides by.
_EPSILON = 1e-8


def child_q(config: config_lib.MuZeroConfig,
            edges: tf.Tensor) -> tf.Tensor:
  """`[B, A]` Q(s, a) = r + g * (+-v(child)) of one node's visited children.

  Args:
    config: supplies `discount` and `num_players` (two players: the child's
      value is for the other player, so it changes sign).
    edges: `[B, A, 6]` the node's row of `tree.Tree.edges`.

  Returns:
    Q from the node's player; 0 where a child is unvisited.
  """
  visits = edges[:, :, tree_lib.VISIT_COUNT]
  value = edges[:, :, tree_lib.VALUE_SUM] / tf.maximum(visits, 1)
  if config.num_players == 2:
    value = -value
  q = edges[:, :, tree_lib.REWARD] + config.discount * value
  return tf.where(visits > 0, q, tf.zeros_like(q))


def mixed_value(raw_value: tf.Tensor, q: tf.Tensor, visits: tf.Tensor,
                prior: tf.Tensor) -> tf.Tensor:
  """v_mix of appendix D (eq. 33): the value an unvisited action takes.

  v_mix = (v + sum_b N(b) * sum_{a visited} pi(a) q(a) / sum_{a visited}
  pi(a)) / (1 + sum_b N(b)). A prior of 0 counts as the smallest positive
  float, so that a visited action of prior 0 still has a weight.

  Args:
    raw_value: `[B]` the network's value of the node.
    q: `[B, A]` Q of the visited actions (others are ignored).
    visits: `[B, A]` N(a).
    prior: `[B, A]` pi(a), the network's policy at the node.

  Returns:
    `[B]` v_mix.
  """
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
  """sigma(completed Q) of every action at one node per tree (eq. 8).

  Completed Q: Q(a) if N(a) > 0, else v_mix. It is min-max normalised over
  the node's actions to [0, 1] (all equal: 0), then scaled by
  (c_visit + max_b N(b)) * c_scale. At a root the illegal actions, never
  visited, take v_mix too and so take part in the min-max range (mctx does
  the same); their scores are masked by the callers.

  Args:
    config: supplies `discount`, `num_players`, `gumbel_c_visit` and
      `gumbel_c_scale`.
    edges: `[B, A, 6]` the node's row of `tree.Tree.edges`.
    raw_value: `[B]` the network's value of the node.

  Returns:
    `[B, A]` sigma(completed Q), in the dtype of `edges`.
  """
  visits = edges[:, :, tree_lib.VISIT_COUNT]
  q = child_q(config, edges)
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
  """g + logits + sigma(q) of the root actions Sequential Halving considers.

  An action is considered when its visit count equals `considered_visit`
  (`sequential_halving.py`); the others, and the illegal actions, score
  -inf.

  Args:
    gumbel: `[B, A]` the root's Gumbel(0) sample g (0 without noise).
    logits: `[B, A]` the network's logits at the root.
    sigma_q: `[B, A]` `sigma_completed_q` at the root.
    visits: `[B, A]` the root actions' visit counts.
    considered_visit: `[B]` the count of the actions still considered.
    legal: `[B, A]` bool the legal actions.

  Returns:
    `[B, A]` scores; their argmax is the action to search or to play.
  """
  dtype = sigma_q.dtype
  minus_inf = tf.constant(-np.inf, dtype)
  logits = tf.where(legal, tf.cast(logits, dtype), minus_inf)
  logits = logits - tf.reduce_max(logits, axis=1, keepdims=True)
  score = tf.maximum(tf.cast(gumbel, dtype) + logits + sigma_q, _LOW_SCORE)
  considered = tf.equal(visits, tf.cast(considered_visit, dtype)[:, None])
  return tf.where(considered & legal, score, minus_inf)


def interior_scores(sigma_q: tf.Tensor, prior: tf.Tensor,
                    visits: tf.Tensor) -> tf.Tensor:
  """pi'(a) - N(a) / (1 + sum_b N(b)) below the root (section 5).

  pi' = softmax(logits + sigma(completed Q)), with log(prior) for the
  logits (equal up to a constant, which softmax drops).

  Args:
    sigma_q: `[B, A]` `sigma_completed_q` at the node.
    prior: `[B, A]` the network's policy at the node.
    visits: `[B, A]` the actions' visit counts.

  Returns:
    `[B, A]` scores; the descent takes their first argmax.
  """
  improved = tf.nn.softmax(tf.math.log(prior) + sigma_q, axis=1)
  total = tf.reduce_sum(visits, axis=1, keepdims=True)
  return improved - visits / (1 + total)


def improved_policy(logits: tf.Tensor, sigma_q: tf.Tensor,
                    legal: tf.Tensor) -> tf.Tensor:
  """pi' = softmax(logits + sigma(completed Q)) over the legal actions.

  The policy target of Gumbel MuZero (eq. 11); 0 for illegal actions.

  Args:
    logits: `[B, A]` the network's logits at the root.
    sigma_q: `[B, A]` `sigma_completed_q` at the root.
    legal: `[B, A]` bool the legal actions.

  Returns:
    `[B, A]` probabilities in the dtype of `sigma_q`.
  """
  dtype = sigma_q.dtype
  scores = tf.where(legal, tf.cast(logits, dtype) + sigma_q,
                    tf.constant(-np.inf, dtype))
  return tf.nn.softmax(scores, axis=1)
