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
"""Games of a frame-stacking environment, observations built by the words.

`literal_observation` writes a position's observation plane by plane from
the layout's description in `muzero_snt/frames.py`, independently of
`frames.stack_observations`; `random_game` records a game whose
observations come from it, as an environment hands them to self-play.
"""

from typing import List, Tuple

import numpy as np

from muzero_snt import frames as frames_lib
from muzero_snt import trajectory as trajectory_lib

# 2 frames of 2x3 RGB bytes and 18 actions: a miniature of Atari's layout.
SMALL_STACK = frames_lib.FrameStack(num_frames=2, frame_shape=(2, 3, 3),
                                    frame_dtype='uint8', frame_max=255.,
                                    num_actions=18)


def literal_observation(stack: frames_lib.FrameStack, frames: np.ndarray,
                        actions, t: int) -> np.ndarray:
  """The observation of position t, one plane at a time.

  Frame j = t - N + 1 + i fills planes C i .. C i + C - 1 (zeros if j < 0);
  plane C N + i is the action that led to frame j over A (a_{j-1}; 0 for
  frame 0 and for missing frames).
  """
  height, width, channels = stack.frame_shape
  planes = []
  for i in range(stack.num_frames):
    j = t - stack.num_frames + 1 + i
    for c in range(channels):
      if j < 0:
        planes.append(np.zeros((height, width), np.float32))
      else:
        planes.append(frames[j][:, :, c].astype(np.float32) /
                      np.float32(stack.frame_max))
  for i in range(stack.num_frames):
    j = t - stack.num_frames + 1 + i
    value = actions[j - 1] / stack.num_actions if j >= 1 else 0.
    planes.append(np.full((height, width), value, np.float32))
  return np.stack(planes, axis=-1)


def random_game(length: int, seed: int,
                stack: frames_lib.FrameStack = SMALL_STACK,
                terminal: bool = True
               ) -> Tuple[trajectory_lib.Trajectory, List[np.ndarray]]:
  """A finished game of random frames and actions, with its observations.

  Returns:
    The `Trajectory` (frames stored once) and the `[T]` observations it was
    handed, built by `literal_observation`.
  """
  rng = np.random.default_rng(seed)
  a = stack.num_actions
  frames = rng.integers(0, 256, (length,) + stack.frame_shape).astype(
      stack.frame_dtype)
  actions = rng.integers(0, a, length)
  game = trajectory_lib.Trajectory(a, 1, 0.9, frame_stack=stack)
  observations = []
  for t in range(length):
    observation = literal_observation(stack, frames, actions, t)
    observations.append(observation)
    game.append(observation, 0, int(actions[t]), float(rng.normal()),
                np.full(a, 1. / a), float(rng.normal()))
  game.finish(terminal, 0. if terminal else 0.5)
  return game, observations
