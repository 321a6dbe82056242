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
"""The exact solution of a two-player game, on Nim worked out by hand."""

import numpy as np

from benchmarks import game_solver
from examples import nim
from muzero_snt import environments


def _nim(seed):
  return environments.as_environment(nim.Nim(seed))


def _solved():
  return {(int(np.argmax(p.observation)), p.to_play): p
          for p in game_solver.solve_game(_nim)}


def test_solve_game_finds_every_position_of_nim_from_seven():
  # From 7 stones player 0 meets 7 and, after two or more moves, 5 to 1;
  # player 1 meets 6 to 1.
  assert sorted(_solved()) == sorted(
      [(p, 0) for p in (7, 5, 4, 3, 2, 1)] +
      [(p, 1) for p in (6, 5, 4, 3, 2, 1)])


def test_solve_game_values_nim_positions_by_the_pile_modulo_four():
  for (pile, _), position in _solved().items():
    if pile % 4:  # Taking pile % 4 stones (action pile % 4 - 1) wins.
      assert position.value == 1.
      assert position.optimal_actions == (pile % 4 - 1,)
    else:  # Every move loses.
      assert position.value == -1.
      assert position.optimal_actions == (0, 1, 2)


def test_suboptimal_moves_counts_the_positions_a_player_errs_in():
  positions = game_solver.solve_game(_nim)

  def take_one(observations, to_play, legal_actions):
    del to_play, legal_actions  # Unused.
    return np.zeros(len(observations), np.int64)

  def perfect(observations, to_play, legal_actions):
    del to_play, legal_actions  # Unused.
    piles = np.argmax(observations, axis=1)
    return np.where(piles % 4, piles % 4 - 1, 0)

  # Taking one stone is wrong at piles 2, 3 and 6 for player 1 and 2, 3
  # and 7 for player 0.
  assert game_solver.suboptimal_moves(take_one, positions) == 6
  assert game_solver.suboptimal_moves(perfect, positions) == 0
