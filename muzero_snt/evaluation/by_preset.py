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
"""A search evaluated the way its preset is: two-player presets against
their fixed opponents, both sides; one-player presets by episode returns.
"""

from typing import Callable, List, Optional, Sequence, Union

from muzero_snt.evaluation import matches as evaluation
from muzero_snt.evaluation import opponents as opponents_lib
from muzero_snt import search as search_lib
from muzero_snt.environments import base

# (seed) -> a fresh environment of the preset.
EnvironmentFactory = Callable[[int], base.Environment]
Results = Union[List[evaluation.MatchResult], evaluation.EpisodeStats]


def make_opponents(preset: str,
                   make_environment: EnvironmentFactory,
                   names: Optional[Sequence[str]] = None,
                   num_simulations: int = opponents_lib.MCTS_SIMULATIONS,
                   num_rollouts: int = opponents_lib.MCTS_ROLLOUTS,
                   seed: int = 0):
  """`opponents.make_opponents` for `preset`, or None for a one-player one."""
  if preset not in opponents_lib.OPPONENTS:
    return None
  game = getattr(make_environment(seed), 'game', None)
  return opponents_lib.make_opponents(preset, names, game, num_simulations,
                                      num_rollouts)


def evaluate(search: search_lib.Search,
             make_environment: EnvironmentFactory,
             opponents, num_games: int, seed: int = 0,
             max_moves: Optional[int] = None) -> Results:
  """Plays `num_games` per opponent and side, or episodes.

  Args:
    search: MuZero's search (played without noise).
    make_environment: (seed) -> a fresh environment of the preset.
    opponents: `make_opponents`'s result.
    num_games: games per opponent and side, or episodes.
    seed: seed of the opponents and the environments.
    max_moves: games and episodes still running after this many moves are
      cut and counted (default: the config's `max_moves`).

  Returns:
    `evaluation.evaluate_matches`'s results, or the episodes'
    `evaluation.EpisodeStats` for a one-player preset.
  """
  if opponents is None:
    return evaluation.evaluate_episodes(search, make_environment, num_games,
                                        seed=seed, max_moves=max_moves)
  player = evaluation.MuZeroPlayer(search, seed=seed)
  return evaluation.evaluate_matches(player, make_environment, opponents,
                                     num_games=num_games, seed=seed,
                                     max_moves=max_moves)
