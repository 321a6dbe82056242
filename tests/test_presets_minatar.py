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
"""Tests of the 'minatar' preset."""

from absl.testing import absltest
import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt import presets_minatar
from muzero_snt.run import resources
from muzero_snt import search
from muzero_snt import types
from muzero_snt import value_transforms


class ConstantModel:
  """Value 2 and reward 0 everywhere, uniform priors: a MinAtar-like tree."""

  def initial_inference(self, observation):
    size = len(observation)
    return types.NetworkOutput(
        value=np.full(size, 2., np.float32),
        reward=np.zeros(size, np.float32),
        policy_logits=np.zeros((size, presets_minatar.MINATAR_ACTIONS),
                               np.float32),
        hidden_state=np.zeros((size, 1), np.float32))

  def recurrent_inference(self, hidden_state, action):
    del action
    return self.initial_inference(hidden_state)


class MinAtarPresetTest(absltest.TestCase):

  def test_registered_with_self_play_settings(self):
    self.assertIs(presets.PRESETS['minatar'],
                  presets_minatar.make_minatar_config)
    self.assertEqual(presets.run_defaults('minatar'),
                     dict(num_envs=16, train_ratio=0.2,
                          continuous_selfplay=False, overlap_learning=False,
                          pad_rounds=False))

  def test_minatars_protocol(self):
    config = presets.get_preset('minatar')
    # MinAtar's 6 actions; 10x10 grids padded to Seaquest's 10 planes.
    self.assertEqual(config.action_space_size, 6)
    self.assertEqual(config.observation_shape, (10, 10, 10))
    # The discount of MinAtar's DQN baseline (Young and Tian 2019).
    self.assertEqual(config.discount, 0.99)
    self.assertEqual(config.num_players, 1)
    self.assertIsNone(config.known_bounds)
    self.assertEqual(config.max_moves, 3_000)

  def test_a_small_residual_network_on_the_grid(self):
    network = presets.get_preset('minatar').network
    self.assertEqual(network.kind, 'residual')
    self.assertFalse(network.downsample)  # 10x10 needs no stem.
    self.assertEqual((network.channels, network.num_blocks), (16, 2))
    self.assertEqual(network.action_encoding, 'one_hot')

  def test_supports_cover_minatar_returns(self):
    # 61 atoms span the transformed values -30..30, and h(x) = sqrt(x + 1)
    # - 1 + 0.001 x reaches 30 between x = 904 (29.987) and 906 (30.022):
    # values up to about 900, far above MinAtar's within a discount of 0.99
    # (at most 100 times the largest reward of a step).
    network = presets.get_preset('minatar').network
    self.assertEqual(network.value_support_size, 61)
    self.assertEqual(network.reward_support_size, 61)
    self.assertAlmostEqual(
        float(value_transforms.signed_hyperbolic(904.)), 29.987, places=3)
    self.assertAlmostEqual(
        float(value_transforms.signed_hyperbolic(906.)), 30.022, places=3)

  def test_replay_memory_is_bounded(self):
    config = presets.get_preset('minatar')
    # A float32 position: 10 x 10 x 10 x 4 bytes; 100 games of 3,000.
    self.assertEqual(config.window_size * config.max_moves * 4 * 10 * 10 * 10,
                     1_200_000_000)
    # The check before a run: the replay, its checkpoint copy and the games
    # being played stay under 3 GB on a shared machine.
    estimate = resources.estimate_memory(
        config, games_in_flight=presets.run_defaults('minatar')['num_envs'])
    self.assertLess(estimate.total, 3e9)

  def test_the_search_keeps_exploring_when_every_value_is_positive(self):
    config = presets.get_preset('minatar')
    observation = np.zeros((1,) + presets_minatar.MINATAR_OBSERVATION_SHAPE,
                           np.float32)

    def visits(unvisited_q):
      searcher = search.ReferenceSearch(
          config.replace(unvisited_q=unvisited_q), ConstantModel())
      output = searcher(observation, [0], np.ones((1, 6), bool),
                        np.random.default_rng(0), add_noise=False)
      return output.visit_counts[0]

    # The pseudocode's Q of 0 for an unvisited child: once the first child
    # is visited its Q (0 + 0.99 * 2) is the tree's, and 0 normalises below
    # the minimum, so every simulation follows action 0 (ties: lowest).
    np.testing.assert_array_equal(visits('zero'), [16, 0, 0, 0, 0, 0])
    # The preset's rule (the parent's value): Q values close together leave
    # the equal priors in charge, which share 16 visits over 6 actions as
    # evenly as they divide, the extra ones to the lowest actions.
    self.assertEqual(config.unvisited_q, 'parent')
    np.testing.assert_array_equal(visits('parent'), [3, 3, 3, 3, 2, 2])

  def test_the_temperature_falls_at_half_and_three_quarters(self):
    config = presets.get_preset('minatar')
    fn = config.visit_softmax_temperature_fn
    self.assertIsInstance(fn, config_lib.TrainingStepTemperature)
    self.assertEqual([fn(0, s) for s in (0, 24_999, 25_000, 37_500)],
                     [1.0, 1.0, 0.5, 0.25])
    self.assertEqual(config.training_steps, 50_000)


if __name__ == '__main__':
  absltest.main()
