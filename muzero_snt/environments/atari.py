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
"""Atari 2600 games through ale-py with the MuZero paper's protocol."""

import difflib
import re
from typing import Any, Callable, Optional, Sequence, Tuple

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt import frames as frames_lib
from muzero_snt.environments import base

# ALE's full action set, all 18 in every game (arXiv:1911.08265, "Atari").
NUM_ACTIONS = 18
# The paper's observation: the last 32 frames and the last 32 actions.
PAPER_NUM_STACKED_FRAMES = 32
# ALE's default; the paper plays without sticky actions.
STICKY_ACTION_PROBABILITY = 0.25
# A reset that keeps ending during its no-ops means a broken emulator.
_MAX_RESET_ATTEMPTS = 100
# ALE's `random_seed` is an int32: larger seeds are folded into its range.
_ALE_SEEDS = 2**31
# Seeds are 64-bit integers, like NumPy's.
_MAX_SEED = 2**64 - 1


def rom_id(game: str, known: Sequence[str]) -> Optional[str]:
  """The ROM id in `known` of a title up to case and underscores, or None."""
  key = game.replace('_', '').lower()
  for name in known:
    if name.replace('_', '') == key:
      return name
  return None


def _check_resolution(resolution, name: str = 'resolution') -> Tuple[int, int]:
  if (not isinstance(resolution, (tuple, list)) or len(resolution) != 2 or
      any(base.as_action(size) is None or base.as_action(size) < 1
          for size in resolution)):
    raise ValueError(
        f'{name} must be (height, width), two integers >= 1, got '
        f'{resolution!r}.')
  return int(resolution[0]), int(resolution[1])


def frame_stack(num_stacked_frames: int = PAPER_NUM_STACKED_FRAMES,
                resolution: Tuple[int, int] = (96, 96)
               ) -> frames_lib.FrameStack:
  """The layout of `AtariEnvironment`'s observations: N uint8 RGB frames of
  `resolution` and N action planes, `[H, W, 3 N + N]` (arXiv:1911.08265,
  appendix "Network Input"); a `ValueError` for a bad argument."""
  n = base.check_int('num_stacked_frames', num_stacked_frames, 1)
  height, width = _check_resolution(resolution)
  return frames_lib.FrameStack(num_frames=n, frame_shape=(height, width, 3),
                               frame_dtype='uint8', frame_max=255.,
                               num_actions=NUM_ACTIONS)


def area_weights(size_in: int, size_out: int) -> np.ndarray:
  """Returns the `[size_out, size_in]` weights of an area (box) resize in 1-D.

  Output pixel i is the mean of input interval `[i s, (i + 1) s)`,
  `s = size_in / size_out`: 3 -> 2 gives rows (2/3, 1/3, 0), (0, 1/3, 2/3).
  A `ValueError` if a size is not a positive integer.
  """
  size_in = base.check_int('size_in', size_in, 1)
  size_out = base.check_int('size_out', size_out, 1)
  scale = size_in / size_out
  low = np.arange(size_out)[:, None] * scale  # [size_out, 1]
  pixel = np.arange(size_in)[None, :]  # [1, size_in]
  overlap = np.minimum(low + scale, pixel + 1) - np.maximum(low, pixel)
  return np.clip(overlap, 0., None) / scale


def _taps(weights: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
  """Returns the band of `weights` `[out, in]` as `[T, out]` index, weight.

  Row i is nonzero on one run of at most T inputs; tap t of output i is
  input `index[t, i]` with weight `weight[t, i]` (zero past the run).
  """
  size_out, size_in = weights.shape
  nonzero = weights > 0.
  start = nonzero.argmax(axis=1)  # [out]
  width = int(nonzero.sum(axis=1).max())
  index = start[None, :] + np.arange(width)[:, None]  # [T, out]
  inside = index < size_in
  index = np.minimum(index, size_in - 1)
  weight = np.where(inside, weights[np.arange(size_out)[None, :], index], 0.)
  return index, weight.astype(np.float32)


class AreaResize:
  """Resizes `[h, w, C]` images to `[H, W, C]` float32 by area averaging.

  `scale * Wr @ image @ Wc^T` per channel with `area_weights`, as gathered
  sums over the weights' bands: a BLAS product is much slower when its
  threads compete with other self-play processes.
  """

  def __init__(self,
               input_shape: Tuple[int, int],
               resolution: Tuple[int, int],
               scale: float = 1.):
    height_in, width_in = _check_resolution(input_shape, 'input_shape')
    height, width = _check_resolution(resolution)
    self._input_shape = (height_in, width_in)
    # The scale is folded into the row weights: one multiplication fewer.
    self._row_index, row_weight = _taps(area_weights(height_in, height) * scale)
    self._row_weight = row_weight[:, :, None, None]  # [T, H, 1, 1]
    self._column_index, column_weight = _taps(area_weights(width_in, width))
    self._column_weight = column_weight[:, None, :, None]  # [T, 1, W, 1]

  def __call__(self, image: np.ndarray) -> np.ndarray:
    """Returns `image` `[h, w, C]` resized to float32 `[H, W, C]`."""
    image = np.asarray(image)
    if image.ndim != 3 or image.shape[:2] != self._input_shape:
      raise ValueError(
          f'AreaResize expects images of shape {self._input_shape + ("C",)}, '
          f'got {image.shape}.')
    image = image.astype(np.float32)
    rows = self._row_weight[0] * image[self._row_index[0]]  # [H, w, C]
    for index, weight in zip(self._row_index[1:], self._row_weight[1:]):
      rows += weight * image[index]
    out = self._column_weight[0] * rows[:, self._column_index[0]]
    for index, weight in zip(self._column_index[1:], self._column_weight[1:]):
      out += weight * rows[:, index]
    return out  # [H, W, C]


class AtariEnvironment(base.OnePlayerEnvironment):
  """One Atari 2600 game through ALE, with MuZero's Atari protocol.

  arXiv:1911.08265, appendices "Data generation" and "Network Input": all
  18 actions of ALE's full set (action i is `ale.getLegalActionSet()[i]`),
  each held for `action_repeat` frames with their unclipped rewards summed;
  frames are RGB screens area-resized to `resolution` and rounded to bytes,
  stacked as `frame_stack()` says. The game's end is a termination
  (discount 0), `max_episode_frames` a truncation.
  """

  _num_actions = NUM_ACTIONS

  def __init__(self,
               game: str,
               seed: int = 0,
               *,
               num_stacked_frames: int = PAPER_NUM_STACKED_FRAMES,
               action_repeat: int = 4,
               resolution: Tuple[int, int] = (96, 96),
               noop_max: int = 30,
               max_episode_frames: int = 108_000,
               sticky_actions: bool = False,
               max_pool: bool = False,
               ale_factory: Optional[Callable[[], Any]] = None):
    """Loads the game's ROM into a fresh emulator; the defaults are the paper's.

    Args:
      game: a title, 'MsPacman', or ALE's ROM id 'ms_pacman'.
      seed: in 0..2**64 - 1; seeds the no-op counts (`default_rng(seed)`)
        and ALE (`seed % 2**31`).
      num_stacked_frames: frames in the observation, `N`.
      resolution: `(H, W)` of a frame.
      noop_max: the most no-op agent steps after a reset.
      max_episode_frames: emulator frames after which an episode is
        truncated; > `noop_max * action_repeat`.
      sticky_actions: ALE's sticky actions (0.25).
      max_pool: a frame is the maximum of the last two screens (DQN's).
      ale_factory: returns an `ale_py.ALEInterface` or a stand-in; None for
        a new `ale_py.ALEInterface`.

    Raises:
      ImportError: if ale-py is not installed.
      TypeError: if `game` is not a string or `ale_factory` not callable.
      ValueError: for an unknown game (naming close ROM ids), an argument
        out of range, or an emulator without 18 actions.
    """
    ale_py = base.import_optional('ale_py', 'AtariEnvironment', 'atari',
                                  'ale-py')
    if not isinstance(game, str):
      raise TypeError(f'game must be a string such as \'Pong\', got {game!r}.')
    known = list(ale_py.roms.get_all_rom_ids())
    name = rom_id(game, known)
    if name is None:
      snake_case = re.sub(r'(?<=[a-z0-9])(?=[A-Z])', '_', game).lower()
      close = difflib.get_close_matches(snake_case, known, n=3)
      hint = (f'close ROM ids: {close}' if close else
              'ale_py.roms.get_all_rom_ids() lists them')
      raise ValueError(f'Unknown Atari game {game!r}; {hint}.')
    self._seed = base.check_int('seed', seed, 0, _MAX_SEED)
    self._num_stacked_frames = base.check_int(
        'num_stacked_frames', num_stacked_frames, 1)
    self._action_repeat = base.check_int('action_repeat', action_repeat, 1)
    self._resolution = _check_resolution(resolution)
    self._noop_max = base.check_int('noop_max', noop_max, 0)
    self._max_episode_frames = base.check_int(
        'max_episode_frames', max_episode_frames, 1)
    noop_frames = self._noop_max * self._action_repeat
    if self._max_episode_frames <= noop_frames:
      # Otherwise an episode could end before the agent plays.
      raise ValueError(
          f'max_episode_frames must exceed the most no-op frames, noop_max * '
          f'action_repeat = {noop_frames}, got {max_episode_frames!r}.')
    for flag, value in (('sticky_actions', sticky_actions),
                        ('max_pool', max_pool)):
      if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f'{flag} must be a bool, got {value!r}.')
    if ale_factory is None:
      ale_factory = ale_py.ALEInterface
    elif not callable(ale_factory):
      raise TypeError(
          f'ale_factory must be a zero-argument callable, got '
          f'{ale_factory!r}.')
    self._game = name
    self._max_pool = bool(max_pool)

    ale = ale_factory()
    # Options take effect when the ROM loads, so they come first.
    ale.setInt('random_seed', self._seed % _ALE_SEEDS)
    ale.setFloat('repeat_action_probability',
                 STICKY_ACTION_PROBABILITY if sticky_actions else 0.)
    ale.loadROM(str(ale_py.roms.get_rom_path(name)))
    self._ale = ale
    self._actions = list(ale.getLegalActionSet())
    if len(self._actions) != NUM_ACTIONS:
      raise ValueError(
          f'The emulator must have ALE\'s full set of {NUM_ACTIONS} '
          f'actions, got {len(self._actions)}: {self._actions!r}.')
    screen = np.asarray(ale.getScreenRGB())
    self._resize = AreaResize(screen.shape[:2], self._resolution)
    self._rng = np.random.default_rng(self._seed)

    n = self._num_stacked_frames
    height, width = self._resolution
    self._frame_stack = frame_stack(n, self._resolution)
    # Ring buffers of the history: frame slot k is planes 3k..3k+2.
    self._frames = np.zeros((height, width, 3 * n), np.uint8)
    self._frame_actions = np.zeros(n, np.float32)
    self._next_slot = 0
    # The last two raw screens, for max pooling.
    self._screens = np.zeros((2,) + screen.shape, np.uint8)
    self._screen_slot = 0
    self._episode_frames = 0
    self._reset_next_step = True

  @property
  def game(self) -> str:
    """ALE's ROM id of the game, e.g. 'ms_pacman'."""
    return self._game

  @property
  def num_stacked_frames(self) -> int:
    return self._num_stacked_frames

  @property
  def action_repeat(self) -> int:
    return self._action_repeat

  def frame_stack(self) -> frames_lib.FrameStack:
    return self._frame_stack

  def observation_spec(self) -> specs.BoundedArray:
    shape = self._frame_stack.observation_shape
    return specs.BoundedArray(shape=shape, dtype=np.float32, minimum=0.,
                              maximum=1., name='observation')

  def reset(self) -> dm_env.TimeStep:
    for _ in range(_MAX_RESET_ATTEMPTS):
      self._ale.reset_game()
      self._episode_frames = 0
      if self._max_pool:
        self._screens[:] = self._ale.getScreenRGB()
      num_noops = int(self._rng.integers(0, self._noop_max + 1))
      game_over = False
      for _ in range(num_noops):
        _, game_over = self._play(0)
        if game_over:
          break
      if not game_over:
        break
    else:
      raise RuntimeError(
          f'{self._game} ended during its no-ops after each of '
          f'{_MAX_RESET_ATTEMPTS} resets.')
    self._frames[:] = 0
    self._frame_actions[:] = 0.
    self._next_slot = 0
    self._push_frame(0)
    self._reset_next_step = False
    return dm_env.restart(self._observation())

  def step(self, action) -> dm_env.TimeStep:
    if self._reset_next_step:
      return self.reset()
    index = base.check_action(action, NUM_ACTIONS)
    reward, game_over = self._play(index)
    self._push_frame(index)
    truncated = self._episode_frames >= self._max_episode_frames
    self._reset_next_step = game_over or truncated
    return base.next_timestep(reward, self._observation(), game_over, truncated)

  def _play(self, index: int) -> Tuple[float, bool]:
    """Plays `index` for up to `action_repeat` frames: (reward, game over)."""
    action = self._actions[index]
    reward = 0.
    for _ in range(self._action_repeat):
      reward += self._ale.act(action)
      self._episode_frames += 1
      if self._max_pool:
        self._screens[self._screen_slot] = self._ale.getScreenRGB()
        self._screen_slot ^= 1
      if self._ale.game_over():
        return reward, True
      if self._episode_frames >= self._max_episode_frames:
        break
    return reward, False

  def _push_frame(self, index: int):
    """Adds the current screen, reached by action `index`, to the history."""
    if self._max_pool:
      screen = np.maximum(self._screens[0], self._screens[1])
    else:
      screen = self._ale.getScreenRGB()
    slot = self._next_slot
    # Area means of bytes lie in [0, 255] up to float rounding.
    self._frames[..., 3 * slot:3 * slot + 3] = np.clip(
        np.rint(self._resize(screen)), 0., 255.)
    self._frame_actions[slot] = index / NUM_ACTIONS
    self._next_slot = (slot + 1) % self._num_stacked_frames

  def _observation(self) -> np.ndarray:
    """Returns the float32 `[H, W, 4 N]` history, oldest frame first."""
    k = self._next_slot  # The oldest slot, once the ring is full.
    height, width = self._resolution
    actions = np.roll(self._frame_actions, -k)
    frames = frames_lib.frame_planes(self._frame_stack, self._frames)
    return np.concatenate(
        [frames[..., 3 * k:], frames[..., :3 * k],
         np.broadcast_to(actions, (height, width, self._num_stacked_frames))],
        axis=-1)
