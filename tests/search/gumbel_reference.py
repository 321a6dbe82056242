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
"""Gumbel MuZero's search, one position at a time in NumPy, from the paper.

Danihelka et al. (ICLR 2022) written to be read, with a dictionary tree,
explicit Sequential Halving rounds and float64 formulas: the route
muzero_snt/search/gumbel_search.py is tested against.
"""

import math
from typing import Dict, List, NamedTuple

import numpy as np

from muzero_snt import config as config_lib


class _Node:
  """A state of the tree: the network's prediction and its children."""

  def __init__(self, hidden_state, logits, value, to_play):
    self.hidden_state = hidden_state  # [...] one example.
    self.logits = np.asarray(logits, np.float64)  # [A]
    self.value = float(value)  # The network's, for `to_play`.
    self.to_play = to_play
    self.visits = np.zeros(len(logits))  # [A] N(a).
    self.value_sums = np.zeros(len(logits))  # [A] for each child's player.
    self.rewards = np.zeros(len(logits))  # [A]
    self.children: Dict[int, '_Node'] = {}


class ReferenceOutput(NamedTuple):
  """One position's result: `[A]` visits and improved policy, the action."""
  visit_counts: np.ndarray
  policy: np.ndarray
  action: int


def _softmax(x: np.ndarray) -> np.ndarray:
  e = np.exp(x - np.max(x))
  return e / e.sum()


def _sigma_completed_q(config: config_lib.MuZeroConfig, node: _Node,
                       prior: np.ndarray) -> np.ndarray:
  """sigma(completed Q) of the node's actions (eq. 8, appendix D)."""
  visited = node.visits > 0
  sign = -1. if config.num_players == 2 else 1.
  q = node.rewards + config.discount * sign * (
      node.value_sums / np.maximum(node.visits, 1))
  total = node.visits.sum()
  if visited.any():
    weights = np.maximum(prior, np.finfo(np.float64).tiny)[visited]
    mean_q = np.sum(weights * q[visited]) / np.sum(weights)
  else:
    mean_q = 0.
  v_mix = (node.value + total * mean_q) / (1 + total)
  completed = np.where(visited, q, v_mix)
  normalized = (completed - completed.min()) / max(
      completed.max() - completed.min(), 1e-8)
  return (config.gumbel_c_visit + node.visits.max()) * (
      config.gumbel_c_scale * normalized)


def _halving(num_considered: int, num_simulations: int) -> List[int]:
  """The number of actions each round of Sequential Halving visits.

  A phase with k actions has max(1, n // (ceil(log2 m) * k)) rounds of k,
  then k halves (not below 2), until n simulations are planned.
  """
  if num_considered <= 1:
    return [1] * num_simulations
  phases = math.ceil(math.log2(num_considered))
  rounds, planned, k = [], 0, num_considered
  while planned < num_simulations:
    for _ in range(max(1, num_simulations // (phases * k))):
      rounds.append(k)
      planned += k
    k = max(2, k // 2)
  return rounds


def search_one(config: config_lib.MuZeroConfig, model, observation,
               to_play: int, legal: np.ndarray,
               gumbel: np.ndarray) -> ReferenceOutput:
  """Gumbel MuZero's search from one position with a `model.Model`:
  `[*observation_shape]` observation, `[A]` bool legal actions and `[A]`
  Gumbel sample g (zeros: no noise)."""
  legal = np.asarray(legal, bool)
  gumbel = np.asarray(gumbel, np.float64)
  sign = -1. if config.num_players == 2 else 1.
  output = model.initial_inference(np.asarray(observation)[None])
  root = _Node(np.asarray(output.hidden_state)[0],
               np.asarray(output.policy_logits)[0],
               np.asarray(output.value)[0], to_play)
  logits = np.where(legal, root.logits, -np.inf)
  root_prior = _softmax(logits)

  def root_score(action):
    """g + logits + sigma(completed Q) of a root action."""
    sigma = _sigma_completed_q(config, root, root_prior)
    return gumbel[action] + logits[action] + sigma[action]

  def simulate(action):
    """One simulation through root action `action`."""
    path, node = [(root, action)], root.children.get(action)
    while node is not None:
      prior = _softmax(node.logits)
      improved = _softmax(node.logits + _sigma_completed_q(config, node,
                                                           prior))
      scores = improved - node.visits / (1 + node.visits.sum())
      action = int(np.argmax(scores))  # First maximum: lowest action.
      path.append((node, action))
      node = node.children.get(action)
    parent, action = path[-1]
    output = model.recurrent_inference(parent.hidden_state[None],
                                       np.array([action], np.int32))
    leaf = _Node(np.asarray(output.hidden_state)[0],
                 np.asarray(output.policy_logits)[0],
                 np.asarray(output.value)[0],
                 (parent.to_play + 1) % config.num_players)
    parent.children[action] = leaf
    parent.rewards[action] = float(np.asarray(output.reward)[0])
    # Backup: G for the child's player, then r + g * (+-G) one level up.
    g = leaf.value
    for node, action in reversed(path):
      node.visits[action] += 1
      node.value_sums[action] += g
      g = node.rewards[action] + config.discount * sign * g

  # Gumbel-Top-m: the m legal actions of highest g + logits.
  num_considered = min(config.gumbel_max_considered_actions,
                       int(legal.sum()))
  order = sorted(np.flatnonzero(legal), key=lambda a: -(gumbel[a] +
                                                        logits[a]))
  remaining = [int(a) for a in order[:num_considered]]
  simulations = 0
  for round_size in _halving(num_considered, config.num_simulations):
    # A round visits `round_size` of the remaining actions, best first;
    # when it keeps fewer than them, the others are dropped.
    candidates, visited = list(remaining), []
    for _ in range(round_size):
      if simulations == config.num_simulations:
        break
      best = max(candidates, key=lambda a: (root_score(a), -a))
      candidates.remove(best)
      visited.append(best)
      simulate(best)
      simulations += 1
    if simulations < config.num_simulations:
      remaining = visited

  # The action Sequential Halving leaves: the best of the most visited.
  most = np.flatnonzero(root.visits == root.visits.max())
  action = max((int(a) for a in most if legal[a]),
               key=lambda a: (root_score(a), -a))
  policy = _softmax(logits + _sigma_completed_q(config, root, root_prior))
  return ReferenceOutput(visit_counts=root.visits.astype(np.int64),
                         policy=policy, action=action)
