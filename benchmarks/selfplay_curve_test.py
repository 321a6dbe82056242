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
"""Tests for `benchmarks/selfplay_curve.py`."""

from absl.testing import absltest
import numpy as np

from benchmarks import minatar_baselines
from benchmarks import selfplay_curve


class FramesAndReturnsTest(absltest.TestCase):

  def test_only_steps_that_logged_both(self):
    scalars = {
        'selfplay/episode_return': (np.array([3, 265, 528]),
                                    np.array([1., 2., 4.])),
        'selfplay/env_steps': (np.array([3, 528, 700]),
                               np.array([10., 2640., 3500.])),
    }
    frames, returns = selfplay_curve.frames_and_returns(scalars)
    np.testing.assert_array_equal(frames, [10., 2640.])
    np.testing.assert_array_equal(returns, [1., 4.])

  def test_a_missing_tag_lists_the_tags_there_are(self):
    with self.assertRaisesRegex(ValueError, r"selfplay/env_steps.*\['loss'"):
      selfplay_curve.frames_and_returns({
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
    selfplay_curve.draw_dqn(axis, 'breakout', 100_000)
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
        selfplay_curve.parse_evaluations(['239000:8.0', '292000:9.4']),
        [(239000., 8.0), (292000., 9.4)])

  def test_a_malformed_item_is_named(self):
    with self.assertRaisesRegex(ValueError, "'292000' is not FRAMES"):
      selfplay_curve.parse_evaluations(['292000'])


if __name__ == '__main__':
  absltest.main()
