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
r"""An Elo ladder of OpenSpiel's MCTS on connect four, random player at 0.

Every pair of players meets in --games games, half with each moving first:
the random player and OpenSpiel's MCTS bot with random rollouts
(`openspiel_players.MCTSPlayer`) at each of --simulations (10, 100, 1,000
and 10,000; the 10-simulation rung links the random player, whom the
others sweep, to the ladder). The ratings are
the maximum-likelihood Elo ratings of all the games (`benchmarks/elo.py`:
logistic, 400-point scale, one virtual draw per pair, the random player
anchored at 0), with their 95% intervals (1.96 standard errors). Game g of
a pair gives its two players the seeds 2g and 2g + 1 (plus --seed), so a
ladder replays exactly. See docs/results.md.

    python -m benchmarks.ladder --games=100 --output_json=/tmp/ladder.json

takes about 4 CPU minutes (docs/results.md has its table).
"""

import itertools
import json
import time
from typing import Dict, List, NamedTuple, Sequence

from absl import app
from absl import flags
from absl import logging
import numpy as np

from benchmarks import elo
from benchmarks import reporting
from muzero_snt.evaluation import opponents
from muzero_snt.environments import openspiel
from muzero_snt.environments import openspiel_players
from muzero_snt.environments import tictactoe_players

GAME = flags.DEFINE_string('game', 'connect_four', 'the OpenSpiel game.')
SIMULATIONS = flags.DEFINE_list('simulations',
                                ['10', '100', '1000', '10000'],
                                'simulations per move of each MCTS player.')
ROLLOUTS = flags.DEFINE_integer('rollouts', 1,
                                'random rollouts per MCTS leaf.')
GAMES = flags.DEFINE_integer('games', 100, 'games per pair, half with each '
                             'player first (even).')
SEED = flags.DEFINE_integer('seed', 0, 'first seed of the players.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results as JSON.')

RANDOM = 'random'


class PairResult(NamedTuple):
  """Games between players a and b; wins and losses are a's."""
  a: str
  b: str
  wins: int
  draws: int
  losses: int
  cpu_seconds: float

  @property
  def games(self) -> int:
    return self.wins + self.draws + self.losses

  @property
  def score(self) -> float:
    """a's points per game (a win 1, a draw 1/2)."""
    return (self.wins + self.draws / 2.) / self.games


def make_player(name: str, game, seed: int, num_rollouts: int = 1):
  if name == RANDOM:
    return tictactoe_players.RandomPlayer(seed)
  return openspiel_players.MCTSPlayer(
      game, int(name[len('mcts'):]), seed=seed, num_rollouts=num_rollouts)


def play_pair(env, a: str, b: str, games: int, seed: int = 0,
              num_rollouts: int = 1) -> PairResult:
  """`games` games of a against b, a moving first in the even ones."""
  start = time.process_time()
  outcomes = []
  for g in range(games):
    a_side = g % 2
    players = [make_player(a, env.game, seed + 2 * g, num_rollouts),
               make_player(b, env.game, seed + 2 * g + 1, num_rollouts)]
    if a_side == 1:
      players.reverse()
    winner = openspiel_players.play_game(players, env)
    outcomes.append('d' if winner == openspiel_players.DRAW else
                    'w' if winner == a_side else 'l')
  result = PairResult(a, b, outcomes.count('w'), outcomes.count('d'),
                      outcomes.count('l'), time.process_time() - start)
  logging.info('%s against %s: %d wins, %d draws, %d losses in %.0f CPU '
               'seconds.', a, b, result.wins, result.draws, result.losses,
               result.cpu_seconds)
  return result


def ratings(names: Sequence[str], pairs: Sequence[PairResult]
           ) -> elo.Ratings:
  """Maximum-likelihood Elo of the pairs' games, the random player at 0."""
  index = {name: i for i, name in enumerate(names)}
  scores = np.zeros((len(names), len(names)))
  games = np.zeros_like(scores)
  for p in pairs:
    i, j = index[p.a], index[p.b]
    points = p.wins + p.draws / 2.
    scores[i, j] += points
    scores[j, i] += p.games - points
    games[i, j] += p.games
    games[j, i] += p.games
  return elo.fit(names, scores, games, anchor=RANDOM)


def pair_gap(pair: PairResult) -> elo.Ratings:
  """The Elo of a over b from their games alone (b at 0)."""
  points = pair.wins + pair.draws / 2.
  return elo.fit([pair.a, pair.b], [[0., points], [pair.games - points, 0.]],
                 [[0., pair.games], [pair.games, 0.]], anchor=pair.b)


def format_tables(pairs: Sequence[PairResult], rated: elo.Ratings) -> str:
  """Markdown tables: the pairs' results, then the ratings."""
  lines = ['| player A | player B | games | A wins | draws | A losses | '
           'A score | A - B in Elo, this pair alone (95%) | CPU s |',
           '|---|---|---:|---:|---:|---:|---:|---:|---:|']
  for p in pairs:
    gap = pair_gap(p)
    rating, error = gap.ratings[0], gap.standard_errors[0]
    lines.append(f'| {p.a} | {p.b} | {p.games} | {p.wins} | {p.draws} | '
                 f'{p.losses} | {p.score:.3f} | {rating:.0f} '
                 f'({rating - 1.96 * error:.0f} to '
                 f'{rating + 1.96 * error:.0f}) | {p.cpu_seconds:.0f} |')
  lines += ['', '| player | Elo | 95% interval |', '|---|---:|---:|']
  for name, rating, error in zip(rated.names, rated.ratings,
                                 rated.standard_errors):
    interval = (f'{rating - 1.96 * error:.0f} to {rating + 1.96 * error:.0f}'
                if error else 'anchor')
    lines.append(f'| {name} | {rating:.0f} | {interval} |')
  return '\n'.join(lines)


def run(simulations: Sequence[int], games: int, game: str = 'connect_four',
        seed: int = 0, num_rollouts: int = 1) -> Dict[str, object]:
  """Plays the ladder; returns its pairs, ratings and tables."""
  if games < 2 or games % 2:
    raise ValueError(f'games must be even and positive (half with each '
                     f'player first), got {games!r}.')
  env = openspiel.OpenSpielEnvironment(game)
  names = [RANDOM] + [opponents.mcts_name(n) for n in simulations]
  pairs: List[PairResult] = []
  for a, b in itertools.combinations(reversed(names), 2):
    pairs.append(play_pair(env, a, b, games, seed, num_rollouts))
  rated = ratings(names, pairs)
  tables = format_tables(pairs, rated)
  print(tables)
  return {
      'game': game, 'games_per_pair': games, 'rollouts': num_rollouts,
      'uct_c': openspiel_players.UCT_C, 'seed': seed,
      'pairs': [dict(p._asdict(), score=p.score) for p in pairs],
      'ratings': {n: {'elo': float(r), 'standard_error': float(e)}
                  for n, r, e in zip(rated.names, rated.ratings,
                                     rated.standard_errors)},
      'tables': tables,
  }


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  simulations = reporting.positive_ints(SIMULATIONS)
  if len(set(simulations)) != len(simulations):
    raise app.UsageError(f'--simulations must be distinct, got '
                         f'{SIMULATIONS.value}.')
  if GAMES.value < 2 or GAMES.value % 2:
    raise app.UsageError(f'--games must be even and positive, got '
                         f'{GAMES.value}.')
  reporting.check_positive([ROLLOUTS])
  output = run(simulations, GAMES.value, GAME.value, SEED.value,
               ROLLOUTS.value)
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(output, f, indent=2)


if __name__ == '__main__':
  app.run(main)
