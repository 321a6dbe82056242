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
"""Tests of CheckedEnvironment: faults are named, nothing is lost."""

from absl.testing import absltest
from absl.testing import parameterized
import dm_env
from dm_env import specs
from dm_env import test_utils
import numpy as np

from muzero_snt import presets
from muzero_snt.environments import base
from muzero_snt.environments import checks
from muzero_snt.environments import gym_adapter
from muzero_snt.environments import tictactoe

try:
  import gymnasium  # pylint: disable=g-import-not-at-top
except ImportError:
  gymnasium = None


class ScriptedEnv(base.Environment):
  """Three actions; plays out scripted rewards, legal actions, observations.

  Episode step t (1-based) returns `rewards[t - 1]`; the episode ends after
  `len(rewards)` steps. `legal[t]` are the legal actions after t steps
  (default all three), `observations[t]` the observation (default zeros).
  """

  def __init__(self, rewards=(0., 0., 1.), legal=None, observations=None,
               spec_shape=(2,), spec_dtype=np.float32):
    self._rewards = rewards
    self._legal = legal or {}
    self._observations = observations or {}
    self._spec = specs.Array(spec_shape, spec_dtype)
    self.t = 0
    self.steps_taken = []
    self._fresh = True

  def observation_spec(self):
    return self._spec

  def action_spec(self):
    return specs.DiscreteArray(3)

  def _observation(self):
    return self._observations.get(self.t, np.zeros(2, np.float32))

  def reset(self):
    self.t = 0
    self._fresh = False
    return dm_env.restart(self._observation())

  def step(self, action):
    if self._fresh or self.t == len(self._rewards):
      return self.reset()  # dm_env: the action is ignored.
    self.steps_taken.append(action)
    self.t += 1
    if self.t == len(self._rewards):
      return dm_env.termination(self._rewards[self.t - 1], self._observation())
    return dm_env.transition(self._rewards[self.t - 1], self._observation())

  def legal_actions(self):
    return np.asarray(self._legal.get(self.t, [0, 1, 2]))

  def to_play(self):
    return self.t % 2

  @property
  def num_players(self):
    return 2


def checked(env, shape=(2,), actions=3):
  return checks.CheckedEnvironment(env, shape, actions)


class ConformanceTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
  """The wrapper keeps dm_env's contract."""

  def make_object_under_test(self):
    return checks.CheckedEnvironment(tictactoe.TicTacToe(), (3, 3, 3), 9)

  def make_action_sequence(self):
    # Player 0 wins on the top row; then a step that starts a new episode.
    yield from (0, 3, 1, 4, 2, 0, 4)


class CheckedTicTacToeTest(absltest.TestCase):

  def test_a_game_passes_through_unchanged(self):
    env = checks.CheckedEnvironment.from_config(
        tictactoe.TicTacToe(), presets.make_tictactoe_config())
    self.assertTrue(env.reset().first())
    for action in (0, 3, 1, 4):
      self.assertTrue(env.step(action).mid())
    last = env.step(2)
    self.assertTrue(last.last())
    self.assertEqual(last.reward, 1.)
    self.assertEqual(env.winner, 0)  # Read from the wrapped environment.
    self.assertEqual(env.to_play(), 1)
    self.assertEqual(env.num_players, 2)
    self.assertEqual(env.legal_actions().size, 0)
    self.assertEqual(env.observation_spec(), specs.Array((3, 3, 3),
                                                         np.float32))
    # After the end the action is ignored and a new episode starts.
    self.assertTrue(env.step(7).first())

  def test_an_occupied_square_is_refused_before_the_game_sees_it(self):
    game = tictactoe.TicTacToe()
    env = checks.CheckedEnvironment(game, (3, 3, 3), 9)
    env.reset()
    env.step(4)
    env.step(0)
    with self.assertRaisesRegex(
        ValueError, r'Illegal action 4 at step 2 of the episode: expected '
        r'one of the legal actions \[1, 2, 3, 5, 6, 7, 8\]'):
      env.step(4)
    np.testing.assert_array_equal(game.board, [2, 0, 0, 0, 1, 0, 0, 0, 0])
    self.assertTrue(env.step(8).mid())

  def test_spec_mismatches_name_both_sides(self):
    with self.assertRaisesRegex(
        ValueError, r'observation spec .*shape=\(3, 3, 3\).* does not match '
        r'the configuration: expected shape \(4,\) and dtype float32'):
      checks.CheckedEnvironment(tictactoe.TicTacToe(), (4,), 9)
    with self.assertRaisesRegex(
        ValueError, r'expected shape \(3, 3, 3\) and dtype float64'):
      checks.CheckedEnvironment(tictactoe.TicTacToe(), (3, 3, 3), 9,
                                observation_dtype=np.float64)
    with self.assertRaisesRegex(
        ValueError, r'action spec .*num_values=9.* does not match the '
        r'configuration: expected a DiscreteArray of 2 actions'):
      checks.CheckedEnvironment.from_config(
          tictactoe.TicTacToe(), presets.make_cartpole_config().replace(
              observation_shape=(3, 3, 3)))

  def test_only_muzero_snt_environments_are_wrapped(self):
    with self.assertRaisesRegex(TypeError, r'with legal_actions and to_play'):
      checks.CheckedEnvironment(object(), (3, 3, 3), 9)


class CheckedScriptedTest(parameterized.TestCase):

  def test_a_clean_episode_passes(self):
    env = checked(ScriptedEnv())
    env.reset()
    rewards = [env.step(a).reward for a in (0, 1, 2)]
    self.assertEqual(rewards, [0., 0., 1.])
    self.assertEqual(env.environment.steps_taken, [0, 1, 2])

  @parameterized.named_parameters(
      ('nan', float('nan'), 'nan'), ('inf', float('inf'), 'inf'),
      ('minus_inf', -np.inf, '-inf'), ('none', None, 'None'))
  def test_a_non_finite_reward_names_the_step(self, reward, shown):
    env = checked(ScriptedEnv(rewards=(0., reward, 1.)))
    env.reset()
    env.step(0)
    with self.assertRaisesRegex(
        ValueError, rf'reward at step 2 of the episode is {shown}; expected '
        r'a finite number'):
      env.step(0)

  def test_the_step_count_restarts_with_each_episode(self):
    env = checked(ScriptedEnv(rewards=(0., np.float32('nan'))))
    env.reset()
    env.step(0)
    with self.assertRaisesRegex(ValueError, r'step 2 of the episode'):
      env.step(0)
    env.reset()
    env.step(0)
    with self.assertRaisesRegex(ValueError, r'step 2 of the episode'):
      env.step(0)

  @parameterized.named_parameters(
      ('not_legal', 1, r'Illegal action 1 at step 1 of the episode: expected '
       r'one of the legal actions \[0, 2\]'),
      ('out_of_range', 3, r'Illegal action 3 .*\[0, 2\]'),
      ('float', 0.0, r'Illegal action 0\.0 .*\[0, 2\]'),
      ('string', '0', r"Illegal action '0' .*\[0, 2\]"))
  def test_an_illegal_action_is_not_forwarded(self, action, message):
    inner = ScriptedEnv(legal={1: [0, 2]})
    env = checked(inner)
    env.reset()
    env.step(1)
    with self.assertRaisesRegex(ValueError, message):
      env.step(action)
    self.assertEqual(inner.steps_taken, [1])  # Untouched.
    env.step(np.int32(2))
    self.assertEqual(inner.steps_taken, [1, 2])

  def test_no_legal_actions_at_a_live_state(self):
    env = checked(ScriptedEnv(legal={1: []}))
    env.reset()
    with self.assertRaisesRegex(
        ValueError, r'no legal actions at step 1 of the episode, a '
        r'non-terminal state; expected distinct integer actions in 0\.\.2'):
      env.step(0)

  def test_no_legal_actions_at_the_first_state(self):
    env = checked(ScriptedEnv(legal={0: []}))
    with self.assertRaisesRegex(ValueError, r'no legal actions at step 0'):
      env.reset()

  def test_no_legal_actions_at_the_end_is_fine(self):
    env = checked(ScriptedEnv(rewards=(0., 1.), legal={2: []}))
    env.reset()
    env.step(0)
    self.assertTrue(env.step(0).last())

  @parameterized.named_parameters(
      ('too_large', [0, 3], r'\[0, 3\]'),
      ('negative', [-1, 0], r'\[-1, 0\]'),
      ('duplicate', [1, 1], r'\[1, 1\]'),
      ('float', [0.0, 1.0], r'\[0\.0, 1\.0\]'))
  def test_malformed_legal_actions(self, legal, shown):
    env = checked(ScriptedEnv(legal={1: legal}))
    env.reset()
    with self.assertRaisesRegex(
        ValueError, rf'legal actions at step 1 of the episode are {shown}; '
        r'expected distinct integer actions in 0\.\.2'):
      env.step(0)

  @parameterized.named_parameters(
      ('shape', np.zeros(3, np.float32), r'shape \(3,\) and dtype float32'),
      ('dtype', np.zeros(2, np.float64), r'shape \(2,\) and dtype float64'))
  def test_an_observation_off_the_spec(self, observation, shown):
    env = checked(ScriptedEnv(observations={2: observation}))
    env.reset()
    env.step(0)
    with self.assertRaisesRegex(
        ValueError, rf'observation at step 2 of the episode has {shown}; '
        r'expected shape \(2,\) and dtype float32'):
      env.step(0)

  def test_a_dtype_mismatch_names_the_fix(self):
    env = checked(ScriptedEnv(observations={0: np.zeros(2, np.uint8)}))
    with self.assertRaisesRegex(
        ValueError, r'observation at step 0 of the episode has shape \(2,\) '
        r'and dtype uint8; expected shape \(2,\) and dtype float32 \(convert '
        r'it in the environment: np\.asarray\(x, np\.float32\)\)'):
      env.reset()

  @parameterized.named_parameters(
      ('nan', np.nan, 'nan'), ('inf', np.inf, 'inf'),
      ('minus_inf', -np.inf, '-inf'))
  def test_a_non_finite_observation_names_the_environment_and_step(
      self, value, shown):
    observation = np.array([0., value], np.float32)
    env = checked(ScriptedEnv(observations={0: observation, 2: observation}))
    with self.assertRaisesRegex(
        ValueError, rf'observation of ScriptedEnv at step 0 of the episode '
        rf'is not finite: {shown} at index \[1\]; expected finite values'):
      env.reset()
    self.assertTrue(env.step(0).mid())  # Step 1 is clean.
    with self.assertRaisesRegex(
        ValueError, rf'observation of ScriptedEnv at step 2 of the episode '
        rf'is not finite: {shown} at index \[1\]'):
      env.step(0)

  def test_step_on_a_fresh_environment_is_forwarded(self):
    inner = ScriptedEnv()
    env = checked(inner)
    # dm_env: the action is ignored and an episode starts; not checked.
    self.assertTrue(env.step(99).first())
    self.assertEqual(inner.steps_taken, [])


@absltest.skipIf(gymnasium is None,
                 "gymnasium is not installed (pip install -e '.[envs]').")
class CheckedCartPoleTest(absltest.TestCase):

  def test_cartpole_matches_its_preset(self):
    env = checks.CheckedEnvironment.from_config(
        gym_adapter.GymnasiumEnvironment('CartPole-v1', seed=0),
        presets.make_cartpole_config())
    env.reset()
    for _ in range(3):
      self.assertEqual(env.step(1).reward, 1.)
    with self.assertRaisesRegex(ValueError, r'Illegal action 2 .*\[0, 1\]'):
      env.step(2)
    self.assertEqual(env.num_players, 1)
    self.assertEqual(env.to_play(), 0)


if __name__ == '__main__':
  absltest.main()
