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
"""The fixed opponents of two-player games, for evaluation.

A named preset has its own (`OPPONENTS`); any other two-player game, a
family's or the user's, plays the random player and, when it is an OpenSpiel
game, OpenSpiel's MCTS bot.
"""

import functools
from typing import Callable, Dict, Mapping, Optional, Sequence, Tuple

from muzero_snt.environments import openspiel_players
from muzero_snt.environments import tictactoe_players

OpponentFactory = Callable[[int], object]  # A seed -> a player.

# The opponents of each two-player preset; 'mcts' is OpenSpiel's MCTS bot.
OPPONENTS: Mapping[str, Tuple[str, ...]] = {
    'tictactoe': ('perfect', 'random'),
    'connect4': ('mcts', 'random'),
    'go9': ('mcts', 'random'),
    'openspiel': ('mcts', 'random'),
}
MCTS_SIMULATIONS = 1000  # The MCTS opponent's default simulations per move.
MCTS_ROLLOUTS = 1  # OpenSpiel's examples/mcts.py.


def mcts_name(num_simulations: int) -> str:
  """The MCTS opponent's name in results, e.g. 'mcts1000'."""
  return f'mcts{num_simulations}'


def available(preset: Optional[str], game=None) -> Tuple[str, ...]:
  """The opponents of `preset`'s games, or (preset None) of the user's
  two-player game `game` (a `pyspiel.Game`, or None for a game of its own).

  Raises:
    ValueError: for a preset without opponents (a one-player preset).
  """
  if preset is None:
    return ('random',) if game is None else OPPONENTS['openspiel']
  if preset not in OPPONENTS:
    raise ValueError(f'Preset {preset!r} has no opponents; two-player '
                     f'evaluation plays {sorted(OPPONENTS)} or a two-player '
                     'environment of your own.')
  return OPPONENTS[preset]


def make_opponents(preset: Optional[str],
                   names: Optional[Sequence[str]] = None,
                   game=None,
                   num_simulations: int = MCTS_SIMULATIONS,
                   num_rollouts: int = MCTS_ROLLOUTS
                   ) -> Dict[str, OpponentFactory]:
  """`{name: factory of a seed}` of the opponents `names` (default: all)
  of `available(preset, game)`, in that order; the MCTS opponent,
  `mcts_name(num_simulations)`, plays `game` (a `pyspiel.Game`).

  Raises:
    ValueError: naming a preset without opponents, an opponent it does not
      have, or a bad count.
    TypeError: if an MCTS opponent's `game` is not a `pyspiel.Game`.
  """
  choices = available(preset, game)
  names = choices if names is None else tuple(names)
  unknown = [n for n in names if n not in choices]
  if unknown or not names:
    what = preset or 'this game'
    raise ValueError(f'Opponents {list(unknown or names)} do not play '
                     f'{what}; expected some of {list(choices)}.')
  factories = {}
  for name in (n for n in choices if n in names):
    if name == 'mcts':
      # A seed -> the bot; one made now raises bad arguments before a game.
      factory = functools.partial(openspiel_players.MCTSPlayer, game,
                                  num_simulations, num_rollouts=num_rollouts)
      factory()
      factories[mcts_name(num_simulations)] = factory
    else:
      # The random player plays any game.
      factories[name] = {'perfect': tictactoe_players.PerfectPlayer,
                         'random': tictactoe_players.RandomPlayer}[name]
  return factories
