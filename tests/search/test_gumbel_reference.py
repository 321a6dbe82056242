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
"""The search on tensors (gumbel_search.py) against the NumPy rendition of
the paper (gumbel_reference.py), both in float64 on the same model.

Runs without JAX and mctx: the check of the compiled search that needs no
peer library. Each position has its own Gumbel sample; half of them have
illegal actions.
"""

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt import networks
from muzero_snt.search import gumbel_search
from tests import testing
from tests.search import gumbel_fixtures as fixtures
from tests.search import gumbel_reference

parameterized = testing.parameterized
BATCH_SIZE = 6


class GumbelReferenceTest(testing.TestCase):

  @parameterized.parameters(
      (1, 1, 4), (1, 5, 2), (1, 11, 4), (1, 16, 16), (2, 3, 4), (2, 9, 2),
      (2, 16, 4), (2, 30, 16))
  def test_compiled_search_equals_reference(self, num_players,
                                            num_simulations, m):
    config = fixtures.make_config(num_players, num_simulations, m)
    tf.random.set_seed(num_simulations)
    network = networks.make_network(config)
    network.create_variables()
    model = fixtures.Float64Model(network)
    observation, legal = fixtures.random_inputs(BATCH_SIZE, seed=m)
    rng = np.random.default_rng(num_simulations)
    gumbel = rng.gumbel(size=legal.shape)
    to_play = np.arange(BATCH_SIZE) % num_players
    output = gumbel_search.gumbel_search(
        config, model, observation, to_play, legal, noise=gumbel,
        dtype=tf.float64)
    for i in range(BATCH_SIZE):
      expected = gumbel_reference.search_one(
          config, model, observation[i], int(to_play[i]), legal[i],
          gumbel[i])
      self.assertAllEqual(output.visit_counts[i], expected.visit_counts)
      self.assertEqual(int(output.action[i]), expected.action)
      self.assertAllClose(output.policy[i], expected.policy, rtol=0.,
                          atol=1e-6)

  def test_without_noise_one_simulation_plays_the_best_prior(self):
    # n = 1: the only visit goes to the legal action of highest logit, and
    # Sequential Halving leaves it.
    config = fixtures.make_config(1, 1, 4)
    network = networks.make_network(config)
    network.create_variables()
    model = fixtures.Float64Model(network)
    observation, legal = fixtures.random_inputs(4, seed=3)
    logits = model.initial_inference(observation).policy_logits.numpy()
    best = np.argmax(np.where(legal, logits, -np.inf), axis=1)
    for i in range(4):
      result = gumbel_reference.search_one(config, model, observation[i], 0,
                                           legal[i], np.zeros(4))
      self.assertEqual(result.action, best[i])
      self.assertEqual(result.visit_counts[best[i]], 1)


if __name__ == '__main__':
  absltest.main()
