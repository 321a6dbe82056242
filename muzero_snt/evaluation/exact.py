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
"""Exact tic-tac-toe results of a deterministic player, by walking every line.

Against an opponent picking uniformly among known moves, each result's
probability is a finite sum, where sampled games miss rare losing lines.
"""

from typing import Callable, Dict, List, NamedTuple, Sequence, Tuple

import numpy as np

from muzero_snt.environments import tictactoe
from muzero_snt.environments import tictactoe_players

# `MuZeroPlayer.select_actions`: ([B, 3, 3, 3], [B], B legal) -> [B] actions.
SelectActions = Callable[[np.ndarray, Sequence[int], Sequence[Sequence[int]]],
                         np.ndarray]

# The moves each opponent picks uniformly among, as its player does.
_CHOICES: Dict[str, Callable[[tictactoe.TicTacToe], List[int]]] = {
    'perfect': tictactoe_players.optimal_actions,
    'random': lambda env: [int(a) for a in env.legal_actions()],
}
OPPONENTS = tuple(_CHOICES)


class ExactResult(NamedTuple):
  """Probabilities of each result, and every losing line."""
  opponent: str
  side: str  # 'first' (the player moves first) or 'second'.
  win: float
  draw: float
  loss: float
  # (squares played from the empty board, probability), summing to `loss`.
  losing_lines: Tuple[Tuple[Tuple[int, ...], float], ...]


def walk(select_actions: SelectActions, opponent: str,
         side: int) -> ExactResult:
  """Every line of `select_actions`, a batched deterministic player moving
  first (`side` 0) or second (1), against `opponent` ('perfect' or
  'random'), from the empty board; ValueError for an unknown opponent or
  side, or an illegal move."""
  if opponent not in _CHOICES:
    raise ValueError(f'Unknown opponent {opponent!r}; expected one of '
                     f'{OPPONENTS}.')
  if side not in (0, 1):
    raise ValueError(f'side must be 0 or 1, got {side!r}.')
  start = tictactoe.TicTacToe()
  start.reset()
  # (position, line so far, probability of reaching it).
  frontier = [(start, (), 1.0)]
  totals = {'win': 0., 'draw': 0., 'loss': 0.}
  losing_lines = []
  while frontier:
    ours = [f for f in frontier if f[0].to_play() == side]
    theirs = [f for f in frontier if f[0].to_play() != side]
    moves = []  # (position, line, probability, action).
    if ours:
      legal = [env.legal_actions() for env, _, _ in ours]
      actions = select_actions(
          np.stack([env.observation() for env, _, _ in ours]),
          [side] * len(ours), legal)
      for (env, line, p), action, allowed in zip(ours, actions, legal):
        if int(action) not in allowed:
          raise ValueError(
              f'The player chose square {int(action)} after {list(line)}; '
              f'expected one of the legal squares {allowed.tolist()}:\n{env}')
        moves.append((env, line, p, int(action)))
    for env, line, p in theirs:
      choices = _CHOICES[opponent](env)
      moves.extend((env, line, p / len(choices), a) for a in choices)
    frontier = []
    for env, line, p, action in moves:
      child = env.clone()
      child.step(action)
      line = line + (action,)
      if child.winner is None:
        frontier.append((child, line, p))
      elif child.winner == tictactoe.DRAW:
        totals['draw'] += p
      elif child.winner == side:
        totals['win'] += p
      else:
        totals['loss'] += p
        losing_lines.append((line, p))
  return ExactResult(opponent=opponent, side=('first', 'second')[side],
                     losing_lines=tuple(sorted(losing_lines)), **totals)


def walk_all(select_actions: SelectActions,
             opponents: Sequence[str] = OPPONENTS) -> List[ExactResult]:
  """`walk` against each opponent, moving first then second."""
  return [walk(select_actions, opponent, side)
          for opponent in opponents for side in (0, 1)]


def format_results(results: Sequence[ExactResult], max_lines: int = 5) -> str:
  """A table of the probabilities, then up to `max_lines` of the likeliest
  losing lines of each row (squares 0..8 from the top left, row by row)."""
  rows = ['exact (every line)  P(win)    P(draw)   P(loss)   losing lines']
  for r in results:
    rows.append(f'{r.opponent:>8} {r.side:<10} {r.win:9.4%} {r.draw:9.4%} '
                f'{r.loss:9.4%} {len(r.losing_lines)}')
  for r in results:
    likeliest = sorted(r.losing_lines, key=lambda lp: -lp[1])[:max_lines]
    for line, p in likeliest:
      rows.append(f'  loses to {r.opponent} moving {r.side}: '
                  f'{" ".join(map(str, line))} ({p:.4%})')
  return '\n'.join(rows)
