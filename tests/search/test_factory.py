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
"""Tests for make_search: every kind is a Search, and they agree."""

import dataclasses
import inspect

from absl.testing import absltest
import numpy as np

from muzero_snt.search import base
from muzero_snt.search import compiled_search
from tests import testing
from tests.search import batched_fixtures as fixtures

parameterized = testing.parameterized


def _parameters(function):
  """Names, kinds and defaults of a function's parameters (no annotations)."""
  return [(p.name, p.kind, p.default)
          for p in inspect.signature(function).parameters.values()]


class MakeSearchTest(testing.TestCase):

  # Float32 tree statistics against the reference's float64: these roots
  # have no near-tie of pUCT scores (see test_batched.py).
  @parameterized.parameters('one_player_scalar', 'two_players_support')
  def test_every_kind_gives_the_reference_visits(self, name):
    setup = fixtures.setup(name)
    inputs = (setup.observation, setup.to_play, setup.legal)
    protocol = _parameters(base.Search.__call__)
    outputs = {}
    for kind in compiled_search.SEARCH_KINDS:
      search = compiled_search.make_search(setup.config, setup.network, kind)
      self.assertIsInstance(search, base.Search)
      self.assertEqual(_parameters(type(search).__call__), protocol)
      output = search(*inputs, np.random.default_rng(0), add_noise=False)
      self.assertIsInstance(output, base.SearchOutput)
      self.assertEqual(output.visit_counts.dtype, np.int32)
      self.assertEqual(output.policy.dtype, np.float32)
      self.assertEqual(output.root_value.dtype, np.float32)
      outputs[kind] = output
    reference = outputs['reference']
    self.assertAllEqual(reference.visit_counts.sum(axis=1),
                        [setup.config.num_simulations] * fixtures.NUM_ROOTS)
    for kind in ('xla', 'graph'):
      self.assertAllEqual(outputs[kind].visit_counts, reference.visit_counts)
      self.assertAllClose(outputs[kind].policy, reference.policy, rtol=0.,
                          atol=1e-7)
    # The graph runs TensorFlow's kernels, as the reference's NetworkModel;
    # XLA's network differs in the last bits (see test_batched.py).
    self.assertAllClose(outputs['graph'].root_value, reference.root_value,
                        rtol=0., atol=1e-5)
    self.assertAllClose(outputs['xla'].root_value,
                        setup.xla_reference.root_value, rtol=0., atol=1e-5)

  @parameterized.parameters(*compiled_search.SEARCH_KINDS)
  def test_runs_the_configs_num_simulations(self, kind):
    setup = fixtures.setup('one_player_scalar')
    self.assertNotEqual(setup.config.num_simulations, 3)
    search = compiled_search.make_search(
        dataclasses.replace(setup.config, num_simulations=3), setup.network,
        kind)
    output = search(setup.observation[:4], setup.to_play[:4],
                    setup.legal[:4],
                    np.random.default_rng(0), add_noise=False)
    self.assertAllEqual(output.visit_counts.sum(axis=1), [3] * 4)

  def test_bad_arguments(self):
    setup = fixtures.setup('one_player_scalar')
    with self.assertRaisesRegex(
        ValueError, r"kind must be one of \('xla', 'graph', 'reference'\), "
        r"got 'jax'"):
      compiled_search.make_search(setup.config, setup.network, 'jax')
    # The count of simulations is the config's, checked there.
    with self.assertRaisesRegex(ValueError, 'num_simulations must be a '
                                'positive integer, got -1'):
      dataclasses.replace(setup.config, num_simulations=-1)
    for kind in compiled_search.SEARCH_KINDS:
      with self.assertRaisesRegex(TypeError, 'num_simulations'):
        compiled_search.make_search(setup.config, setup.network, kind,
                            num_simulations=3)
    gumbel = setup.config.replace(search_policy='gumbel')
    with self.assertRaisesRegex(
        ValueError, "search_policy='gumbel' runs on the batched search "
        "only: kind must be 'xla' or 'graph', got 'reference'"):
      compiled_search.make_search(gumbel, setup.network, 'reference')


if __name__ == '__main__':
  absltest.main()
