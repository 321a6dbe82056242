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
"""Tests for muzero_snt.search.mcts: Node, MinMaxStats and the search rules
by hand."""

import math

import numpy as np
from absl.testing import absltest
from absl.testing import parameterized

from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt import types
from muzero_snt.search import mcts
from tests import testing
from tests.search import oracle

MinMaxStats = mcts.MinMaxStats
Node = mcts.Node

# pb_c_base 3 and pb_c_init 1 make the prior part easy to write down.
ONE_PLAYER = testing.tiny_mlp_config(
    pb_c_base=3, pb_c_init=1., discount=0.9)
TWO_PLAYERS = presets.make_tictactoe_config().replace(
    pb_c_base=3, pb_c_init=1., discount=0.9, known_bounds=None)


def _node(prior=1., to_play=0, visit_count=0, value_sum=0., reward=0.):
  node = Node(prior)
  node.to_play = to_play
  node.visit_count = visit_count
  node.value_sum = value_sum
  node.reward = reward
  return node


def _output(policy_logits, reward=0., hidden_state=None):
  return types.NetworkOutput(
      value=0., reward=reward, policy_logits=np.asarray(policy_logits),
      hidden_state=hidden_state)


def _stats(minimum, maximum):
  stats = MinMaxStats(None)
  stats.update(minimum)
  stats.update(maximum)
  return stats


class NodeTest(absltest.TestCase):

  def test_new_node_is_unexpanded_and_unvisited(self):
    node = Node(0.25)
    self.assertEqual(node.prior, 0.25)
    self.assertFalse(node.expanded())
    self.assertEqual(node.visit_count, 0)
    self.assertEqual(node.value(), 0.)  # Not 0 / 0.
    self.assertEqual(node.to_play, -1)  # Set on expansion, as the pseudocode.
    self.assertEqual(node.reward, 0.)
    self.assertIsNone(node.hidden_state)

  def test_expanded_once_it_has_children(self):
    node = Node(1.)
    node.children[3] = Node(0.5)
    self.assertTrue(node.expanded())

  def test_value_is_the_mean_backed_up_return(self):
    node = Node(1.)
    node.value_sum = 1.5 - 0.5 + 0.2  # Three returns.
    node.visit_count = 3
    self.assertAlmostEqual(node.value(), 1.2 / 3)

  def test_nodes_do_not_share_children(self):
    a, b = Node(0.5), Node(0.5)
    a.children[0] = Node(1.)
    self.assertEmpty(b.children)

  def test_repr_names_the_statistics(self):
    node = Node(0.5)
    node.visit_count, node.value_sum, node.to_play = 2, 1., 1
    self.assertEqual(
        repr(node), 'Node(prior=0.5, to_play=1, visit_count=2, value=0.5, '
        'reward=0, children=[])')


class MinMaxStatsTest(absltest.TestCase):

  def test_unchanged_until_two_distinct_values(self):
    stats = MinMaxStats(None)
    # No bounds yet: the pseudocode returns the value itself.
    self.assertEqual(stats.normalize(0.7), 0.7)
    stats.update(2.)
    # max == min == 2: still no scale.
    self.assertEqual(stats.normalize(0.7), 0.7)
    stats.update(-2.)
    # [-2, 2]: (0.7 + 2) / 4 = 0.675.
    self.assertAlmostEqual(stats.normalize(0.7), 0.675)
    self.assertEqual((stats.minimum, stats.maximum), (-2., 2.))

  def test_known_bounds_normalise_from_the_start(self):
    stats = MinMaxStats(config_lib.KnownBounds(-1, 1))
    # (0 + 1) / 2 = 0.5; (1 + 1) / 2 = 1.
    self.assertAlmostEqual(stats.normalize(0.), 0.5)
    self.assertAlmostEqual(stats.normalize(1.), 1.)

  def test_known_bounds_only_widen(self):
    stats = MinMaxStats(config_lib.KnownBounds(-1, 1))
    stats.update(0.3)  # Inside: no change.
    self.assertEqual((stats.minimum, stats.maximum), (-1., 1.))
    stats.update(3.)
    # [-1, 3]: (1 + 1) / 4 = 0.5.
    self.assertAlmostEqual(stats.normalize(1.), 0.5)

  def test_values_outside_the_bounds_leave_the_unit_interval(self):
    stats = MinMaxStats(None)
    stats.update(0.)
    stats.update(1.)
    self.assertAlmostEqual(stats.normalize(1.5), 1.5)
    self.assertAlmostEqual(stats.normalize(-0.5), -0.5)



class QValueTest(parameterized.TestCase):

  @parameterized.named_parameters(
      # Same player: 0.5 + 0.9 * 0.4 = 0.86.
      ('one_player', 0, 0.86),
      # The child's value 0.4 is the opponent's: 0.5 + 0.9 * -0.4 = 0.14.
      ('two_players', 1, 0.14))
  def test_reward_plus_discounted_value_for_the_parent(self, child_player,
                                                       expected):
    parent = _node(to_play=0, visit_count=4)
    child = _node(to_play=child_player, visit_count=2, value_sum=0.8,
                  reward=0.5)
    self.assertAlmostEqual(mcts.q_value(parent, child, 0.9), expected)


class UcbScoreTest(parameterized.TestCase):

  @parameterized.named_parameters(
      ('one_player', ONE_PLAYER, 0, 0.86),
      ('two_players', TWO_PLAYERS, 1, 0.14))
  def test_prior_part_plus_normalised_q(self, config, child_player, q):
    parent = _node(to_play=0, visit_count=4)
    child = _node(prior=0.3, to_play=child_player, visit_count=1,
                  value_sum=0.4, reward=0.5)
    stats = _stats(0., 2.)
    # pb_c = log((4 + 3 + 1) / 3) + 1 = 1.9808; times sqrt(4) / (1 + 1) = 1.
    prior_part = 0.3 * (math.log(8 / 3) + 1) * 2 / 2
    # Q (see QValueTest) normalised in [0, 2]: q / 2.
    expected = prior_part + q / 2
    self.assertAlmostEqual(mcts.ucb_score(config, parent, child, stats),
                           expected)

  def test_single_point_bounds_leave_q_unnormalised(self):
    parent = _node(to_play=0, visit_count=4)
    child = _node(prior=0.3, visit_count=1, value_sum=0.4, reward=0.5)
    stats = MinMaxStats(None)
    stats.update(0.86)
    # min == max: normalize returns Q = 0.86 itself.
    expected = 0.3 * (math.log(8 / 3) + 1) + 0.86
    self.assertAlmostEqual(
        mcts.ucb_score(ONE_PLAYER, parent, child, stats), expected)

  # Parent with 4 visits and value sum 1.2 (mean 0.3); known bounds [-1, 1]
  # normalise Q to (Q + 1) / 2. Prior part: pb_c = log(8 / 3) + 1, times
  # sqrt(4) / (0 + 1) = 2, times the prior 0.3.
  @parameterized.named_parameters(
      ('zero_is_a_draw', 'zero', (0. + 1) / 2),  # The pseudocode's.
      ('parent_mean_value', 'parent', (0.3 + 1) / 2),
      ('minimum_has_no_value_part', 'minimum', 0.))
  def test_unvisited_child_value_part(self, unvisited_q, value_part):
    config = ONE_PLAYER.replace(unvisited_q=unvisited_q)
    parent = _node(to_play=0, visit_count=4, value_sum=1.2)
    child = _node(prior=0.3)
    stats = MinMaxStats(config_lib.KnownBounds(-1, 1))
    expected = 0.3 * (math.log(8 / 3) + 1) * 2 + value_part
    self.assertAlmostEqual(
        mcts.ucb_score(config, parent, child, stats), expected)

  def test_unvisited_child_without_bounds_keeps_its_q(self):
    # No bounds yet (max < min): normalize returns Q unchanged, 0.3.
    config = ONE_PLAYER.replace(unvisited_q='parent')
    parent = _node(to_play=0, visit_count=4, value_sum=1.2)
    child = _node(prior=0.3)
    expected = 0.3 * (math.log(8 / 3) + 1) * 2 + 0.3
    self.assertAlmostEqual(
        mcts.ucb_score(config, parent, child, MinMaxStats(None)), expected)

  def test_unvisited_parent_has_no_prior_part(self):
    parent = _node(to_play=0, visit_count=0)
    child = _node(prior=0.9)
    # No bounds: the unvisited child's Q of 0 stays 0 unnormalised.
    self.assertEqual(
        mcts.ucb_score(ONE_PLAYER, parent, child, MinMaxStats(None)), 0.)

  def test_paper_constants(self):
    config = presets.make_tictactoe_config()  # 19652 and 1.25.
    parent = _node(to_play=0, visit_count=100)
    child = _node(prior=0.2, to_play=1, visit_count=9, value_sum=-4.5,
                  reward=0.)
    stats = MinMaxStats(config.known_bounds)
    # pb_c = log(19753 / 19652) + 1.25 = 1.255126; * sqrt(100) / 10 = 1.
    # Q = 0 + 1 * -(-0.5) = 0.5, normalised in [-1, 1]: 0.75.
    expected = 0.2 * (math.log(19753 / 19652) + 1.25) + 0.75
    self.assertAlmostEqual(
        mcts.ucb_score(config, parent, child, stats), expected)


class SelectChildTest(absltest.TestCase):

  def test_highest_score_wins(self):
    parent = _node(to_play=0, visit_count=2)
    parent.children[0] = _node(prior=0.5)
    parent.children[1] = _node(prior=0.5, visit_count=2, value_sum=1.4)
    stats = _stats(0., 1.)
    # pb_c = log((2 + 3 + 1) / 3) + 1 = 1.6931.
    # Child 0: 0.5 * 1.6931 * sqrt(2) / 1 = 1.1972.
    # Child 1: 0.5 * 1.6931 * sqrt(2) / 3 + normalize(0 + 0.9 * 0.7)
    #   = 0.3991 + 0.63 = 1.0291.
    self.assertEqual(mcts.select_child(ONE_PLAYER, parent, stats)[0], 0)
    parent.children[1].value_sum = 2.  # Q = 0.9: 1.2991 > 1.1972.
    action, child = mcts.select_child(ONE_PLAYER, parent, stats)
    self.assertEqual(action, 1)
    self.assertIs(child, parent.children[1])

  def test_ties_go_to_the_lowest_action(self):
    for order in ((5, 3, 7), (7, 3, 5), (3, 7, 5)):
      parent = _node(to_play=0, visit_count=1)
      priors = {5: 0.2, 3: 0.4, 7: 0.4}  # 3 and 7 tie.
      for action in order:
        parent.children[action] = _node(prior=priors[action])
      self.assertEqual(
          mcts.select_child(ONE_PLAYER, parent, MinMaxStats(None))[0], 3)


class ExpandNodeTest(absltest.TestCase):

  def test_softmax_over_the_given_actions_only(self):
    node = Node(0.)
    state = np.arange(3.)
    mcts.expand_node(node, 1, [3, 1], _output([1., 2., 3., 4.], 0.25, state))
    self.assertEqual(node.to_play, 1)
    self.assertEqual(node.reward, 0.25)
    self.assertIs(node.hidden_state, state)
    self.assertEqual(list(node.children), [1, 3])  # Increasing order.
    # softmax([2, 4]) = [1, e^2] / (1 + e^2).
    self.assertAlmostEqual(node.children[1].prior, 1 / (1 + math.e**2))
    self.assertAlmostEqual(node.children[3].prior,
                           math.e**2 / (1 + math.e**2))
    for child in node.children.values():
      self.assertFalse(child.expanded())
      self.assertEqual(child.visit_count, 0)

  def test_large_logits_are_stable(self):
    node = Node(0.)
    mcts.expand_node(node, 0, range(2), _output([1000., 1001.]))
    # softmax([0, 1]) = [1, e] / (1 + e).
    self.assertAlmostEqual(node.children[0].prior, 1 / (1 + math.e))
    self.assertAlmostEqual(node.children[1].prior, math.e / (1 + math.e))


class BackpropagateTest(absltest.TestCase):

  def _path(self, players):
    """root -> a (reward 0.5) -> b (reward 0.2), with the given to_play."""
    root = _node(to_play=players[0])
    a = _node(to_play=players[1], reward=0.5)
    b = _node(to_play=players[2], reward=0.2)
    return [root, a, b]

  def test_one_player(self):
    root, a, b = path = self._path([0, 0, 0])
    stats = MinMaxStats(None)
    mcts.backpropagate(path, 0.3, 0.9, stats)
    # b: 0.3. a: 0.2 + 0.9 * 0.3 = 0.47. root: 0.5 + 0.9 * 0.47 = 0.923.
    self.assertAlmostEqual(b.value_sum, 0.3)
    self.assertAlmostEqual(a.value_sum, 0.47)
    self.assertAlmostEqual(root.value_sum, 0.923)
    self.assertEqual([n.visit_count for n in path], [1, 1, 1])
    # Q(a, b) = 0.2 + 0.9 * 0.3 = 0.47, Q(root, a) = 0.5 + 0.9 * 0.47.
    self.assertAlmostEqual(stats.minimum, 0.47)
    self.assertAlmostEqual(stats.maximum, 0.923)

  def test_two_players(self):
    root, a, b = path = self._path([0, 1, 0])
    stats = MinMaxStats(None)
    mcts.backpropagate(path, 0.3, 0.9, stats)
    # b (player 0): 0.3.
    # a (player 1): a moved into b for 0.2, then b's 0.3 is player 0's:
    #   0.2 + 0.9 * -0.3 = -0.07.
    # root (player 0): 0.5 + 0.9 * -(-0.07) = 0.563.
    self.assertAlmostEqual(b.value_sum, 0.3)
    self.assertAlmostEqual(a.value_sum, -0.07)
    self.assertAlmostEqual(root.value_sum, 0.563)
    # Q(a, b) = -0.07 and Q(root, a) = 0.563, as ucb_score computes them.
    self.assertAlmostEqual(stats.minimum, -0.07)
    self.assertAlmostEqual(stats.maximum, 0.563)

    # A second simulation through a to a new leaf c (player 0, reward -0.4
    # for player 1), valued -0.5 for player 0.
    c = _node(to_play=0, reward=-0.4)
    mcts.backpropagate([root, a, c], -0.5, 0.9, stats)
    # c: -0.5. a: -0.4 + 0.9 * 0.5 = 0.05, value_sum -0.07 + 0.05 = -0.02.
    # root: 0.5 + 0.9 * -0.05 = 0.455, value_sum 0.563 + 0.455 = 1.018.
    self.assertAlmostEqual(c.value_sum, -0.5)
    self.assertAlmostEqual(a.value_sum, -0.02)
    self.assertAlmostEqual(root.value_sum, 1.018)
    self.assertEqual([root.visit_count, a.visit_count], [2, 2])
    # New Q values: Q(a, c) = 0.05, Q(root, a) = 0.5 + 0.9 * 0.01 = 0.509,
    # both inside [-0.07, 0.563].
    self.assertAlmostEqual(stats.minimum, -0.07)
    self.assertAlmostEqual(stats.maximum, 0.563)
    self.assertAlmostEqual(mcts.q_value(root, a, 0.9), 0.509)

  def test_known_bounds_are_kept(self):
    path = self._path([0, 1, 0])
    stats = MinMaxStats(config_lib.KnownBounds(-1, 1))
    mcts.backpropagate(path, 0.3, 0.9, stats)
    self.assertEqual((stats.minimum, stats.maximum), (-1., 1.))

  def test_root_only(self):
    root = _node(to_play=1)
    stats = MinMaxStats(None)
    mcts.backpropagate([root], 0.4, 0.9, stats)
    self.assertEqual((root.visit_count, root.value_sum), (1, 0.4))
    # The root has no parent, hence no Q.
    self.assertEqual(stats.maximum, -math.inf)


class AddExplorationNoiseTest(absltest.TestCase):

  def test_noise_goes_to_children_in_action_order(self):
    config = ONE_PLAYER.replace(root_exploration_fraction=1.,
                                root_dirichlet_alpha=0.5)
    root = _node()
    for action in (4, 1, 6):
      root.children[action] = _node(prior=1 / 3)
    mcts.add_exploration_noise(config, root, np.random.default_rng(7))
    # With fraction 1 the priors are the noise: one Dirichlet draw of size 3.
    noise = np.random.default_rng(7).dirichlet([0.5] * 3)
    np.testing.assert_allclose(
        [root.children[a].prior for a in (1, 4, 6)], noise, rtol=1e-12)

  def test_mean_and_variance_over_many_draws(self):
    alpha, frac, num_draws = 0.3, 0.25, 20000
    config = ONE_PLAYER.replace(root_dirichlet_alpha=alpha,
                                root_exploration_fraction=frac)
    prior = np.array([0.1, 0.2, 0.3, 0.4])
    rng = np.random.default_rng(0)
    root = _node()
    for action in range(4):
      root.children[action] = _node()
    noised = np.empty((num_draws, 4))
    for i in range(num_draws):
      for action, child in root.children.items():
        child.prior = prior[action]
      mcts.add_exploration_noise(config, root, rng)
      noised[i] = [child.prior for child in root.children.values()]
    np.testing.assert_allclose(noised.sum(axis=1), 1., rtol=1e-12)
    # Each Dirichlet component is Beta(0.3, 0.9): mean 1/4, variance
    # (1/4)(3/4) / (4 * 0.3 + 1) = 0.085227. The noised prior's mean is
    # (1 - frac) prior + frac / 4, with standard error
    # frac * sqrt(0.085227 / 20000) = 0.00052: tolerance 0.003 (~6 s.e.).
    np.testing.assert_allclose(noised.mean(axis=0),
                               (1 - frac) * prior + frac / 4, atol=0.003)
    # Its variance is frac^2 * 0.085227 = 0.0053267. Beta(0.3, 0.9) has
    # kurtosis 2.881, so the sample variance's relative standard error is
    # sqrt((2.881 - 1) / 20000) = 0.0097: tolerance 5%, ~5 s.e. An alpha of
    # 0.25 or 0.35 would move it by 7% or more.
    np.testing.assert_allclose(
        noised.var(axis=0), frac**2 * 0.25 * 0.75 / (4 * alpha + 1),
        rtol=0.05)


class _TreeModel:
  """Node k has children 2k + 1 + a; rewards and values from a table.

  The hidden state is `[B, 1]`, the node's number; policy logits are 0.
  """

  def __init__(self, reward, value):
    self.reward, self.value = reward, value
    self.calls = []

  def recurrent_inference(self, hidden_state, action):
    ids = [int(2 * k + 1 + a) for k, a in zip(hidden_state[:, 0], action)]
    self.calls.append(list(zip(hidden_state[:, 0].tolist(), action.tolist())))
    return types.NetworkOutput(
        value=np.array([self.value.get(i, 0.) for i in ids]),
        reward=np.array([self.reward.get(i, 0.) for i in ids]),
        policy_logits=np.zeros((len(ids), 2)),
        hidden_state=np.array(ids, np.float64)[:, None])


def _root(to_play=0, num_actions=2):
  root = Node(0.)
  mcts.expand_node(root, to_play, range(num_actions),
                   _output(np.zeros(num_actions), 0., np.zeros(1)))
  return root


class RunMctsTest(absltest.TestCase):

  def test_three_simulations_by_hand(self):
    # Two players, discount 1, no known bounds, the paper's pb_c constants;
    # two actions with prior 0.5 each.
    config = presets.make_tictactoe_config().replace(
        action_space_size=2, known_bounds=None, num_simulations=3,
        board_symmetries='none')
    model = _TreeModel(reward={1: 0., 2: 0.2, 5: 1.},
                       value={1: 0.5, 2: -0.3, 5: 0.25})
    root = _root()
    stats = MinMaxStats(None)
    mcts.run_mcts(config, [root], model, [stats])
    # 1. N = 0: both scores 0, the lowest action 0 -> node 1 (player 1),
    #    value 0.5. Q(root, 1) = 0 - 0.5 = -0.5; root sum -0.5.
    # 2. N = 1: node 1: 0.5 * 1.2501 * 1 / 2 + (-0.5) (a single bound:
    #    unnormalised) = -0.19; node 2: 0.5 * 1.2501 = 0.625 -> action 1,
    #    node 2 (player 1): reward 0.2, value -0.3. Q = 0.2 + 0.3 = 0.5;
    #    root sum -0.5 + 0.5 = 0.
    # 3. N = 2, bounds [-0.5, 0.5]: both prior parts 0.5 * 1.25015 * sqrt(2)
    #    / 2 = 0.442; node 1: + 0, node 2: + 1 -> node 2. Its children 5
    #    and 6 are unvisited and tie -> action 0, node 5 (player 0):
    #    reward 1 for player 1, value 0.25 for player 0.
    #    Node 5: sum 0.25. Q(2, 5) = 1 - 0.25 = 0.75 (new maximum).
    #    Node 2: G = 0.75, sum -0.3 + 0.75 = 0.45, value 0.225;
    #    Q(root, 2) = 0.2 - 0.225 = -0.025.
    #    Root: G = 0.2 - 0.75 = -0.55, sum 0 - 0.55 = -0.55.
    self.assertEqual(model.calls, [[(0., 0)], [(0., 1)], [(2., 0)]])
    node_1, node_2 = root.children[0], root.children[1]
    node_5, node_6 = node_2.children[0], node_2.children[1]
    self.assertEqual(
        [root.visit_count, node_1.visit_count, node_2.visit_count,
         node_5.visit_count, node_6.visit_count], [3, 1, 2, 1, 0])
    self.assertEqual([node_1.to_play, node_2.to_play, node_5.to_play],
                     [1, 1, 0])
    self.assertEqual(node_5.reward, 1.)
    self.assertAlmostEqual(root.value_sum, -0.55)
    self.assertAlmostEqual(node_1.value_sum, 0.5)
    self.assertAlmostEqual(node_2.value_sum, 0.45)
    self.assertAlmostEqual(node_5.value_sum, 0.25)
    self.assertAlmostEqual(stats.minimum, -0.5)
    self.assertAlmostEqual(stats.maximum, 0.75)
    self.assertFalse(node_6.expanded())

  def test_root_value_is_inside_the_bounds(self):
    # The root is never fed to MinMaxStats (docs/pseudocode.md, N): its
    # value is the visit-weighted mean of its children's Q, which the bounds
    # have seen, so feeding it too could not widen them.
    rng = np.random.default_rng(7)
    reward = dict(enumerate(rng.uniform(-1., 1., 2**12)))
    value = dict(enumerate(rng.uniform(-2., 2., 2**12)))
    for players in (1, 2):
      with self.subTest(players=players):
        config = presets.make_tictactoe_config().replace(
            action_space_size=2, known_bounds=None, num_simulations=40,
            num_players=players, discount=0.9, board_symmetries='none')
        root = _root()
        stats = MinMaxStats(None)
        mcts.run_mcts(config, [root], _TreeModel(reward, value), [stats])
        children = root.children.values()
        mean_q = sum(child.visit_count * mcts.q_value(root, child, 0.9)
                     for child in children) / sum(
                         child.visit_count for child in children)
        self.assertAlmostEqual(root.value(), mean_q)
        self.assertLess(stats.minimum, stats.maximum)
        self.assertBetween(root.value(), stats.minimum, stats.maximum)

  def test_one_batched_call_per_simulation(self):
    config = presets.make_tictactoe_config().replace(num_simulations=7)
    model = oracle.TicTacToeOracle()
    positions = ['XX.OO....', '.........', 'X...O...X']
    output = model.initial_inference(
        np.stack([oracle.observation(p)[0] for p in positions]))
    roots = []
    for i, p in enumerate(positions):
      _, to_play, legal = oracle.observation(p)
      root = Node(0.)
      mcts.expand_node(root, to_play, legal, types.NetworkOutput(
          0., 0., output.policy_logits[i], output.hidden_state[i]))
      roots.append(root)
    mcts.run_mcts(config, roots, model,
                  [MinMaxStats(config.known_bounds) for _ in roots])
    self.assertEqual(model.batch_sizes, [3] * 7)
    self.assertEqual([r.visit_count for r in roots], [7, 7, 7])

  def test_batch_equals_separate_searches(self):
    config = presets.make_tictactoe_config()
    model = oracle.TicTacToeOracle()
    positions = ['XX.OO.X..', 'X...O...X', 'OX.XO....']

    def make_root(position):
      obs, to_play, legal = oracle.observation(position)
      output = model.initial_inference(obs[None])
      root = Node(0.)
      mcts.expand_node(root, to_play, legal, types.NetworkOutput(
          0., 0., output.policy_logits[0], output.hidden_state[0]))
      return root

    def visits(root):
      return {a: c.visit_count for a, c in root.children.items()}

    roots = [make_root(p) for p in positions]
    mcts.run_mcts(config, roots, model,
                  [MinMaxStats(config.known_bounds) for _ in roots])
    for position, batched in zip(positions, roots):
      alone = make_root(position)
      mcts.run_mcts(config, [alone], model,
                    [MinMaxStats(config.known_bounds)])
      self.assertEqual(visits(batched), visits(alone))
      self.assertAlmostEqual(batched.value_sum, alone.value_sum)

  def test_bad_arguments(self):
    config = presets.make_tictactoe_config()
    model = oracle.TicTacToeOracle()
    with self.assertRaisesRegex(ValueError, '2 roots and 1 stats'):
      mcts.run_mcts(config, [_root(), _root()], model, [MinMaxStats(None)])
    with self.assertRaisesRegex(ValueError, 'root 1 has no children'):
      mcts.run_mcts(config, [_root(), Node(0.)], model,
                    [MinMaxStats(None)] * 2)


if __name__ == '__main__':
  absltest.main()
