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
"""ReferenceSearch: the pseudocode's MCTS on `Node`s, for a batch of games.

`search_trees` is the search part of the pseudocode's `play_game`, written
to be read beside it; `search` returns its root statistics, and
`ReferenceSearch` is the `base.Search` that calls it. The compiled search
(`compiled_search.py`) is tested against it.
"""

from typing import List, Optional, Sequence

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import types
from muzero_snt.search import base
from muzero_snt.search import inputs as inputs_lib
from muzero_snt.search import mcts
from muzero_snt.search import min_max_stats as min_max_stats_lib
from muzero_snt.search import model as model_lib
from muzero_snt.search import node as node_lib


def search_trees(config: config_lib.MuZeroConfig,
                 model: model_lib.Model,
                 observations: np.ndarray,
                 to_play: np.ndarray,
                 legal_actions_mask: np.ndarray,
                 rng: np.random.Generator,
                 add_noise: bool = True,
                 num_simulations: Optional[int] = None) -> List[node_lib.Node]:
  """Searches from each of B positions, with one batched network per step.

  The search part of the pseudocode's `play_game`, for B games at once: one
  batched `initial_inference`; each root expanded over its legal actions
  only (softmax of the logits restricted to them); Dirichlet noise on each
  root's priors if `add_noise` (one `rng.dirichlet` draw per root, in batch
  order); then `run_mcts` on all roots in lockstep.

  Args:
    config: the hyperparameters.
    model: the network (see `model.Model`).
    observations: `[B, *observation_shape]` the current observations,
      floating point (cast to float32) and finite.
    to_play: `[B]` int the player to move in each position.
    legal_actions_mask: `[B, A]` bool the legal actions, at least one per
      row (`inputs.legal_actions_to_mask` makes it from the pseudocode's
      lists).
    rng: the random generator for the exploration noise.
    add_noise: whether to add exploration noise (self-play: yes; evaluation:
      no).
    num_simulations: overrides `config.num_simulations` if given.

  Returns:
    The B searched roots, in batch order.

  Raises:
    TypeError, ValueError: if the inputs are not of that form
      (`inputs.check_inputs`).
    FloatingPointError: if the model returns a non-finite output.
  """
  checked = inputs_lib.check_inputs(config, observations, to_play,
                                    legal_actions_mask)
  if num_simulations is not None:
    config = config.replace(num_simulations=num_simulations)
  batch_size = len(checked.observation)

  # At the root of the search tree we use the representation function to
  # obtain a hidden state given the current observation.
  output = model.initial_inference(checked.observation)
  mcts.check_finite(output, 'initial_inference')
  values = np.asarray(output.value).tolist()
  rewards = np.asarray(output.reward).tolist()
  policy_logits = np.asarray(output.policy_logits)
  hidden_states = np.asarray(output.hidden_state)
  roots = []
  for i in range(batch_size):
    root = node_lib.Node(0.)
    mcts.expand_node(
        root, int(checked.to_play[i]),
        np.flatnonzero(checked.legal[i]).tolist(),
        types.NetworkOutput(
            value=values[i],
            reward=rewards[i],
            policy_logits=policy_logits[i],
            hidden_state=hidden_states[i]))
    if add_noise:
      mcts.add_exploration_noise(config, root, rng)
    roots.append(root)

  # We then run a Monte Carlo Tree Search using only action sequences and the
  # model learned by the network.
  min_max_stats = [
      min_max_stats_lib.MinMaxStats(config.known_bounds) for _ in roots
  ]
  mcts.run_mcts(config, roots, model, min_max_stats)
  return roots


def root_statistics(roots: Sequence[node_lib.Node],
                    num_actions: int) -> base.SearchOutput:
  """The visit counts, policy targets and values of B searched roots.

  Args:
    roots: B expanded roots with at least one visit among their children.
    num_actions: A, the size of the action space.

  Returns:
    `base.SearchOutput`: `[B, A]` visit counts, their per-row normalisation
    (the pseudocode's `store_search_statistics`) and `[B]` `root.value()`.
  """
  visit_counts = np.zeros((len(roots), num_actions), np.int32)
  for i, root in enumerate(roots):
    for action, child in root.children.items():
      visit_counts[i, action] = child.visit_count
  policy = visit_counts / visit_counts.sum(axis=1, keepdims=True)
  root_value = np.array([root.value() for root in roots], np.float32)
  return base.SearchOutput(
      visit_counts=visit_counts,
      policy=policy.astype(np.float32),
      root_value=root_value)


def search(config: config_lib.MuZeroConfig,
           model: model_lib.Model,
           observations: np.ndarray,
           to_play: np.ndarray,
           legal_actions_mask: np.ndarray,
           rng: np.random.Generator,
           add_noise: bool = True,
           num_simulations: Optional[int] = None) -> base.SearchOutput:
  """The root statistics of `search_trees` (same arguments and errors)."""
  roots = search_trees(config, model, observations, to_play,
                       legal_actions_mask, rng, add_noise, num_simulations)
  return root_statistics(roots, config.action_space_size)


class ReferenceSearch:
  """`search` as a `base.Search`: the NumPy trees, one network call a step.

  Usage:

      search = ReferenceSearch(config, NetworkModel(network))
      output = search(observations, to_play, legal_actions_mask, rng)
  """

  def __init__(self,
               config: config_lib.MuZeroConfig,
               model: model_lib.Model,
               num_simulations: Optional[int] = None):
    """Constructs the search.

    Args:
      config: the hyperparameters.
      model: the network the search calls (e.g. `NetworkModel`).
      num_simulations: simulations per search (default:
        `config.num_simulations`).

    Raises:
      TypeError: if `model` is not a `model.Model`.
      ValueError: if `num_simulations` is not a positive integer.
    """
    if not isinstance(model, model_lib.Model):
      raise TypeError(f'ReferenceSearch needs a search.Model '
                      f'(initial_inference and recurrent_inference), got '
                      f'{type(model).__name__}.')
    if num_simulations is not None:
      config = config.replace(num_simulations=num_simulations)
    self._config = config
    self._model = model

  @property
  def config(self) -> config_lib.MuZeroConfig:
    """The hyperparameters the search runs with (its `num_simulations`)."""
    return self._config

  def __call__(self,
               observations: np.ndarray,
               to_play: np.ndarray,
               legal_actions_mask: np.ndarray,
               rng: np.random.Generator,
               add_noise: bool = True) -> base.SearchOutput:
    """Searches from B positions; see `base.Search` and `search_trees`."""
    base.check_rng(rng)
    return search(self._config, self._model, observations, to_play,
                  legal_actions_mask, rng, add_noise)
