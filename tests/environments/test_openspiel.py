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
"""Tests of the OpenSpiel adapter on tic-tac-toe, Connect Four, Go and chess."""

import re
import sys
from unittest import mock

from absl.testing import absltest
from absl.testing import parameterized
import dm_env
from dm_env import specs
from dm_env import test_utils
import numpy as np

from muzero_snt.environments import openspiel
from muzero_snt.environments import tictactoe

try:
  import pyspiel  # pylint: disable=g-import-not-at-top
except ImportError:
  pyspiel = None

SKIP_REASON = ("open-spiel is not installed (pip install -e '.[openspiel]'); "
               "the adapter's tests need it.")
needs_pyspiel = absltest.skipIf(pyspiel is None, SKIP_REASON)

MID, LAST = dm_env.StepType.MID, dm_env.StepType.LAST

# Connect Four: player 0 fills column 0 from the bottom, player 1 column 1;
# player 0's fourth stone in column 0 wins on the 7th move.
CONNECT_FOUR_WIN = (0, 1, 0, 1, 0, 1, 0)

# Chess, 1. f3 e5 2. g4 Qh4#: Black mates. In OpenSpiel Black is player 0
# and White, who moves first, player 1.
FOOLS_MATE = ('f3', 'e5', 'g4', 'Qh4#')

GO_PASS = 81  # On a 9x9 board, points are 0..80 (9 * row + column).


def play(env, actions):
  """Resets `env`, plays `actions` and returns every time step."""
  timesteps = [env.reset()]
  for action in actions:
    timesteps.append(env.step(action))
  return timesteps


def othello_board(state) -> np.ndarray:
  """Reads an Othello state's text: `[8, 8]` 0 empty, 1 Black, 2 White.

  The text shows rows 1..8 (the tensor's rows 0..7) of 'x' (Black, player
  0), 'o' (White, player 1) and '-' (empty), between row labels.
  """
  codes = {'-': 0, 'x': 1, 'o': 2}
  rows = [line.split()[1:9] for line in str(state).splitlines()
          if line[:1].isdigit()]
  return np.array([[codes[c] for c in row] for row in rows])


def othello_planes(board, player) -> np.ndarray:
  """Othello's egocentric planes `[8, 8, 3]`: empty, own, the opponent's."""
  planes = (board == 0, board == player + 1, board == 2 - player)
  return np.stack(planes, axis=-1).astype(np.float32)


def fake_game(players=2, utility='ZERO_SUM', observation_tensor=True,
              tensor_shape=(3, 3, 3)):
  """A `pyspiel.Game` with only a type, to reach each type check alone."""
  kinds = pyspiel.GameType
  game_type = kinds(
      short_name='fake_game',
      long_name='Fake game',
      dynamics=kinds.Dynamics.SEQUENTIAL,
      chance_mode=kinds.ChanceMode.DETERMINISTIC,
      information=kinds.Information.PERFECT_INFORMATION,
      utility=getattr(kinds.Utility, utility),
      reward_model=kinds.RewardModel.TERMINAL,
      max_num_players=players,
      min_num_players=players,
      provides_information_state_string=False,
      provides_information_state_tensor=False,
      provides_observation_string=False,
      provides_observation_tensor=observation_tensor,
      parameter_specification={})
  game_info = pyspiel.GameInfo(
      num_distinct_actions=2, max_chance_outcomes=0, num_players=players,
      min_utility=-1., max_utility=1., utility_sum=0., max_game_length=3)

  class FakeGame(pyspiel.Game):

    def __init__(self):
      super().__init__(game_type, game_info, {})

    def observation_tensor_shape(self):
      return list(tensor_shape)

  return FakeGame()


@needs_pyspiel
class ConformanceTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
  """dm_env's contract: FIRST after reset and after LAST, valid specs."""

  def make_object_under_test(self):
    return openspiel.OpenSpielEnvironment('connect_four', history=2)

  def make_action_sequence(self):
    yield from CONNECT_FOUR_WIN
    yield 3  # Ignored: starts a new episode.
    yield from (3, 3, 4, 2)


@needs_pyspiel
class TicTacToeTest(absltest.TestCase):
  """OpenSpiel's tic-tac-toe against our own, an independent rendition."""

  def test_both_number_squares_row_major(self):
    state = pyspiel.load_game('tic_tac_toe').new_initial_state()
    for square in range(9):
      self.assertEqual(state.action_to_string(0, square),
                       f'x({square // 3},{square % 3})')

  def test_random_games_agree_with_the_builtin_game(self):
    ours = tictactoe.TicTacToe()
    theirs = openspiel.OpenSpielEnvironment('tic_tac_toe')
    self.assertEqual(theirs.observation_spec().shape, (3, 3, 4))
    self.assertEqual(theirs.action_spec().num_values, 9)
    rng = np.random.default_rng(0)
    outcomes = set()
    for _ in range(200):
      pair = (ours.reset(), theirs.reset())
      self._assert_agree(ours, theirs, *pair)
      while not pair[0].last():
        action = rng.choice(ours.legal_actions())
        pair = (ours.step(action), theirs.step(action))
        self._assert_agree(ours, theirs, *pair)
      outcomes.add((ours.winner, float(pair[0].reward)))
    # Both players won some games and some were drawn.
    self.assertEqual(outcomes, {(0, 1.), (1, 1.), (tictactoe.DRAW, 0.)})

  def _assert_agree(self, ours, theirs, expected, actual):
    self.assertEqual(actual.step_type, expected.step_type)
    self.assertEqual(actual.reward, expected.reward)
    self.assertEqual(actual.discount, expected.discount)
    self.assertEqual(theirs.to_play(), ours.to_play())
    np.testing.assert_array_equal(theirs.legal_actions(),
                                  ours.legal_actions())
    self.assertEqual(theirs.legal_actions().dtype, np.int32)
    # OpenSpiel's planes are empty, O (player 1) and X (player 0), then ours
    # adds the player to move; our board codes X as 1 and O as 2.
    board = ours.board.reshape(3, 3)
    observation = actual.observation
    self.assertEqual(observation.dtype, np.float32)
    np.testing.assert_array_equal(observation[..., 0], board == 0)
    np.testing.assert_array_equal(observation[..., 1], board == 2)
    np.testing.assert_array_equal(observation[..., 2], board == 1)
    np.testing.assert_array_equal(observation[..., 3],
                                  expected.observation[..., 2])


@needs_pyspiel
class ConnectFourTest(absltest.TestCase):

  def test_four_in_a_column_wins_for_the_mover(self):
    env = openspiel.OpenSpielEnvironment('connect_four')
    self.assertEqual(env.observation_spec(),
                     specs.Array((6, 7, 4), np.float32))
    self.assertEqual(env.action_spec().num_values, 7)
    timesteps = play(env, CONNECT_FOUR_WIN)
    self.assertTrue(timesteps[0].first())
    self.assertEqual([t.step_type for t in timesteps[1:]], [MID] * 6 + [LAST])
    self.assertEqual([t.reward for t in timesteps[1:]], [0.] * 6 + [1.])
    self.assertEqual([t.discount for t in timesteps[1:]], [1.] * 6 + [0.])
    # The plane of the player to move alternates 0, 1, ..., and after player
    # 0's winning 7th move the turn still passes, to player 1.
    self.assertEqual([t.observation[0, 0, -1] for t in timesteps],
                     [0., 1., 0., 1., 0., 1., 0., 1.])
    self.assertEqual(env.to_play(), 1)
    self.assertEqual(env.legal_actions().size, 0)

  def test_observation_after_two_moves(self):
    env = openspiel.OpenSpielEnvironment('connect_four')
    observation = play(env, (3, 4))[-1].observation
    # Row 0 is the bottom row: player 0's stone in column 3, player 1's in 4.
    player_0 = np.zeros((6, 7))
    player_0[0, 3] = 1
    player_1 = np.zeros((6, 7))
    player_1[0, 4] = 1
    empty = np.array([[1, 1, 1, 0, 0, 1, 1]] + [[1] * 7] * 5)
    np.testing.assert_array_equal(observation[..., 0], player_0)
    np.testing.assert_array_equal(observation[..., 1], player_1)
    np.testing.assert_array_equal(observation[..., 2], empty)
    np.testing.assert_array_equal(observation[..., 3], np.zeros((6, 7)))
    self.assertEqual(env.to_play(), 0)

  def test_player_planes_put_the_movers_discs_first(self):
    env = openspiel.OpenSpielEnvironment('connect_four', player_planes=(0, 1))
    x_3, o_4, x_2 = (np.zeros((6, 7)) for _ in range(3))
    x_3[0, 3] = o_4[0, 4] = x_2[0, 2] = 1
    # After x's move o is to move: o's discs (none) first, then x's.
    observation = play(env, (3,))[-1].observation
    np.testing.assert_array_equal(observation[..., 0], np.zeros((6, 7)))
    np.testing.assert_array_equal(observation[..., 1], x_3)
    # x to move sees OpenSpiel's order; o to move again sees them swapped.
    observation = env.step(4).observation
    np.testing.assert_array_equal(observation[..., 0], x_3)
    np.testing.assert_array_equal(observation[..., 1], o_4)
    observation = env.step(2).observation
    np.testing.assert_array_equal(observation[..., 0], o_4)
    np.testing.assert_array_equal(observation[..., 1], x_3 + x_2)
    # The empty cells and the player to move are as without the option.
    empty = np.array([[1, 1, 0, 0, 0, 1, 1]] + [[1] * 7] * 5)
    np.testing.assert_array_equal(observation[..., 2], empty)
    np.testing.assert_array_equal(observation[..., 3], np.ones((6, 7)))

  def test_player_planes_with_a_history_are_seen_by_the_mover(self):
    env = openspiel.OpenSpielEnvironment('connect_four', history=2,
                                         player_planes=(0, 1))
    observation = play(env, (3, 4, 2))[-1].observation
    x_3, o_4, x_2 = (np.zeros((6, 7)) for _ in range(3))
    x_3[0, 3] = o_4[0, 4] = x_2[0, 2] = 1
    # Planes 0-2: the position before x's last move, as o (to move now)
    # sees it; planes 3-5: the position now, the same way.
    np.testing.assert_array_equal(observation[..., 0], o_4)
    np.testing.assert_array_equal(observation[..., 1], x_3)
    np.testing.assert_array_equal(observation[..., 3], o_4)
    np.testing.assert_array_equal(observation[..., 4], x_3 + x_2)

  def test_bad_player_planes_are_named(self):
    for planes in ((0, 0), (0, 3), (0, 1, 2), 5, ('0', 1), (-1, 0)):
      with self.assertRaisesRegex(
          ValueError, r"player_planes must be two different planes in "
          r"\[0, 3\) of 'connect_four''s tensor, got " +
          re.escape(repr(planes))):
        openspiel.OpenSpielEnvironment('connect_four', player_planes=planes)

  def test_a_full_column_is_not_legal(self):
    env = openspiel.OpenSpielEnvironment('connect_four')
    # Six stones alternate in column 0: no four of a player.
    timesteps = play(env, (0,) * 6)
    self.assertTrue(all(t.mid() for t in timesteps[1:]))
    np.testing.assert_array_equal(env.legal_actions(), [1, 2, 3, 4, 5, 6])
    with self.assertRaisesRegex(
        ValueError, r"Illegal action 0 in 'connect_four'.*6 legal actions "
        r'\[1, 2, 3, 4, 5, 6\]'):
      env.step(0)

  def test_an_illegal_action_changes_nothing(self):
    env = openspiel.OpenSpielEnvironment('connect_four', history=2)
    play(env, (3,))
    observation = env.observation()
    for action in (7, -1, 1.0, '1', True, None, np.array([1])):
      with self.assertRaisesRegex(
          ValueError, 'Illegal action ' + re.escape(repr(action)) +
          r".*'connect_four'.*\[0, 1, 2, 3, 4, 5, 6\]"):
        env.step(action)
    np.testing.assert_array_equal(env.observation(), observation)
    self.assertEqual(env.state.history(), [3])
    self.assertEqual(env.to_play(), 1)
    self.assertTrue(env.step(np.int64(3)).mid())
    self.assertEqual(env.state.history(), [3, 3])

  def test_max_moves_adjudicates_a_draw(self):
    env = openspiel.OpenSpielEnvironment('connect_four', max_moves=3)
    self.assertEqual(env.max_moves, 3)
    timesteps = play(env, (0, 1, 2))
    self.assertEqual([t.step_type for t in timesteps[1:]], [MID, MID, LAST])
    self.assertEqual([t.reward for t in timesteps[1:]], [0., 0., 0.])
    self.assertEqual(timesteps[-1].discount, 0.)
    self.assertFalse(env.state.is_terminal())  # Adjudicated, not finished.
    self.assertEqual(env.to_play(), 1)
    self.assertEqual(timesteps[-1].observation[0, 0, -1], 1.)
    self.assertEqual(env.legal_actions().size, 0)
    timestep = env.step(5)  # Ignored: a new episode.
    self.assertTrue(timestep.first())
    self.assertEqual(env.state.history(), [])

  def test_a_win_on_the_last_allowed_move_stands(self):
    env = openspiel.OpenSpielEnvironment('connect_four', max_moves=7)
    last = play(env, CONNECT_FOUR_WIN)[-1]
    self.assertTrue(last.last())
    self.assertEqual(last.reward, 1.)

  def test_step_starts_an_episode_when_fresh_and_after_the_end(self):
    env = openspiel.OpenSpielEnvironment('connect_four')
    self.assertTrue(env.step(6).first())  # Fresh: the action is ignored.
    self.assertEqual(env.state.history(), [])
    for action in CONNECT_FOUR_WIN:
      env.step(action)
    timestep = env.step(6)
    self.assertTrue(timestep.first())
    self.assertEqual(env.to_play(), 0)
    np.testing.assert_array_equal(env.legal_actions(), np.arange(7))
    np.testing.assert_array_equal(timestep.observation[..., 2], np.ones((6, 7)))

  def test_properties(self):
    env = openspiel.OpenSpielEnvironment('connect_four', seed=7, history=3)
    self.assertEqual(env.history, 3)
    self.assertIsNone(env.max_moves)
    self.assertEqual(env.num_players, 2)
    self.assertIsInstance(env.game, pyspiel.Game)
    self.assertEqual(env.game.get_type().short_name, 'connect_four')
    play(env, (2, 5))
    self.assertEqual(env.state.history(), [2, 5])


@needs_pyspiel
class GoTest(parameterized.TestCase):

  @parameterized.parameters(1, 2)
  def test_specs(self, history):
    env = openspiel.OpenSpielEnvironment('go', history=history, board_size=9)
    shape = (9, 9, 4 * history + 1)
    self.assertEqual(env.observation_spec(), specs.Array(shape, np.float32))
    self.assertEqual(env.action_spec().num_values, 82)
    self.assertEqual(env.reset().observation.shape, shape)

  def test_pass_pass_with_komi_wins_for_white(self):
    env = openspiel.OpenSpielEnvironment('go', board_size=9)
    timesteps = play(env, (GO_PASS, GO_PASS))
    self.assertEqual([t.step_type for t in timesteps[1:]], [MID, LAST])
    # An empty board: 0 points each, and komi 7.5 goes to White, player 1,
    # who made the last pass.
    self.assertEqual([t.reward for t in timesteps[1:]], [0., 1.])
    self.assertEqual(timesteps[-1].discount, 0.)
    self.assertEqual(env.to_play(), 0)

  def test_game_parameters_reach_the_game(self):
    # With komi -0.5 Black (player 0) wins the empty board.
    env = openspiel.OpenSpielEnvironment('go', board_size=9, komi=-0.5)
    self.assertEqual(play(env, (GO_PASS, GO_PASS))[-1].reward, -1.)
    env = openspiel.OpenSpielEnvironment('go(board_size=9,komi=-0.5)')
    self.assertEqual(play(env, (GO_PASS, GO_PASS))[-1].reward, -1.)

  def test_history_planes_hold_the_earlier_position(self):
    # Go's planes: Black's stones, White's, empty points, and a plane of
    # ones when White (player 1) is to move.
    env = openspiel.OpenSpielEnvironment('go', history=2, board_size=9)
    zeros, ones = np.zeros((9, 9)), np.ones((9, 9))
    start = (zeros, zeros, ones, zeros)
    observation = env.reset().observation
    for plane, expected in enumerate((zeros,) * 4 + start + (zeros,)):
      np.testing.assert_array_equal(observation[..., plane], expected)

    observation = env.step(10).observation  # Black plays b2: row 1, col 1.
    black = zeros.copy()
    black[1, 1] = 1
    after = (black, zeros, ones - black, ones)
    for plane, expected in enumerate(start + after + (ones,)):
      np.testing.assert_array_equal(observation[..., plane], expected)

    observation = env.step(GO_PASS).observation  # The first position drops.
    white_passed = (black, zeros, ones - black, zeros)
    for plane, expected in enumerate(after + white_passed + (zeros,)):
      np.testing.assert_array_equal(observation[..., plane], expected)


@needs_pyspiel
class ChessTest(absltest.TestCase):

  def test_fools_mate(self):
    env = openspiel.OpenSpielEnvironment('chess')
    self.assertEqual(env.observation_spec().shape, (8, 8, 21))
    self.assertEqual(env.action_spec().num_values, 4674)
    timesteps = [env.reset()]
    self.assertLen(env.legal_actions(), 20)  # 16 pawn and 4 knight moves.
    to_play = [env.to_play()]
    for move in FOOLS_MATE:
      timesteps.append(env.step(env.state.string_to_action(move)))
      to_play.append(env.to_play())
    # White (player 1) moves first; the turn passes on after the mate.
    self.assertEqual(to_play, [1, 0, 1, 0, 1])
    self.assertEqual([t.observation[0, 0, -1] for t in timesteps],
                     [1., 0., 1., 0., 1.])
    self.assertEqual([t.step_type for t in timesteps[1:]],
                     [MID, MID, MID, LAST])
    # Black, player 0, mates and gets +1.
    self.assertEqual([t.reward for t in timesteps[1:]], [0., 0., 0., 1.])
    self.assertEqual(timesteps[-1].discount, 0.)


@needs_pyspiel
class PerspectiveTest(absltest.TestCase):
  """Othello's planes are egocentric: each stack is seen by one player."""

  def test_history_is_seen_by_the_player_to_move_now(self):
    env = openspiel.OpenSpielEnvironment('othello', history=2)
    self.assertEqual(env.observation_spec().shape, (8, 8, 7))
    env.reset()
    observation = env.step(19).observation  # Black plays d3: row 2, col 3.
    # The start (White on d4, e5; Black on e4, d5), then d3 flips d4.
    white_before = np.zeros((8, 8))
    white_before[3, 3] = white_before[4, 4] = 1
    black_before = np.zeros((8, 8))
    black_before[3, 4] = black_before[4, 3] = 1
    white_after = np.zeros((8, 8))
    white_after[4, 4] = 1
    black_after = black_before.copy()
    black_after[2, 3] = black_after[3, 3] = 1
    # Both positions as White (player 1, to move) sees them: own stones on
    # the second plane, Black's on the third.
    expected = (1 - white_before - black_before, white_before, black_before,
                1 - white_after - black_after, white_after, black_after,
                np.ones((8, 8)))
    for plane, planes in enumerate(expected):
      np.testing.assert_array_equal(observation[..., plane], planes)

  def test_random_games_match_the_board_text(self):
    env = openspiel.OpenSpielEnvironment('othello', history=2)
    rng = np.random.default_rng(1)
    for _ in range(2):
      timestep = env.reset()
      boards = [np.full((8, 8), -1), othello_board(env.state)]
      while True:
        player = env.to_play()
        expected = np.concatenate([
            othello_planes(boards[-2], player),
            othello_planes(boards[-1], player),
            np.full((8, 8, 1), player, np.float32)], axis=-1)
        np.testing.assert_array_equal(timestep.observation, expected)
        if timestep.last():
          break
        mover = player
        timestep = env.step(rng.choice(env.legal_actions()))
        boards.append(othello_board(env.state))
      # The last position is seen by the player after the last mover.
      self.assertEqual(env.to_play(), 1 - mover)
      black, white = np.sum(boards[-1] == 1), np.sum(boards[-1] == 2)
      winner = 0 if black > white else 1 if white > black else None
      self.assertEqual(timestep.reward,
                       0. if winner is None else 1. if winner == mover else -1.)


@needs_pyspiel
class SmallTensorTest(absltest.TestCase):

  def test_a_vector_becomes_one_point_with_planes(self):
    # Nim on piles of 1 and 2; the player who takes the last object wins.
    env = openspiel.OpenSpielEnvironment('nim', pile_sizes='1;2',
                                         is_misere=False)
    self.assertEqual(env.observation_spec().shape, (1, 1, 12))
    observation = env.reset().observation
    raw = np.asarray(env.state.observation_tensor(0), np.float32)
    np.testing.assert_array_equal(observation[0, 0, :11], raw)
    # The tensor opens with the player to move, one-hot.
    np.testing.assert_array_equal(observation[0, 0, :2], [1., 0.])
    self.assertEqual(observation[0, 0, 11], 0.)
    # Player 0 takes both objects of pile 2 (action 3); player 1 takes pile
    # 1 (action 0), the last object, and wins.
    timestep = env.step(3)
    np.testing.assert_array_equal(timestep.observation[0, 0, :2], [0., 1.])
    self.assertEqual(timestep.observation[0, 0, 11], 1.)
    timestep = env.step(0)
    self.assertTrue(timestep.last())
    self.assertEqual(timestep.reward, 1.)

  def test_a_matrix_becomes_one_plane(self):
    # Gomoku on 3x3 gives a [3, 9] tensor: a row per stone colour.
    env = openspiel.OpenSpielEnvironment('gomoku', size=3, connect=3)
    self.assertEqual(env.observation_spec().shape, (3, 9, 2))
    env.reset()
    observation = env.step(7).observation  # Player 0's stone on square 7.
    expected = np.zeros((3, 9))
    expected[0, 7] = 1
    np.testing.assert_array_equal(observation[..., 0], expected)
    np.testing.assert_array_equal(observation[..., 1], np.ones((3, 9)))


@needs_pyspiel
class BadInputTest(parameterized.TestCase):

  def test_unknown_game_lists_close_matches(self):
    with self.assertRaisesRegex(
        ValueError, r"Unknown OpenSpiel game 'conect_four'.*'connect_four'"):
      openspiel.OpenSpielEnvironment('conect_four')
    with self.assertRaisesRegex(
        ValueError, r"Unknown OpenSpiel game 'qqqqzz'.*registered_names"):
      openspiel.OpenSpielEnvironment('qqqqzz')

  @parameterized.named_parameters(
      ('chance', 'kuhn_poker',
       r"deterministic moves.*'kuhn_poker' is ChanceMode.EXPLICIT_STOCHASTIC"),
      ('simultaneous', 'matrix_rps',
       r"sequential moves; 'matrix_rps' is Dynamics.SIMULTANEOUS"),
      ('imperfect_information', 'dark_hex',
       r"perfect information; 'dark_hex' is Information.IMPERFECT"),
      ('one_player', 'morpion_solitaire',
       r"two players; 'morpion_solitaire' is a 1-player game"))
  def test_other_kinds_of_games_are_refused(self, name, message):
    with self.assertRaisesRegex(ValueError, message):
      openspiel.OpenSpielEnvironment(name)

  @parameterized.named_parameters(
      ('general_sum', dict(utility='GENERAL_SUM'),
       r"zero-sum returns; 'fake_game' is Utility.GENERAL_SUM"),
      ('three_players', dict(players=3),
       r"two players; 'fake_game' is a 3-player game"),
      ('no_tensor', dict(observation_tensor=False),
       r"an observation tensor; 'fake_game' is without one"),
      ('rank_4_tensor', dict(tensor_shape=(2, 3, 3, 3)),
       r"rank 1 to 3; 'fake_game' has shape \[2, 3, 3, 3\]"))
  def test_each_type_check_names_its_property(self, changes, message):
    with self.assertRaisesRegex(ValueError, message):
      openspiel.OpenSpielEnvironment(fake_game(**changes))

  def test_game_parameters(self):
    with self.assertRaisesRegex(
        ValueError, r"cannot load 'go' with parameters \{'bogus': 1\}.*"
        r"Unknown parameter 'bogus'"):
      openspiel.OpenSpielEnvironment('go', bogus=1)
    game = pyspiel.load_game('go', {'board_size': 9})
    self.assertEqual(
        openspiel.OpenSpielEnvironment(game).observation_spec().shape,
        (9, 9, 5))
    with self.assertRaisesRegex(
        ValueError, r"need a game name, got \['komi'\] with the loaded game"):
      openspiel.OpenSpielEnvironment(game, komi=0.5)

  def test_game_of_a_wrong_type(self):
    with self.assertRaisesRegex(
        TypeError, r'OpenSpiel game name or a pyspiel.Game, got 3'):
      openspiel.OpenSpielEnvironment(3)

  @parameterized.named_parameters(
      ('zero', 0), ('negative', -1), ('float', 1.5), ('bool', True),
      ('string', '2'))
  def test_history_must_be_a_positive_integer(self, history):
    message = 'history must be a positive integer, got ' + re.escape(
        repr(history))
    with self.assertRaisesRegex(ValueError, message):
      openspiel.OpenSpielEnvironment('tic_tac_toe', history=history)

  @parameterized.named_parameters(('zero', 0), ('float', 2.0), ('bool', True))
  def test_max_moves_must_be_a_positive_integer(self, max_moves):
    with self.assertRaisesRegex(
        ValueError, 'max_moves must be a positive integer, got ' +
        re.escape(repr(max_moves))):
      openspiel.OpenSpielEnvironment('tic_tac_toe', max_moves=max_moves)

  def test_a_player_moving_twice_abandons_the_episode(self):
    # An Amazons turn is three actions by one player (move, move, shoot).
    env = openspiel.OpenSpielEnvironment('amazons')
    env.reset()
    with self.assertRaisesRegex(
        ValueError, r"players that alternate; in 'amazons' player 0 moves "
        'again after move 1'):
      env.step(env.legal_actions()[0])
    self.assertEqual(env.legal_actions().size, 0)
    self.assertEqual(env.observation().shape, (10, 10, 5))
    self.assertTrue(env.step(0).first())


class MissingOpenSpielTest(absltest.TestCase):

  def test_the_error_says_how_to_install_it(self):
    hint = re.escape("pip install -e '.[openspiel]'")
    with mock.patch.dict(sys.modules, {'pyspiel': None}):
      with self.assertRaisesRegex(ImportError, hint):
        openspiel.OpenSpielEnvironment('tic_tac_toe')


if __name__ == '__main__':
  absltest.main()
