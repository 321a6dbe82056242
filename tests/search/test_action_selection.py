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
"""Tests for the action choice of muzero_snt.search.mcts."""

import numpy as np
from absl.testing import absltest
from absl.testing import parameterized

from muzero_snt import config as config_lib
from muzero_snt.search import mcts
from tests import testing


def _root(visits):
  """A root whose child `a` has `visits[a]` visits."""
  root = mcts.Node(0.)
  for action, count in visits.items():
    root.children[action] = mcts.Node(1 / len(visits))
    root.children[action].visit_count = count
  return root


class VisitSoftmaxTest(parameterized.TestCase):

  def test_temperature_one_is_proportional(self):
    np.testing.assert_allclose(
        mcts.visit_softmax(np.array([1, 2, 3, 4]), 1.),
        [0.1, 0.2, 0.3, 0.4], rtol=1e-12)

  def test_temperature_half_squares(self):
    # [1, 4, 9, 16] / 30.
    np.testing.assert_allclose(
        mcts.visit_softmax(np.array([1, 2, 3, 4]), 0.5),
        np.array([1, 4, 9, 16]) / 30, rtol=1e-12)

  def test_unvisited_actions_get_nothing(self):
    np.testing.assert_allclose(
        mcts.visit_softmax(np.array([0, 3, 0, 1]), 1.),
        [0., 0.75, 0., 0.25], rtol=1e-12)

  @parameterized.parameters(
      ([3, 5, 5, 1], 1),  # A tie between 1 and 2: the lowest index.
      ([0, 0, 2], 2),
      ([7], 0))
  def test_temperature_zero_is_argmax(self, visits, expected):
    probs = mcts.visit_softmax(np.array(visits), 0.)
    expected_probs = np.zeros(len(visits))
    expected_probs[expected] = 1.
    np.testing.assert_array_equal(probs, expected_probs)

  def test_small_temperature_does_not_overflow(self):
    # 100 ** 1000 overflows; the ratio (99 / 100) ** 1000 = 4.3171e-5 does
    # not: probabilities [1, 4.3171e-5] / (1 + 4.3171e-5).
    probs = mcts.visit_softmax(np.array([100, 99]), 0.001)
    ratio = 0.99**1000
    np.testing.assert_allclose(probs, [1 / (1 + ratio), ratio / (1 + ratio)],
                               rtol=1e-9)
    # Near 0 it becomes the argmax, with ties shared.
    np.testing.assert_allclose(
        mcts.visit_softmax(np.array([5, 9, 9]), 1e-300),
        [0., 0.5, 0.5])

  @parameterized.named_parameters(
      ('negative_count', [1, -1], 1., 'finite and >= 0'),
      ('nan_count', [1, np.nan], 1., 'finite and >= 0'),
      ('matrix', [[1, 2]], 1., r'non-empty vector \[A\], got shape \[1, 2\]'),
      ('empty', [], 1., r'non-empty vector \[A\], got shape \[0\]'),
      ('negative_temperature', [1, 2], -0.5, 'temperature .* got -0.5'),
      ('infinite_temperature', [1, 2], float('inf'), 'got inf'),
      ('all_zero', [0, 0], 1., r'positive count .* got \[0.0, 0.0\]'))
  def test_bad_input(self, visits, temperature, message):
    with self.assertRaisesRegex(ValueError, message):
      mcts.visit_softmax(np.array(visits), temperature)


class SampleActionTest(absltest.TestCase):

  def test_frequencies_follow_the_visit_softmax_over_the_whole_space(self):
    visits = np.array([0, 10, 0, 30, 60])  # Actions 0 and 2 never visited.
    rng = np.random.default_rng(1)
    num_draws = 10000
    cases = (
        (1., [0., 0.1, 0., 0.3, 0.6]),
        # T = 0.5: [100, 900, 3600] / 4600.
        (0.5, [0., 100 / 4600, 0., 900 / 4600, 3600 / 4600]))
    for temperature, expected in cases:
      actions = [mcts.sample_action(visits, temperature, rng)
                 for _ in range(num_draws)]
      frequencies = np.bincount(actions, minlength=5) / num_draws
      # Binomial standard error <= sqrt(0.25 / 10000) = 0.005: 4 s.e.
      np.testing.assert_allclose(frequencies, expected, atol=0.02)
      self.assertEqual(frequencies[0] + frequencies[2], 0.)

  def test_temperature_zero_plays_the_lowest_most_visited_without_drawing(
      self):
    rng = np.random.default_rng(3)
    state = rng.bit_generator.state
    self.assertEqual(mcts.sample_action([2, 8, 3, 8], 0., rng), 1)
    self.assertEqual(rng.bit_generator.state, state)


class SampleActionsTest(parameterized.TestCase):

  def test_hand_worked_rows(self):
    # Row 0, T = 1: probabilities [0.1, 0.2, 0.3, 0.4], cumulative
    # [0.1, 0.3, 0.6, 1.0]; u = 0.35 falls in action 2's interval.
    # Row 1, T = 0.5: [1, 4, 9, 16] / 30, cumulative [1, 5, 14, 30] / 30;
    # u = 0.15 < 5 / 30: action 1. Row 2, T = 0: the first of the two most
    # visited, whatever the uniform. Row 3: u = 0.1 is not below the first
    # bound 0.1 (NumPy's searchsorted side='right'): action 1.
    actions = mcts.sample_actions(
        np.array([[1, 2, 3, 4], [1, 2, 3, 4], [0, 6, 6, 1], [1, 2, 3, 4]]),
        np.array([1., 0.5, 0., 1.]), np.array([0.35, 0.15, 0.99, 0.1]))
    np.testing.assert_array_equal(actions, [2, 1, 1, 1])

  def test_same_actions_and_draws_as_a_loop_of_sample_action(self):
    rng = np.random.default_rng(0)
    mismatches = 0
    for case in range(200):
      num_actions = int(rng.integers(1, 20))
      counts = rng.integers(0, 30, size=(64, num_actions))
      counts[np.arange(64), rng.integers(0, num_actions, 64)] += 1
      if case % 3 == 0:  # Large counts too.
        counts *= 10**rng.integers(0, 6, size=(64, 1))
      temperatures = rng.choice([0., 1e-3, 0.25, 0.5, 1., 2., 7.3], size=64)
      loop_rng = np.random.default_rng(case)
      expected = [mcts.sample_action(c, t, loop_rng)
                  for c, t in zip(counts, temperatures)]
      batch_rng = np.random.default_rng(case)
      uniforms = [batch_rng.random() if t > 0 else 0. for t in temperatures]
      actions = mcts.sample_actions(counts, temperatures,
                                                uniforms)
      mismatches += int(np.sum(actions != expected))
      # Both consumed the generator alike.
      self.assertEqual(loop_rng.random(), batch_rng.random())
    self.assertEqual(mismatches, 0)

  @parameterized.named_parameters(
      ('negative_count', [[1, 2], [1, -1]], [1., 1.], 'row 1'),
      ('nan_count', [[1, np.nan]], [0.], 'finite and >= 0.*row 0'),
      ('vector', [1, 2], [1.], r'\[B, A\].*got shape \[2\]'),
      ('temperatures_shape', [[1, 2]], [1., 1.], r'\[B\] = \[1\]'),
      ('negative_temperature', [[1, 2]], [-0.5], '-0.5 in row 0'),
      ('all_zero_at_positive_temperature', [[1, 0], [0, 0]], [0., 1.],
       r'positive count when temperature > 0, got row 1: \[0.0, 0.0\]'))
  def test_bad_input(self, visits, temperatures, message):
    with self.assertRaisesRegex(ValueError, message):
      mcts.sample_actions(np.array(visits), temperatures,
                                      np.zeros(len(temperatures)))

  def test_all_zero_row_at_temperature_zero_plays_action_zero(self):
    # As `sample_action` at T = 0 (argmax of a zero row).
    self.assertEqual(
        mcts.sample_actions([[0, 0, 0]], [0.], [0.5])[0],
        mcts.sample_action([0, 0, 0], 0., None))


class SelectActionTest(absltest.TestCase):

  def test_sampling_frequencies_follow_the_visits(self):
    # Temperature 1 below 500 training steps, 0.5 up to 1000, then 0.25.
    config = testing.tiny_mlp_config(
        visit_softmax_temperature_fn=config_lib.TrainingStepTemperature(
            boundaries=(500, 1000), values=(1., 0.5, 0.25)))
    root = _root({7: 60, 2: 10, 5: 30})
    rng = np.random.default_rng(0)
    num_draws = 10000
    cases = (
        # T = 1: [10, 30, 60] / 100.
        (0, [0.1, 0.3, 0.6]),
        # T = 0.5: [100, 900, 3600] / 4600.
        (700, [100 / 4600, 900 / 4600, 3600 / 4600]))
    for training_steps, expected in cases:
      actions = [
          mcts.select_action(config, 3, root, training_steps, rng)
          for _ in range(num_draws)
      ]
      frequencies = [actions.count(a) / num_draws for a in (2, 5, 7)]
      # Binomial standard error <= sqrt(0.25 / 10000) = 0.005: 4 s.e.
      np.testing.assert_allclose(frequencies, expected, atol=0.02)

  def test_temperature_zero_plays_the_most_visited_without_drawing(self):
    # MoveCountTemperature(2): temperature 0 from move 2 on.
    config = testing.tiny_mlp_config(
        visit_softmax_temperature_fn=config_lib.MoveCountTemperature(2))
    root = _root({4: 8, 1: 8, 6: 3})
    rng = np.random.default_rng(3)
    state = rng.bit_generator.state
    self.assertEqual(
        mcts.select_action(config, 5, root, 0, rng), 1)
    self.assertEqual(rng.bit_generator.state, state)

  def test_temperature_fn_receives_moves_and_training_steps(self):
    seen = []

    def temperature_fn(num_moves, training_steps):
      seen.append((num_moves, training_steps))
      return 0.

    config = testing.tiny_mlp_config(
        visit_softmax_temperature_fn=temperature_fn)
    mcts.select_action(config, 4, _root({0: 1}), 123,
                                   np.random.default_rng(0))
    self.assertEqual(seen, [(4, 123)])

  def test_unexpanded_node(self):
    with self.assertRaisesRegex(ValueError, 'expanded node'):
      mcts.select_action(testing.tiny_mlp_config(), 0,
                                     mcts.Node(1.), 0,
                                     np.random.default_rng(0))


if __name__ == '__main__':
  absltest.main()
