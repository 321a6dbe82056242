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
"""Tests of the action repeat wrapper."""

from absl.testing import absltest
import dm_env
from dm_env import specs
import numpy as np

from muzero_snt.environments import action_repeat
from muzero_snt.environments import base
from muzero_snt.environments import gym_adapter
from muzero_snt.environments import tictactoe


class Count(base.OnePlayerEnvironment):
  """Step t of an episode (from 1) rewards t; the episode ends at `length`.

  Action 1 is legal for the first `ones` steps only.
  """

  def __init__(self, length: int, ones: int = 100):
    self._num_actions = 2
    self._length = length
    self._ones = ones
    self.actions = []

  def observation_spec(self):
    return specs.Array((1,), np.float32)

  def legal_actions(self) -> np.ndarray:
    if len(self.actions) < self._ones:
      return np.arange(2, dtype=np.int32)
    return np.zeros(1, np.int32)

  def reset(self):
    self.actions = []
    return dm_env.restart(np.zeros(1, np.float32))

  def step(self, action):
    if len(self.actions) == self._length:
      return self.reset()
    self.actions.append(action)
    t = len(self.actions)
    observation = np.full(1, t, np.float32)
    if t == self._length:
      return base.termination(t, observation)
    return base.transition(t, observation)


class ActionRepeatTest(absltest.TestCase):

  def test_rewards_add_up_until_the_episode_ends(self):
    environment = action_repeat.ActionRepeat(Count(length=7), 3)
    environment.reset()
    rewards, discounts = [], []
    for _ in range(3):
      time_step = environment.step(1)
      rewards.append(float(time_step.reward))
      discounts.append(float(time_step.discount))
    # Steps 1+2+3, 4+5+6, then 7 ends the episode: a return of 28 in 7.
    self.assertEqual(rewards, [6., 15., 7.])
    self.assertEqual(discounts, [1., 1., 0.])
    self.assertTrue(time_step.last())
    self.assertEqual(time_step.observation[0], 7.)
    self.assertEqual(environment.frames, 7)
    self.assertTrue(environment.step(0).first())
    self.assertEqual(environment.frames, 0)

  def test_a_move_stops_when_its_action_is_no_longer_legal(self):
    count = Count(length=10, ones=2)
    environment = action_repeat.ActionRepeat(count, 4)
    environment.reset()
    self.assertEqual(float(environment.step(1).reward), 1. + 2.)
    self.assertEqual(count.actions, [1, 1])
    self.assertEqual(float(environment.step(0).reward), 3. + 4. + 5. + 6.)
    self.assertEqual(environment.frames, 6)

  def test_acrobot_keeps_its_return_and_its_500_step_limit(self):
    # Zero torque from near rest never swings the end up: -1 for each of
    # the 500 steps, cut by the time limit (discount 1) at move 125.
    environment = action_repeat.ActionRepeat(
        gym_adapter.GymnasiumEnvironment('Acrobot-v1', seed=0), 4)
    environment.reset()
    total, moves = 0., 0
    time_step = None
    while time_step is None or not time_step.last():
      time_step = environment.step(1)
      total += float(time_step.reward)
      moves += 1
    self.assertEqual((total, moves, environment.frames), (-500., 125, 500))
    self.assertEqual(float(time_step.discount), 1.)

  def test_a_bad_repeat_or_a_two_player_game_is_refused(self):
    with self.assertRaisesRegex(
        ValueError, r'^action_repeat must be an integer >= 1, got 0\.$'):
      action_repeat.ActionRepeat(Count(length=3), 0)
    with self.assertRaisesRegex(
        ValueError, r'^action_repeat=2 needs a one-player environment, got '
        r'TicTacToe with 2 players\.$'):
      action_repeat.ActionRepeat(tictactoe.TicTacToe(), 2)


if __name__ == '__main__':
  absltest.main()
