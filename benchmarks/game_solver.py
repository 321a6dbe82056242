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
"""Small deterministic two-player games solved exactly; a player's errors."""

from typing import Any, Callable, Dict, List, NamedTuple, Tuple

import numpy as np


class Position(NamedTuple):
  """A position of a two-player game and its moves of best value."""
  observation: np.ndarray
  to_play: int
  legal_actions: Tuple[int, ...]
  value: float  # For the player to move, with perfect play by both.
  optimal_actions: Tuple[int, ...]


def solve_game(make_environment: Callable[[int], Any],
               max_positions: int = 10_000) -> List[Position]:
  """Every position of a deterministic two-player game, solved by negamax.

  Each line of play is replayed from `reset()` of a new environment
  (`make_environment(seed)`, with `to_play()` and `legal_actions()`; the
  game must not depend on the seed); positions are told apart by
  observation and player to move. A move is worth its reward (the mover's)
  less the value for the opponent of the position it leads to. Returns the
  positions in the order solved, the start last; a `ValueError` if there
  are more than `max_positions`.
  """
  solved: Dict[Tuple[bytes, int], Position] = {}

  def replay(line):
    environment = make_environment(0)
    time_step = environment.reset()
    for action in line:
      time_step = environment.step(action)
    return environment, time_step

  def value(line) -> float:
    environment, time_step = replay(line)
    observation = np.asarray(time_step.observation)
    key = (observation.tobytes(), int(environment.to_play()))
    if key not in solved:
      if len(solved) >= max_positions:
        raise ValueError(f'solve_game found more than max_positions='
                         f'{max_positions} positions.')
      legal = tuple(int(a) for a in environment.legal_actions())
      environment.close()
      worths = []
      for action in legal:
        after, time_step = replay(line + [action])
        worth = float(time_step.reward)
        after.close()
        if not time_step.last():
          worth -= value(line + [action])
        worths.append(worth)
      best = max(worths)
      solved[key] = Position(observation, key[1], legal, best, tuple(
          a for a, w in zip(legal, worths) if w == best))
    return solved[key].value

  value([])
  return list(solved.values())


def suboptimal_moves(select_actions, positions: List[Position]) -> int:
  """How many `positions` `select_actions` (`MuZeroPlayer`'s) errs in."""
  actions = select_actions(np.stack([p.observation for p in positions]),
                           [p.to_play for p in positions],
                           [p.legal_actions for p in positions])
  return sum(int(a) not in p.optimal_actions
             for a, p in zip(actions, positions))
