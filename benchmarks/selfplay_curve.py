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
"""A training run's self-play returns against frames, from its logs.

The parts of `benchmarks/minatar_run_curve.py` that need no flags, and
DQN's curve on a plot (`draw_dqn`, also `benchmarks/learning.py`'s).
"""

from typing import Any, Dict, List, Sequence, Tuple

import numpy as np

from benchmarks import minatar_baselines

RETURN_TAG = 'selfplay/episode_return'
FRAMES_TAG = 'selfplay/env_steps'


def frames_and_returns(scalars: Dict[str, Tuple[np.ndarray, np.ndarray]]
                      ) -> Tuple[np.ndarray, np.ndarray]:
  """`(frames [N], returns [N])` at the learner steps that logged both."""
  for tag in (RETURN_TAG, FRAMES_TAG):
    if tag not in scalars:
      raise ValueError(f'No scalar {tag!r} in the logs; available tags: '
                       f'{sorted(scalars)}.')
  return_steps, returns = scalars[RETURN_TAG]
  frame_steps, frames = scalars[FRAMES_TAG]
  common, in_returns, in_frames = np.intersect1d(
      return_steps, frame_steps, return_indices=True)
  del common
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
  dqn = [(f, r) for f, r in minatar_baselines.DQN_CURVES.get(game, ())
         if f <= 1.5 * last_frames]
  if dqn:
    axis.plot(*zip(*dqn), 'k--', label='DQN (Young and Tian 2019)')
  axis.axhline(minatar_baselines.DQN_AT_5M[game], color='grey', lw=0.8,
               label='DQN after 5M frames')
