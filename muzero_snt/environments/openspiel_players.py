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
"""Board-game opponents: OpenSpiel's MCTS bot with random rollouts."""

from typing import Sequence

from muzero_snt.environments import openspiel

DRAW = -1  # `winner` of a drawn game, as `tictactoe.DRAW`.
UCT_C = 2.  # OpenSpiel's examples/mcts.py.
# The tree's memory cap (OpenSpiel's examples): 10,000 simulations of connect
# four use a few megabytes.
_MAX_MEMORY_MB = 1000


class MCTSPlayer:
  """OpenSpiel's C++ `MCTSBot` (UCT, MCTS-Solver) with random rollouts.

  The bot of OpenSpiel's `examples/mcts.py`: each move is a fresh search of
  `num_simulations` simulations, with `num_rollouts` random games per leaf;
  the most visited root action is played. Seeded, it replays its moves.
  """

  def __init__(self, game, num_simulations: int, seed: int = 0,
               num_rollouts: int = 1):
    """Builds the bot for an `OpenSpielEnvironment`'s `game`; `seed` seeds
    it and its rollouts.

    Raises:
      ImportError: if open-spiel is not installed.
      TypeError: if `game` is not a `pyspiel.Game`.
      ValueError: if a count is not a positive integer, or the game has no
        sequential moves and final outcome, which OpenSpiel's MCTS needs.
    """
    pyspiel = openspiel.import_pyspiel()
    if not isinstance(game, pyspiel.Game):
      raise TypeError(f'MCTSPlayer needs a pyspiel.Game (an '
                      f'OpenSpielEnvironment\'s game), got {game!r}.')
    self._num_simulations = openspiel.positive_int(
        num_simulations, 'num_simulations')
    self._num_rollouts = openspiel.positive_int(num_rollouts, 'num_rollouts')
    game_type = game.get_type()
    if (game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL or
        game_type.reward_model != pyspiel.GameType.RewardModel.TERMINAL):
      raise ValueError(
          f'OpenSpiel\'s MCTS plays games of sequential moves with a final '
          f'outcome; {game_type.short_name!r} is {game_type.dynamics} with '
          f'{game_type.reward_model}.')
    self._game = game
    self._game_string = str(game)
    seed = int(seed) % 2**31  # The C++ generators take a 32-bit int.
    # Kept here: the bot refers to the evaluator but does not own it.
    self._evaluator = pyspiel.RandomRolloutEvaluator(self._num_rollouts, seed)
    self._bot = pyspiel.MCTSBot(game, self._evaluator, UCT_C,
                                self._num_simulations, _MAX_MEMORY_MB,
                                True, seed, False)

  @property
  def num_simulations(self) -> int:
    return self._num_simulations

  @property
  def num_rollouts(self) -> int:
    return self._num_rollouts

  def select_action(self, env) -> int:
    """The bot's move in the position of an `OpenSpielEnvironment`; a
    `TypeError` if `env` has no OpenSpiel state, a `ValueError` if the state
    is of another game or the game is over."""
    state = getattr(env, 'state', None)
    if state is None or not hasattr(state, 'get_game'):
      raise TypeError(f'MCTSPlayer plays in an OpenSpielEnvironment (it '
                      f'reads env.state), got {type(env).__name__}.')
    if str(state.get_game()) != self._game_string:
      raise ValueError(f'MCTSPlayer was built for {self._game_string!r}, '
                       f'got a position of {str(state.get_game())!r}.')
    if len(env.legal_actions()) == 0:  # pylint: disable=g-explicit-length-test
      raise ValueError(f'The game is over, there is no action to select:\n'
                       f'{state}')
    return int(self._bot.step(state))


def winner(last_reward: float, mover: int) -> int:
  """The winner (0, 1 or `DRAW`) of a game whose last move, by `mover`,
  earned `last_reward`."""
  if mover not in (0, 1):
    raise ValueError(f'mover must be 0 or 1, got {mover!r}.')
  if last_reward > 0:
    return mover
  if last_reward < 0:
    return 1 - mover
  return DRAW


def play_game(players: Sequence, env) -> int:
  """Plays a game in `env` from its reset, `players[p]` (with
  `select_action(env) -> int`) moving for p; returns the `winner`."""
  if len(players) != 2:
    raise ValueError(f'A board game needs two players, got {len(players)}.')
  time_step = env.reset()
  while not time_step.last():
    mover = env.to_play()
    time_step = env.step(players[mover].select_action(env))
  return winner(float(time_step.reward), mover)
