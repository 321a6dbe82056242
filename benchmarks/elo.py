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
"""Elo ratings from game results, by maximum likelihood.

Player i scores against j with probability
`E_ij = 1 / (1 + 10 ** ((r_j - r_i) / 400))` (a win scores 1, a draw 1/2);
the ratings maximise sum_ij s_ij log E_ij, one player anchored at 0. Each
pair that met gets `prior_draws` extra drawn games, so that a clean sweep
rates finite: 20 wins of 20 are 400 log10(20.5 / 0.5) = 645 points. The
standard errors, relative to the anchor, come from the inverse Fisher
information at the maximum.
"""

import math
from typing import NamedTuple, Sequence

import numpy as np

SCALE = 400.
_K = math.log(10.) / SCALE  # d E / d r = _K * E * (1 - E).


class Ratings(NamedTuple):
  """Elo ratings of N players, the anchor at 0."""
  names: Sequence[str]
  ratings: np.ndarray  # [N] Elo.
  standard_errors: np.ndarray  # [N] Elo; 0 for the anchor.


def fit(names: Sequence[str], scores: np.ndarray, games: np.ndarray,
        anchor: str, prior_draws: float = 1., iterations: int = 100
        ) -> Ratings:
  """Maximum-likelihood Elo ratings of `names`, `anchor` at 0.

  `scores[i, j]` is player i's points against j (wins plus half the draws),
  `games[i, j]` the games between them (symmetric); `iterations` Newton
  steps at most (the log-likelihood is concave). ValueError for mismatched
  shapes, an unknown anchor, scores outside [0, games], asymmetric games or
  a player who met nobody.
  """
  names = list(names)
  n = len(names)
  scores = np.asarray(scores, np.float64)
  games = np.asarray(games, np.float64)
  if scores.shape != (n, n) or games.shape != (n, n):
    raise ValueError(f'scores and games must be [{n}, {n}] for {n} players, '
                     f'got {list(scores.shape)} and {list(games.shape)}.')
  if anchor not in names:
    raise ValueError(f'anchor {anchor!r} is not among the players {names}.')
  if not np.array_equal(games, games.T) or np.any(np.diag(games) != 0):
    raise ValueError(f'games must be symmetric with a zero diagonal, got\n'
                     f'{games}.')
  if np.any(scores < 0) or np.any(scores > games) or not np.allclose(
      scores + scores.T, games):
    raise ValueError(f'scores must lie in [0, games] and the two scores of '
                     f'a pair must add up to its games, got\n{scores}.')
  met = games > 0
  lonely = [names[i] for i in range(n) if not met[i].any()]
  if lonely:
    raise ValueError(f'{lonely} played no games; they cannot be rated.')
  scores = scores + prior_draws / 2. * met
  games = games + prior_draws * met
  free = [i for i in range(n) if names[i] != anchor]
  r = np.zeros(n)

  def information_and_gradient():
    e = 1. / (1. + 10. ** ((r[None, :] - r[:, None]) / SCALE))  # [N, N]
    weights = _K**2 * games * e * (1. - e)  # [N, N], symmetric.
    information = np.diag(weights.sum(axis=1)) - weights  # Minus Hessian.
    gradient = _K * np.sum(scores - games * e, axis=1)  # [N]
    return information[np.ix_(free, free)], gradient[free]

  for _ in range(iterations):
    step = np.linalg.solve(*information_and_gradient())
    r[free] += np.clip(step, -SCALE, SCALE)
    if np.max(np.abs(step)) < 1e-9:
      break
  errors = np.zeros(n)
  errors[free] = np.sqrt(np.diag(np.linalg.inv(information_and_gradient()[0])))
  return Ratings(names, r, errors)
