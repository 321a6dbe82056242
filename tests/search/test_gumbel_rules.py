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
"""Tests for gumbel_rules.py: one node's numbers worked out by hand.

The node has three actions, priors (0.5, 0.3, 0.2), visits (2, 1, 0),
child value sums (1.0, 0.3, 0) and rewards (0.1, 0, 0); discount 0.5 and
network value 0.2. One player: Q = (0.1 + 0.5 * 1.0 / 2, 0 + 0.5 * 0.3) =
(0.35, 0.15). v_mix = (0.2 + 3 * (0.5 * 0.35 + 0.3 * 0.15) / 0.8) / 4 =
0.25625. Completed Q (0.35, 0.15, 0.25625), min-max normalised (1, 0,
0.53125), times (50 + 2) * 1: sigma = (52, 0, 27.625).
"""

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt.search import gumbel_rules
from muzero_snt.search import tree as tree_lib
from tests import testing

PRIOR = [0.5, 0.3, 0.2]
VISITS = [2., 1., 0.]


def _edges():
  """`[1, 3, 6]` the node's row of `Tree.edges`."""
  edges = np.zeros((1, 3, tree_lib.NUM_EDGE_STATISTICS), np.float64)
  edges[0, :, tree_lib.PRIOR] = PRIOR
  edges[0, :, tree_lib.VISIT_COUNT] = VISITS
  edges[0, :, tree_lib.VALUE_SUM] = [1.0, 0.3, 0.]
  edges[0, :, tree_lib.REWARD] = [0.1, 0., 0.]
  return tf.constant(edges)


def _config(num_players=1):
  return testing.tiny_mlp_config().replace(
      action_space_size=3, discount=0.5, num_players=num_players,
      gumbel_c_visit=50., gumbel_c_scale=1.)


class GumbelRulesTest(testing.TestCase):

  def test_child_q_one_and_two_players(self):
    self.assertAllClose(gumbel_rules.child_q(_config(1), _edges()),
                        [[0.35, 0.15, 0.]])
    # Two players: the child's value is the other player's: 0.1 - 0.25.
    self.assertAllClose(gumbel_rules.child_q(_config(2), _edges()),
                        [[-0.15, -0.15, 0.]])

  def test_mixed_value(self):
    value = gumbel_rules.mixed_value(
        tf.constant([0.2], tf.float64), tf.constant([[0.35, 0.15, 9.]],
                                                    tf.float64),
        tf.constant([VISITS], tf.float64), tf.constant([PRIOR], tf.float64))
    self.assertAllClose(value, [0.25625])

  def test_mixed_value_without_visits_is_the_network_value(self):
    value = gumbel_rules.mixed_value(
        tf.constant([0.7]), tf.zeros([1, 3]), tf.zeros([1, 3]),
        tf.constant([PRIOR]))
    self.assertAllClose(value, [0.7])

  def test_sigma_completed_q(self):
    sigma = gumbel_rules.sigma_completed_q(_config(), _edges(),
                                           tf.constant([0.2], tf.float64))
    self.assertAllClose(sigma, [[52., 0., 27.625]])
    # c_scale multiplies: 0.1 as mctx's default value_scale.
    config = _config().replace(gumbel_c_scale=0.1)
    sigma = gumbel_rules.sigma_completed_q(config, _edges(),
                                           tf.constant([0.2], tf.float64))
    self.assertAllClose(sigma, [[5.2, 0., 2.7625]])

  def test_sigma_of_equal_q_is_zero(self):
    # No visits: every completed Q is the network value; range 0.
    edges = _edges().numpy()
    edges[..., tree_lib.VISIT_COUNT] = 0.
    sigma = gumbel_rules.sigma_completed_q(_config(), tf.constant(edges),
                                           tf.constant([0.2], tf.float64))
    self.assertAllClose(sigma, [[0., 0., 0.]])

  def test_root_scores_keep_the_considered_legal_actions(self):
    sigma = tf.constant([[52., 0., 27.625]], tf.float64)
    logits = tf.constant([[1., 2., 3.]], tf.float64)
    gumbel = tf.constant([[0., 1., -1.]], tf.float64)
    legal = tf.constant([[True, True, False]])
    visits = tf.constant([[1., 1., 0.]], tf.float64)
    scores = gumbel_rules.root_scores(gumbel, logits, sigma, visits,
                                      tf.constant([1]), legal)
    # Logits less their legal maximum 2: g + logits + sigma = (51, 1).
    self.assertAllClose(scores, [[51., 1., -np.inf]])
    scores = gumbel_rules.root_scores(gumbel, logits, sigma, visits,
                                      tf.constant([0]), legal)
    self.assertAllClose(scores, [[-np.inf, -np.inf, -np.inf]])

  def test_interior_scores(self):
    sigma = tf.constant([[52., 0., 27.625]], tf.float64)
    scores = gumbel_rules.interior_scores(
        sigma, tf.constant([PRIOR], tf.float64),
        tf.constant([VISITS], tf.float64))
    logits = np.log(PRIOR) + [52., 0., 27.625]
    improved = np.exp(logits - logits.max())
    improved /= improved.sum()
    self.assertAllClose(scores, [improved - np.array(VISITS) / 4.])
    self.assertAllClose(scores, [[0.5, -0.25, 0.]], atol=1e-9)

  def test_improved_policy_is_zero_on_illegal_actions(self):
    policy = gumbel_rules.improved_policy(
        tf.constant([[0., 5., np.log(2.)]], tf.float64),
        tf.constant([[1., 0., 1.]], tf.float64),
        tf.constant([[True, False, True]]))
    # exp(0 + 1) : exp(log 2 + 1) = 1 : 2.
    self.assertAllClose(policy, [[1 / 3, 0., 2 / 3]])


if __name__ == '__main__':
  absltest.main()
