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
"""Evaluation: MuZero's search against fixed opponents.

The evaluated player searches without exploration noise and plays the most
visited action (the pseudocode's `select_action` at temperature 0), so it is
deterministic: the variety of an evaluation comes from the opponents (the
perfect tic-tac-toe player picks uniformly among its optimal moves, OpenSpiel's
MCTS bot draws its rollouts from a seed per game) and from the environments'
seeds (CartPole's initial states). Two-player games are scored from their
last reward (`openspiel_players.winner`). Games and episodes are
played in lockstep, with one batched search per move for all of them, and
cut after a move limit (the config's `max_moves` unless given), so that a
policy that never ends its game still ends its evaluation; the results
count the games and episodes cut.
"""

from typing import (Callable, List, Mapping, NamedTuple, Optional, Sequence,
                    Tuple)

from absl import logging
import numpy as np

from muzero_snt import search as search_lib
from muzero_snt.environments import base
from muzero_snt.environments import openspiel_players
from muzero_snt.environments import tictactoe
from muzero_snt.environments import tictactoe_players

# (seed) -> an opponent with `select_action(env) -> int`.
OpponentFactory = Callable[[int], object]

TICTACTOE_OPPONENTS: Mapping[str, OpponentFactory] = {
    'perfect': tictactoe_players.PerfectPlayer,
    'random': tictactoe_players.RandomPlayer,
}
SIDES = ('first', 'second')  # MuZero as player 0 (moves first) or player 1.


def move_limit(config, max_moves: Optional[int] = None) -> int:
  """`max_moves`, or the config's `max_moves` if None: moves a game may last.

  Raises:
    ValueError: if `max_moves` is not a positive integer.
  """
  limit = config.max_moves if max_moves is None else max_moves
  if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or (
      limit < 1):
    raise ValueError(f'max_moves must be a positive integer, got {limit!r}.')
  return int(limit)


def greedy_actions(output: search_lib.SearchOutput) -> np.ndarray:
  """The actions a noise-free search's output plays: `[B]` int64.

  Gumbel MuZero's selected action where the search chooses one, else the
  most visited root action, ties to the lowest (illegal actions have no
  visits, and one search of at least one simulation visits a legal one).
  """
  if output.action is not None:
    return output.action.astype(np.int64)
  return np.argmax(output.visit_counts, axis=1)  # First maximum: lowest.


class MuZeroPlayer:
  """Plays the most visited action of a noise-free search.

  The player protocol is the opponents' `select_action(env) -> int`: the
  player to move and the legal actions come from the environment
  (`base.Environment`), the observation from `env.observation()` when the
  environment has one (`TicTacToe`). A `dm_env` exposes its observation only
  in the last `TimeStep`, so for other environments pass it:
  `select_action(env, time_step.observation)`. `select_actions` searches a
  batch of positions at once.
  """

  def __init__(self, search: search_lib.Search, seed: int = 0):
    """Constructs the player.

    Args:
      search: the search, run without noise (e.g. `search.make_search(
        config, network, num_simulations=...)`); it sets the number of
        simulations, and its `config` the number of actions.
      seed: seed of the generator handed to the search; a search without
        noise draws nothing from it.

    Raises:
      TypeError: if `search` is not a `search.Search` with a `config`.
    """
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
    """The search's `MuZeroConfig`."""
    return self._search.config

  def select_actions(self, observations: np.ndarray, to_play: Sequence[int],
                     legal_actions: Sequence[Sequence[int]]) -> np.ndarray:
    """The most visited root action of each of B positions (Gumbel
    MuZero: the action its search selects, without Gumbel noise).

    Args:
      observations: `[B, *observation_shape]` current observations.
      to_play: `[B]` the player to move in each position.
      legal_actions: B non-empty sequences of legal actions.

    Returns:
      `[B]` int64 actions; ties go to the lowest action (illegal actions have
      no visits, and one search of at least one simulation visits a legal
      action).
    """
    return self.search_actions(observations, to_play, legal_actions)[0]

  def search_actions(self, observations: np.ndarray, to_play: Sequence[int],
                     legal_actions: Sequence[Sequence[int]]
                     ) -> Tuple[np.ndarray, search_lib.SearchOutput]:
    """`select_actions` and the search's output they come from."""
    output = self._search(
        observations, to_play,
        search_lib.legal_actions_to_mask(legal_actions, self._num_actions),
        self._rng, add_noise=False)
    return greedy_actions(output), output

  def select_action(self, env: base.Environment,
                    observation: Optional[np.ndarray] = None) -> int:
    """The action to play in `env`'s current position.

    Args:
      env: the environment; its `to_play()` and `legal_actions()` are read.
      observation: the current observation; read from `env.observation()`
        if None.

    Raises:
      ValueError: if no observation is given and `env` has no
        `observation()` method.
    """
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
  """Two-player games of MuZero against one opponent, from one side.

  Wins, draws and losses count from MuZero's perspective; a game still
  running after `max_moves` moves is cut, and counts as none of them.
  """
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
               max_moves: Optional[int] = None) -> List[Optional[int]]:
  """Plays each game from its current position to the end, in lockstep.

  `envs[i]` (two players, with `observation()`; reset, or set to a
  position) is played against `opponents[i]` with MuZero as player
  `muzero_side`; MuZero's moves of all the games are searched together.
  The winner is read from each game's last reward, which is for its mover
  (`openspiel_players.winner`). A game still running after `max_moves`
  moves from its position is cut there.

  Args:
    muzero_player: the MuZero player.
    envs: the games, none over.
    opponents: one player per game, with `select_action(env) -> int`.
    muzero_side: the player MuZero plays, 0 (moves first) or 1.
    max_moves: the move limit (`move_limit`; default: the config's).

  Returns:
    The winner of each game: 0, 1, or -1 (`openspiel_players.DRAW`, equal
    to `tictactoe.DRAW`); None for a game cut by the move limit.

  Raises:
    ValueError: for a side other than 0 or 1, a number of opponents other
      than of games, or a `max_moves` that is not a positive integer.
  """
  if muzero_side not in (0, 1):
    raise ValueError(f'muzero_side must be 0 or 1, got {muzero_side!r}.')
  if len(envs) != len(opponents):
    raise ValueError(f'One opponent per game: {len(envs)} games and '
                     f'{len(opponents)} opponents.')
  limit = move_limit(muzero_player.config, max_moves)
  winners = [None] * len(envs)
  live = list(range(len(envs)))
  # Every live game moves once a round: after `limit` rounds the games
  # still live have played `limit` moves.
  for _ in range(limit):
    if not live:
      break
    ours = [i for i in live if envs[i].to_play() == muzero_side]
    actions = {}
    if ours:
      chosen = muzero_player.select_actions(
          np.stack([envs[i].observation() for i in ours]),
          [muzero_side] * len(ours), [envs[i].legal_actions() for i in ours])
      actions = dict(zip(ours, chosen))
    for i in live:
      mover = envs[i].to_play()
      action = actions[i] if i in actions else opponents[i].select_action(
          envs[i])
      time_step = envs[i].step(int(action))
      if time_step.last():
        winners[i] = openspiel_players.winner(float(time_step.reward), mover)
    live = [i for i in live if winners[i] is None]
  if live:
    logging.warning('%d of %d games cut after %d moves.', len(live),
                    len(envs), limit)
  return winners


def play_tictactoe(muzero_player: MuZeroPlayer,
                   opponents: Sequence[object],
                   muzero_side: int) -> List[int]:
  """Plays one tic-tac-toe game against each opponent, all in lockstep.

  The game against `opponents[i]` is the game `tictactoe_players.play_game`
  would play with MuZero as player `muzero_side` (`play_games` from new
  boards).

  Returns:
    The winner of each game: 0, 1, or -1 (`tictactoe.DRAW`).
  """
  envs = [tictactoe.TicTacToe() for _ in opponents]
  for env in envs:
    env.reset()
  return play_games(muzero_player, envs, opponents, muzero_side)


def evaluate_matches(
    muzero_player: MuZeroPlayer,
    make_environment: Callable[[int], base.Environment],
    opponents: Mapping[str, OpponentFactory],
    num_games: int = 100,
    seed: int = 0,
    max_moves: Optional[int] = None) -> List[MatchResult]:
  """Plays `num_games` games per opponent and side; counts the outcomes.

  Game g (0-based) with MuZero as player s is played in
  `make_environment(seed + s * num_games + g)` against its own opponent,
  `factory(seed + s * num_games + g)`, so each game can be replayed alone.

  Args:
    muzero_player: the MuZero player.
    make_environment: `(seed) -> environment` of a two-player game with
      `observation()`.
    opponents: `{name: factory}`, factories taking a seed.
    num_games: games per opponent and side.
    seed: the first seed.
    max_moves: games still running after this many moves are cut and
      counted as such (`move_limit`; default: the config's `max_moves`).

  Returns:
    One `MatchResult` per opponent (in the mapping's order) and side (first,
    then second).

  Raises:
    ValueError: if `num_games` is not positive, `opponents` is empty or
      `max_moves` is not a positive integer.
  """
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
      for env in envs:
        env.reset()
      winners = play_games(muzero_player, envs,
                           [factory(s) for s in seeds], side, limit)
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
  """`evaluate_matches` on tic-tac-toe.

  Game g with MuZero as player s can be replayed alone with
  `tictactoe_players.play_game` against `factory(seed + s * num_games + g)`.

  Args:
    muzero_player: the MuZero player.
    opponents: `{name: factory}`, factories taking a seed (default:
      `TICTACTOE_OPPONENTS`, the perfect and the random player).
    num_games: games per opponent and side.
    seed: the first opponent seed.

  Returns:
    One `MatchResult` per opponent and side, as `evaluate_matches`.
  """
  opponents = TICTACTOE_OPPONENTS if opponents is None else opponents
  return evaluate_matches(muzero_player, lambda _: tictactoe.TicTacToe(),
                          opponents, num_games, seed)


class EpisodeStats(NamedTuple):
  """Returns of N evaluation episodes; `std` is the population's (ddof 0).

  `cut` of them were still running after `max_moves` moves: their returns
  are those of their first `max_moves` moves.
  """
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


class EpisodeRecord(NamedTuple):
  """One episode of `play_episodes`: T moves.

  Attributes:
    observations: `[T + 1, *observation_shape]` every observation, the
      last one the episode's end; None unless recorded.
    actions: `[T]` int64 the moves played.
    rewards: `[T]` float64 the reward after each move.
    root_values: `[T]` float64 the search's root value before each move.
    terminal: False if the episode was cut by a time limit (truncated).
    cut: True if the evaluation's move limit cut it, its environment had
      not ended it.
  """
  observations: Optional[np.ndarray]
  actions: np.ndarray
  rewards: np.ndarray
  root_values: np.ndarray
  terminal: bool
  cut: bool = False

  @property
  def episode_return(self) -> float:
    return float(np.sum(self.rewards))


def play_episodes(search: search_lib.Search,
                  make_environment: Callable[[int], base.Environment],
                  num_episodes: int,
                  seed: int = 0,
                  record_observations: bool = False,
                  max_moves: Optional[int] = None) -> List[EpisodeRecord]:
  """N episodes of a one-player environment under the noise-free search.

  Episode i runs in `make_environment(seed + i)`; all episodes advance in
  lockstep with one batched search per move over those still running (the
  `MuZeroPlayer`'s: `greedy_actions`), and each ends at its environment's
  LAST time step (termination or a time limit such as CartPole's 500
  steps), or is cut after `max_moves` moves.

  Args:
    search: the search of the `MuZeroPlayer` that plays the episodes.
    make_environment: `(seed) -> environment`, one player.
    num_episodes: N, the number of episodes.
    seed: the first environment seed (and the player's seed).
    record_observations: whether to keep every observation (T + 1 of
      them an episode: memory grows with the moves).
    max_moves: the move limit (`move_limit`; default: the config's).

  Returns:
    N `EpisodeRecord`s, in episode order.

  Raises:
    TypeError: if `search` is not a `search.Search`.
    ValueError: if `num_episodes` or `max_moves` is not positive or an
      environment has two players.
  """
  if num_episodes < 1:
    raise ValueError(f'num_episodes must be positive, got {num_episodes!r}.')
  player = MuZeroPlayer(search, seed=seed)
  limit = move_limit(player.config, max_moves)
  envs = [make_environment(seed + i) for i in range(num_episodes)]
  for env in envs:
    if env.num_players != 1:
      raise ValueError(
          f'play_episodes needs one-player environments, got '
          f'{type(env).__name__} with {env.num_players} players; use '
          'evaluate_tictactoe for tic-tac-toe.')
  time_steps = [env.reset() for env in envs]
  records = [dict(observations=[np.asarray(t.observation)], actions=[],
                  rewards=[], root_values=[]) for t in time_steps]
  live = list(range(num_episodes))
  moves = 0
  while live and moves < limit:
    moves += 1
    if moves % 100 == 0:
      logging.info('Evaluation move %d: %d of %d episodes still running.',
                   moves, len(live), num_episodes)
    actions, output = player.search_actions(
        np.stack([time_steps[i].observation for i in live]),
        [envs[i].to_play() for i in live],
        [envs[i].legal_actions() for i in live])
    for i, action, value in zip(live, actions, output.root_value):
      time_steps[i] = envs[i].step(int(action))
      record = records[i]
      if record_observations:
        record['observations'].append(np.asarray(time_steps[i].observation))
      record['actions'].append(int(action))
      record['rewards'].append(float(time_steps[i].reward))
      record['root_values'].append(float(value))
    live = [i for i in live if not time_steps[i].last()]
  if live:
    logging.warning('%d of %d episodes cut after %d moves.', len(live),
                    num_episodes, limit)
  for env in envs:
    env.close()
  return [
      EpisodeRecord(
          observations=(np.stack(r['observations'])
                        if record_observations else None),
          actions=np.array(r['actions'], np.int64),
          rewards=np.array(r['rewards'], np.float64),
          root_values=np.array(r['root_values'], np.float64),
          terminal=float(t.discount) == 0.,
          cut=i in live)
      for i, (r, t) in enumerate(zip(records, time_steps))]


def evaluate_episodes(search: search_lib.Search,
                      make_environment: Callable[[int], base.Environment],
                      num_episodes: int,
                      seed: int = 0,
                      max_moves: Optional[int] = None) -> EpisodeStats:
  """Undiscounted returns of `play_episodes` (its arguments and errors).

  Returns:
    `EpisodeStats` of the N returns, with the number of episodes the move
    limit cut.
  """
  episodes = play_episodes(search, make_environment, num_episodes, seed,
                           max_moves=max_moves)
  returns = np.array([e.episode_return for e in episodes])
  cut = sum(e.cut for e in episodes)
  limit = move_limit(search.config, max_moves)
  logging.info('%d episodes in %d moves (%d cut at %d): mean return %.1f.',
               num_episodes, max(len(e.actions) for e in episodes), cut,
               limit, float(np.mean(returns)))
  return EpisodeStats(returns, cut=cut, max_moves=limit)
