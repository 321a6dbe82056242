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
"""The pseudocode's Monte-Carlo tree search on `Node`s, with its defects fixed.

arXiv:1911.08265's pseudocode on a batch of trees searched in lockstep (one
network call per simulation). Three rules differ (docs/pseudocode.md, defects
1-3): `backpropagate` walks from the leaf up; Q(s, a) is `q_value`, in
`ucb_score` and in MinMaxStats; a value changes sign when it passes to the
other player. Ties go to the lowest action.
"""

import math
from typing import Iterable, List, Optional, Sequence, Tuple

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import types
from muzero_snt.search import model as model_lib


class Node:
  """A state of the search tree (the pseudocode's `Node`): `visit_count`,
  `to_play` (-1 until expanded), `prior` P(s, a), `value_sum` (for
  `to_play`), `children` (action -> Node, in increasing action order), the
  network's `hidden_state` and the `reward` for moving here."""

  __slots__ = ('visit_count', 'to_play', 'prior', 'value_sum', 'children',
               'hidden_state', 'reward')

  def __init__(self, prior: float):
    self.visit_count = 0
    self.to_play = -1
    self.prior = prior
    self.value_sum = 0.
    self.children = {}
    self.hidden_state = None
    self.reward = 0.

  def expanded(self) -> bool:
    return bool(self.children)

  def value(self) -> float:
    """The mean backed-up return for `to_play`; 0 before any visit."""
    if self.visit_count == 0:
      return 0.
    return self.value_sum / self.visit_count

  def __repr__(self) -> str:
    return (f'Node(prior={self.prior:.4g}, to_play={self.to_play}, '
            f'visit_count={self.visit_count}, value={self.value():.4g}, '
            f'reward={self.reward:.4g}, children={list(self.children)})')


class MinMaxStats:
  """The smallest and largest Q seen in one tree (appendix B), started at
  `known_bounds` if given (board games: [-1, 1])."""

  __slots__ = ('maximum', 'minimum')

  def __init__(self, known_bounds: Optional[config_lib.KnownBounds] = None):
    if known_bounds is not None:
      self.maximum = float(known_bounds.max)
      self.minimum = float(known_bounds.min)
    else:
      self.maximum = -config_lib.MAXIMUM_FLOAT_VALUE
      self.minimum = config_lib.MAXIMUM_FLOAT_VALUE

  def update(self, value: float):
    self.maximum = max(self.maximum, value)
    self.minimum = min(self.minimum, value)

  def normalize(self, value: float) -> float:
    """(value - min) / (max - min) once max > min, else `value` unchanged."""
    if self.maximum > self.minimum:
      return (value - self.minimum) / (self.maximum - self.minimum)
    return value


def q_value(parent: Node, child: Node, discount: float) -> float:
  """Q(s, a) for `parent.to_play`: `child.reward + discount * (+-value)`,
  the child's value negated when the child's player is the other one."""
  value = child.value()
  if child.to_play != parent.to_play:
    value = -value
  return child.reward + discount * value


def ucb_score(config: config_lib.MuZeroConfig, parent: Node, child: Node,
              min_max_stats: MinMaxStats) -> float:
  """The pUCT score of `child` (appendix B of arXiv:1911.08265): the
  pseudocode's prior part `(log((N + pb_c_base + 1) / pb_c_base) +
  pb_c_init) * sqrt(N) / (child.visit_count + 1) * child.prior` plus the
  normalised `q_value` (defect 2). An unvisited child's Q is what
  `config.unvisited_q` says: 'zero' (the pseudocode's), 'parent' (the
  parent's value), or 'minimum' (a value part of 0)."""
  pb_c = math.log((parent.visit_count + config.pb_c_base + 1) /
                  config.pb_c_base) + config.pb_c_init
  pb_c *= math.sqrt(parent.visit_count) / (child.visit_count + 1)
  prior_score = pb_c * child.prior
  if child.visit_count > 0:
    value_score = min_max_stats.normalize(
        q_value(parent, child, config.discount))
  elif config.unvisited_q == 'minimum':
    value_score = 0.
  elif config.unvisited_q == 'parent':
    value_score = min_max_stats.normalize(parent.value())
  else:
    value_score = min_max_stats.normalize(0.)
  return prior_score + value_score


def select_child(config: config_lib.MuZeroConfig, node: Node,
                 min_max_stats: MinMaxStats) -> Tuple[int, Node]:
  """`(action, child)` of the highest `ucb_score`, ties to the lowest."""
  return max(node.children.items(), key=lambda item: (
      ucb_score(config, node, item[1], min_max_stats), -item[0]))


def expand_node(node: Node, to_play: int, actions: Iterable[int],
                network_output: types.NetworkOutput):
  """Expands `node` over `actions` (the legal ones at the root, all inside
  the tree), priors the softmax of their logits, with one example's
  `network_output` (`reward` a float, `policy_logits` `[A]`)."""
  node.to_play = to_play
  node.hidden_state = network_output.hidden_state
  node.reward = float(network_output.reward)
  actions = sorted(actions)
  logits = np.asarray(network_output.policy_logits, np.float64)[actions]
  policy = np.exp(logits - logits.max())
  policy /= policy.sum()
  for action, p in zip(actions, policy.tolist()):
    node.children[action] = Node(p)


def backpropagate(search_path: Sequence[Node], value: float, discount: float,
                  min_max_stats: MinMaxStats):
  """Backs the leaf's value up `search_path` (root first), leaf to root:
  each node adds G (for its `to_play`) and a visit, then below the root
  MinMaxStats sees Q(parent, node) and G becomes `reward + discount * +-G`."""
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
  """`prior <- (1 - frac) * prior + frac * noise`, noise ~ Dirichlet(alpha),
  one `rng.dirichlet` draw, given to the children in action order."""
  actions = sorted(node.children)
  noise = rng.dirichlet([config.root_dirichlet_alpha] * len(actions))
  frac = config.root_exploration_fraction
  for action, n in zip(actions, noise.tolist()):
    child = node.children[action]
    child.prior = child.prior * (1 - frac) + n * frac


def check_finite(output: types.NetworkOutput, call: str) -> None:
  """Raises FloatingPointError naming the first non-finite model output."""
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
  """Runs `config.num_simulations` simulations on every expanded root, each
  with one `model.recurrent_inference` of all trees' leaves.

  Raises:
    ValueError: if a root is not expanded or has no `min_max_stats`.
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
      to_play = (search_path[-2].to_play + 1) % config.num_players
      expand_node(search_path[-1], to_play, all_actions,
                  types.NetworkOutput(values[i], rewards[i], policy_logits[i],
                                      next_hidden_states[i]))
      backpropagate(search_path, values[i], config.discount, stats)


def visit_softmax(visit_counts: np.ndarray, temperature: float) -> np.ndarray:
  """`[A]` float64 probabilities proportional to `N ** (1 / temperature)`,
  as `exp((log N - max log N) / T)` so that nothing overflows; T = 0 gives
  the most visited action (the lowest of equals) probability 1.

  Raises:
    ValueError: if `visit_counts` is not a non-empty vector of finite
      counts >= 0, `temperature` is not a finite number >= 0, or T > 0 and
      every count is 0.
  """
  counts = np.asarray(visit_counts, np.float64)
  if counts.ndim != 1 or not counts.size:
    raise ValueError(f'visit_counts must be a non-empty vector [A], got '
                     f'shape {list(counts.shape)}.')
  if not np.all(np.isfinite(counts)) or np.any(counts < 0):
    raise ValueError(f'visit_counts must be finite and >= 0, got '
                     f'{counts.tolist()}.')
  if not (isinstance(temperature, (int, float, np.floating)) and
          math.isfinite(temperature) and temperature >= 0):
    raise ValueError(f'temperature must be a finite number >= 0, got '
                     f'{temperature!r}.')
  if temperature == 0:
    return (np.arange(counts.size) == np.argmax(counts)).astype(np.float64)
  if not counts.any():
    raise ValueError(f'visit_counts must have a positive count when '
                     f'temperature > 0, got {counts.tolist()}.')
  return _softmax_rows(counts[None], np.array([temperature], np.float64))[0]


def _softmax_rows(counts: np.ndarray, temperatures: np.ndarray) -> np.ndarray:
  """`visit_softmax` of each row of `[R, A]` counts at its `[R]` T > 0."""
  with np.errstate(divide='ignore'):
    logits = np.log(counts)  # -inf for unvisited actions.
  logits = ((logits - logits.max(axis=1, keepdims=True)) /
            temperatures[:, None])
  probs = np.exp(logits)
  return probs / probs.sum(axis=1, keepdims=True)


def sample_action(visit_counts: np.ndarray, temperature: float,
                  rng: np.random.Generator) -> int:
  """The pseudocode's `softmax_sample` of `[A]` counts (no draw at T = 0)."""
  probs = visit_softmax(visit_counts, temperature)
  if temperature == 0:
    return int(np.argmax(probs))
  return int(rng.choice(len(probs), p=probs))


def sample_actions(visit_counts: np.ndarray, temperatures: np.ndarray,
                   uniforms: np.ndarray) -> np.ndarray:
  """`[B]` int64 `sample_action` of `[B, A]` counts at `[B]` temperatures,
  `uniforms[i]` being the `rng.random()` that `Generator.choice` draws for
  row i (drawn for the rows at T > 0, in order, as a loop would).

  Raises:
    ValueError: naming the row, if a count or temperature is negative or not
      finite, a row at T > 0 has no visit, or the shapes disagree.
  """
  counts = np.asarray(visit_counts, np.float64)
  temperatures = np.asarray(temperatures, np.float64)
  uniforms = np.asarray(uniforms, np.float64)
  if counts.ndim != 2 or not counts.shape[1]:
    raise ValueError(f'visit_counts must be [B, A] with A > 0, got shape '
                     f'{list(counts.shape)}.')
  if temperatures.shape != counts.shape[:1] or uniforms.shape != (
      counts.shape[0],):
    raise ValueError(
        f'temperatures and uniforms must be [B] = [{counts.shape[0]}], got '
        f'shapes {list(temperatures.shape)} and {list(uniforms.shape)}.')
  bad = ~(np.isfinite(counts) & (counts >= 0)).all(axis=1)
  if bad.any():
    row = int(np.flatnonzero(bad)[0])
    raise ValueError(f'visit_counts must be finite and >= 0, got row {row}: '
                     f'{counts[row].tolist()}.')
  bad = ~(np.isfinite(temperatures) & (temperatures >= 0))
  if bad.any():
    row = int(np.flatnonzero(bad)[0])
    raise ValueError(f'temperatures must be finite numbers >= 0, got '
                     f'{float(temperatures[row])} in row {row}.')
  hot = temperatures > 0
  empty = hot & ~counts.any(axis=1)
  if empty.any():
    row = int(np.flatnonzero(empty)[0])
    raise ValueError(f'visit_counts must have a positive count when '
                     f'temperature > 0, got row {row}: {counts[row].tolist()}.')
  actions = np.argmax(counts, axis=1)  # T = 0; the first of equal maxima.
  if hot.any():
    probs = _softmax_rows(counts[hot], temperatures[hot])
    # `Generator.choice(A, p=probs)`: the uniform searched in the cumulative
    # probabilities divided by their last.
    cdf = np.cumsum(probs, axis=1)
    cdf /= cdf[:, -1:]
    actions[hot] = (cdf <= uniforms[hot, None]).sum(axis=1)
  return actions


def select_action(config: config_lib.MuZeroConfig, num_moves: int,
                  node: Node, training_steps: int,
                  rng: np.random.Generator) -> int:
  """The pseudocode's `select_action`: `sample_action` of the root's
  children at `config.visit_softmax_temperature_fn`.

  Raises:
    ValueError: if `node` has no children.
  """
  if not node.expanded():
    raise ValueError('select_action needs an expanded node with children, '
                     f'got {node!r}.')
  actions = sorted(node.children)
  visit_counts = np.array([node.children[a].visit_count for a in actions])
  temperature = config.visit_softmax_temperature_fn(num_moves, training_steps)
  return actions[sample_action(visit_counts, temperature, rng)]
