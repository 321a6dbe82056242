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
"""The pseudocode's Monte-Carlo tree search, with its defects fixed.

`run_mcts`, `select_child`, `ucb_score`, `expand_node`, `backpropagate` and
`add_exploration_noise` follow the pseudocode of arXiv:1911.08265 line by
line, on a batch of trees searched in lockstep so that the network sees one
batched call per simulation. Three rules differ from the pseudocode (see
docs/pseudocode.md, defects 1-3):

1. `backpropagate` walks the search path from the leaf up to the root.
2. Q(s, a) is `child.reward + discount * child.value()` (the child's value
   seen from the parent's player), in `ucb_score` and in `MinMaxStats`.
3. Every value and reward belongs to a named player (the value to the
   node's `to_play`, the reward to the player who moved), and a value
   changes sign when it passes to the other player, so two-player returns
   add up like `make_target`'s.

Conventions: `node.to_play` moves at `node`; `node.reward` is for the player
who moved into `node` (the parent's `to_play`); `node.value()` is for
`node.to_play`. Every choice is deterministic: ties go to the lowest action.
"""

import math
from typing import Iterable, List, Sequence, Tuple

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import types
from muzero_snt.search import min_max_stats as min_max_stats_lib
from muzero_snt.search import model as model_lib
from muzero_snt.search import node as node_lib

Node = node_lib.Node
MinMaxStats = min_max_stats_lib.MinMaxStats


def q_value(parent: Node, child: Node, discount: float) -> float:
  """Q(s, a): the return of `parent.to_play` for taking the child's action.

  The reward for moving into `child` is already the parent's player's; the
  child's value is for `child.to_play`, so it changes sign when the player
  changes (two-player games) and keeps it otherwise (one player, or a game
  where a player moves twice).

  Args:
    parent: the node s.
    child: the node reached from s by a; it must have been visited.
    discount: the per-step discount.

  Returns:
    `child.reward + discount * (+-child.value())`.
  """
  value = child.value()
  if child.to_play != parent.to_play:
    value = -value
  return child.reward + discount * value


def ucb_score(config: config_lib.MuZeroConfig, parent: Node, child: Node,
              min_max_stats: MinMaxStats) -> float:
  """The pUCT score of `child` (appendix B of arXiv:1911.08265).

  Prior part as the pseudocode:
  `(log((N + pb_c_base + 1) / pb_c_base) + pb_c_init) * sqrt(N) /
  (child.visit_count + 1) * child.prior`, with N the parent's visit count.

  Value part (fix of defect 2): the pseudocode normalises `child.value()`
  alone; here it normalises the paper's Q(s, a) = `child.reward + discount *
  child's value from the parent's player` (`q_value`), the same quantity
  `backpropagate` feeds to `min_max_stats`. An unvisited child has no Q; it
  gets `unvisited_q_value` by `config.unvisited_q`, normalised the same way
  ('zero', the pseudocode's: normalize(0)), or a value part of 0
  ('minimum').

  Args:
    config: supplies `pb_c_base`, `pb_c_init`, `discount`, `unvisited_q`.
    parent: the node whose children are scored.
    child: one of its children.
    min_max_stats: the tree's Q bounds.

  Returns:
    The score as a Python float.
  """
  pb_c = math.log((parent.visit_count + config.pb_c_base + 1) /
                  config.pb_c_base) + config.pb_c_init
  pb_c *= math.sqrt(parent.visit_count) / (child.visit_count + 1)
  prior_score = pb_c * child.prior
  if child.visit_count > 0:
    value_score = min_max_stats.normalize(
        q_value(parent, child, config.discount))
  elif config.unvisited_q == 'minimum':
    value_score = 0.
  else:
    value_score = min_max_stats.normalize(unvisited_q_value(config, parent))
  return prior_score + value_score


def unvisited_q_value(config: config_lib.MuZeroConfig, parent: Node) -> float:
  """The Q that pUCT gives an unvisited child of `parent`.

  Args:
    config: `unvisited_q` is 'zero' (0, the pseudocode's `child.value()` of
      a child without visits) or 'parent' (`parent.value()`, the parent's
      mean value, for the parent's player as Q is).
    parent: the node whose child has not been visited.

  Returns:
    The Q as a Python float.
  """
  if config.unvisited_q == 'parent':
    return parent.value()
  return 0.


def select_child(config: config_lib.MuZeroConfig, node: Node,
                 min_max_stats: MinMaxStats) -> Tuple[int, Node]:
  """The child with the highest `ucb_score`; ties go to the lowest action.

  Args:
    config: see `ucb_score`.
    node: an expanded node.
    min_max_stats: the tree's Q bounds.

  Returns:
    `(action, child)`.
  """
  best_score = -math.inf
  best_action = -1
  best_child = None
  for action, child in node.children.items():
    score = ucb_score(config, node, child, min_max_stats)
    # Children are created in increasing action order; the second test keeps
    # the lowest action among equal scores whatever the dictionary's order.
    if score > best_score or (score == best_score and action < best_action):
      best_score, best_action, best_child = score, action, child
  return best_action, best_child


def expand_node(node: Node, to_play: int, actions: Iterable[int],
                network_output: types.NetworkOutput):
  """Expands `node` with one child per action, priors softmax(logits).

  The pseudocode's `expand_node`; the softmax is restricted to `actions` and
  computed stably (the maximum logit is subtracted first). The search passes
  the legal actions at the root and every action inside the tree, where
  there is no environment to ask.

  Args:
    node: the node to expand.
    to_play: the player to move at `node`.
    actions: the actions to create children for (any order; children are
      created in increasing action order).
    network_output: the network's output at `node` for one example:
      `reward` a float, `policy_logits` `[A]`, `hidden_state` `[...]`
      (`value` is not read here: `backpropagate` uses it).
  """
  node.to_play = to_play
  node.hidden_state = network_output.hidden_state
  node.reward = float(network_output.reward)
  actions = sorted(actions)
  logits = np.asarray(network_output.policy_logits, np.float64)[actions]
  policy = np.exp(logits - logits.max())
  policy /= policy.sum()
  children = node.children
  for action, p in zip(actions, policy.tolist()):
    children[action] = Node(p)


def backpropagate(search_path: Sequence[Node], value: float, discount: float,
                  min_max_stats: MinMaxStats):
  """Backs the leaf's value up the search path, from the leaf to the root.

  Fix of defects 1-3. The pseudocode accumulates `value = reward + discount
  * value` while walking the path from the root down (defect 1), adds
  `value` or `-value` by comparing each node's player with the leaf's, which
  mixes up the players once rewards are in the sum (defect 3), and feeds
  `node.value()` to MinMaxStats instead of Q (defect 2). Here G is the
  return from the current node on, always held in the perspective of that
  node's `to_play`:

      G <- value (the leaf's value, for leaf.to_play)
      for node from the leaf up to the root, with parent the node above it:
        node.value_sum += G; node.visit_count += 1
        if node is the root: stop
        min_max_stats.update(q_value(parent, node, discount))
        G <- node.reward + discount * (G if node.to_play == parent.to_play
                                       else -G)

  `node.reward` already belongs to `parent.to_play` (it moved into node), so
  the last line is G in the parent's perspective. MinMaxStats thus sees every
  Q(s, a) on the path, after the update, with the same formula as
  `ucb_score`; the root has no parent and no Q.

  Args:
    search_path: the nodes from the root to the leaf.
    value: the network's value at the leaf, for `leaf.to_play`.
    discount: the per-step discount.
    min_max_stats: the tree's Q bounds, updated in place.
  """
  for depth in range(len(search_path) - 1, -1, -1):
    node = search_path[depth]
    node.value_sum += value
    node.visit_count += 1
    if depth == 0:
      break
    parent = search_path[depth - 1]
    min_max_stats.update(q_value(parent, node, discount))
    if node.to_play != parent.to_play:
      value = -value
    value = node.reward + discount * value


def add_exploration_noise(config: config_lib.MuZeroConfig, node: Node,
                          rng: np.random.Generator):
  """Mixes Dirichlet noise into the priors of `node`'s children.

  The pseudocode's rule: `prior <- (1 - frac) * prior + frac * noise` with
  `noise ~ Dirichlet(root_dirichlet_alpha)` over the children and `frac =
  root_exploration_fraction`. One `rng.dirichlet` draw per call, its
  components assigned to the children in increasing action order.

  Args:
    config: supplies `root_dirichlet_alpha` and `root_exploration_fraction`.
    node: an expanded node (the root).
    rng: the random generator.
  """
  actions = sorted(node.children)
  noise = rng.dirichlet([config.root_dirichlet_alpha] * len(actions))
  frac = config.root_exploration_fraction
  for action, n in zip(actions, noise.tolist()):
    child = node.children[action]
    child.prior = child.prior * (1 - frac) + n * frac


def check_finite(output: types.NetworkOutput, call: str) -> None:
  """Raises `FloatingPointError` naming the first non-finite model output.

  A diverged network gives NaN priors, and every pUCT score is then NaN:
  the search would stop with no child to select. Failing here names the
  cause instead.
  """
  for name in ('value', 'reward', 'policy_logits'):
    array = np.asarray(getattr(output, name))
    if not np.all(np.isfinite(array)):
      index = tuple(np.argwhere(~np.isfinite(array))[0].tolist())
      raise FloatingPointError(
          f"The model's {call} returned a non-finite {name} "
          f'({float(array[index])} at index {list(index)}): the network has '
          'probably diverged.')


def run_mcts(config: config_lib.MuZeroConfig, roots: Sequence[Node],
             model: model_lib.Model,
             min_max_stats: Sequence[MinMaxStats]):
  """Runs `config.num_simulations` simulations on every root, in lockstep.

  The pseudocode's `run_mcts` for a batch of trees: each simulation descends
  every tree to a leaf with `select_child`, evaluates all the leaves with one
  batched `model.recurrent_inference`, then expands each leaf over every
  action and backs its value up. A single root is a batch of one.

  Args:
    config: the search's hyperparameters (`num_simulations`, `num_players`,
      `action_space_size`, `discount`, `pb_c_*`).
    roots: expanded roots, e.g. by `reference_search.search_trees`.
    model: the network (see `model.Model`).
    min_max_stats: one `MinMaxStats` per root, updated in place.

  Raises:
    ValueError: if `roots` and `min_max_stats` differ in length or a root is
      not expanded.
    FloatingPointError: if the model returns a non-finite output.
  """
  if len(roots) != len(min_max_stats):
    raise ValueError(f'run_mcts needs one MinMaxStats per root, got '
                     f'{len(roots)} roots and {len(min_max_stats)} stats.')
  for i, root in enumerate(roots):
    if not root.expanded():
      raise ValueError(f'run_mcts needs expanded roots; root {i} has no '
                       'children.')
  all_actions = range(config.action_space_size)
  num_players = config.num_players
  discount = config.discount
  for _ in range(config.num_simulations):
    search_paths: List[List[Node]] = []
    actions: List[int] = []
    for root, stats in zip(roots, min_max_stats):
      node = root
      search_path = [node]
      while node.expanded():
        action, node = select_child(config, node, stats)
        search_path.append(node)
      search_paths.append(search_path)
      actions.append(action)

    # Inside the search tree we use the dynamics function to obtain the next
    # hidden state given an action and the previous hidden state.
    hidden_states = np.stack([path[-2].hidden_state for path in search_paths])
    output = model.recurrent_inference(hidden_states,
                                       np.asarray(actions, np.int32))
    check_finite(output, 'recurrent_inference')
    values = np.asarray(output.value).tolist()
    rewards = np.asarray(output.reward).tolist()
    policy_logits = np.asarray(output.policy_logits)
    next_hidden_states = np.asarray(output.hidden_state)

    for i, (search_path, stats) in enumerate(zip(search_paths,
                                                 min_max_stats)):
      leaf_output = types.NetworkOutput(
          value=values[i],
          reward=rewards[i],
          policy_logits=policy_logits[i],
          hidden_state=next_hidden_states[i])
      to_play = (search_path[-2].to_play + 1) % num_players
      expand_node(search_path[-1], to_play, all_actions, leaf_output)
      backpropagate(search_path, values[i], discount, stats)
