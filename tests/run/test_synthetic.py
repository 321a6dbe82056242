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
"""Tests of the synthetic batches: the Batch conventions hold."""

import numpy as np

from muzero_snt import losses
from muzero_snt import presets
from muzero_snt.run import synthetic
from tests import testing


class SyntheticBatchesTest(testing.TestCase):

  def _batch(self, terminal_fraction=0.5):
    config = presets.make_tictactoe_config()
    batches = synthetic.SyntheticBatches(
        config, 64, seed=3, terminal_fraction=terminal_fraction)
    return config, next(batches)

  def test_batch_fits_the_config(self):
    config, batch = self._batch()
    losses.check_batch(batch, config.action_space_size,
                       config.num_unroll_steps)
    self.assertEqual(batch.observation.shape, (64, 3, 3, 3))
    self.assertTrue(np.all((batch.action >= 0) & (batch.action < 9)))

  def test_policies_sum_to_one_inside_the_game_and_zero_outside(self):
    _, batch = self._batch()
    sums = batch.target_policy.sum(-1)  # [B, K+1]
    np.testing.assert_allclose(sums, batch.policy_mask, atol=1e-5)

  def test_absorbing_states_have_zero_targets(self):
    _, batch = self._batch()
    masked = batch.policy_mask == 0  # [B, K+1]
    self.assertTrue(masked.any())
    np.testing.assert_array_equal(batch.target_value[masked], 0.)
    # Position k > 0 masked: the reward of the action that led there is real
    # only if position k - 1 was inside the game (k is the terminal state).
    absorbing = masked[:, 1:] & masked[:, :-1]  # [B, K]
    np.testing.assert_array_equal(batch.target_reward[absorbing], 0.)

  def test_values_drift_by_the_rewards_inside_the_game(self):
    _, batch = self._batch(terminal_fraction=0.)
    np.testing.assert_allclose(
        batch.target_value[:, 1:],
        batch.target_value[:, :1] - np.cumsum(batch.target_reward, axis=1),
        atol=1e-5)

  def test_same_seed_same_batches(self):
    config = presets.make_cartpole_config()
    a = next(synthetic.SyntheticBatches(config, 4, seed=7))
    b = next(synthetic.SyntheticBatches(config, 4, seed=7))
    for x, y in zip(a, b):
      np.testing.assert_array_equal(x, y)

  def test_stream_started_at_n_continues_an_uninterrupted_one(self):
    config = presets.make_cartpole_config()
    stream = synthetic.SyntheticBatches(config, 4, seed=7)
    uninterrupted = [next(stream) for _ in range(3)]
    resumed = next(synthetic.SyntheticBatches(config, 4, seed=7, start=2))
    for x, y in zip(resumed, uninterrupted[2]):
      np.testing.assert_array_equal(x, y)
    # Different indices give different batches.
    self.assertFalse(np.array_equal(uninterrupted[1].observation,
                                    uninterrupted[2].observation))

  def test_next_observations_follow_the_actions_with_a_consistency_loss(self):
    config = presets.make_cartpole_config().replace(
        consistency_loss_weight=2.)
    batch = next(synthetic.SyntheticBatches(config, 256, seed=5,
                                            terminal_fraction=0.3))
    losses.check_batch(batch, config.action_space_size,
                       config.num_unroll_steps)
    plain = next(synthetic.SyntheticBatches(
        presets.make_cartpole_config(), 256, seed=5, terminal_fraction=0.3))
    self.assertIsNone(plain.next_observation)
    for x, y in zip(plain[:-1], batch[:-1]):  # The same draws otherwise.
      np.testing.assert_array_equal(x, y)
    inside = batch.policy_mask[:, 1:] == 1  # [B, K]
    np.testing.assert_array_equal(batch.next_observation[~inside], 0.)
    previous = np.concatenate(
        [batch.observation[:, None], batch.next_observation[:, :-1]], axis=1)
    step = np.mod(batch.next_observation - previous, 1.)  # [B, K, 4]
    # Inside the game every element moves by the same amount, and that
    # amount is a function of the action taken.
    shifts = {}
    for i, k in zip(*np.nonzero(inside)):
      np.testing.assert_allclose(step[i, k], step[i, k, 0], atol=1e-5)
      shift = shifts.setdefault(int(batch.action[i, k]), step[i, k, 0])
      np.testing.assert_allclose(
          np.mod(step[i, k, 0] - shift + 0.5, 1.), 0.5, atol=1e-5)
    self.assertLen(shifts, 2)

  def test_non_positive_batch_size_raises(self):
    with self.assertRaisesRegex(ValueError, 'batch_size.*0'):
      synthetic.SyntheticBatches(presets.make_cartpole_config(), 0)
