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
"""Two-player board games from OpenSpiel as `dm_env` environments."""

import collections
import difflib
from typing import Any, Dict, Optional, Tuple

import dm_env
from dm_env import specs
import numpy as np

from muzero_snt.environments import base

# How many legal actions an error message shows.
_SHOWN_ACTIONS = 10


def import_pyspiel():
  """The `pyspiel` module; an `ImportError` says how to install it."""
  return base.import_optional('pyspiel', 'OpenSpielEnvironment', 'openspiel',
                              'open-spiel')


def positive_int(value, name: str) -> int:
  """`value` as an int if it is an integer >= 1, else a `ValueError`."""
  number = base.as_action(value)
  if number is None or number < 1:
    raise ValueError(f'{name} must be a positive integer, got {value!r}.')
  return number


def _load_game(pyspiel, game, game_params: Dict[str, Any]):
  """The `pyspiel.Game` of a name or an instance; checks its kind."""
  if isinstance(game, str):
    names = pyspiel.registered_names()
    short_name = game.split('(', 1)[0]
    if short_name not in names:
      close = difflib.get_close_matches(short_name, names, n=5)
      hint = (f'close matches: {close}' if close else
              'see pyspiel.registered_names()')
      raise ValueError(f'Unknown OpenSpiel game {game!r}; {hint}.')
    try:
      # A name with its parameters inline, 'go(board_size=9)', loads alone.
      game = (pyspiel.load_game(game, game_params) if game_params else
              pyspiel.load_game(game))
    except pyspiel.SpielError as e:
      raise ValueError(
          f'OpenSpiel cannot load {game!r} with parameters {game_params}: '
          f'{str(e).splitlines()[0]}') from e
  elif isinstance(game, pyspiel.Game):
    if game_params:
      raise ValueError(
          f'Game parameters need a game name, got {sorted(game_params)} '
          f'with the loaded game {str(game)!r}.')
  else:
    raise TypeError(
        f'game must be an OpenSpiel game name or a pyspiel.Game, got '
        f'{game!r}.')
  game_type = game.get_type()
  kinds = pyspiel.GameType
  # (holds, what the environment needs, what the game is), checked in order.
  requirements = (
      (game.num_players() == 2, 'two players',
       f'a {game.num_players()}-player game'),
      (game_type.dynamics == kinds.Dynamics.SEQUENTIAL,
       'sequential moves', f'{game_type.dynamics}'),
      (game_type.chance_mode == kinds.ChanceMode.DETERMINISTIC,
       'deterministic moves (no chance nodes)', f'{game_type.chance_mode}'),
      (game_type.information == kinds.Information.PERFECT_INFORMATION,
       'perfect information', f'{game_type.information}'),
      (game_type.utility == kinds.Utility.ZERO_SUM,
       'zero-sum returns', f'{game_type.utility}'),
      (game_type.provides_observation_tensor, 'an observation tensor',
       'without one'),
  )
  for holds, needed, actual in requirements:
    if not holds:
      raise ValueError(
          f'OpenSpielEnvironment needs a game with {needed}; '
          f'{game_type.short_name!r} is {actual}.')
  shape = tuple(game.observation_tensor_shape())
  if not 1 <= len(shape) <= 3:
    raise ValueError(
        f'OpenSpielEnvironment needs an observation tensor of rank 1 to 3; '
        f'{game_type.short_name!r} has shape {list(shape)}.')
  return game


class OpenSpielEnvironment(base.Environment):
  """A deterministic two-player OpenSpiel game, such as Go or chess.

  Any sequential, deterministic, perfect-information, zero-sum game with an
  observation tensor whose players alternate, as the search assumes (a
  second move in a row raises a `ValueError` and abandons the episode).
  Players keep OpenSpiel's numbers: in chess White, who moves first, is 1.
  Observations are float32 `[H, W, history * C + 1]`: the last `history`
  positions' planes oldest first (zeros before the start), all seen by the
  player to move now, then a constant plane equal to that player. The
  reward after a move is for its mover: the game's return at the end, else
  OpenSpiel's reward. The end is a termination (discount 0), also after
  `max_moves` moves, adjudicated a draw as AlphaZero did (Silver et al.
  2018); then `to_play()` is the player after the last mover. An illegal
  action leaves the state unchanged.
  """

  def __init__(self,
               game,
               seed: int = 0,
               *,
               history: int = 1,
               max_moves: Optional[int] = None,
               player_planes: Optional[Tuple[int, int]] = None,
               **game_params):
    """Loads the game; `seed` is unused (the games are deterministic).

    Args:
      game: an OpenSpiel game name ('connect_four', 'go') or a `pyspiel.Game`.
      player_planes: the planes of player 0's and player 1's pieces, which
        player 1 then sees swapped, so that the mover's come first
        (AlphaZero's encoding; connect_four: (0, 1)).
      **game_params: OpenSpiel game parameters, e.g. `board_size=9` for Go;
        only with a game name.

    Raises:
      ImportError: if open-spiel is not installed.
      TypeError: if `game` is neither a name nor a `pyspiel.Game`.
      ValueError: for an unknown name or parameters, a game of another
        kind, or a bad `history`, `max_moves` or `player_planes`.
    """
    pyspiel = import_pyspiel()
    self._history = positive_int(history, 'history')
    if max_moves is not None:
      max_moves = positive_int(max_moves, 'max_moves')
    self._max_moves = max_moves
    self._game = _load_game(pyspiel, game, game_params)
    del seed
    self._name = self._game.get_type().short_name
    # With terminal rewards OpenSpiel reports the outcome as the returns at
    # the end; other games reward every step and their returns are sums.
    self._terminal_rewards = (self._game.get_type().reward_model ==
                              pyspiel.GameType.RewardModel.TERMINAL)
    shape = self._tensor_shape = tuple(self._game.observation_tensor_shape())
    # The tensor `[C]`, `[H, W]` or `[C, H, W]` as planes `[H, W, C]`.
    self._planes_shape = {1: (1, 1) + shape, 2: shape + (1,),
                          3: shape[1:] + shape[:1]}[len(shape)]
    height, width, channels = self._planes_shape
    self._observation_shape = (height, width, self._history * channels + 1)
    if player_planes is not None:
      try:
        planes = tuple(base.as_action(p) for p in player_planes)
      except TypeError:
        planes = ()
      if (len(planes) != 2 or None in planes or planes[0] == planes[1] or
          not all(0 <= p < channels for p in planes)):
        raise ValueError(
            f'player_planes must be two different planes in [0, {channels}) '
            f'of {self._name!r}\'s tensor, got {player_planes!r}.')
      order = list(range(channels))
      order[planes[0]], order[planes[1]] = planes[1], planes[0]
      player_planes = order
    # How player 1's planes are reordered, or None to keep the tensor's.
    self._player_1_order = player_planes
    self._new_episode()
    self._reset_next_step = True

  @property
  def game(self):
    """The `pyspiel.Game`."""
    return self._game

  @property
  def state(self):
    """The current `pyspiel.State`; read it, do not change it."""
    return self._state

  @property
  def history(self) -> int:
    return self._history

  @property
  def max_moves(self) -> Optional[int]:
    return self._max_moves

  def observation_spec(self) -> specs.Array:
    return specs.Array(shape=self._observation_shape, dtype=np.float32,
                       name='observation')

  def action_spec(self) -> specs.DiscreteArray:
    return specs.DiscreteArray(
        num_values=self._game.num_distinct_actions(), dtype=np.int32,
        name='action')

  def reset(self) -> dm_env.TimeStep:
    self._new_episode()
    self._reset_next_step = False
    return dm_env.restart(self.observation())

  def step(self, action) -> dm_env.TimeStep:
    if self._reset_next_step:
      return self.reset()
    index = base.as_action(action)
    legal = self._legal_list()
    if index is None or index not in legal:
      shown = legal[:_SHOWN_ACTIONS]
      more = ', ...' if len(legal) > _SHOWN_ACTIONS else ''
      raise ValueError(
          f'Illegal action {action!r} in {self._name!r}: expected an '
          f'integer among the {len(legal)} legal actions '
          f'[{", ".join(map(str, shown))}{more}].')
    state = self._state
    mover = state.current_player()
    state.apply_action(index)
    self._moves += 1
    self._last_mover = mover
    if state.is_terminal():
      self._ended = True
      outcome = state.returns() if self._terminal_rewards else state.rewards()
      reward = outcome[mover]
    elif state.current_player() == mover:
      # The search gives every move to the other player; a second move in a
      # row would flip the sign of every value after it.
      self._ended = True
      self._reset_next_step = True
      self._add_position()
      raise ValueError(
          f'OpenSpielEnvironment needs players that alternate; in '
          f'{self._name!r} player {mover} moves again after move '
          f'{self._moves}. The episode is abandoned.')
    else:
      self._ended = (self._max_moves is not None and
                     self._moves >= self._max_moves)
      reward = state.rewards()[mover]
    self._add_position()
    if self._ended:
      self._reset_next_step = True
      return base.termination(reward, self.observation())
    return base.transition(reward, self.observation())

  def legal_actions(self) -> np.ndarray:
    return np.asarray(self._legal_list(), np.int32)

  def to_play(self) -> int:
    if self._ended:
      return (self._last_mover + 1) % 2
    return self._state.current_player()

  @property
  def num_players(self) -> int:
    return 2

  def observation(self) -> np.ndarray:
    """Returns the float32 `[H, W, history * C + 1]` observation now."""
    player = self.to_play()
    channels = self._planes_shape[-1]
    observation = np.zeros(self._observation_shape, np.float32)
    start = self._history - len(self._views)  # Positions before the game.
    for i, views in enumerate(self._views, start):
      observation[..., i * channels:(i + 1) * channels] = views[player]
    observation[..., -1] = player
    return observation

  def _new_episode(self):
    self._state = self._game.new_initial_state()
    self._moves = 0
    self._last_mover = None
    self._ended = False
    # Per position, its planes seen by each player who may need them.
    self._views = collections.deque(maxlen=self._history)
    self._add_position()

  def _add_position(self):
    # The state changes in place: cache the planes a later position, whose
    # mover is the other player, will stack.
    player = self.to_play()
    if self._history > 1 and not self._ended:
      players = (player, 1 - player)
    else:
      players = (player,)
    self._views.append({p: self._planes(p) for p in players})
    self._legal = None  # The legal actions of this position, when asked.

  def _planes(self, player: int) -> np.ndarray:
    tensor = np.asarray(self._state.observation_tensor(player), np.float32)
    tensor = tensor.reshape(self._tensor_shape)
    if tensor.ndim == 3:
      planes = tensor.transpose(1, 2, 0)  # [C, H, W] -> [H, W, C].
    else:
      planes = tensor.reshape(self._planes_shape)
    if self._player_1_order is not None and player == 1:
      planes = planes[..., self._player_1_order]
    return planes

  def _legal_list(self):
    if self._ended:
      return []
    if self._legal is None:
      self._legal = sorted(self._state.legal_actions())
    return self._legal
