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
"""Environments by name: one per preset, with the title a user may choose.

'gymnasium' and 'openspiel' build any task or game of their kind, whose
configuration is derived from it (`presets.config_for_environment`).
"""

from typing import Callable, Dict, NamedTuple, Optional

from muzero_snt import frames
from muzero_snt.environments import atari
from muzero_snt.environments import base
from muzero_snt.environments import gym_adapter
from muzero_snt.environments import minatar_adapter
from muzero_snt.environments import openspiel
from muzero_snt.environments import tictactoe

# Board-game histories: AlphaZero's inputs hold the last 8 positions.
PAPER_HISTORY = 8
# AlphaZero's maximum game length for chess and shogi (adjudicated a draw).
PAPER_MAX_BOARD_MOVES = 512
# The small Atari preset stacks 4 frames (and 4 action planes) instead of 32.
SMALL_ATARI_FRAMES = 4
# MinAtar episodes are cut at 3,000 steps (the 'minatar' preset's max_moves)
# so that an evaluation always ends; Freeway ends itself after 2,501.
MINATAR_MAX_EPISODE_STEPS = 3_000


class EnvironmentEntry(NamedTuple):
  """How to build one named environment."""
  make: Callable[[int, Optional[str]], base.Environment]  # (seed, title).
  default_title: Optional[str]  # None if it takes no title.
  extra: Optional[str]  # The `pip install -e '.[extra]'` it needs, or None.
  # The environments' `frame_stack()`, without building one.
  frame_stack: Optional[frames.FrameStack] = None


def _atari(num_stacked_frames: int):
  return lambda seed, title: atari.AtariEnvironment(
      title, seed, num_stacked_frames=num_stacked_frames)


def _gymnasium(seed: int, title: str) -> base.Environment:
  return gym_adapter.GymnasiumEnvironment(title, seed=seed)


def _board_game(game: str, history: int = 1,
                max_moves: Optional[int] = None, **params):
  return lambda seed, title: openspiel.OpenSpielEnvironment(
      game, seed, history=history, max_moves=max_moves, **params)


ENVIRONMENTS: Dict[str, EnvironmentEntry] = {
    'tictactoe': EnvironmentEntry(
        lambda seed, title: tictactoe.TicTacToe(seed=seed), None, None),
    'cartpole': EnvironmentEntry(_gymnasium, 'CartPole-v1', 'envs'),
    'atari': EnvironmentEntry(
        _atari(atari.PAPER_NUM_STACKED_FRAMES), 'Pong', 'atari',
        atari.frame_stack(atari.PAPER_NUM_STACKED_FRAMES)),
    'atari_small': EnvironmentEntry(
        _atari(SMALL_ATARI_FRAMES), 'Pong', 'atari',
        atari.frame_stack(SMALL_ATARI_FRAMES)),
    'minatar': EnvironmentEntry(
        lambda seed, title: minatar_adapter.MinAtarEnvironment(
            title, seed, num_channels=minatar_adapter.MAX_CHANNELS,
            max_episode_steps=MINATAR_MAX_EPISODE_STEPS), 'breakout',
        'minatar'),
    'connect4': EnvironmentEntry(
        _board_game('connect_four'), None, 'openspiel'),
    'go9': EnvironmentEntry(
        _board_game('go', board_size=9, komi=7.5), None, 'openspiel'),
    'go': EnvironmentEntry(
        _board_game('go', history=PAPER_HISTORY, board_size=19, komi=7.5),
        None, 'openspiel'),
    'chess': EnvironmentEntry(
        _board_game('chess', history=PAPER_HISTORY,
                    max_moves=PAPER_MAX_BOARD_MOVES), None, 'openspiel'),
    'shogi': EnvironmentEntry(
        _board_game('shogi', history=PAPER_HISTORY,
                    max_moves=PAPER_MAX_BOARD_MOVES), None, 'openspiel'),
    'gymnasium': EnvironmentEntry(_gymnasium, 'CartPole-v1', 'envs'),
    'openspiel': EnvironmentEntry(
        lambda seed, title: openspiel.OpenSpielEnvironment(title, seed),
        'tic_tac_toe', 'openspiel'),
}


def make_environment(name: str, seed: int = 0,
                     title: Optional[str] = None) -> base.Environment:
  """Returns environment `name` of `ENVIRONMENTS`, seeded by `seed`.

  Args:
    title: the Atari game ('Pong'), the MinAtar game ('breakout'), the
      gymnasium id ('CartPole-v1') or the OpenSpiel game ('connect_four',
      'go(board_size=9)'); None for the entry's default.

  Raises:
    ValueError: if `name` or the title is unknown, or a title is given to
      an environment that takes none.
    ImportError: if the adapter's optional package is missing.
  """
  if name not in ENVIRONMENTS:
    raise ValueError(f'Unknown environment {name!r}; expected one of '
                     f'{sorted(ENVIRONMENTS)}.')
  entry = ENVIRONMENTS[name]
  if title is not None and entry.default_title is None:
    raise ValueError(
        f'Environment {name!r} takes no title, got {title!r}; titles choose '
        f'the game of {sorted(titled_environments())}.')
  return entry.make(seed, entry.default_title if title is None else title)


def titled_environments():
  """Names of the environments that take a title."""
  return tuple(name for name, entry in ENVIRONMENTS.items()
               if entry.default_title is not None)
