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
"""Tests for muzero_snt.search.model: NetworkModel and the Model protocol."""

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import networks
from muzero_snt import presets
from muzero_snt.search import model as model_lib
from tests import testing
from tests.search import oracle

CONFIGS = (
    ('mlp', testing.tiny_mlp_config),
    ('mlp_categorical', lambda: testing.tiny_mlp_config(support_size=21)),
    ('residual', presets.make_tictactoe_config),
)


def _policy_head_variables(network, num_actions):
  """The final policy layer: (w [F, A], b [A])."""
  b = next(v for v in network.variables
           if v.name.startswith('prediction/policy_head') and
           v.name.endswith('/b:0') and v.shape == (num_actions,))
  w_name = b.name[:-len('b:0')] + 'w:0'
  w = next(v for v in network.variables if v.name == w_name)
  return w, b


class NetworkModelTest(testing.TestCase):

  def _make(self, make_config):
    config = make_config()
    network = networks.make_network(config)
    return config, network, model_lib.NetworkModel(network)

  def assert_outputs_equal(self, actual, expected):
    for field in ('value', 'reward', 'policy_logits', 'hidden_state'):
      a, e = getattr(actual, field), getattr(expected, field)
      self.assertIsInstance(a, np.ndarray, field)
      self.assertEqual(a.dtype, np.float32, field)
      self.assertAllClose(a, e, atol=1e-5, rtol=1e-5, msg=field)
    self.assertIsNone(actual.value_logits)
    self.assertIsNone(actual.reward_logits)

  @parameterized.named_parameters(*CONFIGS)
  def test_matches_the_network_for_any_batch_size(self, make_config):
    config, network, model = self._make(make_config)
    rng = np.random.default_rng(0)
    for batch_size in (1, 5):
      observation = rng.uniform(
          size=(batch_size,) + config.observation_shape).astype(np.float32)
      action = rng.integers(0, config.action_space_size, batch_size)
      initial = model.initial_inference(observation)
      self.assert_outputs_equal(initial,
                                network.initial_inference(observation))
      np.testing.assert_array_equal(initial.reward, np.zeros(batch_size))
      recurrent = model.recurrent_inference(initial.hidden_state, action)
      self.assert_outputs_equal(
          recurrent,
          network.recurrent_inference(
              tf.constant(initial.hidden_state), tf.constant(action,
                                                             tf.int32)))
    self.assertEqual(model.tracing_counts, (1, 1))

  @parameterized.named_parameters(*CONFIGS)
  def test_sees_variable_updates_without_retracing(self, make_config):
    config, network, model = self._make(make_config)
    num_actions = config.action_space_size
    observation = np.random.default_rng(1).uniform(
        size=(3,) + config.observation_shape).astype(np.float32)
    before = model.initial_inference(observation).policy_logits
    # A zero final layer with bias b outputs b for every input.
    w, b = _policy_head_variables(network, num_actions)
    bias = np.linspace(-1., 2., num_actions).astype(np.float32)
    w.assign(tf.zeros_like(w))
    b.assign(bias)
    initial = model.initial_inference(observation)
    np.testing.assert_array_equal(initial.policy_logits,
                                  np.tile(bias, (3, 1)))
    self.assertFalse(np.allclose(before, initial.policy_logits))
    recurrent = model.recurrent_inference(initial.hidden_state,
                                          np.zeros(3, np.int32))
    np.testing.assert_array_equal(recurrent.policy_logits,
                                  np.tile(bias, (3, 1)))
    self.assertEqual(model.tracing_counts, (1, 1))

  @parameterized.named_parameters(*CONFIGS)
  def test_builds_variables_before_tracing_and_keeps_them(self, make_config):
    network = networks.make_network(make_config())
    created_in_trace = []

    def creator(next_creator, **kwargs):
      if tf.inside_function():
        created_in_trace.append(kwargs.get('name'))
      return next_creator(**kwargs)

    with tf.variable_creator_scope(creator):
      model_lib.NetworkModel(network)
    self.assertEmpty(created_in_trace)
    variables = [v.ref() for v in network.variables]
    self.assertNotEmpty(variables)
    model_lib.NetworkModel(network)  # A second model reuses them.
    self.assertEqual([v.ref() for v in network.variables], variables)

  def test_rejects_other_objects(self):
    with self.assertRaisesRegex(TypeError, 'MuZeroNetwork, got dict'):
      model_lib.NetworkModel({})

  def test_is_a_model(self):
    network = networks.make_network(testing.tiny_mlp_config())
    self.assertIsInstance(model_lib.NetworkModel(network), model_lib.Model)
    self.assertIsInstance(oracle.TicTacToeOracle(), model_lib.Model)
    self.assertNotIsInstance(object(), model_lib.Model)


if __name__ == '__main__':
  tf.test.main()
