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
"""A perfect tic-tac-toe model for the search tests.

Written from the rules alone. The hidden state is `[B, 10]` float32: squares
0..8 (row-major) hold +1 for the player to move's stones, -1 for the
opponent's, 0 if empty, and element 9 is 1 once the game is over (absorbing).
Rewards and values follow the library's conventions: the reward (+1 for
completing a line, else 0) is for the player who moved, the value is the
exact minimax value for the player to move, 0 at and after the end. Policy
logits are all 0, so that the search alone must find the moves.

Inside the search tree every action is tried; a move onto an occupied square
loses at once (reward -1 for its mover, then absorbing), so it is never
better than a legal move and the minimax values stay those of the real game.
"""

import functools
from typing import List, Sequence, Tuple

import numpy as np

from muzero_snt import types

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))
DONE = 9  # Index of the absorbing flag in the hidden state.


def has_line(board: Sequence[int], player: int) -> bool:
  """Whether `player` (+1 or -1) holds a whole line of `board`."""
  return any(all(board[i] == player for i in line) for line in LINES)


def is_over(board: Sequence[int]) -> bool:
  """A line is complete or the board is full."""
  return has_line(board, 1) or has_line(board, -1) or all(board)


@functools.lru_cache(maxsize=None)
def minimax(board: Tuple[int, ...]) -> int:
  """The value of `board` for the player to move (+1 stones): -1, 0 or 1."""
  if is_over(board):
    return 0
  best = -1
  for square in range(9):
    if board[square]:
      continue
    after = list(board)
    after[square] = 1
    if has_line(after, 1):
      return 1  # Reward +1, then a terminal state of value 0.
    # The opponent moves next: its stones become +1.
    best = max(best, -minimax(tuple(-x for x in after)))
  return best


def parse(text: str) -> Tuple[List[int], int]:
  """'XO.X..O..' (X moves first) -> (board in X's view, player to move).

  Returns:
    The 9 squares with X = +1 and O = -1, and 0 if X is to move, else 1.
  """
  text = text.replace(' ', '').replace('\n', '')
  if len(text) != 9 or set(text) - set('XO.'):
    raise ValueError(f'Expected 9 characters of X, O and ., got {text!r}.')
  board = [{'X': 1, 'O': -1, '.': 0}[c] for c in text]
  x, o = board.count(1), board.count(-1)
  if x - o not in (0, 1):
    raise ValueError(f'Impossible position {text!r}: {x} X and {o} O.')
  return board, x - o


def observation(text: str) -> Tuple[np.ndarray, int, List[int]]:
  """The library's `[3, 3, 3]` observation, the player to move, the empties.

  Plane 0 holds the stones of the player to move, plane 1 the opponent's,
  plane 2 is the constant `to_play`.
  """
  board, to_play = parse(text)
  mover = 1 if to_play == 0 else -1
  obs = np.zeros((3, 3, 3), np.float32)
  for square, stone in enumerate(board):
    if stone == mover:
      obs[square // 3, square % 3, 0] = 1.
    elif stone == -mover:
      obs[square // 3, square % 3, 1] = 1.
  obs[:, :, 2] = to_play
  return obs, to_play, [s for s, stone in enumerate(board) if not stone]


class TicTacToeOracle:
  """A `Model` with the true dynamics and exact values of tic-tac-toe."""

  def __init__(self):
    self.recurrent_calls = 0
    self.batch_sizes: List[int] = []

  def initial_inference(self,
                        observation: np.ndarray) -> types.NetworkOutput:
    observation = np.asarray(observation)
    batch_size = observation.shape[0]
    mine = observation[..., 0].reshape(batch_size, 9)
    theirs = observation[..., 1].reshape(batch_size, 9)
    state = np.zeros((batch_size, 10), np.float32)
    state[:, :9] = mine - theirs
    value = np.zeros(batch_size, np.float32)
    for i in range(batch_size):
      board = tuple(int(x) for x in state[i, :9])
      if is_over(board):
        state[i, DONE] = 1.
      value[i] = minimax(board)
    return types.NetworkOutput(
        value=value,
        reward=np.zeros(batch_size, np.float32),
        policy_logits=np.zeros((batch_size, 9), np.float32),
        hidden_state=state)

  def recurrent_inference(self, hidden_state: np.ndarray,
                          action: np.ndarray) -> types.NetworkOutput:
    self.recurrent_calls += 1
    batch_size = hidden_state.shape[0]
    self.batch_sizes.append(batch_size)
    state = np.zeros((batch_size, 10), np.float32)
    reward = np.zeros(batch_size, np.float32)
    value = np.zeros(batch_size, np.float32)
    for i in range(batch_size):
      board = [int(x) for x in hidden_state[i, :9]]
      square = int(action[i])
      if hidden_state[i, DONE]:
        state[i] = hidden_state[i]  # Absorbing: nothing changes.
        continue
      if board[square]:
        reward[i] = -1.  # An illegal move loses.
        state[i, DONE] = 1.
        continue
      board[square] = 1
      if has_line(board, 1):
        reward[i] = 1.
      # The opponent is to move: flip the view.
      after = tuple(-x for x in board)
      state[i, :9] = after
      if is_over(after):
        state[i, DONE] = 1.
      else:
        value[i] = minimax(after)
    return types.NetworkOutput(
        value=value,
        reward=reward,
        policy_logits=np.zeros((batch_size, 9), np.float32),
        hidden_state=state)
