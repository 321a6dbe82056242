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
"""One-move tactics of a two-player board game: wins and losses in one.

'win': the player to move can win at once; the right moves are the winning
ones. 'defend': it cannot, and some of its moves let the opponent win at
once while others do not; the right moves are the others. Positions come
from uniformly random games or recorded ones; the rules and results are
OpenSpiel's.
"""

from typing import Dict, FrozenSet, List, NamedTuple, Optional, Sequence
from typing import Tuple

import numpy as np

from muzero_snt.environments import openspiel

KINDS = ('win', 'defend')


class TacticalPosition(NamedTuple):
  """A position with a one-move tactic, reached by `history`; `correct`
  is the non-empty subset of the `legal` actions that are right."""
  history: Tuple[int, ...]
  kind: str
  legal: Tuple[int, ...]
  correct: FrozenSet[int]


def _wins_at_once(state, action: int, player: int) -> bool:
  after = state.clone()
  after.apply_action(action)
  return after.is_terminal() and after.returns()[player] > 0


def winning_moves(state) -> FrozenSet[int]:
  """The legal moves that win at once for the mover at `state`, a
  `pyspiel.State` in play of a two-player game with a final outcome."""
  if state.is_terminal():
    raise ValueError(f'winning_moves needs a position in play, got a '
                     f'terminal one:\n{state}')
  player = state.current_player()
  return frozenset(a for a in state.legal_actions()
                   if _wins_at_once(state, a, player))


def classify(state) -> Optional[Tuple[str, FrozenSet[int]]]:
  """('win', winning moves), ('defend', moves after which the opponent
  cannot win at once), or None when neither applies (no win, and every
  move, or none, lets the opponent win at once)."""
  if state.is_terminal():
    raise ValueError(f'classify needs a position in play, got a terminal '
                     f'one:\n{state}')
  player = state.current_player()
  legal = state.legal_actions()
  wins = winning_moves(state)
  if wins:
    return 'win', wins
  safe = []
  for action in legal:
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal() or not any(
        _wins_at_once(after, reply, 1 - player)
        for reply in after.legal_actions()):
      safe.append(action)
  if 0 < len(safe) < len(legal):
    return 'defend', frozenset(safe)
  return None


def _load(game):
  if isinstance(game, str):
    game = openspiel.import_pyspiel().load_game(game)
  if game.num_players() != 2:
    raise ValueError(f'Tactics are for two-player games; '
                     f'{game.get_type().short_name!r} has '
                     f'{game.num_players()} players.')
  return game


def positions_in_games(game, games: Sequence[Sequence[int]]
                      ) -> List[TacticalPosition]:
  """Every position before a move of `games` (each game's actions from the
  start) that `classify` names, in order of play; `game` is a two-player
  `pyspiel.Game` or its name. Raises ValueError for an illegal action."""
  game = _load(game)
  positions = []
  for number, actions in enumerate(games):
    state = game.new_initial_state()
    history = []
    for action in actions:
      action = int(action)
      if state.is_terminal() or action not in state.legal_actions():
        raise ValueError(f'Game {number}: action {action} after '
                         f'{history} is not legal there.')
      tactic = classify(state)
      if tactic is not None:
        positions.append(TacticalPosition(tuple(history), tactic[0],
                                          tuple(state.legal_actions()),
                                          tactic[1]))
      state.apply_action(action)
      history.append(action)
  return positions


def collect_positions(game, num_games: int,
                      seed: int = 0) -> List[TacticalPosition]:
  """The tactical positions of `num_games` uniformly random games."""
  game = _load(game)
  if not isinstance(num_games, int) or num_games < 1:
    raise ValueError(f'num_games must be a positive integer, got '
                     f'{num_games!r}.')
  rng = np.random.default_rng(seed)
  games = []
  for _ in range(num_games):
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
      legal = state.legal_actions()
      actions.append(int(legal[rng.integers(len(legal))]))
      state.apply_action(actions[-1])
    games.append(actions)
  return positions_in_games(game, games)


def hit_rates(positions: Sequence[TacticalPosition],
              actions: Sequence[int]) -> Dict[str, float]:
  """{kind: the share of its positions where `actions` were right} (NaN
  for a kind without positions)."""
  if len(actions) != len(positions):
    raise ValueError(f'{len(actions)} actions for {len(positions)} '
                     'positions: give one action per position.')
  rates = {}
  for kind in KINDS:
    hits = [int(a) in p.correct for p, a in zip(positions, actions)
            if p.kind == kind]
    rates[kind] = float(np.mean(hits)) if hits else float('nan')
  return rates


def random_rates(positions: Sequence[TacticalPosition]) -> Dict[str, float]:
  """What a uniformly random player's `hit_rates` are in expectation."""
  rates = {}
  for kind in KINDS:
    shares = [len(p.correct) / len(p.legal) for p in positions
              if p.kind == kind]
    rates[kind] = float(np.mean(shares)) if shares else float('nan')
  return rates


def counts(positions: Sequence[TacticalPosition]) -> Dict[str, int]:
  """The number of positions of each kind."""
  return {kind: sum(p.kind == kind for p in positions) for kind in KINDS}
