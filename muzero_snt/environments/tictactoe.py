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
"""Tic-tac-toe as a two-player `dm_env` environment."""

import copy
from typing import Optional, Tuple

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt.environments import base

EMPTY = 0  # `board` codes: 0 empty, 1 a stone of player 0, 2 of player 1.
DRAW = -1  # `winner` after a full board without a line.

# The eight lines of three squares; squares are numbered 0..8 row-major.
LINES: Tuple[Tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # Rows.
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # Columns.
    (0, 4, 8), (2, 4, 6),  # Diagonals.
)
# The lines through each square: a move can only complete one of these.
_LINES_THROUGH: Tuple[Tuple[Tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in LINES if square in line) for square in range(9))
# `_PLANES[p][code]`: the observation's three planes at a square holding
# `code` when player p is to move (its stone, the opponent's, p).
_PLANES = np.array([[[0, 0, p], [p == 0, p == 1, p], [p == 1, p == 0, p]]
                    for p in (0, 1)], np.float32)


def line_owners(board: np.ndarray) -> Tuple[int, ...]:
  """Returns the players (0, 1) who own a complete line on `board` `[9]`."""
  owners = {int(board[a]) - 1 for a, b, c in LINES
            if board[a] != EMPTY and board[a] == board[b] == board[c]}
  return tuple(sorted(owners))


def check_position(board, to_play) -> np.ndarray:
  """A `[9]` or `[3, 3]` board coded as `TicTacToe.board` as a new int8 `[9]`;
  a `ValueError` unless the position, `to_play` to move, can arise."""
  array = np.asarray(board)
  if array.shape not in ((9,), (3, 3)) or not (
      np.issubdtype(array.dtype, np.integer) and
      np.isin(array, (0, 1, 2)).all()):
    raise ValueError(
        f'A tic-tac-toe board must be 9 (or 3x3) integers in {{0, 1, 2}} '
        f'(empty, player 0, player 1), got {board!r}.')
  array = array.reshape(9).astype(np.int8)
  if base.as_action(to_play) not in (0, 1):
    raise ValueError(f'to_play must be 0 or 1, got {to_play!r}.')
  stones = (int(np.sum(array == 1)), int(np.sum(array == 2)))
  if stones[0] - stones[1] not in (0, 1):
    raise ValueError(
        f'Player 0 moves first, so it has as many stones as player 1 or one '
        f'more; got {stones[0]} and {stones[1]} on {array.tolist()}.')
  expected = stones[0] - stones[1]
  if int(to_play) != expected:
    raise ValueError(
        f'With {stones[0]} stones of player 0 and {stones[1]} of player 1 '
        f'the player to move is {expected}, got to_play={to_play!r}.')
  owners = line_owners(array)
  if owners and owners != (1 - expected,):
    raise ValueError(
        f'Only the player who moved last ({1 - expected}) can own a line; '
        f'players {list(owners)} do on {array.tolist()}.')
  return array


class TicTacToe(base.Environment):
  """Tic-tac-toe on a 3x3 board: two players, player 0 moves first.

  Actions 0..8 are squares row-major. The mover's reward is 1 for
  completing a line, else 0; a line or a full board ends the episode.
  Observations are float32 `[3, 3, 3]`: the stones of the player to move,
  the opponent's, and a constant plane equal to the player to move (who
  still alternates after the last move).
  """

  def __init__(self, seed: Optional[int] = None):
    del seed  # Nothing is random.
    self.reset()
    self._reset_next_step = True

  def observation_spec(self) -> specs.Array:
    return specs.Array(shape=(3, 3, 3), dtype=np.float32, name='observation')

  def action_spec(self) -> specs.DiscreteArray:
    return specs.DiscreteArray(num_values=9, dtype=np.int32, name='action')

  def reset(self) -> dm_env.TimeStep:
    self._board = np.zeros(9, np.int8)
    self._to_play = 0
    self._winner = None
    self._reset_next_step = False
    self._legal: Optional[np.ndarray] = None  # Of the position, once asked.
    return dm_env.restart(self.observation())

  def step(self, action) -> dm_env.TimeStep:
    if self._reset_next_step:
      return self.reset()
    square = base.as_action(action)
    if square is None or not 0 <= square < 9 or self._board[square] != EMPTY:
      raise ValueError(
          f'Illegal tic-tac-toe action {action!r}: expected an integer square '
          f'0..8 that is empty; the legal actions are '
          f'{self.legal_actions().tolist()}.')
    mover = self._to_play
    board = self._board
    board[square] = mover + 1
    self._to_play = 1 - mover
    self._legal = None
    # The position before had no line, so only one through `square` can
    # be complete now, and it is the mover's.
    if any(board[a] == board[b] == board[c]
           for a, b, c in _LINES_THROUGH[square]):
      self._winner = mover
    elif not (self._board == EMPTY).any():
      self._winner = DRAW
    if self._winner is None:
      return base.transition(0., self.observation())
    self._reset_next_step = True
    return base.termination(1. if self._winner == mover else 0.,
                            self.observation())

  def legal_actions(self) -> np.ndarray:
    if self._winner is not None:
      return np.zeros(0, np.int32)
    if self._legal is None:  # Asked about three times per move.
      self._legal = np.flatnonzero(self._board == EMPTY).astype(np.int32)
    return self._legal.copy()

  def to_play(self) -> int:
    return self._to_play

  @property
  def num_players(self) -> int:
    return 2

  def observation(self) -> np.ndarray:
    """The float32 `[3, 3, 3]` observation of the current position."""
    return _PLANES[self._to_play][self._board].reshape(3, 3, 3)

  @property
  def board(self) -> np.ndarray:
    """A copy of the board: int8 `[9]`, 0 empty, 1 player 0's, 2 player 1's."""
    return self._board.copy()

  @property
  def winner(self) -> Optional[int]:
    """None while the game runs, then the winner (0 or 1) or -1 for a draw."""
    return self._winner

  def set_state(self, board, to_play: int):
    """Sets up a position that `check_position` accepts; the next `step()`
    plays in it or, if it is finished, starts a new episode."""
    self._board = check_position(board, to_play)
    self._to_play = int(to_play)
    self._winner = None
    owners = line_owners(self._board)
    if owners:
      self._winner = owners[0]
    elif not (self._board == EMPTY).any():
      self._winner = DRAW
    self._reset_next_step = self._winner is not None
    self._legal = None

  def clone(self) -> 'TicTacToe':
    """Returns an independent copy in the same state."""
    return copy.deepcopy(self)

  def __str__(self) -> str:
    marks = '.XO'
    rows = [''.join(marks[v] for v in self._board[r:r + 3])
            for r in (0, 3, 6)]
    return '\n'.join(rows)
