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
"""Tests of the Atari adapter on a scripted emulator and on Pong's ROM."""

import math
import os
import re
import sys
from unittest import mock

from absl.testing import absltest
from absl.testing import parameterized
import dm_env
from dm_env import specs
from dm_env import test_utils
import numpy as np

from muzero_snt.environments import atari

try:
  import ale_py  # pylint: disable=g-import-not-at-top
except ImportError:
  ale_py = None

SKIP_REASON = ("ale-py is not installed (pip install -e '.[atari]'); the "
               "adapter's tests need it.")
needs_ale = absltest.skipIf(ale_py is None, SKIP_REASON)

# The scripted emulator's screens are this small; a resolution equal to it
# makes the area resize the identity, so observations show raw pixels.
HEIGHT, WIDTH = 2, 3
# Emulator action ids of the fake's 18 actions: index i is 200 - i, so a
# mix-up between action indices and ALE's ids shows.
FAKE_ACTION_IDS = [200 - i for i in range(18)]


class FakeALE:
  """An emulator whose screen and reward encode the episode's frame number.

  After frame f of an episode (f = 0 right after `reset_game`) every pixel
  is (red f, green 255 - f, blue 255 if f is odd else 0), and `act` returns
  the reward f. Game over comes after `episode_lengths[e]` frames of the
  e-th episode (None or a missing entry: never).
  """

  def __init__(self, episode_lengths=(), num_actions=18):
    self.ints, self.floats, self.roms = {}, {}, []
    self.episode_lengths = list(episode_lengths)
    self.action_ids = FAKE_ACTION_IDS[:num_actions]
    self.acted = []
    self.resets = 0
    self.frame = 0
    self.length = None

  def setInt(self, key, value):  # pylint: disable=invalid-name
    self.ints[key] = value

  def setFloat(self, key, value):  # pylint: disable=invalid-name
    self.floats[key] = value

  def loadROM(self, path):  # pylint: disable=invalid-name
    self.roms.append(path)

  def getLegalActionSet(self):  # pylint: disable=invalid-name
    return list(self.action_ids)

  def reset_game(self):
    episode = self.resets
    self.resets += 1
    self.frame = 0
    self.length = (self.episode_lengths[episode]
                   if episode < len(self.episode_lengths) else None)

  def act(self, action):
    self.acted.append(action)
    self.frame += 1
    return self.frame

  def game_over(self):
    return self.length is not None and self.frame >= self.length

  def getScreenRGB(self):  # pylint: disable=invalid-name
    f = self.frame % 256
    pixel = np.array([f, 255 - f, 255 * (f % 2)], np.uint8)
    return np.broadcast_to(pixel, (HEIGHT, WIDTH, 3)).copy()


def make_fake(fake=None, **kwargs):
  """An `AtariEnvironment` on `fake` with small defaults and no no-ops."""
  fake = fake or FakeALE()
  kwargs = {'num_stacked_frames': 4, 'resolution': (HEIGHT, WIDTH),
            'noop_max': 0, **kwargs}
  return atari.AtariEnvironment('Pong', ale_factory=lambda: fake, **kwargs)


def planes(observation, channel, n):
  """The frame planes of one colour as bytes, one value per frame."""
  values = np.round(observation[..., channel:3 * n:3] * 255.)
  # Each plane is constant over the pixels.
  np.testing.assert_array_equal(values, np.broadcast_to(values[0, 0],
                                                        values.shape))
  return values[0, 0].astype(int).tolist()


def action_planes(observation, n):
  values = observation[..., 3 * n:]
  np.testing.assert_array_equal(values, np.broadcast_to(values[0, 0],
                                                        values.shape))
  return values[0, 0].tolist()


def block_mean_resize(image, height, width):
  """Area resize by an independent route: upsample by repetition, then
  average equal blocks (exact when sizes divide the least common multiple).
  """
  rows, columns = image.shape[:2]
  big_rows, big_columns = math.lcm(rows, height), math.lcm(columns, width)
  big = np.repeat(np.repeat(image.astype(np.float64), big_rows // rows, 0),
                  big_columns // columns, 1)
  blocks = big.reshape(height, big_rows // height, width,
                       big_columns // width, -1)
  return blocks.mean(axis=(1, 3))


class AreaResizeTest(parameterized.TestCase):

  def test_weights_by_hand(self):
    np.testing.assert_allclose(atari.area_weights(4, 2),
                               [[.5, .5, 0., 0.], [0., 0., .5, .5]])
    np.testing.assert_allclose(atari.area_weights(3, 2),
                               [[2 / 3, 1 / 3, 0.], [0., 1 / 3, 2 / 3]])
    np.testing.assert_allclose(atari.area_weights(3, 3), np.eye(3))

  def test_4x4_to_2x2_averages_blocks(self):
    image = np.arange(16.).reshape(4, 4, 1)
    out = atari.AreaResize((4, 4), (2, 2))(image)
    # Means of (0, 1, 4, 5), (2, 3, 6, 7), (8, 9, 12, 13), (10, 11, 14, 15).
    np.testing.assert_allclose(out[..., 0], [[2.5, 4.5], [10.5, 12.5]])
    self.assertEqual(out.dtype, np.float32)

  def test_3x3_to_2x2_weighs_the_overlaps(self):
    # x[i, j] = 9 i + 3 j. Output (0, 0) covers rows and columns 0 and half
    # of 1: mean row 1/3 and column 1/3, so 9/3 + 3/3 = 4; the far half
    # covers half of 1 and 2: mean index 5/3.
    image = (9. * np.arange(3)[:, None] + 3. * np.arange(3)[None, :])
    out = atari.AreaResize((3, 3), (2, 2))(image[..., None])
    np.testing.assert_allclose(out[..., 0], [[4., 8.], [16., 20.]],
                               rtol=1e-6)

  @parameterized.parameters(((210, 160), (96, 96)), ((210, 160), (84, 84)),
                            ((5, 7), (3, 2)), ((2, 3), (5, 4)))
  def test_random_images_match_block_means(self, input_shape, resolution):
    image = np.random.default_rng(0).integers(0, 256, input_shape + (3,),
                                              dtype=np.uint8)
    out = atari.AreaResize(input_shape, resolution, scale=1. / 255.)(image)
    self.assertEqual(out.dtype, np.float32)
    np.testing.assert_allclose(
        out, block_mean_resize(image, *resolution) / 255., atol=1e-5)

  @parameterized.parameters(((210, 160), (96, 96)), ((5, 7), (3, 2)),
                            ((2, 2), (5, 3)))
  def test_a_constant_image_stays_constant(self, input_shape, resolution):
    image = np.full(input_shape + (3,), 200, np.uint8)
    out = atari.AreaResize(input_shape, resolution)(image)
    np.testing.assert_allclose(out, np.full(resolution + (3,), 200.),
                               rtol=1e-6)

  def test_a_wrong_image_shape_is_rejected(self):
    resize = atari.AreaResize((4, 4), (2, 2))
    with self.assertRaisesRegex(
        ValueError, r"expects images of shape \(4, 4, 'C'\), got \(4, 5, 3\)"):
      resize(np.zeros((4, 5, 3)))

  def test_bad_sizes_are_rejected(self):
    with self.assertRaisesRegex(ValueError,
                                r'size_out must be an integer >= 1, got 0'):
      atari.area_weights(4, 0)
    with self.assertRaisesRegex(
        ValueError, r'input_shape must be \(height, width\), two integers '
        r'>= 1, got \(4,\)'):
      atari.AreaResize((4,), (2, 2))


class ShapeTest(absltest.TestCase):

  def test_paper_observation_shape(self):
    # 32 RGB frames and 32 action planes at 96x96.
    self.assertEqual(atari.frame_stack().observation_shape, (96, 96, 128))
    self.assertEqual(atari.frame_stack(4, (84, 80)).observation_shape,
                     (84, 80, 16))
    with self.assertRaisesRegex(
        ValueError, r'num_stacked_frames must be an integer >= 1, got 0'):
      atari.frame_stack(0)

  def test_rom_ids_match_titles_up_to_case_and_underscores(self):
    known = ['ms_pacman', 'pitfall2', 'pitfall', 'tic_tac_toe_3d']
    self.assertEqual(atari.rom_id('MsPacman', known), 'ms_pacman')
    self.assertEqual(atari.rom_id('ms_pacman', known), 'ms_pacman')
    self.assertEqual(atari.rom_id('Pitfall2', known), 'pitfall2')
    self.assertEqual(atari.rom_id('Pitfall', known), 'pitfall')
    self.assertEqual(atari.rom_id('TicTacToe3D', known), 'tic_tac_toe_3d')
    self.assertIsNone(atari.rom_id('Pong', known))


@needs_ale
class ConformanceTest(test_utils.EnvironmentTestMixin, absltest.TestCase):
  """dm_env's contract; the scripted episodes end after 10 or 40 frames."""

  def make_object_under_test(self):
    return make_fake(FakeALE(episode_lengths=[10, None, 10, None]),
                     max_episode_frames=40)

  def make_action_sequence(self):
    for i in range(60):
      yield i % 18


@needs_ale
class FakeEmulatorTest(parameterized.TestCase):

  def test_specs_and_players(self):
    env = make_fake()
    self.assertEqual(env.observation_spec(),
                     specs.BoundedArray((2, 3, 16), np.float32, 0., 1.))
    self.assertEqual(env.action_spec(), specs.DiscreteArray(18, np.int32))
    np.testing.assert_array_equal(env.legal_actions(), np.arange(18))
    self.assertEqual(env.legal_actions().dtype, np.int32)
    self.assertEqual(env.to_play(), 0)
    self.assertEqual(env.num_players, 1)
    self.assertEqual(env.num_stacked_frames, 4)
    self.assertEqual(env.action_repeat, 4)

  @parameterized.parameters(('Pong', 'pong'), ('pong', 'pong'),
                            ('MsPacman', 'ms_pacman'),
                            ('ms_pacman', 'ms_pacman'),
                            ('SpaceInvaders', 'space_invaders'),
                            ('TicTacToe3D', 'tic_tac_toe_3d'))
  def test_titles_load_their_rom(self, title, rom):
    fake = FakeALE()
    env = atari.AtariEnvironment(title, ale_factory=lambda: fake)
    self.assertEqual(env.game, rom)
    self.assertEqual([os.path.basename(p) for p in fake.roms], [rom + '.bin'])

  @parameterized.parameters((False, 0.), (True, 0.25))
  def test_emulator_options(self, sticky_actions, probability):
    fake = FakeALE()
    make_fake(fake, seed=7, sticky_actions=sticky_actions)
    self.assertEqual(fake.ints, {'random_seed': 7})
    self.assertEqual(fake.floats, {'repeat_action_probability': probability})

  def test_a_64_bit_seed_is_folded_into_ales_int32_range(self):
    # Self-play derives 32-bit seeds per game; ALE takes an int32.
    fake = FakeALE()
    make_fake(fake, seed=3 * 2**31 + 5)
    self.assertEqual(fake.ints, {'random_seed': 5})

  def test_frame_stacking_by_hand(self):
    fake = FakeALE()
    env = make_fake(fake)
    timestep = env.reset()
    self.assertTrue(timestep.first())
    # Only the newest frame (frame 0: red 0, green 255) is there.
    self.assertEqual(planes(timestep.observation, 0, 4), [0, 0, 0, 0])
    self.assertEqual(planes(timestep.observation, 1, 4), [0, 0, 0, 255])
    self.assertEqual(action_planes(timestep.observation, 4), [0, 0, 0, 0])
    actions = [5, 17, 2, 9, 1]
    # Frames (emulator frame numbers) and the actions that led to them,
    # oldest first; None is a missing frame.
    expected = [
        ([None, None, 0, 4], [0, 0, 0, 5]),
        ([None, 0, 4, 8], [0, 0, 5, 17]),
        ([0, 4, 8, 12], [0, 5, 17, 2]),
        ([4, 8, 12, 16], [5, 17, 2, 9]),
        ([8, 12, 16, 20], [17, 2, 9, 1]),
    ]
    for action, (frames, frame_actions) in zip(actions, expected):
      timestep = env.step(action)
      self.assertTrue(timestep.mid())
      observation = timestep.observation
      self.assertEqual(observation.shape, (2, 3, 16))
      self.assertEqual(observation.dtype, np.float32)
      self.assertEqual(planes(observation, 0, 4),
                       [0 if f is None else f for f in frames])
      self.assertEqual(planes(observation, 1, 4),
                       [0 if f is None else 255 - f for f in frames])
      np.testing.assert_allclose(action_planes(observation, 4),
                                 [a / 18 for a in frame_actions], rtol=1e-6)
    # Action index i is the emulator's i-th action, played 4 times.
    self.assertEqual(fake.acted,
                     [FAKE_ACTION_IDS[a] for a in actions for _ in range(4)])

  @parameterized.parameters((4, [1 + 2 + 3 + 4, 5 + 6 + 7 + 8]),
                            (3, [1 + 2 + 3, 4 + 5 + 6]),
                            (1, [1, 2]))
  def test_action_repeat_sums_the_rewards(self, action_repeat, rewards):
    env = make_fake(action_repeat=action_repeat)
    env.reset()
    for reward in rewards:
      timestep = env.step(0)
      self.assertEqual(timestep.reward, reward)
      self.assertEqual(timestep.reward.dtype, np.float32)

  @parameterized.named_parameters(
      # Frames 3 and 4: red max(3, 4), green max(252, 251), blue max(255, 0).
      ('pooled', True, 4, [4, 252, 255]),
      ('last_frame', False, 4, [4, 251, 0]),
      # With one frame per step the other is the previous step's last one.
      ('pooled_one_frame', True, 1, [1, 255, 255]))
  def test_max_pool_takes_the_last_two_frames(self, max_pool, action_repeat,
                                              rgb):
    env = make_fake(max_pool=max_pool, action_repeat=action_repeat)
    first = env.reset().observation
    # The first frame (0: red 0, green 255, blue 0) pooled with itself.
    self.assertEqual([planes(first, c, 4)[-1] for c in range(3)], [0, 255, 0])
    observation = env.step(3).observation
    self.assertEqual([planes(observation, c, 4)[-1] for c in range(3)], rgb)

  def test_max_pool_when_the_game_ends_on_a_steps_first_frame(self):
    # The episode ends at frame 5: the pool holds frames 4 and 5.
    env = make_fake(FakeALE(episode_lengths=[5]), max_pool=True)
    env.reset()
    env.step(0)
    timestep = env.step(0)
    self.assertTrue(timestep.last())
    self.assertEqual(timestep.reward, 5.)
    self.assertEqual([planes(timestep.observation, c, 4)[-1]
                      for c in range(3)], [5, 251, 255])

  @parameterized.parameters(0, 1, 2, 3)
  def test_noop_starts_follow_the_seeded_stream(self, seed):
    fake = FakeALE()
    env = make_fake(fake, seed=seed, noop_max=30)
    rng = np.random.default_rng(seed)
    for episode in range(3):
      # Each reset continues the stream instead of repeating its start.
      num_noops = int(rng.integers(0, 31))
      del fake.acted[:]
      timestep = env.reset()
      self.assertTrue(timestep.first())
      self.assertEqual(fake.resets, episode + 1)
      # The no-ops are hidden: the first frame is frame 4 n, action 0.
      self.assertEqual(fake.acted, [FAKE_ACTION_IDS[0]] * 4 * num_noops)
      self.assertEqual(planes(timestep.observation, 0, 4),
                       [0, 0, 0, 4 * num_noops])
      self.assertEqual(action_planes(timestep.observation, 4), [0.] * 4)
      env.step(1)

  def test_noop_max_zero_plays_no_noops(self):
    fake = FakeALE()
    env = make_fake(fake, seed=3, noop_max=0)
    for _ in range(3):
      env.reset()
      self.assertEqual(fake.acted, [])

  def test_a_game_ending_during_noops_is_reset_again(self):
    seed = 0
    rng = np.random.default_rng(seed)
    first, second = int(rng.integers(0, 31)), int(rng.integers(0, 31))
    self.assertGreaterEqual(first, 1)  # So the first episode ends in them.
    fake = FakeALE(episode_lengths=[2])
    env = make_fake(fake, seed=seed, noop_max=30)
    timestep = env.reset()
    self.assertEqual(fake.resets, 2)
    self.assertEqual(len(fake.acted), 2 + 4 * second)
    self.assertEqual(planes(timestep.observation, 0, 4)[-1], 4 * second)

  def test_a_game_that_always_ends_during_noops_raises(self):
    noop_max = 10**6
    draws = np.random.default_rng(0).integers(0, noop_max + 1, 100)
    self.assertTrue(np.all(draws > 0))  # Every reset plays a no-op.
    env = make_fake(FakeALE(episode_lengths=[1] * 100), noop_max=noop_max,
                    max_episode_frames=4 * noop_max + 4)
    with self.assertRaisesRegex(
        RuntimeError, r'pong ended during its no-ops after each of 100 '
        r'resets'):
      env.reset()

  def test_truncation_at_max_episode_frames(self):
    fake = FakeALE()
    env = make_fake(fake, max_episode_frames=10)
    env.reset()
    timesteps = [env.step(0) for _ in range(3)]
    self.assertEqual([t.step_type for t in timesteps],
                     [dm_env.StepType.MID] * 2 + [dm_env.StepType.LAST])
    self.assertEqual([t.discount for t in timesteps], [1.] * 3)
    # The last step stops at the limit: frames 9 and 10 only.
    self.assertEqual([t.reward for t in timesteps], [10., 26., 19.])
    self.assertEqual(len(fake.acted), 10)
    # The next step starts a new episode and ignores its action.
    timestep = env.step(5)
    self.assertTrue(timestep.first())
    self.assertEqual((fake.resets, len(fake.acted)), (2, 10))

  def test_noop_frames_count_towards_the_limit(self):
    seed = 0
    num_noops = int(np.random.default_rng(seed).integers(0, 3))
    env = make_fake(seed=seed, noop_max=2, max_episode_frames=12)
    env.reset()
    steps = 1
    while not env.step(0).last():
      steps += 1
    self.assertEqual(steps, 3 - num_noops)

  def test_termination_at_game_over(self):
    fake = FakeALE(episode_lengths=[6])
    env = make_fake(fake)
    env.reset()
    first, second = env.step(0), env.step(0)
    self.assertTrue(first.mid())
    self.assertTrue(second.last())
    self.assertEqual(second.discount, 0.)
    self.assertEqual(second.discount.dtype, np.float32)
    # The step stops at the end: frames 5 and 6.
    self.assertEqual(second.reward, 5. + 6.)
    self.assertEqual(planes(second.observation, 0, 4)[-2:], [4, 6])
    self.assertTrue(env.step(0).first())
    self.assertEqual(fake.resets, 2)

  def test_game_over_at_the_frame_limit_is_a_termination(self):
    env = make_fake(FakeALE(episode_lengths=[8]), max_episode_frames=8)
    env.reset()
    env.step(0)
    timestep = env.step(0)
    self.assertTrue(timestep.last())
    self.assertEqual(timestep.discount, 0.)

  def test_a_step_on_a_fresh_environment_starts_an_episode(self):
    fake = FakeALE()
    env = make_fake(fake)
    self.assertTrue(env.step(3).first())
    self.assertEqual(fake.acted, [])

  @parameterized.named_parameters(
      ('too_large', 18), ('negative', -1), ('float', 1.0), ('bool', True),
      ('string', '3'), ('none', None), ('vector', np.array([1, 2])))
  def test_an_illegal_action_raises_and_changes_nothing(self, action):
    fake = FakeALE()
    env = make_fake(fake)
    env.reset()
    env.step(1)
    with self.assertRaisesRegex(
        ValueError, rf'Illegal action {re.escape(repr(action))}: expected an '
        r'integer in 0\.\.17'):
      env.step(action)
    self.assertLen(fake.acted, 4)
    timestep = env.step(np.int64(17))
    self.assertTrue(timestep.mid())
    self.assertEqual(planes(timestep.observation, 0, 4)[-1], 8)


@needs_ale
class BadArgumentTest(parameterized.TestCase):

  def test_an_unknown_title_suggests_close_rom_ids(self):
    with self.assertRaisesRegex(
        ValueError, r"Unknown Atari game 'Pongg'; close ROM ids: \['pong'"):
      atari.AtariEnvironment('Pongg', ale_factory=FakeALE)

  def test_a_title_without_close_ids_points_to_the_list(self):
    with self.assertRaisesRegex(
        ValueError, r"Unknown Atari game 'Qqqqqqqq'.*"
        r'ale_py\.roms\.get_all_rom_ids\(\) lists them'):
      atari.AtariEnvironment('Qqqqqqqq', ale_factory=FakeALE)

  def test_a_title_must_be_a_string(self):
    with self.assertRaisesRegex(TypeError, r'game must be a string .*got 3'):
      atari.AtariEnvironment(3, ale_factory=FakeALE)

  @parameterized.named_parameters(
      ('negative_seed', 'seed', -1, r'seed must be an integer in '
       r'0\.\.18446744073709551615, got -1'),
      ('huge_seed', 'seed', 2**64, r'seed .*got 18446744073709551616'),
      ('float_seed', 'seed', 1.5, r'seed .*got 1\.5'),
      ('no_frames', 'num_stacked_frames', 0,
       r'num_stacked_frames must be an integer >= 1, got 0'),
      ('zero_repeat', 'action_repeat', 0,
       r'action_repeat must be an integer >= 1, got 0'),
      ('float_repeat', 'action_repeat', 2.0,
       r'action_repeat must be an integer >= 1, got 2\.0'),
      ('bool_repeat', 'action_repeat', True,
       r'action_repeat must be an integer >= 1, got True'),
      ('zero_height', 'resolution', (0, 96),
       r'resolution must be \(height, width\), two integers >= 1, got '
       r'\(0, 96\)'),
      ('one_size', 'resolution', (96,), r'resolution .*got \(96,\)'),
      ('string_size', 'resolution', '96', r"resolution .*got '96'"),
      ('negative_noops', 'noop_max', -1,
       r'noop_max must be an integer >= 0, got -1'),
      ('no_frames_per_episode', 'max_episode_frames', 0,
       r'max_episode_frames must be an integer >= 1, got 0'),
      ('sticky_int', 'sticky_actions', 1,
       r'sticky_actions must be a bool, got 1'),
      ('max_pool_none', 'max_pool', None, r'max_pool must be a bool, got None'),
  )
  def test_a_bad_number_is_rejected(self, name, value, message):
    with self.assertRaisesRegex(ValueError, message):
      atari.AtariEnvironment('Pong', ale_factory=FakeALE, **{name: value})

  def test_episodes_must_outlast_the_noops(self):
    # 30 no-ops of 4 frames may take 120 frames.
    with self.assertRaisesRegex(
        ValueError, r'max_episode_frames must exceed the most no-op frames, '
        r'noop_max \* action_repeat = 120, got 120'):
      atari.AtariEnvironment('Pong', ale_factory=FakeALE,
                             max_episode_frames=120)
    env = atari.AtariEnvironment('Pong', ale_factory=FakeALE,
                                 max_episode_frames=121)
    self.assertEqual(env.game, 'pong')

  def test_a_factory_must_be_callable(self):
    with self.assertRaisesRegex(
        TypeError, r'ale_factory must be a zero-argument callable, got 3'):
      atari.AtariEnvironment('Pong', ale_factory=3)

  def test_an_emulator_needs_the_full_action_set(self):
    with self.assertRaisesRegex(
        ValueError, r"full set of 18 actions, got 6: \[200, 199"):
      atari.AtariEnvironment('Pong',
                             ale_factory=lambda: FakeALE(num_actions=6))


@needs_ale
class PongTest(absltest.TestCase):
  """The real emulator and ROM."""

  def test_specs_and_first_observation(self):
    env = atari.AtariEnvironment('Pong')
    spec = env.observation_spec()
    self.assertEqual(spec.shape, (96, 96, 128))
    self.assertEqual(spec.dtype, np.float32)
    self.assertEqual(env.action_spec().num_values, 18)
    observation = env.reset().observation
    spec.validate(observation)
    # Only the newest frame is there, and Pong's screen is not black.
    self.assertFalse(np.any(observation[..., :93]))
    self.assertGreater(observation[..., 93:96].max(), 0.)
    self.assertFalse(np.any(observation[..., 96:]))

  def test_the_first_frame_is_the_resized_screen_after_the_noops(self):
    seed = 4
    num_noops = int(np.random.default_rng(seed).integers(0, 31))
    observation = atari.AtariEnvironment('Pong', seed=seed).reset().observation
    ale = ale_py.ALEInterface()
    ale.setInt('random_seed', seed)
    ale.setFloat('repeat_action_probability', 0.)
    ale.loadROM(str(ale_py.roms.get_rom_path('pong')))
    ale.reset_game()
    for _ in range(4 * num_noops):
      ale.act(ale_py.Action.NOOP)
    expected = block_mean_resize(ale.getScreenRGB(), 96, 96)
    # Frames are bytes: the block means rounded to the nearest integer.
    frame = observation[..., 93:96] * 255.
    np.testing.assert_allclose(frame, np.round(frame), atol=1e-4)
    np.testing.assert_allclose(frame, expected, atol=0.5 + 1e-3)
    self.assertGreater(np.mean(np.abs(frame - expected)), 0.)

  def test_seeds_reproduce_episodes(self):
    def play(seed):
      env = atari.AtariEnvironment('Pong', seed=seed, num_stacked_frames=4)
      actions = np.random.default_rng(0).integers(0, 18, 50)
      observations = [env.reset().observation]
      for action in actions:
        timestep = env.step(action)
        observations.append(timestep.observation)
        self.assertEqual(timestep.step_type, dm_env.StepType.MID)
      return np.stack(observations)

    first, again, other = play(0), play(0), play(1)
    np.testing.assert_array_equal(again, first)
    self.assertFalse(np.array_equal(other, first))
    self.assertGreaterEqual(first.min(), 0.)
    self.assertLessEqual(first.max(), 1.)
    self.assertEqual(first.dtype, np.float32)


class MissingAleTest(absltest.TestCase):

  def test_constructing_without_ale_py_says_how_to_install_it(self):
    # A None entry in sys.modules makes `import ale_py` raise ImportError.
    with mock.patch.dict(sys.modules, {'ale_py': None}):
      with self.assertRaisesRegex(
          ImportError, r"pip install -e '\.\[atari\]' \(or pip install "
          r'ale-py\)'):
        atari.AtariEnvironment('Pong')


if __name__ == '__main__':
  absltest.main()
