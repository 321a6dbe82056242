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
"""Self-play: the pseudocode's `play_game` for several games at once, each
move one batched search over the games in progress."""

from typing import Callable, List, NamedTuple, Optional

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import search as search_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt.environments import base

# (seed) -> a fresh environment; called once per game.
EnvironmentFactory = Callable[[int], base.Environment]


class GameResult(NamedTuple):
  """A finished self-play game and what the logs report of it."""
  trajectory: trajectory_lib.Trajectory
  episode_return: float  # Sum of player 0's rewards (+1/-1/0 in a board game).
  length: int
  terminal: bool  # False if truncated (time limit or config.max_moves).


def _seed(*parts: int) -> int:
  return int(np.random.SeedSequence(list(parts)).generate_state(1)[0])


class _Game:
  """One game in progress: its environment, last time step and record."""

  def __init__(self, environment: base.Environment,
               config: config_lib.MuZeroConfig):
    self.environment = environment
    self.time_step = environment.reset()
    # A frame-stacking environment's games keep each frame once.
    self.trajectory = trajectory_lib.Trajectory(
        config.action_space_size, num_players=config.num_players,
        discount=config.discount, frame_stack=environment.frame_stack())
    self.player_0_return = 0.


class Actor:
  """Plays self-play games with the search."""

  def __init__(self,
               config: config_lib.MuZeroConfig,
               search: search_lib.Search,
               model: search_lib.Model,
               make_environment: EnvironmentFactory,
               seed: int = 0,
               num_envs: int = 1):
    """An actor whose `search` picks every move, with exploration noise, for
    `num_envs` games at once; `model`, the same network as a `search.Model`,
    gives the bootstrap value of a game cut off by a time limit.

    Raises:
      TypeError: if `search` or `model` is of another type.
      ValueError: if `num_envs` is not a positive integer.
    """
    if not isinstance(search, search_lib.Search):
      raise TypeError(f'Actor needs a search.Search (e.g. search.make_search'
                      f'(config, network)), got {type(search).__name__}.')
    if not isinstance(model, search_lib.Model):
      raise TypeError(f'Actor needs a search.Model (initial_inference and '
                      f'recurrent_inference) for bootstrap values, got '
                      f'{type(model).__name__}.')
    config_lib.check_int('num_envs', num_envs, 1)
    self._config = config
    self._model = model
    self._make_environment = make_environment
    self._seed = seed
    self._num_envs = num_envs
    self._search = search
    # `play_games`' games in play (None before its first call) and next game.
    self._in_play: Optional[List[_Game]] = None
    self._next_game = 0

  @property
  def num_envs(self) -> int:
    return self._num_envs

  def compile_function(self, continuous: bool = False
                      ) -> Optional[Callable[[], None]]:
    """Traces the search now; returns a function compiling the programs of
    `play_round` (or of `play_games`, `continuous`), or None for a search
    that compiles nothing."""
    compile_function = getattr(self._search, 'compile_function', None)
    if compile_function is None:
      return None
    sizes = ([self._num_envs] if continuous else
             range(1, self._num_envs + 1))
    return compile_function(sizes, add_noise=True)

  def play_round(
      self,
      round_index: int,
      training_steps: Callable[[], int] = lambda: 0,
      on_move: Optional[Callable[[int], None]] = None,
      should_stop: Optional[Callable[[], bool]] = None,
  ) -> List[GameResult]:
    """Plays one game in each environment to its end; returns them in order.

    No game spans two rounds, so a resumed run replays an uninterrupted one.

    Args:
      round_index: the number of rounds played before (fixes the seeds).
      training_steps: returns the learner's steps so far (for temperatures).
      on_move: called with the number of environment steps after every
        batched move.
      should_stop: checked after every batched move; True ends the round and
        drops the games in progress.
    """
    rng = np.random.default_rng(_seed(self._seed, round_index))
    first_game = round_index * self._num_envs
    games = [self._game(first_game + i) for i in range(self._num_envs)]
    results: List[Optional[GameResult]] = [None] * self._num_envs
    while any(result is None for result in results):
      active = [i for i, result in enumerate(results) if result is None]
      self._move([games[i] for i in active], rng, training_steps())
      for i in active:
        results[i] = self._result_if_over(games[i])
      if on_move is not None:
        on_move(len(active))
      if should_stop is not None and should_stop():
        break
    return [result for result in results if result is not None]

  def play_games(
      self,
      call_index: int,
      first_game: int = 0,
      training_steps: Callable[[], int] = lambda: 0,
      on_move: Optional[Callable[[int], None]] = None,
      should_stop: Optional[Callable[[], bool]] = None,
      on_game_end: Optional[Callable[[GameResult], None]] = None,
  ) -> List[GameResult]:
    """Plays until `num_envs` games have ended, a new game in each free slot
    (so every search is full); returns those, in order. Games still in play
    continue in the next call.

    Args:
      call_index: the number of calls before (fixes the moves' seeds).
      first_game: the index of the first game started by the first call.
      training_steps, on_move, should_stop: as `play_round`'s.
      on_game_end: called with each game as it ends, before `on_move`.
    """
    rng = np.random.default_rng(_seed(self._seed, call_index, 2))
    if self._in_play is None:
      self._next_game = first_game
      self._in_play = [self._new_game() for _ in range(self._num_envs)]
    results: List[GameResult] = []
    while len(results) < self._num_envs:
      self._move(self._in_play, rng, training_steps())
      for slot, game in enumerate(self._in_play):
        result = self._result_if_over(game)
        if result is not None:
          results.append(result)
          self._in_play[slot] = self._new_game()
          if on_game_end is not None:
            on_game_end(result)
      if on_move is not None:
        on_move(self._num_envs)
      if should_stop is not None and should_stop():
        break
    return results

  def _game(self, index: int) -> _Game:
    """Game `index` of the run: its environment draws from (seed, index)."""
    return _Game(self._make_environment(_seed(self._seed, index, 1)),
                 self._config)

  def _new_game(self) -> _Game:
    """The next game of `play_games`."""
    self._next_game += 1
    return self._game(self._next_game - 1)

  def _move(self, games: List[_Game], rng: np.random.Generator,
            training_steps: int) -> None:
    observations = np.stack([game.time_step.observation for game in games])
    to_play = [game.environment.to_play() for game in games]
    legal = [game.environment.legal_actions() for game in games]
    legal_mask = search_lib.legal_actions_to_mask(
        legal, self._config.action_space_size)
    output = self._search(observations, to_play, legal_mask, rng,
                          add_noise=True)
    actions = self._choose_actions(games, legal, output, rng, training_steps)
    rewards, time_steps = [], []
    for i, game in enumerate(games):
      time_step = game.environment.step(int(actions[i]))
      reward = float(time_step.reward)
      rewards.append(reward)
      time_steps.append(time_step)
      game.player_0_return += reward if to_play[i] == 0 else -reward
    trajectory_lib.Trajectory.append_batch(
        [game.trajectory for game in games], observations, to_play,
        actions.tolist(), rewards, output.policy, output.root_value, legal_mask)
    for game, time_step in zip(games, time_steps):
      game.time_step = time_step

  def _choose_actions(self, games: List[_Game], legal: List[np.ndarray],
                      output: search_lib.SearchOutput,
                      rng: np.random.Generator,
                      training_steps: int) -> np.ndarray:
    """Each game's move drawn from its visit counts, in one batch; `rng`
    draws game by game what per-game choices would draw."""
    config = self._config
    num_games = len(games)
    temperatures = np.zeros(num_games)
    uniforms = np.zeros(num_games)
    opening_actions = {}
    for i, game in enumerate(games):
      num_moves = game.trajectory.length
      if num_moves < config.random_opening_moves:
        opening_actions[i] = int(rng.choice(legal[i]))
      elif output.action is None:
        temperatures[i] = config.visit_softmax_temperature_fn(
            num_moves, training_steps)
        if temperatures[i] > 0:
          uniforms[i] = rng.random()
    if output.action is not None:
      # Gumbel MuZero plays the action its search selects, without a
      # temperature (the Gumbel sample already explores).
      actions = np.asarray(output.action, np.int64).copy()
    else:
      actions = search_lib.sample_actions(output.visit_counts, temperatures,
                                          uniforms)
    for i, action in opening_actions.items():
      actions[i] = action
    return actions

  def _result_if_over(self, game: _Game) -> Optional[GameResult]:
    trajectory = game.trajectory
    time_step = game.time_step
    over_time = trajectory.length >= self._config.max_moves
    if not (time_step.last() or over_time):
      return None
    terminal = time_step.last() and time_step.discount == 0.
    bootstrap_value = 0.
    if not terminal:
      # Truncated: the value of the position after the last move stands in
      # for the rewards the time limit cut off.
      output = self._model.initial_inference(time_step.observation[None])
      bootstrap_value = float(np.asarray(output.value)[0])
    trajectory.finish(terminal=terminal, bootstrap_value=bootstrap_value)
    return GameResult(trajectory=trajectory,
                      episode_return=game.player_0_return,
                      length=trajectory.length,
                      terminal=bool(terminal))
