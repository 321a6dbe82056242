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
"""Tests of the rate limiter: learner steps per environment step."""

import numpy as np

from muzero_snt.distributed import rate_limiter
from tests import testing


class RateLimiterTest(testing.TestCase):

  def test_counts_worked_by_hand(self):
    # r = 1/4, max_ahead = 3.
    limiter = rate_limiter.RateLimiter(0.25, max_ahead=3)
    self.assertFalse(limiter.can_sample())
    limiter.admit(4, counted=False)  # Warm-up: owes nothing.
    self.assertEqual(limiter.owed(), 0)
    self.assertEqual(limiter.env_steps, 4)
    limiter.admit(8)  # floor(8 / 4) = 2 owed.
    self.assertEqual(limiter.owed(), 2)
    self.assertTrue(limiter.can_sample())
    self.assertFalse(limiter.can_admit(8))  # floor(16 / 4) - 0 = 4 > 3.
    self.assertTrue(limiter.can_admit(4))  # floor(12 / 4) - 0 = 3.
    limiter.sample()
    limiter.sample()
    self.assertEqual(limiter.owed(), 0)
    self.assertFalse(limiter.can_sample())
    with self.assertRaisesRegex(RuntimeError, 'no learner step owed'):
      limiter.sample()
    # Nothing owed: any game gets in, even one worth 25 > 3 steps.
    self.assertTrue(limiter.can_admit(100))
    self.assertEqual(limiter.state(), {'env_steps': 12,
                                       'counted_env_steps': 8,
                                       'learner_steps': 2})

  def test_ratio_is_exact_where_floats_are_not(self):
    # 0.29 * 100 = 28.999999999999996 in floats; exactly 29 steps are owed.
    limiter = rate_limiter.RateLimiter(0.29)
    limiter.admit(100)
    self.assertEqual(limiter.owed(), 29)

  def test_observed_ratio_over_the_window(self):
    limiter = rate_limiter.RateLimiter(0.5, max_ahead=10, window=4)
    limiter.admit(4)
    limiter.sample()
    limiter.sample()  # E at grants: 4, 4.
    self.assertIsNone(limiter.observed_ratio())  # No steps in between.
    for _ in range(3):
      limiter.admit(2)
      limiter.sample()  # E at grants: ..., 6, 8, 10.
    # The last 4 grants took 10 - 4 = 6 environment steps.
    self.assertAlmostEqual(limiter.observed_ratio(), 4 / 6)
    self.assertEqual(limiter.ratio_window, 4)
    self.assertAlmostEqual(limiter.worst_deviation, abs((4 / 6) / 0.5 - 1))

  def test_a_window_without_environment_steps_is_an_infinite_ratio(self):
    # One 10-move game owes 10 steps at r = 1: a window of 3 sees none.
    limiter = rate_limiter.RateLimiter(1., max_ahead=10, window=3)
    limiter.admit(10)
    for _ in range(4):
      limiter.sample()
    self.assertIsNone(limiter.observed_ratio())
    self.assertEqual(limiter.worst_deviation, float('inf'))

  def test_ratio_within_five_percent_over_any_thousand_steps(self):
    # Learner and actors at random relative speeds; games of 1..400 moves
    # at r = 0.1 are worth up to 40 learner steps (max_ahead).
    rng = np.random.default_rng(0)
    limiter = rate_limiter.RateLimiter(0.1)
    env_at_grant = []
    pending = int(rng.integers(1, 401))
    while limiter.learner_steps < 6000:
      learner_speed = rng.uniform(0.05, 0.95)
      for _ in range(50):
        if rng.random() < learner_speed:
          if limiter.can_sample():
            limiter.sample()
            env_at_grant.append(limiter.counted_env_steps)
        elif limiter.can_admit(pending):
          limiter.admit(pending)
          pending = int(rng.integers(1, 401))
    env = np.array(env_at_grant)
    observed = 1000 / (env[1000:] - env[:-1000])
    deviation = np.abs(observed / 0.1 - 1)
    self.assertLess(deviation.max(), 0.05)
    self.assertAlmostEqual(limiter.worst_deviation, deviation.max())
    # The learner never ran ahead of the data: step j had j / r steps.
    steps = np.arange(1, len(env) + 1)
    self.assertTrue(np.all(env * 0.1 >= steps - 1e-9))

  def test_restore_continues_the_counts(self):
    limiter = rate_limiter.RateLimiter(0.5)
    limiter.restore(env_steps=30, counted_env_steps=20, learner_steps=9)
    self.assertEqual(limiter.owed(), 1)

  def test_bad_arguments_are_named(self):
    with self.assertRaisesRegex(ValueError, 'train_ratio must be .* got 0'):
      rate_limiter.RateLimiter(0)
    with self.assertRaisesRegex(ValueError, 'max_ahead must be .* got 0'):
      rate_limiter.RateLimiter(0.1, max_ahead=0)
