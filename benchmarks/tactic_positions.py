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

A win-and-loss rating says how often a player wins, not why it loses. Two
questions a player of any strength must answer right are asked here of
positions where they arise:

* 'win': the player to move has a move that wins at once. The right moves
  are the winning ones.
* 'defend': it has none, and some of its moves let the opponent win at
  once while others do not (the opponent threatens a win). The right moves
  are those after which the opponent has no winning move.

Positions are taken from uniformly random games (`collect_positions`), so
they are many and varied, or from recorded games such as a run's own
self-play (`positions_in_games`); the rules and results are OpenSpiel's
(`pyspiel.State.clone`, `apply_action`, `returns`). `hit_rates` is the
share of such positions where a player's moves were right, and
`random_rates` what a uniformly random player scores on the same positions.
"""

from typing import Dict, FrozenSet, List, NamedTuple, Optional, Sequence
from typing import Tuple

import numpy as np

from muzero_snt.environments import openspiel

KINDS = ('win', 'defend')


class TacticalPosition(NamedTuple):
  """A position with a one-move tactic.

  Attributes:
    history: the actions from the start of the game that reach it.
    kind: 'win' or 'defend' (see the module docstring).
    legal: the legal actions, in OpenSpiel's order.
    correct: the right moves, a non-empty subset of `legal`.
  """
  history: Tuple[int, ...]
  kind: str
  legal: Tuple[int, ...]
  correct: FrozenSet[int]


def _wins_at_once(state, action: int, player: int) -> bool:
  after = state.clone()
  after.apply_action(action)
  return after.is_terminal() and after.returns()[player] > 0


def winning_moves(state) -> FrozenSet[int]:
  """The legal moves at `state` that win the game at once for the mover.

  Args:
    state: a `pyspiel.State` of a two-player game of sequential moves with
      a final outcome, not terminal.
  """
  if state.is_terminal():
    raise ValueError(f'winning_moves needs a position in play, got a '
                     f'terminal one:\n{state}')
  player = state.current_player()
  return frozenset(a for a in state.legal_actions()
                   if _wins_at_once(state, a, player))


def classify(state) -> Optional[Tuple[str, FrozenSet[int]]]:
  """The kind of one-move tactic at `state` and its right moves, or None.

  Args:
    state: a `pyspiel.State` of a two-player game of sequential moves with
      a final outcome, not terminal.

  Returns:
    ('win', winning moves), ('defend', moves after which the opponent
    cannot win at once), or None when neither applies (no win, and every
    move, or no move, lets the opponent win at once).
  """
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
  """The tactical positions along recorded games.

  Args:
    game: a `pyspiel.Game` of two players, or its OpenSpiel name.
    games: each game's actions from the start (a `Trajectory`'s `actions`,
      say); a game may stop before its end.

  Returns:
    Every position before a move of those games that `classify` names, in
    order of play.

  Raises:
    ValueError: if an action is illegal where it is played.
  """
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


def random_games(game, num_games: int, seed: int = 0) -> List[List[int]]:
  """The actions of `num_games` games of uniformly random moves."""
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
  return games


def collect_positions(game, num_games: int,
                      seed: int = 0) -> List[TacticalPosition]:
  """The tactical positions of `num_games` uniformly random games.

  Args:
    game: a `pyspiel.Game` of two players, or its OpenSpiel name (e.g.
      'connect_four').
    num_games: games to play, >= 1.
    seed: seeds the random moves.

  Returns:
    Every position of those games that `classify` names, in order of play.
  """
  game = _load(game)
  return positions_in_games(game, random_games(game, num_games, seed))


def _check_kinds(positions: Sequence[TacticalPosition]):
  for position in positions:
    if position.kind not in KINDS:
      raise ValueError(f'Unknown kind {position.kind!r}; expected one of '
                       f'{KINDS}.')


def hit_rates(positions: Sequence[TacticalPosition],
              actions: Sequence[int]) -> Dict[str, float]:
  """The share of each kind's positions where `actions` were right.

  Args:
    positions: tactical positions.
    actions: the move a player chose at each of them.

  Returns:
    {kind: share in [0, 1]} for each kind present; NaN for none.
  """
  if len(actions) != len(positions):
    raise ValueError(f'{len(actions)} actions for {len(positions)} '
                     'positions: give one action per position.')
  _check_kinds(positions)
  rates = {}
  for kind in KINDS:
    hits = [int(a) in p.correct for p, a in zip(positions, actions)
            if p.kind == kind]
    rates[kind] = float(np.mean(hits)) if hits else float('nan')
  return rates


def random_rates(positions: Sequence[TacticalPosition]) -> Dict[str, float]:
  """What a uniformly random player's `hit_rates` are in expectation."""
  _check_kinds(positions)
  rates = {}
  for kind in KINDS:
    shares = [len(p.correct) / len(p.legal) for p in positions
              if p.kind == kind]
    rates[kind] = float(np.mean(shares)) if shares else float('nan')
  return rates


def counts(positions: Sequence[TacticalPosition]) -> Dict[str, int]:
  """The number of positions of each kind."""
  _check_kinds(positions)
  return {kind: sum(p.kind == kind for p in positions) for kind in KINDS}
