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
"""Board symmetries as data augmentation of training batches.

AlphaGo Zero's random dihedral map of each position (Silver et al., 2017,
Methods); MuZero does not augment, so 'none' is the default. A K-step
window moves as a whole: board planes, actions and policy targets. Kinds:
'dihedral', the 8 maps of a square board (tic-tac-toe, Go); 'left_right',
the identity and the mirror (connect four). Observations are `[height,
width, planes]`; actions are the squares row-major (plus at most one, such
as Go's pass, that no map moves) or, for 'left_right', columns.
"""

from typing import Any, Optional, Sequence

import numpy as np

SYMMETRY_KINDS = ('none', 'dihedral', 'left_right')


def check(kind: str, observation_shape: Sequence[int],
          action_space_size: int) -> Optional[str]:
  """What is wrong with `kind` for a game of this shape, or None."""
  if kind not in SYMMETRY_KINDS:
    return f'board_symmetries {kind!r}: expected one of {SYMMETRY_KINDS}.'
  if kind == 'none':
    return None
  shape = tuple(observation_shape)
  if len(shape) != 3:
    return (f'board_symmetries {kind!r} needs observations [height, width, '
            f'planes], got observation_shape {list(shape)}.')
  height, width = shape[:2]
  squares = height * width
  if kind == 'dihedral':
    if height != width:
      return (f'board_symmetries \'dihedral\' needs a square board, got '
              f'{height}x{width} (observation_shape {list(shape)}).')
    allowed = (squares, squares + 1)
  else:
    allowed = (width, squares, squares + 1)
  if action_space_size not in allowed:
    return (f'board_symmetries {kind!r} on a {height}x{width} board needs '
            f'action_space_size in {allowed} (the squares in row-major order, '
            f'plus at most one action no map moves'
            f'{", or the columns" if kind == "left_right" else ""}), got '
            f'{action_space_size}.')
  return None


class BoardSymmetries:
  """The maps of one kind, as index arrays, and their use on batches.

  Map j sends the board planes at square `square_source[j][s]` to square s,
  and action a to `action_image[j][a]`; a policy over actions is moved by
  the inverse, `policy[..., action_source[j]]`. Map 0 is the identity.
  """

  def __init__(self, kind: str, observation_shape: Sequence[int],
               action_space_size: int):
    """Builds the maps; a `ValueError` as `check` describes."""
    problem = check(kind, observation_shape, action_space_size)
    if problem:
      raise ValueError(problem)
    self._kind = kind
    height, width = tuple(observation_shape)[:2] if kind != 'none' else (1, 1)
    grid = np.arange(height * width).reshape(height, width)
    if kind == 'none':
      grids = [grid]
    elif kind == 'dihedral':
      grids = ([np.rot90(grid, k) for k in range(4)] +
               [np.rot90(grid.T, k) for k in range(4)])
    else:
      grids = [grid, grid[:, ::-1]]
    self._square_source = np.stack([g.ravel() for g in grids])  # [S, H*W]
    columns = kind == 'left_right' and action_space_size == width != (
        height * width)
    image = []
    for j, source in enumerate(self._square_source):
      if columns:
        # Connect four's drops: the mirror sends column c to width - 1 - c.
        cols = np.arange(width)
        image.append(cols if j == 0 else width - 1 - cols)
        continue
      # Square a lands where the source holds a; Go's pass stays.
      image.append(np.concatenate([np.argsort(source),
                                   np.arange(source.size, action_space_size)]))
    self._action_image = np.stack(image).astype(np.int64)  # [S, A]
    self._action_source = np.argsort(self._action_image, axis=1)  # [S, A]

  @property
  def size(self) -> int:
    """How many maps (the identity included)."""
    return len(self._square_source)

  @property
  def action_image(self) -> np.ndarray:
    """`[S, A]`: map j sends action a to `action_image[j, a]`."""
    return self._action_image.copy()

  def transform_observations(self, observations: np.ndarray,
                             maps: np.ndarray) -> np.ndarray:
    """`[B, H, W, C]` observations, row i moved by map `maps[i]`."""
    b = len(observations)
    flat = observations.reshape(b, -1, observations.shape[-1])
    moved = flat[np.arange(b)[:, None], self._square_source[maps]]
    return moved.reshape(observations.shape)

  def apply(self, batch: Any, maps: np.ndarray) -> Any:
    """The NumPy `types.Batch` with row i's observations, actions and policy
    targets moved by map `maps[i]`."""
    maps = np.asarray(maps, np.int64)
    if self._kind == 'none':
      return batch
    source = self._action_source[maps][:, None, :]  # [B, 1, A]
    next_observation = batch.next_observation
    if next_observation is not None:
      # [B, K, H, W, C]: every step of a row by the row's map.
      steps = next_observation.shape[1]
      next_observation = self.transform_observations(
          np.asarray(next_observation).reshape(
              (-1,) + next_observation.shape[2:]),
          np.repeat(maps, steps)).reshape(next_observation.shape)
    return batch._replace(
        next_observation=next_observation,
        observation=self.transform_observations(batch.observation, maps),
        action=np.take_along_axis(
            self._action_image[maps], np.asarray(batch.action, np.int64),
            axis=1).astype(batch.action.dtype),
        target_policy=np.take_along_axis(batch.target_policy, source,
                                         axis=2))

  def draw(self, rows: int, rng: np.random.Generator) -> np.ndarray:
    """`[rows]` maps drawn uniformly from `rng`; for 'none' the identity's,
    drawing nothing."""
    if self._kind == 'none':
      return np.zeros(rows, np.int64)
    return rng.integers(0, self.size, rows)

  def sample(self, batch: Any, rng: np.random.Generator) -> Any:
    """`apply` with a map for each row, drawn as `draw` does."""
    return self.apply(batch, self.draw(len(batch.action), rng))

