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
"""Observations that stack the last N frames and actions, stored per frame.

The pseudocode's `Game.make_image`, for observations of the last N frames
and N action planes (Atari, arXiv:1911.08265 appendix "Network Input"): a
game stores each frame once, in its own dtype. Position t's observation
`[H, W, C N + N]` holds, oldest first, frames j = t - N + 1 .. t divided by
`frame_max` (zeros for j < 0), then N constant planes of the action that led
to frame j, a_{j-1}, divided by `num_actions` (0 for j <= 0).
"""

from typing import NamedTuple, Sequence, Tuple

import numpy as np

from muzero_snt import move_checks

# Frame dtypes a stack may hold; floating frames are kept as they come.
_FRAME_DTYPES = ('uint8', 'bool', 'float32')


class FrameStack(NamedTuple):
  """How an environment's observation stacks N = `num_frames` frames of
  `frame_shape` `(H, W, C)`, stored as `frame_dtype`, and action planes."""
  num_frames: int
  frame_shape: Tuple[int, int, int]
  frame_dtype: str
  frame_max: float
  num_actions: int

  @property
  def observation_shape(self) -> Tuple[int, int, int]:
    """`(H, W, C N + N)`."""
    height, width, channels = self.frame_shape
    n = self.num_frames
    return height, width, channels * n + n

  def to_json(self) -> dict:
    return dict(self._asdict(), frame_shape=list(self.frame_shape))


def make_frame_stack(num_frames, frame_shape, frame_dtype, frame_max,
                     num_actions) -> FrameStack:
  """A checked `FrameStack` (e.g. from a replay file's JSON); a `ValueError`
  names a bad field and what was expected."""
  move_checks.check_count('num_frames', num_frames, 1)
  if (not isinstance(frame_shape, (tuple, list)) or len(frame_shape) != 3 or
      not all(move_checks.is_int(size) and size >= 1 for size in frame_shape)):
    raise ValueError(f'frame_shape must be (H, W, C), three integers >= 1, '
                     f'got {frame_shape!r}.')
  if frame_dtype not in _FRAME_DTYPES:
    raise ValueError(f'frame_dtype must be one of {_FRAME_DTYPES}, got '
                     f'{frame_dtype!r}.')
  if (not isinstance(frame_max, (int, float, np.number)) or
      isinstance(frame_max, bool) or not 0 < frame_max < np.inf):
    raise ValueError(f'frame_max must be a positive number, got '
                     f'{frame_max!r}.')
  move_checks.check_count('num_actions', num_actions, 1)
  return FrameStack(int(num_frames), tuple(int(s) for s in frame_shape),
                    str(frame_dtype), float(frame_max), int(num_actions))


def check_frames(stack: FrameStack, frames) -> np.ndarray:
  """A copy of `[T, H, W, C]` frames of the stack's shape and dtype (else a
  `ValueError` naming the expected and the given ones)."""
  frames = np.array(frames)
  expected = (len(frames),) + stack.frame_shape if frames.ndim else None
  if frames.shape != expected or frames.dtype != stack.frame_dtype:
    raise ValueError(f'frames must be {stack.frame_dtype} of shape [T] + '
                     f'{list(stack.frame_shape)}, got {frames.dtype} of '
                     f'shape {list(frames.shape)}.')
  return frames


def frame_planes(stack: FrameStack, frames: np.ndarray) -> np.ndarray:
  """Frames `[..., H, W, C]` as float32 observation planes (/ frame_max)."""
  return frames.astype(np.float32) / np.float32(stack.frame_max)


def action_planes(stack: FrameStack, actions: np.ndarray) -> np.ndarray:
  """Actions `[...]` as float32 plane values (/ num_actions)."""
  # Divided in float64, then rounded once, as the environments do.
  return (np.asarray(actions, np.int64) / stack.num_actions).astype(
      np.float32)


def _assemble(stack: FrameStack, picked: np.ndarray, present: np.ndarray,
              led: np.ndarray) -> np.ndarray:
  """`[B, H, W, C N + N]` float32 from frames `[B, N, H, W, C]`, `present`
  `[B, N]` marking real frames (the others give zero planes and action
  plane), `led` `[B, N]` the action that led to each frame."""
  b, n = present.shape
  height, width, channels = stack.frame_shape
  planes = frame_planes(stack, picked)  # [B, N, H, W, C]
  planes[~present] = 0.
  out = np.empty((b, height, width, n * channels + n), np.float32)
  # Frame i's channels at C i .. C i + C - 1.
  out[..., :n * channels] = planes.transpose(0, 2, 3, 1, 4).reshape(
      b, height, width, n * channels)
  values = action_planes(stack, np.where(present, led, 0))  # [B, N]
  out[..., n * channels:] = values[:, None, None, :]
  return out


def stack_observations(stack: FrameStack, frames: np.ndarray,
                       actions: np.ndarray, indices) -> np.ndarray:
  """`[B, H, W, C N + N]` float32 observations of `[B]` positions in
  [0, T) of a game's `[T, H, W, C]` frames (frame t at move t) and `[T']`
  actions, T' >= max(indices)."""
  indices = np.asarray(indices, np.int64).reshape(-1)  # [B]
  n = stack.num_frames
  j = indices[:, None] - (n - 1) + np.arange(n)[None, :]  # [B, N] frames.
  actions = np.asarray(actions, np.int64)
  led = np.where(j >= 1, actions[np.clip(j - 1, 0, None)] if len(actions)
                 else 0, 0)
  return _assemble(stack, frames[np.maximum(j, 0)], j >= 0, led)


def checked_frame(stack: FrameStack, observation: np.ndarray,
                  recent: Sequence[np.ndarray], led: Sequence[int],
                  move: int) -> np.ndarray:
  """The `[H, W, C]` newest frame of move `move`'s `observation`, of
  `stack.frame_dtype`, checked to stack back into it with the `recent`
  stored frames it shows (oldest first) and the `[len(recent) + 1]`
  actions that `led` to them and to the newest (0 before a game's first);
  a `ValueError` names the first element where the stack differs."""
  channels = stack.frame_shape[-1]
  last = channels * (stack.num_frames - 1)
  planes = np.asarray(observation)[..., last:last + channels]
  if stack.frame_dtype == 'float32':
    frame = planes.astype(np.float32) * np.float32(stack.frame_max)
  else:
    values = np.rint(planes.astype(np.float64) * stack.frame_max)
    top = 255 if stack.frame_dtype == 'uint8' else 1  # uint8 or bool.
    frame = np.clip(values, 0, top).astype(stack.frame_dtype)
  window = list(recent) + [frame]
  missing = stack.num_frames - len(window)
  picked = np.stack([np.zeros_like(frame)] * missing + window)[None]
  present = (np.arange(stack.num_frames) >= missing)[None]
  led = np.asarray([0] * missing + list(led), np.int64)[None]
  rebuilt = _assemble(stack, picked, present, led)[0]
  if not np.array_equal(rebuilt, observation):
    where = tuple(np.argwhere(rebuilt != observation)[0].tolist())
    raise ValueError(
        f'observation at move {move} is not the stack of the stored frames '
        f'and actions ({stack}): at index {list(where)} it holds '
        f'{observation[where].item()!r}, the stack '
        f'{rebuilt[where].item()!r}. An environment with a frame_stack '
        'must stack as frames.stack_observations does.')
  return frame
