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
"""Evaluation: MuZero's noise-free search against fixed opponents or alone.

MuZero plays the pseudocode's `select_action` at temperature 0, so the
variety comes from the opponents' and environments' seeds. Games run in
lockstep, one batched search per move, and are cut after `move_limit`
moves so that a policy that never ends its game still ends its evaluation.
"""

from typing import Dict, List, Mapping, NamedTuple, Optional, Sequence, Union

from absl import logging
import numpy as np

from muzero_snt import acting
from muzero_snt import search as search_lib
from muzero_snt.environments import base
from muzero_snt.environments import openspiel
from muzero_snt.environments import openspiel_players
from muzero_snt.environments import tictactoe
from muzero_snt.evaluation import opponents as opponents_lib

OpponentFactory = opponents_lib.OpponentFactory
EnvironmentFactory = acting.EnvironmentFactory
SIDES = ('first', 'second')  # MuZero as player 0 (moves first) or player 1.


def move_limit(config, max_moves: Optional[int] = None) -> int:
  """`max_moves`, or the config's if None: moves a game may last; raises
  ValueError unless it is a positive integer."""
  limit = config.max_moves if max_moves is None else max_moves
  if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or (
      limit < 1):
    raise ValueError(f'max_moves must be a positive integer, got {limit!r}.')
  return int(limit)


def greedy_actions(output: search_lib.SearchOutput) -> np.ndarray:
  """The `[B]` int64 actions of a noise-free search's output: Gumbel
  MuZero's selected action where the search chooses one, else the most
  visited root action, ties to the lowest."""
  if output.action is not None:
    return output.action.astype(np.int64)
  return np.argmax(output.visit_counts, axis=1)  # First maximum: lowest.


class MuZeroPlayer:
  """Plays `greedy_actions` of `search` (TypeError unless a `search.Search`
  with a `config`); `select_action(env)` is the opponents' protocol."""

  def __init__(self, search: search_lib.Search, seed: int = 0):
    if not (isinstance(search, search_lib.Search) and
            hasattr(search, 'config')):
      raise TypeError(f'MuZeroPlayer needs a search.Search with a config '
                      f'(e.g. search.make_search(config, network)), got '
                      f'{type(search).__name__}.')
    self._search = search
    self._num_actions = search.config.action_space_size
    self._rng = np.random.default_rng(seed)

  @property
  def config(self):
    return self._search.config

  def select_actions(self, observations: np.ndarray, to_play: Sequence[int],
                     legal_actions: Sequence[Sequence[int]]) -> np.ndarray:
    """`[B]` int64 `greedy_actions` of B positions: their `[B, *obs]`
    observations, players to move and non-empty legal actions."""
    output = self._search(
        observations, to_play,
        search_lib.legal_actions_to_mask(legal_actions, self._num_actions),
        self._rng, add_noise=False)
    return greedy_actions(output)

  def select_action(self, env: base.Environment,
                    observation: Optional[np.ndarray] = None) -> int:
    """The action in `env`'s position, whose observation is `observation`
    or `env.observation()` (ValueError if it has none)."""
    if observation is None:
      if not callable(getattr(env, 'observation', None)):
        raise ValueError(
            f'{type(env).__name__} has no observation() method: pass the '
            'current observation (the last TimeStep\'s) to select_action.')
      observation = env.observation()
    action = self.select_actions(observation[None], [env.to_play()],
                                 [env.legal_actions()])
    return int(action[0])


class MatchResult(NamedTuple):
  """MuZero's wins, draws and losses against one opponent from one side,
  and games cut after `max_moves` moves (none of them)."""
  opponent: str
  side: str  # 'first' (MuZero is player 0) or 'second'.
  wins: int
  draws: int
  losses: int
  cut: int = 0
  max_moves: Optional[int] = None  # The move limit the games were played to.

  @property
  def num_games(self) -> int:
    return self.wins + self.draws + self.losses + self.cut


def play_games(muzero_player: MuZeroPlayer,
               envs: Sequence[base.Environment],
               opponents: Sequence[object],
               muzero_side: int,
               max_moves: Optional[int] = None,
               observations: Optional[Sequence[np.ndarray]] = None
              ) -> List[Optional[int]]:
  """Each game's winner (`openspiel_players.winner`: 0, 1, or -1 `DRAW`),
  None for one cut after `move_limit(max_moves)` moves, of `envs`
  (two-player games, none over) played against their `opponents`, MuZero
  as player `muzero_side` (0 moves first); ValueError for a bad side or
  `max_moves`, or not one opponent per game. `observations` are the games'
  current ones (their last time steps'); None reads `env.observation()`,
  which only some environments have."""
  if muzero_side not in (0, 1):
    raise ValueError(f'muzero_side must be 0 or 1, got {muzero_side!r}.')
  if len(envs) != len(opponents):
    raise ValueError(f'One opponent per game: {len(envs)} games and '
                     f'{len(opponents)} opponents.')
  limit = move_limit(muzero_player.config, max_moves)
  if observations is None:
    observations = [env.observation() for env in envs]
  observations = list(observations)
  winners = [None] * len(envs)
  live = list(range(len(envs)))
  # Each round moves every live game once: `limit` rounds, `limit` moves.
  for _ in range(limit):
    if not live:
      break
    ours = [i for i in live if envs[i].to_play() == muzero_side]
    actions = {}
    if ours:
      chosen = muzero_player.select_actions(
          np.stack([observations[i] for i in ours]),
          [muzero_side] * len(ours), [envs[i].legal_actions() for i in ours])
      actions = dict(zip(ours, chosen))
    for i in live:
      mover = envs[i].to_play()
      action = actions[i] if i in actions else opponents[i].select_action(
          envs[i])
      time_step = envs[i].step(int(action))
      observations[i] = time_step.observation
      if time_step.last():
        winners[i] = openspiel_players.winner(float(time_step.reward), mover)
    live = [i for i in live if winners[i] is None]
  if live:
    logging.warning('%d of %d games cut after %d moves.', len(live),
                    len(envs), limit)
  return winners


def evaluate_matches(
    muzero_player: MuZeroPlayer,
    make_environment: EnvironmentFactory,
    opponents: Mapping[str, OpponentFactory],
    num_games: int = 100,
    seed: int = 0,
    max_moves: Optional[int] = None) -> List[MatchResult]:
  """A `MatchResult` per opponent, in order, and side (first, then second)
  of `num_games` games cut after `move_limit(max_moves)` moves. Game g with
  MuZero as player s is played in `make_environment(n)` against
  `opponents[name](n)`, n = seed + s * num_games + g, so it can be replayed
  alone; ValueError for a bad `num_games`, `opponents` or `max_moves`."""
  if num_games < 1:
    raise ValueError(f'num_games must be positive, got {num_games!r}.')
  if not opponents:
    raise ValueError('opponents is empty; expected {name: factory}.')
  limit = move_limit(muzero_player.config, max_moves)
  results = []
  for name, factory in opponents.items():
    for side, side_name in enumerate(SIDES):
      seeds = [seed + side * num_games + g for g in range(num_games)]
      envs = [make_environment(s) for s in seeds]
      starts = [env.reset().observation for env in envs]
      winners = play_games(muzero_player, envs,
                           [factory(s) for s in seeds], side, limit,
                           observations=starts)
      for env in envs:
        env.close()
      results.append(MatchResult(
          opponent=name, side=side_name,
          wins=winners.count(side),
          draws=winners.count(openspiel_players.DRAW),
          losses=winners.count(1 - side),
          cut=winners.count(None), max_moves=limit))
      logging.info('%d games against the %s player, MuZero %s: %d wins, %d '
                   'draws, %d losses, %d cut at %d moves (%d of %d '
                   'matches).', num_games, name, side_name,
                   results[-1].wins, results[-1].draws, results[-1].losses,
                   results[-1].cut, limit, len(results), 2 * len(opponents))
  return results


def evaluate_tictactoe(
    muzero_player: MuZeroPlayer,
    opponents: Optional[Mapping[str, OpponentFactory]] = None,
    num_games: int = 100,
    seed: int = 0) -> List[MatchResult]:
  """`evaluate_matches` on tic-tac-toe (default: its preset's opponents)."""
  if opponents is None:
    opponents = opponents_lib.make_opponents('tictactoe')
  return evaluate_matches(muzero_player, lambda _: tictactoe.TicTacToe(),
                          opponents, num_games, seed)


class EpisodeStats(NamedTuple):
  """Returns of N evaluation episodes, `cut` of them after `max_moves`
  moves; `std` is the population's (ddof 0)."""
  returns: np.ndarray  # [N] undiscounted returns, in episode order.
  cut: int = 0
  max_moves: Optional[int] = None  # The move limit of the episodes.

  @property
  def mean(self) -> float:
    return float(np.mean(self.returns))

  @property
  def std(self) -> float:
    return float(np.std(self.returns))

  @property
  def min(self) -> float:
    return float(np.min(self.returns))

  @property
  def max(self) -> float:
    return float(np.max(self.returns))


def evaluate_episodes(search: search_lib.Search,
                      make_environment: EnvironmentFactory,
                      num_episodes: int,
                      seed: int = 0,
                      max_moves: Optional[int] = None) -> EpisodeStats:
  """`EpisodeStats` of the undiscounted returns of N one-player episodes:
  episode i runs in `make_environment(seed + i)` to its LAST time step, or
  is cut after `move_limit(max_moves)` moves, under one
  `MuZeroPlayer(search, seed)` (its errors); ValueError if `num_episodes`
  is not positive or an environment has two players."""
  if num_episodes < 1:
    raise ValueError(f'num_episodes must be positive, got {num_episodes!r}.')
  player = MuZeroPlayer(search, seed=seed)
  limit = move_limit(player.config, max_moves)
  envs = [make_environment(seed + i) for i in range(num_episodes)]
  for env in envs:
    if env.num_players != 1:
      raise ValueError(
          f'evaluate_episodes needs one-player environments, got '
          f'{type(env).__name__} with {env.num_players} players; use '
          'evaluate_tictactoe for tic-tac-toe.')
  time_steps = [env.reset() for env in envs]
  returns = np.zeros(num_episodes)
  live = list(range(num_episodes))
  moves = 0
  while live and moves < limit:
    moves += 1
    if moves % 100 == 0:
      logging.info('Evaluation move %d: %d of %d episodes still running.',
                   moves, len(live), num_episodes)
    actions = player.select_actions(
        np.stack([time_steps[i].observation for i in live]),
        [envs[i].to_play() for i in live],
        [envs[i].legal_actions() for i in live])
    for i, action in zip(live, actions):
      time_steps[i] = envs[i].step(int(action))
      returns[i] += float(time_steps[i].reward)
    live = [i for i in live if not time_steps[i].last()]
  for env in envs:
    env.close()
  logging.info('%d episodes in %d moves (%d cut at %d): mean return %.1f.',
               num_episodes, moves, len(live), limit, float(np.mean(returns)))
  return EpisodeStats(returns, cut=len(live), max_moves=limit)


# What a preset's evaluation returns: matches or one-player episodes.
Results = Union[Sequence[MatchResult], EpisodeStats]


def preset_opponents(preset: Optional[str],
                     make_environment: EnvironmentFactory,
                     names: Optional[Sequence[str]] = None,
                     num_simulations: int = opponents_lib.MCTS_SIMULATIONS,
                     num_rollouts: int = opponents_lib.MCTS_ROLLOUTS,
                     seed: int = 0
                    ) -> Optional[Dict[str, OpponentFactory]]:
  """`opponents.make_opponents` for the game of `make_environment(seed)`
  (`preset` None: the user's own), or None if it has one player."""
  env = make_environment(seed)
  try:
    if env.num_players == 1:
      return None
    game = _openspiel_game(env)
  finally:
    env.close()
  return opponents_lib.make_opponents(preset, names, game, num_simulations,
                                      num_rollouts)


def _openspiel_game(env) -> Optional[object]:
  """The `pyspiel.Game` of an OpenSpiel environment, however wrapped."""
  while env is not None:
    if isinstance(env, openspiel.OpenSpielEnvironment):
      return env.game
    env = env.environment if isinstance(env, base.Wrapper) else None
  return None


def evaluate_preset(search: search_lib.Search,
                    make_environment: EnvironmentFactory,
                    opponents: Optional[Mapping[str, OpponentFactory]],
                    num_games: int, seed: int = 0,
                    max_moves: Optional[int] = None) -> Results:
  """Evaluates `search` the way its preset is: `evaluate_matches` against
  `opponents` (`preset_opponents`'s), `num_games` per opponent and side,
  or `evaluate_episodes` of `num_games` episodes if they are None."""
  if opponents is None:
    return evaluate_episodes(search, make_environment, num_games, seed=seed,
                             max_moves=max_moves)
  return evaluate_matches(MuZeroPlayer(search, seed=seed), make_environment,
                          opponents, num_games=num_games, seed=seed,
                          max_moves=max_moves)


def tictactoe_table(results: Sequence[MatchResult]) -> str:
  """One row per `MatchResult`, then how many games the move limit cut."""
  lines = [f'{"opponent":<10}{"muzero":<8}{"games":>6}{"wins":>6}'
           f'{"draws":>6}{"losses":>7}{"cut":>6}']
  for r in results:
    lines.append(f'{r.opponent:<10}{r.side:<8}{r.num_games:>6}{r.wins:>6}'
                 f'{r.draws:>6}{r.losses:>7}{r.cut:>6}')
  cut = sum(r.cut for r in results)
  if cut:
    limit = max(r.max_moves for r in results if r.cut)
    lines.append(f'{cut} of {sum(r.num_games for r in results)} games cut '
                 f'at {limit} moves (neither won, drawn nor lost).')
  return '\n'.join(lines)


def episodes_table(stats: EpisodeStats) -> str:
  """A row of `stats`; then, if the move limit cut any, how many."""
  table = (f'{"episodes":>8}{"mean":>9}{"std":>9}{"min":>9}{"max":>9}\n'
           f'{len(stats.returns):>8}{stats.mean:>9.1f}{stats.std:>9.1f}'
           f'{stats.min:>9.1f}{stats.max:>9.1f}')
  if stats.cut:
    table += (f'\n{stats.cut} of {len(stats.returns)} episodes cut at '
              f'{stats.max_moves} moves.')
  return table


def summary_scalars(results: Results) -> Dict[str, float]:
  """The results as `eval/<opponent>/{win,draw,loss}_rate` over both sides
  (a cut game is none of them), or `eval/return_{mean,std,min,max}`."""
  if isinstance(results, EpisodeStats):
    return {'eval/return_mean': results.mean, 'eval/return_std': results.std,
            'eval/return_min': results.min, 'eval/return_max': results.max}
  scalars = {}
  for opponent in dict.fromkeys(r.opponent for r in results):
    mine = [r for r in results if r.opponent == opponent]
    games = sum(r.num_games for r in mine)
    for name, field in ('win', 'wins'), ('draw', 'draws'), ('loss', 'losses'):
      scalars[f'eval/{opponent}/{name}_rate'] = sum(
          getattr(r, field) for r in mine) / games
  return scalars
