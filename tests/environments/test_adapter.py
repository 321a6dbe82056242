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
"""Tests of the adapter of a plain dm_env environment."""

from absl.testing import absltest
import dm_env
from dm_env import specs
from dm_env import test_utils
import numpy as np

from examples import corridor
from examples import nim
from muzero_snt.environments import base
from muzero_snt.environments import tictactoe


class ConformanceTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
  """The adapter keeps dm_env's contract."""

  def make_object_under_test(self):
    return base.DmEnvAdapter(corridor.Corridor())


class AdapterTest(absltest.TestCase):

  def test_a_muzero_snt_environment_is_not_wrapped(self):
    env = tictactoe.TicTacToe()
    self.assertIs(base.as_environment(env), env)

  def test_anything_else_is_refused(self):
    with self.assertRaisesRegex(TypeError, r'Expected a dm_env.Environment'):
      base.as_environment(object())

  def test_a_one_player_game_gets_every_action_and_player_zero(self):
    env = base.as_environment(corridor.Corridor())
    self.assertIsInstance(env, base.Environment)
    self.assertEqual(env.num_players, 1)
    env.reset()
    np.testing.assert_array_equal(env.legal_actions(), [0, 1])
    self.assertEqual(env.to_play(), 0)
    self.assertEqual(env.reward_spec(), base.REWARD_SPEC)
    self.assertEqual(env.max_moves, 50)  # The wrapped environment's own.
    step = env.step(1)
    self.assertEqual(step.reward, 0.)
    self.assertEqual(step.discount.dtype, np.float32)

  def test_a_two_player_game_keeps_its_moves_and_players(self):
    env = base.as_environment(nim.Nim())
    self.assertEqual(env.num_players, 2)
    env.reset()
    env.step(2)  # Player 0 takes 3 of the 7 stones.
    self.assertEqual(env.to_play(), 1)
    np.testing.assert_array_equal(env.legal_actions(), [0, 1, 2])
    env.step(1)
    env.step(0)  # 1 stone left: only "take one" is legal.
    np.testing.assert_array_equal(env.legal_actions(), [0])

  def test_numeric_observations_become_float32(self):

    class Counter(dm_env.Environment):

      def observation_spec(self):
        return specs.BoundedArray((1,), np.int64, 0, 9)

      def action_spec(self):
        return specs.DiscreteArray(2)

      def reset(self):
        return dm_env.restart(np.array([3]))

      def step(self, action):
        return dm_env.transition(1, np.array([4]))

    env = base.as_environment(Counter())
    self.assertEqual(env.observation_spec(),
                     specs.BoundedArray((1,), np.float32, 0., 9.))
    first = env.reset()
    self.assertEqual(first.observation.dtype, np.float32)
    self.assertEqual(first.observation.tolist(), [3.])
    step = env.step(0)
    self.assertIsInstance(step.reward, np.float32)


if __name__ == '__main__':
  absltest.main()
