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
"""MinAtar's published DQN learning curves, as numbers.

Young and Tian (2019, arXiv:1903.03176) publish their baselines as a figure
(`img/learning_curves.gif` in MinAtar's repository): the moving average of
the returns of the last 100 training episodes (DQN's epsilon-greedy play,
epsilon 1 -> 0.1 over 100k frames after 5k random ones), averaged
over 30 runs, against frames (one frame per step, no frame skip). The
points below were read off that figure by pixel: the DQN curve's row in
each column, through the axes' tick marks. One pixel is 0.04 of a point on
Breakout, 0.05 on Asterix and Seaquest, 0.12 on Freeway and 0.45 on Space
Invaders, and the curve is a few pixels thick: the points are good to about
0.3 of a point (2 on Space Invaders). Where the DQN curve is hidden under
another one there is no point.
"""

from typing import Dict, Optional, Sequence, Tuple

import numpy as np

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
    'breakout': 10.1,
    'space_invaders': 43.4,
    'asterix': 16.5,
    'freeway': 50.4,
    'seaquest': 19.8,
}


def dqn_return(game: str, frames: float) -> Optional[float]:
  """DQN's published training return after `frames`, by linear interpolation.

  Args:
    game: a MinAtar game (`breakout`, `space_invaders`, ...).
    frames: frames (environment steps) played.

  Returns:
    The interpolated return, or None outside the read points' range or for
    a game without a curve here.
  """
  curve = DQN_CURVES.get(game)
  if curve is None:
    return None
  x, y = np.array(curve, np.float64).T
  if not x[0] <= frames <= x[-1]:
    return None
  return float(np.interp(frames, x, y))


def moving_average(games: Sequence[Tuple[float, float]], window: int = 100
                  ) -> Tuple[np.ndarray, np.ndarray]:
  """The curves' measure: the mean return of the last `window` games.

  Args:
    games: `(frames when the game ended, its return)` for every game, in
      the order they ended.
    window: games in the mean (fewer while fewer have ended).

  Returns:
    `(frames [N], mean [N])`: after each game, the mean of its return and
    those of the `window - 1` games before it.
  """
  frames = np.array([f for f, _ in games], np.float64)
  returns = np.array([r for _, r in games], np.float64)
  sums = np.cumsum(np.concatenate([[0.], returns]))
  ends = np.arange(1, len(returns) + 1)
  starts = np.maximum(ends - window, 0)
  return frames, (sums[ends] - sums[starts]) / (ends - starts)
