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
"""Tests of the gymnasium adapter on CartPole and on small custom envs."""

import math
import sys
from unittest import mock

from absl.testing import absltest
from absl.testing import parameterized
import dm_env
from dm_env import specs
from dm_env import test_utils
import numpy as np

from muzero_snt.environments import gym_adapter

try:
  import gymnasium  # pylint: disable=g-import-not-at-top
except ImportError:
  gymnasium = None

SKIP_REASON = ("gymnasium is not installed (pip install -e '.[envs]'); the "
               "adapter's tests need it.")
needs_gymnasium = absltest.skipIf(gymnasium is None, SKIP_REASON)

# CartPole's end of episode (gymnasium's classic_control/cartpole.py, after
# Barto et al. 1983): the pole beyond 12 degrees or the cart beyond 2.4.
THETA_LIMIT = 12 * 2 * math.pi / 360
X_LIMIT = 2.4


def balance(observation) -> int:
  """Pushes the cart under the pole; keeps CartPole up for 500 steps."""
  x, x_dot, theta, theta_dot = observation
  return int(theta + 0.5 * theta_dot + 0.05 * x + 0.1 * x_dot > 0)


def fell(observation) -> bool:
  x, _, theta, _ = observation
  return abs(theta) > THETA_LIMIT or abs(x) > X_LIMIT


if gymnasium is not None:

  class RecordingEnv(gymnasium.Env):
    """A tiny env with actions {start, ..., start + 2}; records the last one."""

    def __init__(self, start=0, action_space=None, observation_space=None):
      self.action_space = action_space or gymnasium.spaces.Discrete(
          3, start=start)
      self.observation_space = observation_space or gymnasium.spaces.Box(
          -1., 1., (2, 2), np.float64)
      self.actions = []

    def reset(self, *, seed=None, options=None):
      super().reset(seed=seed)
      return np.full((2, 2), 0.5), {}

    def step(self, action):
      self.actions.append(action)
      return np.full((2, 2), 0.25), 2.5, False, False, {}


@needs_gymnasium
class ConformanceTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
  """dm_env's contract on CartPole; pushing left ends episodes quickly."""

  def make_object_under_test(self):
    return gym_adapter.GymnasiumEnvironment('CartPole-v1', seed=0)

  def make_action_sequence(self):
    for _ in range(40):
      yield 0


@needs_gymnasium
class CartPoleTest(parameterized.TestCase):

  def test_an_unknown_id_is_a_value_error_naming_it(self):
    with self.assertRaisesRegex(ValueError,
                                "gymnasium cannot make 'Foo-v9': .*Foo"):
      gym_adapter.GymnasiumEnvironment('Foo-v9')

  def test_specs_and_players(self):
    env = gym_adapter.GymnasiumEnvironment('CartPole-v1')
    self.assertEqual(env.observation_spec(), specs.Array((4,), np.float32))
    self.assertIsInstance(env.action_spec(), specs.DiscreteArray)
    self.assertEqual(env.action_spec().num_values, 2)
    self.assertEqual(env.reward_spec(), specs.Array((), np.float32))
    np.testing.assert_array_equal(env.legal_actions(), [0, 1])
    self.assertEqual(env.legal_actions().dtype, np.int32)
    self.assertEqual(env.to_play(), 0)
    self.assertEqual(env.num_players, 1)

  def test_pushing_left_ends_in_termination_like_gymnasium(self):
    env = gym_adapter.GymnasiumEnvironment('CartPole-v1', seed=3)
    reference = gymnasium.make('CartPole-v1')
    timestep = env.reset()
    expected, _ = reference.reset(seed=3)
    np.testing.assert_array_equal(timestep.observation,
                                  expected.astype(np.float32))
    steps = 0
    while not timestep.last():
      self.assertFalse(fell(timestep.observation))
      timestep = env.step(0)
      expected, _, terminated, _, _ = reference.step(0)
      steps += 1
      np.testing.assert_array_equal(timestep.observation,
                                    expected.astype(np.float32))
      self.assertEqual(timestep.last(), terminated)
      self.assertEqual(timestep.reward, 1.)  # One per step, the last too.
      self.assertEqual(timestep.reward.dtype, np.float32)
      self.assertEqual(timestep.discount, 0. if timestep.last() else 1.)
      self.assertEqual(timestep.observation.dtype, np.float32)
    self.assertTrue(fell(timestep.observation))
    self.assertBetween(steps, 5, 30)  # Far from the 500-step limit.

  def test_the_500_step_limit_is_a_truncation_with_discount_1(self):
    env = gym_adapter.GymnasiumEnvironment('CartPole-v1', seed=0)
    timestep = env.reset()
    steps = 0
    while not timestep.last():
      timestep = env.step(balance(timestep.observation))
      steps += 1
    self.assertEqual(steps, 500)
    self.assertEqual(timestep.reward, 1.)
    self.assertEqual(timestep.discount, 1.)
    self.assertFalse(fell(timestep.observation))

  def test_a_short_time_limit_truncates(self):
    env = gym_adapter.GymnasiumEnvironment(
        'CartPole-v1', seed=0, max_episode_steps=5)
    timestep = env.reset()
    timesteps = []
    for _ in range(5):
      timestep = env.step(balance(timestep.observation))
      timesteps.append(timestep)
    self.assertEqual([t.step_type for t in timesteps],
                     [dm_env.StepType.MID] * 4 + [dm_env.StepType.LAST])
    self.assertEqual([t.discount for t in timesteps], [1.] * 5)
    self.assertEqual([t.reward for t in timesteps], [1.] * 5)
    # The next step starts a new episode and ignores its action.
    self.assertTrue(env.step(1).first())

  def test_seeded_resets_reproduce_the_first_observation(self):
    first = gym_adapter.GymnasiumEnvironment('CartPole-v1', seed=7).reset()
    again = gym_adapter.GymnasiumEnvironment('CartPole-v1', seed=7).reset()
    other = gym_adapter.GymnasiumEnvironment('CartPole-v1', seed=8).reset()
    expected, _ = gymnasium.make('CartPole-v1').reset(seed=7)
    np.testing.assert_array_equal(first.observation, expected)
    np.testing.assert_array_equal(again.observation, first.observation)
    self.assertFalse(np.array_equal(other.observation, first.observation))

  def test_only_the_first_reset_is_seeded(self):
    env = gym_adapter.GymnasiumEnvironment('CartPole-v1', seed=7)
    reference = gymnasium.make('CartPole-v1')
    np.testing.assert_array_equal(env.reset().observation,
                                  reference.reset(seed=7)[0])
    second = env.reset().observation
    # The second episode continues the seeded stream instead of repeating.
    np.testing.assert_array_equal(second, reference.reset()[0])
    self.assertFalse(np.array_equal(second, reference.reset(seed=7)[0]))

  @parameterized.named_parameters(
      ('too_large', 2), ('negative', -1), ('float', 1.0), ('string', '1'),
      ('none', None))
  def test_a_bad_action_raises_and_changes_nothing(self, action):
    env = gym_adapter.GymnasiumEnvironment('CartPole-v1', seed=0)
    env.reset()
    env.step(1)
    state = np.array(env.gymnasium_env.unwrapped.state)
    with self.assertRaisesRegex(
        ValueError, rf'Illegal action {action!r}: expected an integer in '
        r'0\.\.1'):
      env.step(action)
    np.testing.assert_array_equal(env.gymnasium_env.unwrapped.state, state)
    self.assertTrue(env.step(np.int64(1)).mid())


@needs_gymnasium
class CustomEnvTest(parameterized.TestCase):

  def test_an_instance_is_wrapped_and_actions_shift_by_the_start(self):
    inner = RecordingEnv(start=4)
    env = gym_adapter.GymnasiumEnvironment(inner, seed=None)
    timestep = env.reset()
    self.assertEqual(env.observation_spec(), specs.Array((2, 2), np.float32))
    np.testing.assert_array_equal(timestep.observation, np.full((2, 2), 0.5))
    self.assertEqual(timestep.observation.dtype, np.float32)
    timestep = env.step(2)
    self.assertEqual(inner.actions, [6])  # dm_env's 0..2 is gym's 4..6.
    self.assertEqual(timestep.reward, np.float32(2.5))
    np.testing.assert_array_equal(env.legal_actions(), [0, 1, 2])

  def test_a_non_discrete_action_space_is_rejected(self):
    space = gymnasium.spaces.Box(-1., 1., (1,), np.float32)
    with self.assertRaisesRegex(
        ValueError, r'needs a Discrete action space, got Box'):
      gym_adapter.GymnasiumEnvironment(RecordingEnv(action_space=space))

  def test_a_non_box_observation_space_is_rejected(self):
    space = gymnasium.spaces.Discrete(5)
    with self.assertRaisesRegex(
        ValueError, r'needs a Box observation space, got Discrete\(5\)'):
      gym_adapter.GymnasiumEnvironment(RecordingEnv(observation_space=space))

  def test_make_arguments_need_an_id(self):
    with self.assertRaisesRegex(
        ValueError, r"need an environment id, got \['max_episode_steps'\]"):
      gym_adapter.GymnasiumEnvironment(RecordingEnv(), max_episode_steps=5)


class MissingGymnasiumTest(absltest.TestCase):

  def test_constructing_without_gymnasium_says_how_to_install_it(self):
    # A None entry in sys.modules makes `import gymnasium` raise ImportError.
    with mock.patch.dict(sys.modules, {'gymnasium': None}):
      with self.assertRaisesRegex(
          ImportError, r"pip install -e '\.\[envs\]' \(or pip install "
          r"gymnasium\)"):
        gym_adapter.GymnasiumEnvironment('CartPole-v1')


if __name__ == '__main__':
  absltest.main()
