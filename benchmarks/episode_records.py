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
"""Noise-free episodes recorded move by move, and how they end.

The parts of `benchmarks/episode_ends.py` that need no flags, on the
episodes `evaluation.play_episodes` records (`evaluation.EpisodeRecord`,
observations kept): each action's one-step value under a model
(`one_step_values`), how an episode ended (`cartpole_end`, `end_of`) and
the report over episodes (`summarize`).
"""

from typing import Any, Dict, Sequence

import numpy as np

from muzero_snt import evaluation

# CartPole-v1's limits (gymnasium's `CartPoleEnv`): the episode terminates
# once the pole leans more than 12 degrees or the cart leaves [-2.4, 2.4].
CARTPOLE_ANGLE_LIMIT = 12 * 2 * np.pi / 360
CARTPOLE_POSITION_LIMIT = 2.4


def one_step_values(model, observations: np.ndarray, num_actions: int,
                    discount: float) -> np.ndarray:
  """`[N, A]` r(s, a) + discount * v(g(s, a)) of each action at each of N
  observations, under `model` (`search.NetworkModel`'s inference: the
  representation, then one step of the dynamics and the prediction); one
  player, so no sign changes."""
  root = model.initial_inference(np.asarray(observations, np.float32))
  values = np.empty((len(observations), num_actions), np.float64)
  for action in range(num_actions):
    after = model.recurrent_inference(
        root.hidden_state, np.full(len(observations), action, np.int32))
    values[:, action] = (np.asarray(after.reward, np.float64) +
                         discount * np.asarray(after.value, np.float64))
  return values


def cartpole_end(episode: evaluation.EpisodeRecord) -> str:
  """How a CartPole episode ended: 'time limit', 'angle', 'position' or
  'angle and position' (the limits its last observation crossed)."""
  if not episode.terminal:
    return 'time limit'
  x, _, theta, _ = episode.observations[-1]
  crossed = [name for name, out in (
      ('angle', abs(theta) > CARTPOLE_ANGLE_LIMIT),
      ('position', abs(x) > CARTPOLE_POSITION_LIMIT)) if out]
  return ' and '.join(crossed) or 'terminal'


def end_of(preset: str, episode: evaluation.EpisodeRecord) -> str:
  """How an episode ended: the CartPole limit, else 'time limit' or
  'terminal'."""
  if preset == 'cartpole':
    return cartpole_end(episode)
  return 'terminal' if episode.terminal else 'time limit'


def first_numbers(observation: np.ndarray) -> str:
  """An observation's first 8 numbers as text, for the report."""
  return ' '.join(f'{v:.3f}' for v in np.ravel(observation)[:8])


def summarize(preset: str, episodes: Sequence[evaluation.EpisodeRecord],
              value_every: int, early_moves: int) -> Dict[str, Any]:
  """Per-episode records and the comparison of early root values.

  Returns a dict with `episodes` (return, length, end, last observation,
  root values every `value_every` moves), `ends` (a count per kind),
  `mean_return`, and `early_root_value` {'time limit': ..., 'ended': ...}:
  the mean root value over moves [0, early_moves) of the episodes that
  reached the time limit and of the others (None where there are none).
  """
  if value_every < 1 or early_moves < 1:
    raise ValueError(f'value_every ({value_every}) and early_moves '
                     f'({early_moves}) must be at least 1.')
  records, ends = [], {}
  early = {'time limit': [], 'ended': []}
  for episode in episodes:
    end = end_of(preset, episode)
    ends[end] = ends.get(end, 0) + 1
    early['time limit' if end == 'time limit' else 'ended'].append(
        episode.root_values[:early_moves])
    records.append({
        'return': episode.episode_return,
        'length': len(episode.actions),
        'end': end,
        'last_observation': first_numbers(episode.observations[-1]),
        'root_values': {str(t): round(float(episode.root_values[t]), 2)
                        for t in range(0, len(episode.actions),
                                       value_every)},
    })
  return {
      'episodes': records,
      'ends': ends,
      'mean_return': float(np.mean([e.episode_return for e in episodes])),
      'early_root_value': {
          kind: (float(np.mean(np.concatenate(values))) if values else None)
          for kind, values in early.items()},
  }
