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
"""Tests of MinAtarEnvironment against MinAtar's own Environment."""

import sys
from unittest import mock

from absl.testing import absltest
from absl.testing import parameterized
import dm_env
import numpy as np

from muzero_snt.environments import minatar_adapter

try:
  import minatar  # pylint: disable=g-import-not-at-top
except ImportError:
  minatar = None

needs_minatar = absltest.skipIf(
    minatar is None,
    "minatar is not installed (pip install -e '.[minatar]').")

# Planes of each game's state, from MinAtar's game modules.
CHANNELS = {'asterix': 4, 'breakout': 4, 'freeway': 7, 'seaquest': 10,
            'space_invaders': 6}
# MinAtar's actions (its action_map 'n', 'l', 'u', 'r', 'd', 'f').
NOOP, LEFT, UP = 0, 1, 2


def play_minatar(game, seed, actions, sticky=0.1):
  """Plays `actions` in MinAtar itself, resetting after each episode's end.

  Returns:
    `[T + 1, 10, 10, C]` bool states (the first after the reset, then one
    per action), `[T]` rewards and `[T]` terminal flags.
  """
  env = minatar.Environment(game, sticky_action_prob=sticky)
  env.seed(seed)
  env.reset()
  states, rewards, terminals = [env.state()], [], []
  for action in actions:
    reward, terminal = env.act(int(action))
    states.append(env.state())
    rewards.append(reward)
    terminals.append(terminal)
    if terminal:
      env.reset()
      # The next action starts from the new episode's first state.
      states[-1] = (states[-1], env.state())
  return states, rewards, terminals


def play_adapter(env, actions):
  """The same through the adapter; a LAST step is followed by `reset()`."""
  states = [env.reset().observation]
  rewards, terminals, discounts = [], [], []
  for action in actions:
    timestep = env.step(action)
    rewards.append(timestep.reward)
    terminals.append(timestep.last())
    discounts.append(timestep.discount)
    if timestep.last():
      states.append((timestep.observation, env.reset().observation))
    else:
      states.append(timestep.observation)
  return states, rewards, terminals, discounts


@needs_minatar
class AgainstMinAtarTest(parameterized.TestCase):
  """The same seed and actions in MinAtar and the adapter, step by step."""

  @parameterized.product(game=sorted(CHANNELS), seed=(0, 7))
  def test_observations_rewards_and_ends_equal_minatars(self, game, seed):
    rng = np.random.default_rng(seed)
    actions = rng.integers(0, 6, 1000)
    if game == 'freeway':
      # Mostly up, so that the chicken crosses the road and scores.
      actions = np.where(rng.random(1000) < 0.7, UP, actions)
    expected, expected_rewards, expected_ends = play_minatar(
        game, seed, actions)
    env = minatar_adapter.MinAtarEnvironment(game, seed)
    states, rewards, ends, discounts = play_adapter(env, actions)

    self.assertEqual(rewards, expected_rewards)
    self.assertEqual(ends, expected_ends)
    # MinAtar's end of a game is a termination: discount 0, else 1.
    self.assertEqual(discounts, [0. if end else 1. for end in ends])
    for state, want in zip(states, expected):
      pairs = zip(state, want) if isinstance(want, tuple) else [(state,
                                                                 want)]
      for observation, minatar_state in pairs:
        self.assertEqual(observation.dtype, np.float32)
        self.assertEqual(observation.shape, (10, 10, CHANNELS[game]))
        np.testing.assert_array_equal(observation, minatar_state)
    # Random play ends and scores in 1,000 steps (Freeway ends at 2,501).
    if game != 'freeway':
      self.assertTrue(any(ends))
    self.assertGreater(sum(np.abs(rewards)), 0)

  def test_padded_planes_are_zero_after_the_games(self):
    actions = np.random.default_rng(3).integers(0, 6, 100)
    expected, _, _ = play_minatar('space_invaders', 3, actions)
    env = minatar_adapter.MinAtarEnvironment('space_invaders', 3,
                                             num_channels=10)
    self.assertEqual(env.observation_spec().shape, (10, 10, 10))
    states, _, _, _ = play_adapter(env, actions)
    for state, want in zip(states, expected):
      if isinstance(want, tuple):
        state, want = state[0], want[0]
      np.testing.assert_array_equal(state[..., :6], want)
      self.assertFalse(np.any(state[..., 6:]))

  def test_seeds_reproduce_episodes_and_differ_between_seeds(self):
    actions = np.random.default_rng(0).integers(0, 6, 200)

    def observations(seed):
      env = minatar_adapter.MinAtarEnvironment('asterix', seed)
      states, _, _, _ = play_adapter(env, actions)
      return np.stack([s[0] if isinstance(s, tuple) else s for s in states])

    first = observations(5)
    np.testing.assert_array_equal(observations(5), first)
    self.assertFalse(np.array_equal(observations(6), first))


@needs_minatar
class BreakoutByHandTest(absltest.TestCase):
  """Breakout's rules worked by hand (MinAtar's breakout.py)."""

  def _ball_column(self, seed):
    # reset() draws the ball's side with the seeded RandomState first.
    return (0, 9)[np.random.RandomState(seed).randint(2)]

  def test_first_observation(self):
    for seed in (0, 1, 2, 3):
      observation = minatar_adapter.MinAtarEnvironment(
          'breakout', seed).reset().observation
      expected = np.zeros((10, 10, 4), np.float32)
      expected[9, 4, 0] = 1.  # The paddle, bottom row, column 4.
      column = self._ball_column(seed)
      expected[3, column, 1] = 1.  # The ball on row 3 at a side...
      expected[3, column, 2] = 1.  # ...and its trail, still under it.
      expected[1:4, :, 3] = 1.  # Three rows of bricks.
      np.testing.assert_array_equal(observation, expected)

  def test_a_ball_from_the_left_ends_the_game_after_six_noops(self):
    # From (3, 0) down-right: (4, 1) ... (8, 5), then row 9 at column 6
    # while the paddle stays at 4: the ball is lost.
    seed = next(s for s in range(10) if self._ball_column(s) == 0)
    env = minatar_adapter.MinAtarEnvironment('breakout', seed)
    env.reset()
    for step in range(5):
      timestep = env.step(NOOP)
      self.assertEqual(timestep.step_type, dm_env.StepType.MID)
      self.assertEqual(np.argwhere(timestep.observation[..., 1]).tolist(),
                       [[4 + step, 1 + step]])
    timestep = env.step(NOOP)
    self.assertEqual(timestep.step_type, dm_env.StepType.LAST)
    self.assertEqual(timestep.reward, 0.)
    self.assertEqual(timestep.discount, 0.)
    # The next step starts a new episode and ignores its action.
    self.assertEqual(env.step(LEFT).step_type, dm_env.StepType.FIRST)

  def test_sticky_actions(self):
    # With probability 1 MinAtar repeats the previous action, no-op at the
    # start: the paddle never moves. With 0 'left' moves it to column 3.
    for probability, column in ((1., 4), (0., 3)):
      env = minatar_adapter.MinAtarEnvironment(
          'breakout', 0, sticky_action_probability=probability)
      env.reset()
      observation = env.step(LEFT).observation
      self.assertEqual(np.argwhere(observation[..., 0]).tolist(),
                       [[9, column]], msg=probability)


@needs_minatar
class EpisodeEndTest(absltest.TestCase):

  def test_max_episode_steps_truncates(self):
    env = minatar_adapter.MinAtarEnvironment('freeway', 0,
                                             max_episode_steps=3)
    self.assertEqual(env.max_episode_steps, 3)
    env.reset()
    step_types = [env.step(NOOP).step_type for _ in range(3)]
    self.assertEqual(step_types, [dm_env.StepType.MID] * 2 +
                     [dm_env.StepType.LAST])
    last = env.step(NOOP)
    self.assertEqual(last.step_type, dm_env.StepType.FIRST)

  def test_a_truncated_step_has_discount_one(self):
    env = minatar_adapter.MinAtarEnvironment('freeway', 0,
                                             max_episode_steps=1)
    env.reset()
    timestep = env.step(NOOP)
    self.assertTrue(timestep.last())
    self.assertEqual(timestep.discount, 1.)

  def test_freeway_ends_itself_after_2501_frames(self):
    # MinAtar counts 2,500 down and ends the game when the count is below 0.
    env = minatar_adapter.MinAtarEnvironment('freeway', 0,
                                             max_episode_steps=3_000)
    env.reset()
    steps = 1
    while not env.step(NOOP).last():
      steps += 1
    self.assertEqual(steps, 2501)

  def test_specs_and_players(self):
    env = minatar_adapter.MinAtarEnvironment('seaquest')
    spec = env.observation_spec()
    self.assertEqual(spec.shape, (10, 10, 10))
    self.assertEqual(spec.dtype, np.float32)
    self.assertEqual((spec.minimum, spec.maximum), (0., 1.))
    self.assertEqual(env.action_spec().num_values, 6)
    np.testing.assert_array_equal(env.legal_actions(), np.arange(6))
    self.assertEqual((env.to_play(), env.num_players), (0, 1))
    self.assertIsNone(env.max_episode_steps)
    spec.validate(env.reset().observation)


@needs_minatar
class BadArgumentTest(parameterized.TestCase):

  @parameterized.parameters(('Breakout', 'breakout'),
                            ('SpaceInvaders', 'space_invaders'),
                            ('space_invaders', 'space_invaders'),
                            ('SEAQUEST', 'seaquest'))
  def test_titles_match_up_to_case_and_underscores(self, title, game):
    self.assertEqual(minatar_adapter.MinAtarEnvironment(title).game, game)

  def test_an_unknown_title_lists_the_games(self):
    with self.assertRaisesRegex(
        ValueError, r"Unknown MinAtar game 'Pong'; expected one of "
        r"\['asterix', 'breakout', 'freeway', 'seaquest', "
        r"'space_invaders'\]"):
      minatar_adapter.MinAtarEnvironment('Pong')

  def test_a_title_must_be_a_string(self):
    with self.assertRaisesRegex(TypeError, r'game must be a string .*got 3'):
      minatar_adapter.MinAtarEnvironment(3)

  @parameterized.named_parameters(
      ('negative_seed', dict(seed=-1),
       r'seed must be an integer in 0\.\.4294967295, got -1'),
      ('huge_seed', dict(seed=2**32), r'seed .*got 4294967296'),
      ('float_seed', dict(seed=1.0), r'seed .*got 1\.0'),
      ('sticky_above_one', dict(sticky_action_probability=1.5),
       r'sticky_action_probability must be a number in \[0, 1\], got 1\.5'),
      ('sticky_bool', dict(sticky_action_probability=True),
       r'sticky_action_probability .*got True'),
      ('ramping_int', dict(difficulty_ramping=1),
       r'difficulty_ramping must be a bool, got 1'),
      ('too_few_channels', dict(num_channels=3),
       r'num_channels \(of breakout\) must be an integer >= 4, got 3'),
      ('no_steps', dict(max_episode_steps=0),
       r'max_episode_steps must be an integer >= 1, got 0'),
  )
  def test_a_bad_argument_is_rejected(self, kwargs, message):
    with self.assertRaisesRegex(ValueError, message):
      minatar_adapter.MinAtarEnvironment('breakout', **kwargs)

  def test_an_illegal_action_raises_and_changes_nothing(self):
    env = minatar_adapter.MinAtarEnvironment('breakout', 0)
    before = env.reset().observation
    for action in (6, -1, 1.0, np.array([1, 2])):
      with self.assertRaisesRegex(
          ValueError, r'Illegal action .*expected an integer in 0\.\.5'):
        env.step(action)
    np.testing.assert_array_equal(env.minatar_env.state(), before)


class MissingMinAtarTest(absltest.TestCase):

  def test_constructing_without_minatar_says_how_to_install_it(self):
    # A None entry in sys.modules makes `import minatar` raise ImportError.
    with mock.patch.dict(sys.modules, {'minatar': None}):
      with self.assertRaisesRegex(
          ImportError, r"pip install -e '\.\[minatar\]' \(or pip install "
          r'minatar==1\.0\.15\)'):
        minatar_adapter.MinAtarEnvironment('breakout')


if __name__ == '__main__':
  absltest.main()
