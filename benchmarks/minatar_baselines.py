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
"""MinAtar's published DQN learning curves, and MuZero's beside them.

Young and Tian (2019, arXiv:1903.03176) publish their baselines as a figure
(MinAtar's `img/learning_curves.gif`): the mean return of the last 100
training episodes, averaged over 30 runs, against frames. The points below
were read off it by pixel, good to about 0.3 (2 on Space Invaders); none
where another curve hides DQN's.
"""

from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

RETURN_TAG = 'selfplay/episode_return'
FRAMES_TAG = 'selfplay/env_steps'

# game -> ((frames, DQN's 100-episode mean training return), ...).
DQN_CURVES: Dict[str, Tuple[Tuple[float, float], ...]] = {
    'breakout': ((5e4, 1.2), (1e5, 4.5), (1.5e5, 5.4), (2e5, 6.1),
                 (2.5e5, 6.8), (3e5, 7.2), (4e5, 8.2), (5e5, 8.3),
                 (1e6, 9.3), (2e6, 9.7), (3e6, 9.9), (4e6, 9.9),
                 (4.9e6, 10.1)),
    'space_invaders': ((2e4, 7.0), (5e4, 9.0), (1e5, 16.7), (1.5e5, 21.3),
                       (2e5, 21.0), (3e5, 22.6), (4e5, 26.2), (1e6, 32.6),
                       (2e6, 41.6), (3e6, 44.3), (4e6, 43.9),
                       (4.9e6, 43.4)),
    'asterix': ((2e5, 0.7), (3e5, 0.9), (5e5, 1.0), (1e6, 7.3),
                (2e6, 14.4), (3e6, 15.2), (4e6, 16.7), (4.9e6, 16.5)),
    'freeway': ((1e5, 5.5), (2e5, 5.5), (3e5, 11.0), (4e5, 23.6),
                (5e5, 34.6), (1e6, 47.9), (2e6, 50.9), (3e6, 50.4),
                (4e6, 50.1), (4.9e6, 50.4)),
    'seaquest': ((1e5, 0.5), (5e5, 0.9), (1e6, 1.0), (2e6, 4.9),
                 (3e6, 12.9), (4e6, 17.8), (4.9e6, 19.8)),
}

# DQN at the end of the figure (read at 4.9 of its 5 million frames): the
# goal of a MinAtar run (`benchmarks.learning --preset=minatar`).
DQN_AT_5M: Dict[str, float] = {
    game: curve[-1][1] for game, curve in DQN_CURVES.items()}


def moving_average(games: Sequence[Tuple[float, float]], window: int = 100
                  ) -> Tuple[np.ndarray, np.ndarray]:
  """The curves' measure: `(frames [N], mean [N])`, after each of the
  `(frames when it ended, return)` games the mean return of the last
  `window` (fewer at first)."""
  frames = np.array([f for f, _ in games], np.float64)
  returns = np.array([r for _, r in games], np.float64)
  sums = np.cumsum(np.concatenate([[0.], returns]))
  ends = np.arange(1, len(returns) + 1)
  starts = np.maximum(ends - window, 0)
  return frames, (sums[ends] - sums[starts]) / (ends - starts)


def frames_and_returns(scalars: Dict[str, Tuple[np.ndarray, np.ndarray]]
                      ) -> Tuple[np.ndarray, np.ndarray]:
  """`(frames [N], returns [N])` of a run's TensorBoard scalars
  (`curves.read_scalars`) at the learner steps that logged both."""
  for tag in (RETURN_TAG, FRAMES_TAG):
    if tag not in scalars:
      raise ValueError(f'No scalar {tag!r} in the logs; available tags: '
                       f'{sorted(scalars)}.')
  return_steps, returns = scalars[RETURN_TAG]
  frame_steps, frames = scalars[FRAMES_TAG]
  _, in_returns, in_frames = np.intersect1d(return_steps, frame_steps,
                                            return_indices=True)
  return frames[in_frames], returns[in_returns]


def parse_evaluations(items: Sequence[str]) -> List[Tuple[float, float]]:
  """`['239000:8.0', ...]` -> `[(239000., 8.0), ...]`, with a clear error."""
  points = []
  for item in items:
    try:
      frames, mean = (float(part) for part in item.split(':'))
    except ValueError:
      raise ValueError(f'evaluation {item!r} is not FRAMES:MEAN_RETURN '
                       '(e.g. 292000:9.4).') from None
    points.append((frames, mean))
  return points


def draw_dqn(axis: Any, game: str, last_frames: float) -> None:
  """DQN's published curve of `game` up to 1.5 x `last_frames` (dashed) and
  its return after 5 million frames (a grey line), on a matplotlib axis."""
  dqn = [(f, r) for f, r in DQN_CURVES.get(game, ())
         if f <= 1.5 * last_frames]
  if dqn:
    axis.plot(*zip(*dqn), 'k--', label='DQN (Young and Tian 2019)')
  axis.axhline(DQN_AT_5M[game], color='grey', lw=0.8,
               label='DQN after 5M frames')
