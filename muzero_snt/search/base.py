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
"""Search: what self-play and evaluation call, and the SearchOutput it returns.

Two searches implement it: `ReferenceSearch`, the pseudocode's MCTS on
`Node`s in NumPy (`reference_search.py`), and `CompiledSearch`, the same
rules on tensors in one compiled function (`compiled_search.py`).
`factory.make_search` builds either from a network.
"""

from typing import NamedTuple, Optional, Protocol, runtime_checkable

import numpy as np


class SearchOutput(NamedTuple):
  """Root statistics of B searches, as NumPy arrays.

  Attributes:
    visit_counts: `[B, A]` int32 visits of each root action (0 for illegal
      actions).
    policy: `[B, A]` float32 visit counts normalised per row: the policy
      target the pseudocode's `store_search_statistics` stores.
    root_value: `[B]` float32 `root.value()`, for the player to move.
    action: `[B]` int32 the action to play, if the search chooses it
      (Gumbel MuZero: the action Sequential Halving leaves; `policy` is
      then the improved policy); None if the caller draws it from the
      visit counts (MuZero).
  """
  visit_counts: np.ndarray
  policy: np.ndarray
  root_value: np.ndarray
  action: Optional[np.ndarray] = None


@runtime_checkable
class Search(Protocol):
  """A MuZero search from each of B positions, NumPy in and NumPy out.

  The search part of the pseudocode's `play_game`: the root inference, roots
  expanded over their legal actions only, Dirichlet noise on the roots'
  priors if `add_noise`, then `config.num_simulations` simulations.
  """

  def __call__(self,
               observations: np.ndarray,
               to_play: np.ndarray,
               legal_actions_mask: np.ndarray,
               rng: np.random.Generator,
               add_noise: bool = True) -> SearchOutput:
    """Searches from B positions (the input form: `inputs.py`).

    Args:
      observations: `[B, *observation_shape]` the current observations.
      to_play: `[B]` int the player to move in each position.
      legal_actions_mask: `[B, A]` bool the legal actions, at least one per
        row (`inputs.legal_actions_to_mask` makes it from lists of ids).
      rng: the generator the exploration noise is drawn from; a search
        without noise draws nothing from it.
      add_noise: whether to add exploration noise (self-play: yes;
        evaluation: no).

    Returns:
      `SearchOutput`.
    """


def check_rng(rng) -> None:
  """Raises TypeError unless `rng` is a `np.random.Generator`."""
  if not isinstance(rng, np.random.Generator):
    raise TypeError(f'rng must be a np.random.Generator (e.g. '
                    f'np.random.default_rng(seed)), got '
                    f'{type(rng).__name__}.')
