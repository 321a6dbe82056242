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
"""The roots' exploration noise of a batch, drawn in NumPy as the reference
search draws it.

The pseudocode's `add_exploration_noise` draws
`numpy.random.dirichlet([alpha] * len(actions))` over each root's children.
`dirichlet_noise` makes those draws for B roots, in batch order, with the
generator the reference search (`mcts.add_exploration_noise`) would use,
and lays them out as a `[B, A]` array: `CompiledSearch` passes it to the
compiled search as an input. With the same generator both searches mix the
same noise into the same priors.
"""

import numpy as np

# NumPy's `Generator.dirichlet` normalises independent Gamma(alpha) draws
# when its largest concentration is at least this, and breaks a stick with
# Beta draws below it (numpy/random/_generator.pyx).
_GAMMA_FROM = 0.1


def dirichlet_noise(alpha: float, legal: np.ndarray,
                    rng: np.random.Generator) -> np.ndarray:
  """Dirichlet(alpha) over each row's legal actions, 0 elsewhere.

  Row b is one `rng.dirichlet([alpha] * k)` draw, k the number of legal
  actions of row b, its components assigned to the legal actions in
  increasing order; rows are drawn in order. This is the sequence of draws
  `mcts.add_exploration_noise` makes for roots 0, ..., B-1.

  For alpha >= 0.1 the B draws are made at once, as NumPy makes each:
  Gamma(alpha) variates in the same order (one `rng.standard_gamma` call),
  each row's summed from left to right and multiplied by its reciprocal:
  bitwise the per-row draws, in one call for the batch.

  Args:
    alpha: the concentration, `config.root_dirichlet_alpha` (> 0).
    legal: `[B, A]` bool mask with at least one legal action per row.
    rng: the generator to draw from.

  Returns:
    `[B, A]` float64 noise; each row sums to 1 over its legal actions.

  Raises:
    ValueError: if `legal` is not a 2-D bool mask, or a row has no legal
      action.
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
  # A boolean mask fills row by row, each row's legal actions in order.
  noise[legal] = rng.standard_gamma(alpha, size=int(counts.sum()))
  # cumsum adds left to right, as NumPy's dirichlet does (np.sum would add
  # pairwise); the zeros of illegal actions add nothing.
  total = np.cumsum(noise, axis=1)[:, -1]
  return noise * (1. / total)[:, None]
