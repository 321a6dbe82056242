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
"""Tests for muzero_snt.frames: stacks worked out by hand."""

import numpy as np
from absl.testing import absltest
from absl.testing import parameterized

from muzero_snt import frames
from tests import frame_games

# N = 2 frames of one pixel with two channels, halves (frame_max 2), and
# A = 4 actions: every plane value below is worked out by hand.
STACK = frames.FrameStack(num_frames=2, frame_shape=(1, 1, 2),
                          frame_dtype='uint8', frame_max=2., num_actions=4)
FRAMES = np.array([[2, 0], [1, 2], [0, 1]], np.uint8).reshape(3, 1, 1, 2)
ACTIONS = np.array([3, 1, 2])
# Position t: frames t-1 and t (two channels each), then the actions that
# led to them (a_{t-2} and a_{t-1}; 0 for frame 0 and a missing frame).
EXPECTED = [
    [0., 0., 1., 0., 0., 0.],
    [1., 0., 0.5, 1., 0., 0.75],
    [0.5, 1., 0., 0.5, 0.75, 0.25],
]


class StackTest(parameterized.TestCase):

  def test_observation_shape(self):
    self.assertEqual(STACK.observation_shape, (1, 1, 6))
    self.assertEqual(frame_games.SMALL_STACK.observation_shape, (2, 3, 8))

  def test_stacks_by_hand(self):
    out = frames.stack_observations(STACK, FRAMES, ACTIONS, [0, 1, 2, 1])
    self.assertEqual(out.dtype, np.float32)
    np.testing.assert_array_equal(
        out.reshape(4, 6), np.array(EXPECTED + [EXPECTED[1]], np.float32))

  def test_the_newest_action_is_not_needed(self):
    # Position 2 shows a_0 and a_1 only: a game cut before a_2 stacks alike.
    out = frames.stack_observations(STACK, FRAMES, ACTIONS[:2], [2])
    np.testing.assert_array_equal(out.reshape(6), EXPECTED[2])

  @parameterized.parameters(1, 3, 5)
  def test_equals_the_plane_by_plane_route(self, num_frames):
    stack = frame_games.SMALL_STACK._replace(num_frames=num_frames)
    rng = np.random.default_rng(num_frames)
    game_frames = rng.integers(0, 256, (7, 2, 3, 3)).astype(np.uint8)
    actions = rng.integers(0, 18, 7)
    out = frames.stack_observations(stack, game_frames, actions, range(7))
    for t in range(7):
      np.testing.assert_array_equal(
          out[t], frame_games.literal_observation(stack, game_frames,
                                                  actions, t))

  def test_checked_frame_returns_the_newest_frame(self):
    observation = np.array(EXPECTED[2], np.float32).reshape(1, 1, 6)
    frame = frames.checked_frame(STACK, observation, [FRAMES[1]], [3, 1], 2)
    self.assertEqual(frame.dtype, np.uint8)
    np.testing.assert_array_equal(frame, FRAMES[2])

  def test_checked_frame_names_the_first_difference(self):
    observation = np.array(EXPECTED[2], np.float32).reshape(1, 1, 6)
    # Claiming a_1 = 2 puts 0.5 where the observation holds 0.25.
    with self.assertRaisesRegex(
        ValueError, r'observation at move 2 is not the stack .* at index '
        r'\[0, 0, 5\] it holds 0\.25, the stack 0\.5'):
      frames.checked_frame(STACK, observation, [FRAMES[1]], [3, 2], 2)
    # A frame value between the stored steps (0.3 of frame_max 2) cannot
    # be stored as a byte.
    observation[0, 0, 2] = 0.3
    with self.assertRaisesRegex(ValueError, r'at index \[0, 0, 2\]'):
      frames.checked_frame(STACK, observation, [FRAMES[1]], [3, 1], 2)

  def test_binary_planes_store_as_bool(self):
    # MinAtar-like: one 1x1 frame of 2 binary channels, 3 actions.
    stack = frames.FrameStack(num_frames=2, frame_shape=(1, 1, 2),
                              frame_dtype='bool', frame_max=1.,
                              num_actions=3)
    game_frames = np.array([[True, False], [False, True]]).reshape(2, 1, 1, 2)
    out = frames.stack_observations(stack, game_frames, [2], [1])
    # Frames 0 and 1, then 0 (frame 0) and a_0 / 3 = 2/3.
    np.testing.assert_array_equal(
        out.reshape(6), np.array([1., 0., 0., 1., 0., 2. / 3.], np.float32))
    frame = frames.checked_frame(stack, out[0], [game_frames[0]], [0, 2], 1)
    self.assertEqual(frame.dtype, np.bool_)
    np.testing.assert_array_equal(frame, game_frames[1])

  @parameterized.named_parameters(
      ('frames', dict(num_frames=0), 'num_frames must be an integer >= 1'),
      ('shape', dict(frame_shape=(2, 3)), 'frame_shape must be'),
      ('dtype', dict(frame_dtype='int16'), 'frame_dtype must be one of'),
      ('max', dict(frame_max=0.), 'frame_max must be a positive number'),
      ('actions', dict(num_actions=1.5), 'num_actions must be an integer'),
  )
  def test_bad_layouts_are_named(self, change, message):
    with self.assertRaisesRegex(ValueError, message):
      frames.make_frame_stack(**dict(STACK._asdict(), **change))

  def test_check_frames_names_shape_and_dtype(self):
    with self.assertRaisesRegex(ValueError, r'frames must be uint8 of shape '
                                r'\[T\] \+ \[1, 1, 2\], got float32'):
      frames.check_frames(STACK, FRAMES.astype(np.float32))


if __name__ == '__main__':
  absltest.main()
