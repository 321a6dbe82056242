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
"""How deep a search goes and what its deepest line adds up to.

The measures of `benchmarks/search_depth.py`. A search whose model earns
more reward along an imagined line than its value head promises at the
line's end favours whichever child it visited most: each visit deepens
that child's line and raises its Q. These statistics of a searched tree
show it: the principal line (from the root, always the most visited
child), its depth and rewards, the return it backs up, and the root's
children's Q values and visit shares. Positions come from games of
uniformly random legal moves.
"""

import math
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt.search import mcts
from muzero_snt.search import model as model_lib
from muzero_snt.search import node as node_lib
from muzero_snt.search import reference_search

Node = node_lib.Node


def _most_visited(node: Node) -> Optional[Node]:
  """The child with the most visits (the lowest action on a tie), or None
  if no child has a visit."""
  best = None
  for child in node.children.values():
    if child.visit_count and (best is None or
                              child.visit_count > best.visit_count):
      best = child
  return best


def principal_line(root: Node) -> List[Node]:
  """The nodes from `root` down its most visited children, root first.

  The line ends at the first node none of whose children has a visit; a
  node's only visit is the simulation that expanded it, so that node's
  value is the network's value there (or 0 if it was never expanded).
  """
  line = [root]
  child = _most_visited(root)
  while child is not None:
    line.append(child)
    child = _most_visited(child)
  return line


def max_depth(root: Node) -> int:
  """The depth of the deepest visited node below `root` (its children: 1)."""
  deepest = 0
  stack = [(root, 0)]
  while stack:
    node, depth = stack.pop()
    deepest = max(deepest, depth)
    stack.extend((child, depth + 1) for child in node.children.values()
                 if child.visit_count)
  return deepest


def line_return(line: Sequence[Node], discount: float) -> float:
  """The return `line` backs up to its first node, for that node's player.

  The last node's value, then at each step up the reward of the move into
  the lower node plus `discount` times the lower node's return, its sign
  flipped when the player changes: the backup of one simulation along the
  line (`mcts.backpropagate`).
  """
  ret = line[-1].value()
  for parent, child in zip(reversed(line[:-1]), reversed(line[1:])):
    if child.to_play != parent.to_play:
      ret = -ret
    ret = child.reward + discount * ret
  return ret


def tree_statistics(root: Node, network_value: float,
                    discount: float) -> Dict[str, float]:
  """Statistics of one searched tree.

  Args:
    root: a searched root with at least one visited child.
    network_value: the network's value at the root (the search does not
      back it up, so the tree does not hold it).
    discount: the per-step discount of the search.

  Returns:
    `principal_depth` and `max_depth`; `top_share`, the most visited root
    child's share of the root's visits, `top_prior`, its prior (without
    noise), `q_top`, its Q, and `q_runner_up`,
    the highest Q of the other visited children (nan if there is none);
    `line_mean_reward`, the mean predicted reward along the principal line;
    `leaf_value`, the value at its end; `line_return`, the return it backs
    up (`line_return`); `root_value`, the search's value; `network_value`.
  """
  line = principal_line(root)
  if len(line) < 2:
    raise ValueError('The root has no visited child: search it first.')
  top = line[1]
  total = sum(child.visit_count for child in root.children.values())
  others = [mcts.q_value(root, child, discount)
            for child in root.children.values()
            if child.visit_count and child is not top]
  return {
      'principal_depth': len(line) - 1,
      'max_depth': max_depth(root),
      'top_share': top.visit_count / total,
      'top_prior': top.prior,
      'q_top': mcts.q_value(root, top, discount),
      'q_runner_up': max(others) if others else math.nan,
      'line_mean_reward': float(np.mean([node.reward for node in line[1:]])),
      'leaf_value': line[-1].value(),
      'line_return': line_return(line, discount),
      'root_value': root.value(),
      'network_value': float(network_value),
  }


def summarize(stats: Sequence[Dict[str, float]]) -> Dict[str, Any]:
  """Means over positions of every statistic, plus the depths' maximum.

  `q_gap` is the mean of `q_top - q_runner_up` over the positions with a
  runner-up (`positions_with_runner_up` of them; nan if none); the other
  means are over all positions.
  """
  summary = {'positions': len(stats)}
  for key in stats[0]:
    if key != 'q_runner_up':
      summary[key] = float(np.mean([s[key] for s in stats]))
  gaps = [s['q_top'] - s['q_runner_up'] for s in stats
          if not math.isnan(s['q_runner_up'])]
  summary['positions_with_runner_up'] = len(gaps)
  summary['q_gap'] = float(np.mean(gaps)) if gaps else math.nan
  summary['deepest_principal_line'] = max(s['principal_depth'] for s in stats)
  return summary


class Positions(NamedTuple):
  """B positions to search."""
  observations: np.ndarray  # [B, *observation_shape] float32
  to_play: np.ndarray  # [B] int32, the player to move
  legal: np.ndarray  # [B, A] bool, the legal actions


def random_positions(make_environment: Callable[[int], Any],
                     num_actions: int, num_positions: int, seed: int,
                     take: float = 0.25, max_moves: int = 10_000
                    ) -> Positions:
  """Positions from games of uniformly random legal moves.

  Each position before a game's end is kept with probability `take`, so
  that the positions spread over many games and over their lengths.

  Args:
    make_environment: `(seed) -> environments.Environment`.
    num_actions: the size of the action space.
    num_positions: how many positions to return.
    seed: seeds the games and the moves.
    take: the probability of keeping a position, in (0, 1].
    max_moves: a game is cut after this many moves.
  """
  if not 0 < take <= 1:
    raise ValueError(f'take is {take}; expected a probability in (0, 1].')
  rng = np.random.default_rng(seed)
  observations, to_play, legal = [], [], []
  while len(observations) < num_positions:
    env = make_environment(int(rng.integers(2**31)))
    time_step = env.reset()
    moves = 0
    while not time_step.last() and moves < max_moves:
      actions = env.legal_actions()
      if rng.random() < take:
        observations.append(np.asarray(time_step.observation, np.float32))
        to_play.append(env.to_play())
        mask = np.zeros(num_actions, bool)
        mask[actions] = True
        legal.append(mask)
        if len(observations) == num_positions:
          break
      time_step = env.step(int(rng.choice(actions)))
      moves += 1
    env.close()
  return Positions(np.stack(observations), np.array(to_play, np.int32),
                   np.stack(legal))


def measure(config: config_lib.MuZeroConfig, model: model_lib.Model,
            positions: Positions, seed: int = 0,
            num_simulations: Optional[int] = None) -> Dict[str, Any]:
  """Searches every position without noise; the `summarize`d statistics.

  The reference search (`reference_search.search_trees`) keeps its trees.
  """
  roots = reference_search.search_trees(
      config, model, positions.observations, positions.to_play.tolist(),
      positions.legal, np.random.default_rng(seed), add_noise=False,
      num_simulations=num_simulations)
  values = np.asarray(model.initial_inference(positions.observations).value)
  return summarize([tree_statistics(root, value, config.discount)
                    for root, value in zip(roots, values)])
