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
"""Tic-tac-toe opponents for evaluation: a perfect (minimax) and a random one.

Minimax is memoised on the position (fewer than 6,000 arise). Values are for
the player to move under perfect play: +1 a win, 0 a draw, -1 a loss.
"""

import functools
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from muzero_snt.environments import openspiel_players
from muzero_snt.environments import tictactoe

Board = Tuple[int, ...]


@functools.lru_cache(maxsize=None)
def _action_values(board: Board, to_play: int) -> Tuple[Tuple[int, int], ...]:
  """(action, value for `to_play`) of every legal action of a live game."""
  values = []
  for action in range(9):
    if board[action] != tictactoe.EMPTY:
      continue
    child = board[:action] + (to_play + 1,) + board[action + 1:]
    if tictactoe.line_owners(child):
      value = 1  # The mover completed a line.
    elif tictactoe.EMPTY not in child:
      value = 0
    else:
      # Zero-sum: the opponent's best is the mover's worst.
      value = -max(v for _, v in _action_values(child, 1 - to_play))
    values.append((action, value))
  return tuple(values)


def _position(env_or_board, to_play: Optional[int]) -> Tuple[Board, int]:
  if hasattr(env_or_board, 'board') and callable(
      getattr(env_or_board, 'to_play', None)):
    if to_play is not None:
      raise ValueError(
          f'to_play is read from the environment; pass a board to give it, '
          f'got to_play={to_play!r} with {env_or_board!r}.')
    board, to_play = env_or_board.board, env_or_board.to_play()
  elif to_play is None:
    raise ValueError('A board needs the player to move, got to_play=None.')
  else:
    board = env_or_board
  board = tictactoe.check_position(board, to_play)
  return tuple(int(v) for v in board), int(to_play)


def minimax_values(board, to_play: Optional[int] = None) -> Dict[int, int]:
  """`{action: value}` of the legal actions for the player to move.

  Of a `TicTacToe` (not changed), or of a `board` that
  `tictactoe.check_position` accepts with its `to_play` (else a `ValueError`).
  """
  board, to_play = _position(board, to_play)
  if tictactoe.line_owners(board) or tictactoe.EMPTY not in board:
    return {}
  return dict(_action_values(board, to_play))


def game_value(board, to_play: Optional[int] = None) -> int:
  """The value for the player to move, also once finished; as
  `minimax_values`."""
  board, to_play = _position(board, to_play)
  if tictactoe.line_owners(board):
    return -1  # Only the player who moved last can own a line.
  if tictactoe.EMPTY not in board:
    return 0
  return max(v for _, v in _action_values(board, to_play))


def optimal_actions(env_or_board, to_play: Optional[int] = None) -> List[int]:
  """The actions that keep the game value, ascending; as `minimax_values`."""
  values = minimax_values(env_or_board, to_play)
  if not values:
    return []
  best = max(values.values())
  return sorted(a for a, v in values.items() if v == best)


class RandomPlayer:
  """Plays uniformly among the legal actions of any `base.Environment`."""

  def __init__(self, seed: Optional[int] = None):
    self._rng = np.random.default_rng(seed)

  def _actions(self, env) -> Sequence[int]:
    return env.legal_actions()

  def select_action(self, env) -> int:
    """A uniform draw among the actions this player considers in `env`; a
    `ValueError` if the game is over."""
    actions = self._actions(env)
    if len(actions) == 0:  # pylint: disable=g-explicit-length-test
      raise ValueError(f'The game is over, there is no action to select:\n'
                       f'{env}')
    return int(self._rng.choice(actions))


class PerfectPlayer(RandomPlayer):
  """Plays uniformly among the optimal actions of a `TicTacToe`: many lines,
  never a loss."""

  def _actions(self, env) -> Sequence[int]:
    return optimal_actions(env)


def play_game(players: Sequence, env: Optional[tictactoe.TicTacToe] = None
              ) -> int:
  """`openspiel_players.play_game` in `env`, a new `TicTacToe` if None."""
  return openspiel_players.play_game(
      players, tictactoe.TicTacToe() if env is None else env)
