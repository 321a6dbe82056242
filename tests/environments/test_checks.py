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
        ValueError, r'observation_spec\(\) of TicTacToe returned '
        r'.*shape=\(3, 3, 3\).*, which does not match the configuration: '
        r'expected shape \(4,\) and dtype float32'):
      checks.CheckedEnvironment(tictactoe.TicTacToe(), (4,), 9)
    with self.assertRaisesRegex(
        ValueError, r'expected shape \(3, 3, 3\) and dtype float64'):
      checks.CheckedEnvironment(tictactoe.TicTacToe(), (3, 3, 3), 9,
                                observation_dtype=np.float64)
    with self.assertRaisesRegex(
        ValueError, r'action_spec\(\) of TicTacToe returned .*num_values=9.*, '
        r'which does not match the configuration: expected a DiscreteArray '
        r'of 2 actions'):
      checks.CheckedEnvironment.from_config(
          tictactoe.TicTacToe(), presets.make_cartpole_config().replace(
              observation_shape=(3, 3, 3)))

  def test_only_dm_env_environments_are_wrapped(self):
    with self.assertRaisesRegex(TypeError, r'Expected a dm_env.Environment'):
      checks.CheckedEnvironment(object(), (3, 3, 3), 9)

  def test_the_players_must_match_the_configuration(self):
    with self.assertRaisesRegex(
        ValueError, r'num_players of TicTacToe is 2, which does not match '
        r'the configuration: expected 1'):
      checks.CheckedEnvironment(tictactoe.TicTacToe(), (3, 3, 3), 9,
                                num_players=1)


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
        ValueError, rf'step\(\) of ScriptedEnv returned reward {shown} at '
        r'step 2 of the episode; expected a finite scalar'):
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
        ValueError, r'legal_actions\(\) of ScriptedEnv returned no actions at '
        r'step 1 of the episode, which is not the last; expected at least '
        r'one'):
      env.step(0)

  def test_no_legal_actions_at_the_first_state(self):
    env = checked(ScriptedEnv(legal={0: []}))
    with self.assertRaisesRegex(ValueError, r'no actions at step 0'):
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
        ValueError, rf'legal_actions\(\) of ScriptedEnv returned {shown} at '
        r'step 1 of the episode; expected distinct integer actions in '
        r'0\.\.2'):
      env.step(0)

  @parameterized.named_parameters(
      ('shape', np.zeros(3, np.float32), r'shape \(3,\) and dtype float32'),
      ('dtype', np.zeros(2, np.float64), r'shape \(2,\) and dtype float64'))
  def test_an_observation_off_the_spec(self, observation, shown):
    env = checked(ScriptedEnv(observations={2: observation}))
    env.reset()
    env.step(0)
    with self.assertRaisesRegex(
        ValueError, rf'step\(\) of ScriptedEnv returned an observation of '
        rf'{shown} at step 2 of the episode; expected shape \(2,\) and dtype '
        r'float32'):
      env.step(0)

  def test_a_dtype_mismatch_names_the_fix(self):
    env = checked(ScriptedEnv(observations={0: np.zeros(2, np.uint8)}))
    with self.assertRaisesRegex(
        ValueError, r'reset\(\) of ScriptedEnv returned an observation of '
        r'shape \(2,\) and dtype uint8 at step 0 of the episode; expected '
        r'shape \(2,\) and dtype float32, as its observation spec \(convert '
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
        ValueError, rf'reset\(\) of ScriptedEnv returned an observation that '
        rf'is not finite at step 0 of the episode: {shown} at index \[1\]; '
        r'expected finite values'):
      env.reset()
    self.assertTrue(env.step(0).mid())  # Step 1 is clean.
    with self.assertRaisesRegex(
        ValueError, rf'step\(\) of ScriptedEnv returned an observation that '
        rf'is not finite at step 2 of the episode: {shown} at index \[1\]'):
      env.step(0)

  def test_step_on_a_fresh_environment_is_forwarded(self):
    inner = ScriptedEnv()
    env = checked(inner)
    # dm_env: the action is ignored and an episode starts; not checked.
    self.assertTrue(env.step(99).first())
    self.assertEqual(inner.steps_taken, [])


class PlainGame(dm_env.Environment):
  """A plain `dm_env` game of two actions, with settable answers.

  Tests add `legal_actions`, `to_play` or `num_players` as attributes.
  """

  def __init__(self, observation=(0., 1.), reward=1., discount=1.,
               observation_spec=None, action_spec=None, reset_type=None):
    self._observation = np.asarray(observation)
    self._reward, self._discount = reward, discount
    self._observation_spec = (observation_spec or
                              specs.Array((2,), np.float64))
    self._action_spec = action_spec or specs.DiscreteArray(2)
    self._reset_type = reset_type or dm_env.StepType.FIRST

  def observation_spec(self):
    return self._observation_spec

  def action_spec(self):
    return self._action_spec

  def reset(self):
    return dm_env.TimeStep(self._reset_type, None, None, self._observation)

  def step(self, action):
    return dm_env.TimeStep(dm_env.StepType.MID, self._reward, self._discount,
                           self._observation)


def plain(game, num_players=None):
  return checks.CheckedEnvironment(game, (2,), 2, num_players=num_players)


class ContractTest(parameterized.TestCase):
  """The contract of docs/environments.md: each fault named in one line."""

  def test_a_plain_dm_env_is_a_one_player_game(self):
    env = plain(PlainGame(), num_players=1)
    self.assertEqual(env.num_players, 1)
    first = env.reset()
    np.testing.assert_array_equal(env.legal_actions(), [0, 1])
    self.assertEqual(env.to_play(), 0)
    # float64 observations and a Python reward become float32.
    self.assertEqual(first.observation.dtype, np.float32)
    np.testing.assert_array_equal(first.observation, [0., 1.])
    step = env.step(1)
    self.assertEqual(step.reward, np.float32(1.))
    self.assertIsInstance(step.reward, np.float32)
    self.assertEqual(env.observation_spec(), specs.Array((2,), np.float32))

  def test_a_plain_two_player_game_keeps_its_own_moves_and_players(self):
    game = PlainGame()
    game.num_players = 2
    game.to_play = lambda: 1
    game.legal_actions = lambda: np.array([1])
    env = plain(game, num_players=2)
    env.reset()
    self.assertEqual((env.num_players, env.to_play()), (2, 1))
    with self.assertRaisesRegex(ValueError, r'Illegal action 0 at step 0'):
      env.step(0)

  @parameterized.named_parameters(
      ('bounded', dict(action_spec=specs.BoundedArray((), np.int32, 0, 1)),
       r"action_spec\(\) of PlainGame returned BoundedArray\(shape=\(\), "
       r"dtype=dtype\('int32'\).*; expected a dm_env\.specs\.DiscreteArray"),
      ('dict', dict(observation_spec={'a': specs.Array((2,), np.float32)}),
       r"observation_spec\(\) of PlainGame returned \{'a': Array.*; "
       r'expected one dm_env\.specs\.Array of rank 1 or more'),
      ('scalar', dict(observation_spec=specs.Array((), np.float32)),
       r'observation_spec\(\) of PlainGame returned Array\(shape=\(\),.*; '
       r'expected one dm_env\.specs\.Array of rank 1 or more'))
  def test_a_malformed_spec_names_the_method_and_value(self, kwargs, message):
    with self.assertRaisesRegex(ValueError, message):
      plain(PlainGame(**kwargs))
    with self.assertRaisesRegex(ValueError, message):
      checks.environment_specs(PlainGame(**kwargs))

  def test_a_vector_reward_spec_is_refused(self):
    game = PlainGame()
    game.reward_spec = lambda: specs.Array((2,), np.float32)
    with self.assertRaisesRegex(
        ValueError, r'reward_spec\(\) of PlainGame returned Array\(shape=\(2,\)'
        r'.*; expected a scalar dm_env\.specs\.Array'):
      plain(game)

  def test_players_are_one_or_two(self):
    game = PlainGame()
    game.num_players = 3
    game.to_play = lambda: 0
    with self.assertRaisesRegex(
        ValueError, r'num_players of PlainGame is 3; expected 1 or 2'):
      plain(game)

  def test_two_players_need_to_play(self):
    game = PlainGame()
    game.num_players = 2
    with self.assertRaisesRegex(
        ValueError, r'PlainGame has num_players 2 but no to_play\(\)'):
      plain(game)

  @parameterized.named_parameters(
      ('two_players', 2, 2, r'returned 2 at step 0 of the episode; expected '
       r'0 or 1\.'),
      ('one_player', 1, 1, r'returned 1 at step 0 of the episode; expected '
       r'0 \(num_players is 1\)\.'),
      ('a_string', 2, '0', r"returned '0' at step 0 of the episode"))
  def test_the_player_to_move_is_checked(self, num_players, player, message):
    game = PlainGame()
    game.num_players = num_players
    game.to_play = lambda: player
    env = plain(game)
    with self.assertRaisesRegex(ValueError,
                                r'to_play\(\) of PlainGame ' + message):
      env.reset()

  @parameterized.named_parameters(
      ('vector_reward', dict(reward=np.array([1., 2.])),
       r'reward array\(\[1\., 2\.\]\) at step 1 of the episode; expected '
       r'a finite scalar'),
      ('string_reward', dict(reward='1'), r"reward '1' at step 1"),
      ('discount_above_one', dict(discount=2.),
       r'discount 2\.0 at step 1 of the episode; expected a scalar in '
       r'\[0, 1\]'),
      ('missing_discount', dict(discount=None), r'discount None at step 1'))
  def test_rewards_and_discounts_are_scalars(self, kwargs, message):
    env = plain(PlainGame(**kwargs))
    env.reset()
    with self.assertRaisesRegex(ValueError,
                                r'step\(\) of PlainGame returned ' + message):
      env.step(0)

  def test_reset_starts_an_episode(self):
    env = plain(PlainGame(reset_type=dm_env.StepType.MID))
    with self.assertRaisesRegex(
        ValueError, r'reset\(\) of PlainGame returned a MID time '
        r'step; expected FIRST'):
      env.reset()

  def test_a_step_returns_a_time_step(self):
    game = PlainGame()
    game.step = lambda action: 3
    env = plain(game)
    env.reset()
    with self.assertRaisesRegex(
        ValueError, r'step\(\) of PlainGame returned 3; expected a '
        r'dm_env\.TimeStep'):
      env.step(0)

  def test_an_observation_unlike_its_spec_is_named(self):
    env = plain(PlainGame(observation=(0., 1., 2.)))
    with self.assertRaisesRegex(
        ValueError, r'reset\(\) of PlainGame returned an observation of shape '
        r'\(3,\) and dtype float32 at step 0 of the episode; expected shape '
        r'\(2,\)'):
      env.reset()

  def test_specs_give_what_a_configuration_needs(self):
    self.assertEqual(checks.environment_specs(tictactoe.TicTacToe()),
                     ((3, 3, 3), 9, 2))
    self.assertEqual(checks.environment_specs(PlainGame()), ((2,), 2, 1))


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
