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
"""An Elo ladder of OpenSpiel's MCTS on connect four, random player at 0.

Every pair of players (random, and MCTS at each of --simulations) meets in
--games games, half with each moving first; the ratings are the
maximum-likelihood Elo of all games (`elo.fit`). Game g seeds its players
with 2g and 2g + 1: a ladder replays exactly. See docs/results.md.

    python -m benchmarks.ladder --games=100 --output_json=/tmp/ladder.json
"""

import itertools
import time

from absl import app
from absl import flags
from absl import logging
import numpy as np

from benchmarks import elo
from benchmarks import reporting
from muzero_snt.environments import openspiel
from muzero_snt.environments import openspiel_players
from muzero_snt.environments import tictactoe_players
from muzero_snt.evaluation import opponents

SIMULATIONS = flags.DEFINE_list('simulations', ['10', '100', '1000', '10000'],
                                'simulations per move of each MCTS player.')
GAMES = flags.DEFINE_integer('games', 100, 'games per pair, half with each '
                             'player first (even).')
OUTPUT_JSON = reporting.output_json_flag()

GAME = 'connect_four'
RANDOM = 'random'


def make_player(name: str, game, seed: int):
  if name == RANDOM:
    return tictactoe_players.RandomPlayer(seed)
  return openspiel_players.MCTSPlayer(game, int(name[len('mcts'):]), seed=seed)


def play_pair(env, a: str, b: str):
  """a's wins, draws and losses against b, and the pair's CPU seconds."""
  start = time.process_time()
  outcomes = []
  for g in range(GAMES.value):
    a_side = g % 2  # a moves first in the even games.
    players = [make_player(a, env.game, 2 * g),
               make_player(b, env.game, 2 * g + 1)]
    if a_side == 1:
      players.reverse()
    winner = openspiel_players.play_game(players, env)
    outcomes.append('d' if winner == openspiel_players.DRAW else
                    'w' if winner == a_side else 'l')
  result = {'a': a, 'b': b, 'wins': outcomes.count('w'),
            'draws': outcomes.count('d'), 'losses': outcomes.count('l'),
            'cpu_seconds': time.process_time() - start}
  logging.info('%s', result)
  return result


def main(argv):
  reporting.check_no_arguments(argv)
  simulations = reporting.positive_ints(SIMULATIONS)
  if len(set(simulations)) != len(simulations):
    raise app.UsageError(f'--simulations must be distinct, got '
                         f'{SIMULATIONS.value}.')
  if GAMES.value < 2 or GAMES.value % 2:
    raise app.UsageError(f'--games must be even and positive, got '
                         f'{GAMES.value}.')
  env = openspiel.OpenSpielEnvironment(GAME)
  names = [RANDOM] + [opponents.mcts_name(n) for n in simulations]
  pairs = [play_pair(env, a, b)
           for a, b in itertools.combinations(reversed(names), 2)]
  index = {name: i for i, name in enumerate(names)}
  scores = np.zeros((len(names), len(names)))
  games = np.zeros_like(scores)
  for p in pairs:
    i, j = index[p['a']], index[p['b']]
    scores[i, j] += p['wins'] + p['draws'] / 2.
    scores[j, i] += p['losses'] + p['draws'] / 2.
    games[i, j] = games[j, i] = GAMES.value
  rated = elo.fit(names, scores, games, anchor=RANDOM)
  text = reporting.table(
      ('player A', 'player B', 'A wins', 'draws', 'A losses', 'CPU s'),
      [(p['a'], p['b'], p['wins'], p['draws'], p['losses'],
        p['cpu_seconds']) for p in pairs])
  text += '\n\n' + reporting.table(('player', 'Elo', '95% interval'), [
      (name, rating, f'{rating - 1.96 * error:.0f} to '
       f'{rating + 1.96 * error:.0f}' if error else 'anchor')
      for name, rating, error in zip(names, rated.ratings,
                                     rated.standard_errors)])
  reporting.report({
      'machine': reporting.machine(), 'game': GAME,
      'games_per_pair': GAMES.value, 'uct_c': openspiel_players.UCT_C,
      'pairs': pairs,
      'ratings': {n: {'elo': float(r), 'standard_error': float(e)}
                  for n, r, e in zip(names, rated.ratings,
                                     rated.standard_errors)},
  }, OUTPUT_JSON.value, text)


if __name__ == '__main__':
  app.run(main)
