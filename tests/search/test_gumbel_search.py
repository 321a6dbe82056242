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
"""Tests for Gumbel MuZero's search on tensors (gumbel_search.py).

The independent route is mctx's `gumbel_muzero_policy` on the JAX copy of
the same network (tests/search/gumbel_fixtures.py), given the same Gumbel
sample: in float64 on both sides the actions, visit counts and improved
policies must agree to 1e-5; in float32 (the library's network and XLA
against mctx's float32) the actions and visit counts still agree, and the
policies to 1e-4, sigma(q) amplifying float32 rounding (docs/gumbel.md).
Skipped without JAX and mctx (`pip install -e '.[test]'` installs them).
"""

import itertools

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt import networks
from muzero_snt.search import compiled_search
from muzero_snt.search import gumbel_search
from muzero_snt.search import inputs
from tests import testing
from tests.search import gumbel_fixtures as fixtures

try:
  import jax  # pylint: disable=g-import-not-at-top
  import mctx  # pylint: disable=g-import-not-at-top
except ImportError:
  jax = mctx = None

parameterized = testing.parameterized
BATCH_SIZE = 8
# (players, simulations, considered actions m) of the conformance tests.
CASES = tuple(itertools.product((1, 2), (1, 2, 4, 16, 50), (2, 4, 16)))


def _network(config, seed: int = 0):
  tf.random.set_seed(seed)
  network = networks.make_network(config)
  network.create_variables()
  return network


def _search(config, network, observation, legal, gumbel, dtype, jit):
  """`gumbel_search` with XLA (`jit`), or eagerly: quicker than tracing."""
  def search(observation, to_play, legal, gumbel):
    return gumbel_search.gumbel_search(config, network, observation, to_play,
                                       legal, gumbel=gumbel, dtype=dtype)
  if jit:
    search = tf.function(search, jit_compile=True)
  return search(observation, np.zeros(len(legal), np.int32), legal, gumbel)


@absltest.skipIf(mctx is None, 'JAX and mctx are not installed.')
class MctxConformanceTest(testing.TestCase):

  @parameterized.parameters(*CASES)
  def test_float64_equals_mctx(self, num_players, num_simulations, m):
    config = fixtures.make_config(num_players, num_simulations, m)
    network = _network(config)
    observation, legal = fixtures.random_inputs(BATCH_SIZE, seed=m)
    with jax.enable_x64(True):
      expected = fixtures.mctx_policy(
          jax, mctx, config, network, observation.astype(np.float64), legal,
          seed=num_simulations, float64=True)
    self.assertEqual(expected.gumbel.dtype, np.float64)
    output = _search(config, fixtures.Float64Model(network), observation,
                     legal, expected.gumbel, tf.float64, jit=False)
    self.assertAllEqual(output.action, expected.action)
    self.assertAllEqual(output.visit_counts, expected.visit_counts)
    self.assertAllClose(output.policy, expected.policy, rtol=0., atol=1e-5)
    self.assertAllEqual(output.finite, [True] * 3)

  @parameterized.parameters((1, 16, 4), (2, 50, 16), (2, 4, 2))
  def test_float32_network_under_xla_agrees_with_mctx(self, num_players,
                                                      num_simulations, m):
    config = fixtures.make_config(num_players, num_simulations, m)
    network = _network(config, seed=1)
    observation, legal = fixtures.random_inputs(BATCH_SIZE, seed=7)
    expected = fixtures.mctx_policy(jax, mctx, config, network, observation,
                                    legal, seed=3, float64=False)
    output = _search(config, network, observation, legal, expected.gumbel,
                     tf.float32, jit=True)
    self.assertAllEqual(output.action, expected.action)
    self.assertAllEqual(output.visit_counts, expected.visit_counts)
    self.assertAllClose(output.policy, expected.policy, rtol=0., atol=1e-4)

  @parameterized.parameters(1, 2)
  def test_compiled_search_without_noise_agrees_with_mctx(self,
                                                          num_players):
    # CompiledSearch: NumPy inputs (the mask made from rows of legal
    # actions), padding to a power of two, XLA; mctx with gumbel_scale 0.
    config = fixtures.make_config(num_players, 16, 4)
    network = _network(config, seed=2)
    observation, legal = fixtures.random_inputs(5, seed=4)
    expected = fixtures.mctx_policy(jax, mctx, config, network, observation,
                                    legal, seed=0, float64=False,
                                    gumbel_scale=0.)
    search = compiled_search.CompiledSearch(config, network)
    mask = inputs.legal_actions_to_mask(
        [np.flatnonzero(row) for row in legal], fixtures.NUM_ACTIONS)
    output = search(observation, [0] * 5, mask, np.random.default_rng(0),
                    add_noise=False)
    self.assertAllEqual(output.action, expected.action)
    self.assertAllEqual(output.visit_counts, expected.visit_counts)
    self.assertAllClose(output.policy, expected.policy, rtol=0., atol=1e-4)


class CompiledGumbelSearchTest(testing.TestCase):

  def test_muzero_policy_returns_no_action(self):
    config = fixtures.make_config(1, 4, 4).replace(search_policy='muzero')
    search = compiled_search.CompiledSearch(config, _network(config))
    observation, legal = fixtures.random_inputs(2, seed=0)
    output = search(observation, [0, 0], legal, np.random.default_rng(0))
    self.assertIsNone(output.action)

  def test_noise_draws_a_gumbel_sample_from_the_seed(self):
    # With one legal action in 4 considered and g drawn, the search can
    # only play the legal action; with all legal, two seeds that play
    # different first actions at 1 simulation show g is used.
    config = fixtures.make_config(1, 1, 4)
    search = compiled_search.CompiledSearch(config, _network(config))
    observation = np.zeros((64, fixtures.OBSERVATION_SIZE), np.float32)
    legal = np.ones((64, fixtures.NUM_ACTIONS), bool)
    output = search.search_with_seed(observation, [0] * 64, legal, [1, 2])
    # 64 positions with the same logits: the action is the argmax of
    # g + logits, which must vary with g across the batch.
    self.assertGreater(len(set(output.action.tolist())), 1)
    self.assertAllEqual(output.visit_counts[np.arange(64), output.action],
                        [1] * 64)
    quiet = search.search_with_seed(observation, [0] * 64, legal, [1, 2],
                                    add_noise=False)
    self.assertLen(set(quiet.action.tolist()), 1)


if __name__ == '__main__':
  absltest.main()
