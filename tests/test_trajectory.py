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
"""Tests for muzero_snt.trajectory: targets worked out by hand."""

import re

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import trajectory as trajectory_lib
from tests import frame_games
from tests import testing

Trajectory = trajectory_lib.Trajectory

# Policies of the hand-worked one-player game: one per move, over A = 3.
POLICIES = np.array([[1., 0., 0.], [0., 1., 0.], [0., 0., 1.],
                     [0.5, 0.25, 0.25]], np.float32)


def _one_player_game(terminal=True, bootstrap_value=0.):
  """4 moves, rewards 1, 2, 3, 4, root values 10, 20, 30, 40, discount 0.5."""
  game = Trajectory(action_space_size=3, num_players=1, discount=0.5)
  for t, (reward, value) in enumerate(zip([1., 2., 3., 4.],
                                          [10., 20., 30., 40.])):
    game.append(np.full(2, t, np.float32), 0, t % 3, reward, POLICIES[t],
                value)
  game.finish(terminal, bootstrap_value)
  return game


def _tictactoe_like_game(root_values=(0.1, -0.2, 0.3, -0.4, 0.5)):
  """5 alternating moves from player 0; player 0's last move wins (+1)."""
  game = Trajectory(action_space_size=9, num_players=2, discount=1.0)
  policy = np.full(9, 1. / 9.)
  for t in range(5):
    game.append(np.zeros((3, 3, 3), np.float32), t % 2, t,
                1. if t == 4 else 0., policy, root_values[t])
  game.finish(terminal=True)
  return game


class OnePlayerTargetTest(testing.TestCase):
  """z_t = r_t + 0.5 r_{t+1} + 0.25 v_{t+2} for td_steps 2 (discount 0.5)."""

  def test_value_targets_by_hand(self):
    game = _one_player_game()
    # z_0 = 1 + 0.5 * 2 + 0.25 * v_2 = 1 + 1 + 7.5 = 9.5
    # z_1 = 2 + 0.5 * 3 + 0.25 * v_3 = 2 + 1.5 + 10 = 13.5
    # z_2 = 3 + 0.5 * 4 + 0.25 * 0 (position 4 is terminal) = 5
    # z_3 = 4 + 0 = 4
    self.assertAllClose(game.value_targets(2), [9.5, 13.5, 5., 4.])
    # td_steps past the end: the discounted return, no bootstrap.
    # z_0 = 1 + 0.5 * 2 + 0.25 * 3 + 0.125 * 4 = 1 + 1 + 0.75 + 0.5 = 3.25
    # z_1 = 2 + 0.5 * 3 + 0.25 * 4 = 4.5
    self.assertAllClose(game.value_targets(10), [3.25, 4.5, 5., 4.])
    # td_steps 1: z_t = r_t + 0.5 v_{t+1}: 1 + 10, 2 + 15, 3 + 20, 4 + 0.
    self.assertAllClose(game.value_targets(1), [11., 17., 23., 4.])

  def test_window_inside_the_game(self):
    target = _one_player_game().make_target(0, 3, 2)
    self.assertAllClose(target.target_value, [9.5, 13.5, 5., 4.])
    # Step k predicts the reward of the k-th action: r_0, r_1, r_2 (the
    # pseudocode would give r_0..r_3 to steps 0..3).
    self.assertAllClose(target.target_reward, [1., 2., 3.])
    self.assertAllClose(target.target_policy, POLICIES)
    self.assertAllEqual(target.policy_mask, [1., 1., 1., 1.])
    for field in target:
      self.assertEqual(field.dtype, np.float32)

  def test_window_running_past_the_end(self):
    target = _one_player_game().make_target(2, 3, 2)
    # Positions 2, 3 inside; 4 is the terminal state, 5 absorbing.
    self.assertAllClose(target.target_value, [5., 4., 0., 0.])
    # Rewards of the actions at 2 and 3; no action after position 3.
    self.assertAllClose(target.target_reward, [3., 4., 0.])
    self.assertAllClose(target.target_policy,
                        [POLICIES[2], POLICIES[3], [0.] * 3, [0.] * 3])
    self.assertAllEqual(target.policy_mask, [1., 1., 0., 0.])

  def test_window_from_the_last_position(self):
    target = _one_player_game().make_target(3, 3, 2)
    self.assertAllClose(target.target_value, [4., 0., 0., 0.])
    self.assertAllClose(target.target_reward, [4., 0., 0.])
    self.assertAllClose(target.target_policy[0], POLICIES[3])
    self.assertAllEqual(target.target_policy[1:], np.zeros((3, 3)))
    self.assertAllEqual(target.policy_mask, [1., 0., 0., 0.])

  def test_truncated_game_bootstraps_at_the_end(self):
    game = _one_player_game(terminal=False, bootstrap_value=100.)
    # z_0 and z_1 bootstrap inside the game: unchanged, 9.5 and 13.5.
    # z_2 = 3 + 0.5 * 4 + 0.5^(4-2) * 100 = 3 + 2 + 25 = 30
    # z_3 = 4 + 0.5^(4-3) * 100 = 54
    self.assertAllClose(game.value_targets(2), [9.5, 13.5, 30., 54.])
    # td_steps 10 bootstraps every window at the end, with g^(T - t):
    # z_0 = 3.25 + 0.5^4 * 100 = 3.25 + 6.25 = 9.5
    # z_1 = 4.5 + 0.5^3 * 100 = 17
    self.assertAllClose(game.value_targets(10), [9.5, 17., 30., 54.])
    # Past the end the positions stay absorbing (an approximation there).
    target = game.make_target(2, 3, 2)
    self.assertAllClose(target.target_value, [30., 54., 0., 0.])
    self.assertAllClose(target.target_reward, [3., 4., 0.])
    self.assertAllEqual(target.policy_mask, [1., 1., 0., 0.])


class TwoPlayerTargetTest(testing.TestCase):
  """to_play 0, 1, 0, 1, 0; rewards 0, 0, 0, 0, +1 (player 0 wins)."""

  def test_monte_carlo_values_alternate(self):
    game = _tictactoe_like_game()
    # td_steps 9 > 5 moves: z_t = s(t, 4) * 1, +1 for player 0's positions.
    self.assertAllClose(game.value_targets(9), [1., -1., 1., -1., 1.])
    target = game.make_target(3, 3, 9)
    self.assertAllClose(target.target_value, [-1., 1., 0., 0.])
    # The winning reward is the mover's (player 0's), not negated.
    self.assertAllClose(target.target_reward, [0., 1., 0.])
    self.assertAllEqual(target.policy_mask, [1., 1., 0., 0.])

  def test_bootstrap_from_the_opponent_flips_the_sign(self):
    game = _tictactoe_like_game()
    # v = 0.1, -0.2, 0.3, -0.4, 0.5, each for its mover.
    # td_steps 1: z_t = r_t - v_{t+1} (the opponent moves at t + 1).
    # z_0 = 0 - (-0.2) = 0.2; z_1 = 0 - 0.3 = -0.3; z_2 = 0 - (-0.4) = 0.4;
    # z_3 = 0 - 0.5 = -0.5; z_4 = 1 - 0 (terminal) = 1.
    self.assertAllClose(game.value_targets(1), [0.2, -0.3, 0.4, -0.5, 1.])
    # td_steps 2: z_t = r_t - r_{t+1} + v_{t+2} (the mover again).
    # z_0 = 0.3; z_1 = -0.4; z_2 = 0.5; z_3 = 0 - 1 + 0 = -1; z_4 = 1.
    self.assertAllClose(game.value_targets(2), [0.3, -0.4, 0.5, -1., 1.])
    # td_steps 3: z_t = r_t - r_{t+1} + r_{t+2} - v_{t+3}.
    # z_0 = -(-0.4) = 0.4; z_1 = -0.5; z_2 = 0 - 0 + 1 = 1; z_3 = -1; z_4 = 1.
    self.assertAllClose(game.value_targets(3), [0.4, -0.5, 1., -1., 1.])

  def test_truncated_bootstrap_uses_the_next_players_sign(self):
    game = Trajectory(action_space_size=9, num_players=2, discount=0.9)
    for t in range(3):
      game.append(np.zeros((3, 3, 3), np.float32), t % 2, t, 0.,
                  np.eye(9)[t], 0.)
    # Player 1 is to move after the last move (player 0's); 0.6 is theirs.
    game.finish(terminal=False, bootstrap_value=0.6)
    # z_0 = -0.9^3 * 0.6 = -0.4374; z_1 = +0.9^2 * 0.6 = 0.486;
    # z_2 = -0.9 * 0.6 = -0.54.
    self.assertAllClose(game.value_targets(9), [-0.4374, 0.486, -0.54])


class LiteralFormulaTest(testing.TestCase):

  @parameterized.parameters((1, True), (2, True), (2, False), (1, False))
  def test_value_targets_equal_the_sum_as_written(self, num_players,
                                                  terminal):
    rng = np.random.default_rng(7)
    length, discount = 11, 0.8
    game = Trajectory(4, num_players, discount)
    for t in range(length):
      game.append(rng.normal(size=3), t % num_players, int(rng.integers(4)),
                  rng.normal(), rng.dirichlet(np.ones(4)), rng.normal())
    bootstrap_value = 0. if terminal else 2.5
    game.finish(terminal, bootstrap_value)
    r, v, who = game.rewards, game.root_values, game.to_play
    next_player = (who[-1] + 1) % num_players
    for n in (1, 3, 11, 20):
      expected = []
      for t in range(length):
        # common.md: sum_{i<n} g^i s(t, t+i) r_{t+i} + g^n s(t, t+n) v_{t+n}
        # with zero terms past the end; a truncated game bootstraps at T.
        z = 0.
        for i in range(n):
          if t + i < length:
            z += discount**i * (1 if who[t + i] == who[t] else -1) * r[t + i]
        if t + n < length:
          z += discount**n * (1 if who[t + n] == who[t] else -1) * v[t + n]
        elif not terminal:
          z += (discount**(length - t) *
                (1 if next_player == who[t] else -1) * bootstrap_value)
        expected.append(z)
      self.assertAllClose(game.value_targets(n), expected, atol=1e-12)


class ActionsWindowTest(testing.TestCase):

  def test_inside_the_game_returns_the_actions_taken(self):
    game = _one_player_game()  # actions 0, 1, 2, 0
    rng = np.random.default_rng(0)
    state = rng.bit_generator.state
    actions = game.actions_window(0, 3, rng)
    self.assertAllEqual(actions, [0, 1, 2])
    self.assertEqual(actions.dtype, np.int32)
    self.assertEqual(rng.bit_generator.state, state)

  def test_past_the_end_pads_with_uniform_random_actions(self):
    game = _one_player_game()
    rng = np.random.default_rng(0)
    padding = []
    for _ in range(300):
      actions = game.actions_window(2, 5, rng)
      self.assertAllEqual(actions[:2], [2, 0])
      padding.extend(actions[2:])
    # 900 draws over 3 actions: each count ~ Binomial(900, 1/3), mean 300,
    # standard deviation sqrt(900 * 1/3 * 2/3) = 14.1; allow 4 of them.
    counts = np.bincount(padding, minlength=3)
    self.assertLen(counts, 3)
    self.assertAllLessEqual(np.abs(counts - 300), 4 * 14.15)


class RecordTest(testing.TestCase):

  def test_properties_hold_the_moves(self):
    game = _one_player_game(terminal=False, bootstrap_value=-2.)
    self.assertEqual(game.length, 4)
    self.assertAllEqual(game.observations,
                        [[0, 0], [1, 1], [2, 2], [3, 3]])
    self.assertAllEqual(game.to_play, [0, 0, 0, 0])
    self.assertAllEqual(game.actions, [0, 1, 2, 0])
    self.assertAllEqual(game.rewards, [1, 2, 3, 4])
    self.assertAllEqual(game.policies, POLICIES)
    self.assertAllEqual(game.root_values, [10, 20, 30, 40])
    self.assertFalse(game.terminal)
    self.assertEqual(game.bootstrap_value, -2.)

  def test_record_is_a_copy_and_read_only(self):
    game = Trajectory(3)
    observation = np.zeros(2, np.float32)
    for t in range(2):
      observation[:] = t  # An environment reusing its buffer in place.
      game.append(observation, 0, 0, 0., [1., 0., 0.], 0.)
    game.finish(terminal=True)
    self.assertAllEqual(game.observations, [[0., 0.], [1., 1.]])
    with self.assertRaisesRegex(ValueError, 'read-only'):
      game.rewards[0] = 5.

  def test_from_arrays_equals_appending(self):
    game = _one_player_game()
    copy = Trajectory.from_arrays(
        3, 1, 0.5, game.observations, game.to_play, game.actions,
        game.rewards, game.policies, game.root_values, terminal=True)
    for name in ('observations', 'to_play', 'actions', 'rewards', 'policies',
                 'root_values'):
      self.assertAllEqual(getattr(copy, name), getattr(game, name))
    self.assertAllEqual(copy.value_targets(2), [9.5, 13.5, 5., 4.])

  def test_from_arrays_names_the_bad_move(self):
    game = _one_player_game()
    rewards = game.rewards.copy()
    rewards[2] = np.nan
    with self.assertRaisesRegex(ValueError, 'reward at move 2 .*nan'):
      Trajectory.from_arrays(
          3, 1, 0.5, game.observations, game.to_play, game.actions, rewards,
          game.policies, game.root_values, terminal=True)

  def test_legal_masks_are_recorded_and_default_to_all_actions(self):
    game = Trajectory(3, num_players=2)
    game.append(np.zeros(2), 0, 2, 0., [0., 0., 1.], 0.,
                np.array([False, True, True]))
    game.append(np.zeros(2), 1, 0, 0., [1., 0., 0.], 0.)
    game.finish(terminal=True)
    self.assertAllEqual(game.legal_actions,
                        [[False, True, True], [True, True, True]])
    copy = Trajectory.from_arrays(
        3, 2, 1., game.observations, game.to_play, game.actions,
        game.rewards, game.policies, game.root_values, terminal=True,
        legal_actions=game.legal_actions)
    self.assertAllEqual(copy.legal_actions, game.legal_actions)
    unknown = Trajectory.from_arrays(
        3, 2, 1., game.observations, game.to_play, game.actions,
        game.rewards, game.policies, game.root_values, terminal=True)
    self.assertTrue(unknown.legal_actions.all())

  def test_policy_sum_tolerance(self):
    game = Trajectory(3)
    game.append(np.zeros(2), 0, 0, 0., [0.5, 0.5 + 4e-6, 0.], 0.)
    with self.assertRaisesRegex(ValueError, 'policy at move 1 must sum to 1'):
      game.append(np.zeros(2), 0, 0, 0., [0.5, 0.5 + 4e-5, 0.], 0.)


class ErrorTest(testing.TestCase):

  def _game(self):
    game = Trajectory(3, num_players=2)
    game.append(np.zeros(2, np.float32), 0, 0, 0., [1., 0., 0.], 0.)
    return game

  @parameterized.named_parameters(
      ('action_high', dict(action=3),
       re.escape('action at move 1 must be in [0, 3), got 3')),
      ('action_negative', dict(action=-1), 'action at move 1 .*got -1'),
      ('action_float', dict(action=1.5), 'actions must hold integers'),
      ('reward_nan', dict(reward=np.nan), 'reward at move 1 .*finite.*nan'),
      ('value_inf', dict(root_value=np.inf),
       'root_value at move 1 .*finite.*inf'),
      ('policy_shape', dict(policy=[0.5, 0.5]),
       r'policy must have shape \[3\].*\[2\] at move 1'),
      ('policy_negative', dict(policy=[1.5, -0.5, 0.]),
       r'policy at move 1 must be finite and non-negative.*-0.5'),
      ('policy_sum', dict(policy=[0.5, 0.4, 0.]),
       'policy at move 1 must sum to 1.*0.9'),
      ('to_play', dict(to_play=2), r'to_play at move 1 .*\[0, 2\), got 2'),
      ('observation_shape', dict(observation=np.zeros(3)),
       r'observation at move 1 has shape \[3\], expected \[2\]'),
      ('observation_nan', dict(observation=np.array([0., np.nan])),
       'observation at move 1 is not finite'),
      ('legal_shape', dict(legal_actions=np.ones(2, bool)),
       r'legal_actions must be a bool mask of shape \[3\].*\[2\] at move 1'),
      ('legal_int', dict(legal_actions=np.ones(3, int)),
       'legal_actions must be a bool mask .*int64'),
      ('illegal_action', dict(legal_actions=np.array([True, False, True])),
       'action 1 at move 1 is not in its legal_actions mask'),
  )
  def test_append_names_the_value_and_move(self, change, message):
    move = dict(observation=np.zeros(2, np.float32), to_play=1, action=1,
                reward=0., policy=[0., 1., 0.], root_value=0.)
    move.update(change)
    with self.assertRaisesRegex(ValueError, message):
      self._game().append(**move)

  def test_finish_errors(self):
    with self.assertRaisesRegex(ValueError, 'no moves'):
      Trajectory(3).finish(terminal=True)
    with self.assertRaisesRegex(ValueError,
                                'bootstrap_value must be 0 after a terminal'
                                '.*0.5'):
      self._game().finish(terminal=True, bootstrap_value=0.5)
    with self.assertRaisesRegex(ValueError, 'bootstrap_value must be finite'):
      self._game().finish(terminal=False, bootstrap_value=np.nan)
    game = self._game()
    game.finish(terminal=True)
    with self.assertRaisesRegex(ValueError, 'already finished'):
      game.finish(terminal=True)
    with self.assertRaisesRegex(ValueError, 'Cannot append move 1'):
      game.append(np.zeros(2), 1, 0, 0., [1., 0., 0.], 0.)

  def test_targets_need_a_finished_game_and_a_valid_index(self):
    game = self._game()
    with self.assertRaisesRegex(ValueError, 'finished trajectory'):
      game.make_target(0, 3, 2)
    game.finish(terminal=True)
    with self.assertRaisesRegex(ValueError,
                                re.escape('index must be a position in '
                                          '[0, 1), got 1')):
      game.make_target(1, 3, 2)
    with self.assertRaisesRegex(ValueError, 'td_steps must be an integer >= '
                                '1, got 0'):
      game.make_target(0, 3, 0)
    with self.assertRaisesRegex(ValueError,
                                'num_unroll_steps must be an integer >= 0'):
      game.make_target(0, -1, 2)

  def test_constructor_errors(self):
    with self.assertRaisesRegex(ValueError, 'action_space_size.*got 0'):
      Trajectory(0)
    with self.assertRaisesRegex(ValueError,
                                'num_players must be 1 or 2, got 3'):
      Trajectory(3, num_players=3)
    with self.assertRaisesRegex(ValueError, r'discount must be in \(0, 1\]'):
      Trajectory(3, discount=1.5)


if __name__ == '__main__':
  tf.test.main()


class FrameStackTest(testing.TestCase):
  """Frames stored once give back the observations they were handed."""

  def test_positions_stack_to_the_observations_handed_to_append(self):
    game, observations = frame_games.random_game(7, seed=0)
    self.assertEqual(game.observation_shape, (2, 3, 8))
    # Each frame once, as bytes: 7 moves of 2x3 RGB.
    self.assertEqual(game.frames.dtype, np.uint8)
    self.assertEqual(game.frames.nbytes, 7 * 2 * 3 * 3)
    self.assertAllEqual(game.observations, np.stack(observations))
    for t in (0, 1, 6):
      self.assertAllEqual(game.observation(t), observations[t])
    self.assertAllEqual(game.observations_at([6, 0, 6]),
                        np.stack([observations[i] for i in (6, 0, 6)]))

  def test_from_arrays_equals_appending(self):
    game, observations = frame_games.random_game(5, seed=1)
    copy = Trajectory.from_arrays(
        18, 1, 0.9, None, game.to_play, game.actions, game.rewards,
        game.policies, game.root_values, terminal=True, frames=game.frames,
        frame_stack=game.frame_stack)
    self.assertAllEqual(copy.observations, np.stack(observations))
    with self.assertRaisesRegex(ValueError, 'observations without a '
                                'frame_stack, frames with one'):
      Trajectory.from_arrays(
          18, 1, 0.9, np.stack(observations), game.to_play, game.actions,
          game.rewards, game.policies, game.root_values, terminal=True,
          frame_stack=game.frame_stack)

  def test_an_observation_that_is_not_the_stack_is_refused(self):
    stack = frame_games.SMALL_STACK
    game = Trajectory(18, frame_stack=stack)
    frames = np.zeros((3, 2, 3, 3), np.uint8)
    policy = np.full(18, 1. / 18.)
    game.append(frame_games.literal_observation(stack, frames, [4], 0), 0,
                4, 0., policy, 0.)
    # Move 1 as if move 0 had played action 5: its action plane says 5/18.
    wrong = frame_games.literal_observation(stack, frames, [5], 1)
    with self.assertRaisesRegex(ValueError, r'observation at move 1 is not '
                                r'the stack .* at index \[0, 0, 7\]'):
      game.append(wrong, 0, 0, 0., policy, 0.)
    self.assertEqual(game.length, 1)

  def test_whole_observations_have_no_frames(self):
    with self.assertRaisesRegex(ValueError, 'no frames'):
      _ = _one_player_game().frames
