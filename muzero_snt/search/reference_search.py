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
"""The pseudocode's search on `Node`s for a batch of games, written to be read
beside its `play_game`; the compiled search is tested against it."""

from typing import List, Sequence

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import types
from muzero_snt.search import base
from muzero_snt.search import mcts
from muzero_snt.search import model as model_lib

# NumPy's `Generator.dirichlet` normalises Gamma(alpha) draws when its
# largest concentration is at least this, and breaks a stick below it
# (numpy/random/_generator.pyx).
_GAMMA_FROM = 0.1


def search_trees(config: config_lib.MuZeroConfig,
                 model: model_lib.Model,
                 observations: np.ndarray,
                 to_play: np.ndarray,
                 legal_actions_mask: np.ndarray,
                 rng: np.random.Generator,
                 add_noise: bool = True) -> List[mcts.Node]:
  """The B searched roots of B positions (`base.Search`'s arguments), with
  one `rng.dirichlet` draw per root in batch order if `add_noise`.

  Raises:
    TypeError, ValueError: if the inputs are not of that form.
    FloatingPointError: if the model returns a non-finite output.
  """
  checked = base.check_inputs(config, observations, to_play,
                              legal_actions_mask)
  # At the root of the search tree we use the representation function to
  # obtain a hidden state given the current observation.
  output = model.initial_inference(checked.observation)
  mcts.check_finite(output, 'initial_inference')
  output = [np.asarray(x) for x in output[:4]]
  roots = []
  for i in range(len(checked.observation)):
    root = mcts.Node(0.)
    mcts.expand_node(root, int(checked.to_play[i]),
                     np.flatnonzero(checked.legal[i]).tolist(),
                     types.NetworkOutput(*(x[i] for x in output)))
    if add_noise:
      mcts.add_exploration_noise(config, root, rng)
    roots.append(root)

  # We then run a Monte Carlo Tree Search using only action sequences and the
  # model learned by the network.
  min_max_stats = [mcts.MinMaxStats(config.known_bounds) for _ in roots]
  mcts.run_mcts(config, roots, model, min_max_stats)
  return roots


def root_statistics(roots: Sequence[mcts.Node],
                    num_actions: int) -> base.SearchOutput:
  """`[B, A]` visit counts, their per-row normalisation and `[B]` values."""
  visit_counts = np.zeros((len(roots), num_actions), np.int32)
  for i, root in enumerate(roots):
    for action, child in root.children.items():
      visit_counts[i, action] = child.visit_count
  policy = visit_counts / visit_counts.sum(axis=1, keepdims=True)
  return base.SearchOutput(
      visit_counts=visit_counts,
      policy=policy.astype(np.float32),
      root_value=np.array([root.value() for root in roots], np.float32))


def search(config: config_lib.MuZeroConfig,
           model: model_lib.Model,
           observations: np.ndarray,
           to_play: np.ndarray,
           legal_actions_mask: np.ndarray,
           rng: np.random.Generator,
           add_noise: bool = True) -> base.SearchOutput:
  """The root statistics of `search_trees` (same arguments and errors)."""
  roots = search_trees(config, model, observations, to_play,
                       legal_actions_mask, rng, add_noise)
  return root_statistics(roots, config.action_space_size)


def dirichlet_noise(alpha: float, legal: np.ndarray,
                    rng: np.random.Generator) -> np.ndarray:
  """`[B, A]` the noise `search_trees` draws for the `[B, A]` `legal` roots:
  row b is one `rng.dirichlet([alpha] * k)` over its k legal actions; for
  alpha >= 0.1 all rows are drawn at once, bit for bit as NumPy draws each.

  Raises:
    ValueError: if `legal` is not a `[B, A]` bool mask with a legal action
      in each row.
  """
  legal = np.asarray(legal)
  if legal.ndim != 2 or legal.dtype != bool:
    raise ValueError(f'legal must be a [B, A] bool mask, got dtype '
                     f'{legal.dtype} and shape {list(legal.shape)}.')
  counts = legal.sum(axis=1)
  if not counts.all():
    raise ValueError(f'Row {int(np.argmin(counts))} of legal has no legal '
                     'action to draw noise over.')
  noise = np.zeros(legal.shape)
  if alpha < _GAMMA_FROM:
    for row, k in enumerate(counts.tolist()):
      noise[row, legal[row]] = rng.dirichlet([alpha] * k)
    return noise
  noise[legal] = rng.standard_gamma(alpha, size=int(counts.sum()))
  # cumsum adds left to right as NumPy's dirichlet does (np.sum is pairwise).
  total = np.cumsum(noise, axis=1)[:, -1]
  return noise * (1. / total)[:, None]


class ReferenceSearch:
  """`search` as a `base.Search`, e.g. over `NetworkModel(network)`."""

  def __init__(self, config: config_lib.MuZeroConfig,
               model: model_lib.Model):
    """Raises TypeError if `model` is not a `model.Model`."""
    if not isinstance(model, model_lib.Model):
      raise TypeError(f'ReferenceSearch needs a search.Model '
                      f'(initial_inference and recurrent_inference), got '
                      f'{type(model).__name__}.')
    self._config = config
    self._model = model

  @property
  def config(self) -> config_lib.MuZeroConfig:
    return self._config

  def __call__(self,
               observations: np.ndarray,
               to_play: np.ndarray,
               legal_actions_mask: np.ndarray,
               rng: np.random.Generator,
               add_noise: bool = True) -> base.SearchOutput:
    base.check_rng(rng)
    return search(self._config, self._model, observations, to_play,
                  legal_actions_mask, rng, add_noise)
