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
"""One-move tactics, on connect four positions worked out by hand."""

import math

import numpy as np
import pytest

from benchmarks import tactics

pyspiel = pytest.importorskip('pyspiel')


def _position(history):
  state = pyspiel.load_game('connect_four').new_initial_state()
  for action in history:
    state.apply_action(action)
  return state


def test_a_win_in_one_is_the_move_that_completes_four():
  # x on the bottom row in columns 0-2, o above it and in column 6; x to
  # move wins in column 3 and nowhere else.
  assert tactics.classify(_position([0, 0, 1, 1, 2, 6])) == (
      'win', frozenset({3}))
  # x three high in column 0: only column 0 wins.
  assert tactics.classify(_position([0, 1, 0, 1, 0, 1])) == (
      'win', frozenset({0}))


def test_a_win_comes_before_a_defence():
  # Both have three on their rows; x to move wins rather than blocks.
  assert tactics.classify(_position([0, 0, 1, 1, 2, 2])) == (
      'win', frozenset({3}))


def test_a_single_threat_is_defended_by_blocking_it():
  # x has columns 0-2 on the bottom row; o to move, with no win of its own,
  # must play column 3: every other move lets x win there.
  assert tactics.classify(_position([0, 6, 1, 6, 2])) == (
      'defend', frozenset({3}))


def test_no_tactic_in_a_quiet_position_or_against_a_double_threat():
  assert tactics.classify(_position([3])) is None
  # x on the bottom row in columns 1-3 threatens 0 and 4: whatever o plays,
  # x wins next, so no move is right and the position is not counted.
  assert tactics.classify(_position([1, 6, 2, 6, 3])) is None


def test_winning_moves():
  # x (to move) has columns 0-2 of the bottom row, o the squares above
  # them: x's disc in column 3 lands on the bottom row and completes four.
  assert tactics.winning_moves(_position([0, 0, 1, 1, 2, 2])) == {3}
  # None in the opening position.
  assert tactics.winning_moves(_position([])) == frozenset()
  # Two wins at once: x has 1-3 on the bottom row (o stacked in column 6),
  # so columns 0 and 4 both complete four.
  assert tactics.winning_moves(_position([1, 6, 2, 6, 3, 5])) == {0, 4}
  with pytest.raises(ValueError, match='terminal'):
    tactics.winning_moves(_position([0, 1, 0, 1, 0, 1, 0]))


def test_classify_refuses_a_finished_game():
  with pytest.raises(ValueError, match='terminal'):
    tactics.classify(_position([0, 1, 0, 1, 0, 1, 0]))


def test_collected_positions_replay_to_their_tactic():
  positions = tactics.collect_positions('connect_four', 5, seed=3)
  assert positions, 'five random games hold some one-move tactics'
  for position in positions:
    state = _position(position.history)
    assert tactics.classify(state) == (position.kind, position.correct)
    assert position.legal == tuple(state.legal_actions())
  # The same seed plays the same games.
  assert tactics.collect_positions('connect_four', 5, seed=3) == positions


def test_rates_count_right_moves_per_kind():
  positions = [
      tactics.TacticalPosition((), 'win', (0, 1, 2, 3), frozenset({3})),
      tactics.TacticalPosition((), 'win', (0, 1), frozenset({0, 1})),
      tactics.TacticalPosition((), 'defend', (0, 1, 2, 3, 4),
                               frozenset({2, 4})),
  ]
  assert tactics.hit_rates(positions, [3, 5, 1]) == {'win': 0.5,
                                                     'defend': 0.0}
  assert tactics.hit_rates(positions, np.array([0, 1, 4])) == {
      'win': 0.5, 'defend': 1.0}
  # A random player: (1/4 + 2/2) / 2 and 2/5.
  assert tactics.random_rates(positions) == pytest.approx(
      {'win': 0.625, 'defend': 0.4})
  assert tactics.counts(positions) == {'win': 2, 'defend': 1}
  assert math.isnan(tactics.hit_rates(positions[:1], [3])['defend'])


def test_bad_arguments_are_named():
  positions = [tactics.TacticalPosition((), 'win', (0, 1), frozenset({0}))]
  with pytest.raises(ValueError, match='2 actions for 1 positions'):
    tactics.hit_rates(positions, [0, 1])
  with pytest.raises(ValueError, match='num_games must be a positive'):
    tactics.collect_positions('connect_four', 0)
  with pytest.raises(ValueError, match='two-player games'):
    tactics.collect_positions('catch', 1)


def test_recorded_games_give_the_positions_along_them():
  # x stacks column 0, o column 1 until o fails to block at its third move
  # and x wins with its fourth disc. Nothing is forced before x's third
  # disc; then o must block column 0, and after o's move elsewhere x wins
  # there.
  positions = tactics.positions_in_games('connect_four',
                                         [[0, 1, 0, 1, 0, 2, 0]])
  assert [(p.history, p.kind, p.correct) for p in positions] == [
      ((0, 1, 0, 1, 0), 'defend', frozenset({0})),
      ((0, 1, 0, 1, 0, 2), 'win', frozenset({0})),
  ]


def test_an_illegal_recorded_move_is_named():
  full = [3] * 6
  with pytest.raises(ValueError, match=r'Game 1: action 3 after '
                     r'\[3, 3, 3, 3, 3, 3\] is not legal'):
    tactics.positions_in_games('connect_four', [[0], full + [3]])
