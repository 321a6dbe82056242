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
"""The action to play from root visit counts (the pseudocode's
`select_action` and `softmax_sample`), for one root or a batch."""

import math

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt.search import mcts


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
    probs = np.zeros_like(counts)
    probs[np.argmax(counts)] = 1.
    return probs
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
  """An action drawn from `visit_softmax` of `[A]` counts (none at T = 0)."""
  probs = visit_softmax(visit_counts, temperature)
  if temperature == 0:
    return int(np.argmax(probs))
  return int(rng.choice(len(probs), p=probs))


def sample_actions(visit_counts: np.ndarray, temperatures: np.ndarray,
                   uniforms: np.ndarray) -> np.ndarray:
  """`[B]` int64 `sample_action` of `[B, A]` counts at `[B]` temperatures.

  Row i gets the action `sample_action` returns when `uniforms[i]` (in
  [0, 1)) is the `rng.random()` that `Generator.choice` draws. A caller
  drawing `uniforms[i] = rng.random()` for the rows at T > 0, in order,
  consumes `rng` as a loop of `sample_action` would; rows at T = 0 ignore
  theirs.

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
                  node: mcts.Node, training_steps: int,
                  rng: np.random.Generator) -> int:
  """The pseudocode's `select_action`: a draw from `visit_softmax` over the
  root's children at `config.visit_softmax_temperature_fn(num_moves,
  training_steps)`; at temperature 0 the most visited, without drawing.

  Raises:
    ValueError: if `node` has no children.
  """
  if not node.expanded():
    raise ValueError('select_action needs an expanded node with children, '
                     f'got {node!r}.')
  actions = sorted(node.children)
  visit_counts = np.array([node.children[a].visit_count for a in actions])
  temperature = config.visit_softmax_temperature_fn(num_moves, training_steps)
  probs = visit_softmax(visit_counts, temperature)
  if temperature == 0:
    return actions[int(np.argmax(probs))]
  return actions[int(rng.choice(len(actions), p=probs))]
