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
"""Tests of benchmarks/search_lines.py: the principal line of a search."""

import math

from absl.testing import absltest
import dm_env
import numpy as np

from benchmarks import search_lines
from muzero_snt import presets
from muzero_snt import types
from muzero_snt.search import node as node_lib


def _node(to_play, visits, value_sum, reward=0., prior=0.5):
  node = node_lib.Node(prior)
  node.to_play, node.visit_count = to_play, visits
  node.value_sum, node.reward = value_sum, reward
  return node


def _one_player_tree():
  """Four simulations, one player.

  root (4 visits) -> a0 (3 visits, reward 1, value 2) -> b0 (2 visits,
  reward 1, value 1) -> c0 (1 visit, reward 0.5, value 3); root -> a1 (1
  visit, reward 0.5, value 1); a0 -> b1 and b0 -> c1 never visited.
  """
  root = _node(0, 4, 10.)
  a0, a1 = _node(0, 3, 6., 1., prior=.3), _node(0, 1, 1., .5, prior=.7)
  b0, b1 = _node(0, 2, 2., 1.), _node(0, 0, 0.)
  c0, c1 = _node(0, 1, 3., .5), _node(0, 0, 0.)
  root.children = {0: a0, 1: a1}
  a0.children = {0: b0, 1: b1}
  b0.children = {0: c0, 1: c1}
  return root, [root, a0, b0, c0]


class LineTest(absltest.TestCase):

  def test_the_principal_line_follows_the_most_visits(self):
    root, line = _one_player_tree()
    self.assertEqual([id(n) for n in search_lines.principal_line(root)],
                     [id(n) for n in line])
    self.assertEqual(search_lines.max_depth(root), 3)

  def test_a_tie_goes_to_the_lowest_action(self):
    root = _node(0, 2, 0.)
    first, second = _node(0, 1, 1., 1.), _node(0, 1, 1., 1.)
    root.children = {0: first, 1: second}
    self.assertIs(search_lines.principal_line(root)[1], first)

  def test_a_deeper_side_branch_sets_the_maximum_depth(self):
    root, _ = _one_player_tree()
    # a1 gains a visited child two levels down: depth 3 stays the maximum,
    # one more level below it makes 4.
    d = _node(0, 1, 0.)
    e = _node(0, 1, 0.)
    root.children[1].children = {0: d}
    d.children = {0: e}
    f = _node(0, 1, 0.)
    e.children = {0: f}
    self.assertEqual(search_lines.max_depth(root), 4)
    self.assertLen(search_lines.principal_line(root), 4)

  def test_one_player_line_return_by_hand(self):
    _, line = _one_player_tree()
    # c0: 3; b0: 0.5 + 0.9 * 3 = 3.2; a0: 1 + 0.9 * 3.2 = 3.88;
    # root: 1 + 0.9 * 3.88 = 4.492.
    self.assertAlmostEqual(search_lines.line_return(line, 0.9), 4.492)

  def test_two_player_line_return_flips_signs(self):
    # root (player 0) -> a (player 1, reward 1 for player 0) -> b (player 0,
    # reward -1 for player 1, value 2 for player 0). Discount 1.
    root, a, b = _node(0, 2, 0.), _node(1, 2, 0., 1.), _node(0, 1, 2., -1.)
    # b's 2 is -2 for a's player: a backs up -1 - 2 = -3, which is +3 for
    # the root's player: 1 + 3 = 4.
    self.assertAlmostEqual(search_lines.line_return([root, a, b], 1.), 4.)

  def test_tree_statistics_by_hand(self):
    root, _ = _one_player_tree()
    stats = search_lines.tree_statistics(root, network_value=1.5,
                                         discount=0.9)
    self.assertEqual(stats['principal_depth'], 3)
    self.assertEqual(stats['max_depth'], 3)
    self.assertAlmostEqual(stats['top_share'], 3 / 4)
    self.assertAlmostEqual(stats['top_prior'], .3)
    self.assertAlmostEqual(stats['q_top'], 1 + 0.9 * 2)
    self.assertAlmostEqual(stats['q_runner_up'], 0.5 + 0.9 * 1)
    self.assertAlmostEqual(stats['line_mean_reward'], (1 + 1 + 0.5) / 3)
    self.assertAlmostEqual(stats['leaf_value'], 3.)
    self.assertAlmostEqual(stats['line_return'], 4.492)
    self.assertAlmostEqual(stats['root_value'], 2.5)
    self.assertAlmostEqual(stats['network_value'], 1.5)

  def test_an_unsearched_root_is_refused(self):
    root = _node(0, 0, 0.)
    root.children = {0: _node(0, 0, 0.)}
    with self.assertRaisesRegex(ValueError, 'no visited child'):
      search_lines.tree_statistics(root, 0., 1.)


class SummarizeTest(absltest.TestCase):

  def test_means_and_the_gap_over_positions_with_a_runner_up(self):
    base = dict(principal_depth=2, max_depth=3, top_share=1., top_prior=.5,
                q_top=4.,
                q_runner_up=math.nan, line_mean_reward=1., leaf_value=0.,
                line_return=2., root_value=3., network_value=1.)
    other = dict(base, principal_depth=6, max_depth=5, top_share=0.5,
                 q_top=2., q_runner_up=1.5)
    summary = search_lines.summarize([base, other])
    self.assertEqual(summary['positions'], 2)
    self.assertEqual(summary['principal_depth'], 4.)
    self.assertEqual(summary['max_depth'], 4.)
    self.assertEqual(summary['top_share'], 0.75)
    self.assertEqual(summary['q_top'], 3.)
    self.assertEqual(summary['positions_with_runner_up'], 1)
    self.assertEqual(summary['q_gap'], 0.5)
    self.assertEqual(summary['deepest_principal_line'], 6)
    self.assertNotIn('q_runner_up', summary)

  def test_no_runner_up_leaves_the_gap_undefined(self):
    stats = dict(principal_depth=1, max_depth=1, top_share=1., top_prior=1.,
                 q_top=1.,
                 q_runner_up=math.nan, line_mean_reward=1., leaf_value=0.,
                 line_return=1., root_value=1., network_value=1.)
    summary = search_lines.summarize([stats])
    self.assertEqual(summary['positions_with_runner_up'], 0)
    self.assertTrue(math.isnan(summary['q_gap']))


class _Counter:
  """Games of 3 moves; the observation is the move number, players
  alternate, and the legal actions are {move % 2, 2} of 3."""

  def __init__(self):
    self._moves = 0

  def reset(self):
    self._moves = 0
    return dm_env.restart(np.array([0.], np.float32))

  def step(self, action):
    assert action in self.legal_actions(), action
    self._moves += 1
    observation = np.array([self._moves], np.float32)
    if self._moves == 3:
      return dm_env.termination(0., observation)
    return dm_env.transition(0., observation)

  def legal_actions(self):
    return np.array([self._moves % 2, 2], np.int32)

  def to_play(self):
    return self._moves % 2

  def close(self):
    pass


class RandomPositionsTest(absltest.TestCase):

  def test_every_position_before_the_end_when_all_are_taken(self):
    positions = search_lines.random_positions(lambda seed: _Counter(), 3,
                                              num_positions=7, seed=0,
                                              take=1.)
    np.testing.assert_array_equal(positions.observations[:, 0],
                                  [0, 1, 2, 0, 1, 2, 0])
    np.testing.assert_array_equal(positions.to_play, [0, 1, 0, 0, 1, 0, 0])
    np.testing.assert_array_equal(
        positions.legal,
        [[1, 0, 1], [0, 1, 1], [1, 0, 1], [1, 0, 1], [0, 1, 1], [1, 0, 1],
         [1, 0, 1]])

  def test_a_bad_probability_is_refused(self):
    with self.assertRaisesRegex(ValueError, 'take is 0'):
      search_lines.random_positions(lambda seed: _Counter(), 3, 1, 0, take=0)


class _ConstantModel:
  """Value 5 at the root, reward 0.5 and value 2 after any action."""

  def initial_inference(self, observation):
    batch = len(observation)
    return types.NetworkOutput(
        value=np.full(batch, 5.), reward=np.zeros(batch),
        policy_logits=np.zeros((batch, 2)), hidden_state=np.zeros((batch, 1)))

  def recurrent_inference(self, hidden_state, action):
    batch = len(action)
    return types.NetworkOutput(
        value=np.full(batch, 2.), reward=np.full(batch, .5),
        policy_logits=np.zeros((batch, 2)), hidden_state=hidden_state)


class MeasureTest(absltest.TestCase):

  def test_one_simulation_backs_up_one_step(self):
    config = presets.get_preset('cartpole')
    positions = search_lines.Positions(
        np.zeros((3, 4), np.float32), np.zeros(3, np.int32),
        np.ones((3, 2), bool))
    summary = search_lines.measure(config, _ConstantModel(), positions,
                                   num_simulations=1)
    q = 0.5 + config.discount * 2.
    self.assertEqual(summary['positions'], 3)
    self.assertEqual(summary['principal_depth'], 1.)
    self.assertEqual(summary['top_share'], 1.)
    # Logits 0 over two legal actions.
    self.assertAlmostEqual(summary['top_prior'], .5)
    self.assertAlmostEqual(summary['q_top'], q)
    self.assertAlmostEqual(summary['line_return'], q)
    self.assertAlmostEqual(summary['root_value'], q)
    self.assertAlmostEqual(summary['leaf_value'], 2.)
    self.assertAlmostEqual(summary['line_mean_reward'], 0.5)
    self.assertAlmostEqual(summary['network_value'], 5.)
    self.assertEqual(summary['positions_with_runner_up'], 0)


if __name__ == '__main__':
  absltest.main()
