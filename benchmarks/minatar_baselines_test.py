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
"""Tests of benchmarks/minatar_baselines.py: DQN's curves, their measure
and the logs' curves."""

from absl.testing import absltest
import numpy as np

from benchmarks import minatar_baselines


class DqnCurvesTest(absltest.TestCase):

  def test_every_game_has_a_goal_at_the_end_of_its_curve(self):
    for game, curve in minatar_baselines.DQN_CURVES.items():
      frames = [f for f, _ in curve]
      self.assertEqual(frames, sorted(frames))
      self.assertEqual(frames[-1], 4.9e6)
      self.assertEqual(curve[-1][1], minatar_baselines.DQN_AT_5M[game])


class MovingAverageTest(absltest.TestCase):

  def test_mean_of_the_last_window_games(self):
    games = [(10, 1.), (20, 3.), (35, 5.), (40, 0.)]
    frames, mean = minatar_baselines.moving_average(games, window=2)
    self.assertEqual(list(frames), [10, 20, 35, 40])
    # By hand: 1/1, (1+3)/2, (3+5)/2, (5+0)/2.
    self.assertEqual(list(mean), [1., 2., 4., 2.5])


class FramesAndReturnsTest(absltest.TestCase):

  def test_only_steps_that_logged_both(self):
    scalars = {
        'selfplay/episode_return': (np.array([3, 265, 528]),
                                    np.array([1., 2., 4.])),
        'selfplay/env_steps': (np.array([3, 528, 700]),
                               np.array([10., 2640., 3500.])),
    }
    frames, returns = minatar_baselines.frames_and_returns(scalars)
    np.testing.assert_array_equal(frames, [10., 2640.])
    np.testing.assert_array_equal(returns, [1., 4.])

  def test_a_missing_tag_lists_the_tags_there_are(self):
    with self.assertRaisesRegex(ValueError, r"selfplay/env_steps.*\['loss'"):
      minatar_baselines.frames_and_returns({
          'selfplay/episode_return': (np.array([1]), np.array([1.])),
          'loss': (np.array([1]), np.array([1.]))})


class _Axis:
  """Records what is drawn on it."""

  def __init__(self):
    self.lines, self.hlines = [], []

  def plot(self, x, y, style, label):
    self.lines.append((list(x), list(y), style, label))

  def axhline(self, y, **kwargs):
    self.hlines.append(y)


class DrawDqnTest(absltest.TestCase):

  def test_the_curve_to_one_and_a_half_times_the_frames_and_the_5m_line(self):
    axis = _Axis()
    minatar_baselines.draw_dqn(axis, 'breakout', 100_000)
    (x, y, style, _), = axis.lines
    expected = [(f, r) for f, r in minatar_baselines.DQN_CURVES['breakout']
                if f <= 150_000]
    self.assertNotEmpty(expected)
    self.assertEqual(list(zip(x, y)), expected)
    self.assertEqual(style, 'k--')
    self.assertEqual(axis.hlines, [10.1])  # DQN after 5M frames, Breakout.


class ParseEvaluationsTest(absltest.TestCase):

  def test_frames_and_means(self):
    self.assertEqual(
        minatar_baselines.parse_evaluations(['239000:8.0', '292000:9.4']),
        [(239000., 8.0), (292000., 9.4)])

  def test_a_malformed_item_is_named(self):
    with self.assertRaisesRegex(ValueError, "'292000' is not FRAMES"):
      minatar_baselines.parse_evaluations(['292000'])


if __name__ == '__main__':
  absltest.main()
