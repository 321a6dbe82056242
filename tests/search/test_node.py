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
"""Tests for muzero_snt.search.node."""

from absl.testing import absltest

from muzero_snt.search import node as node_lib


class NodeTest(absltest.TestCase):

  def test_new_node_is_unexpanded_and_unvisited(self):
    node = node_lib.Node(0.25)
    self.assertEqual(node.prior, 0.25)
    self.assertFalse(node.expanded())
    self.assertEqual(node.visit_count, 0)
    self.assertEqual(node.value(), 0.)  # Not 0 / 0.
    self.assertEqual(node.to_play, -1)  # Set on expansion, as the pseudocode.
    self.assertEqual(node.reward, 0.)
    self.assertIsNone(node.hidden_state)

  def test_expanded_once_it_has_children(self):
    node = node_lib.Node(1.)
    node.children[3] = node_lib.Node(0.5)
    self.assertTrue(node.expanded())

  def test_value_is_the_mean_backed_up_return(self):
    node = node_lib.Node(1.)
    node.value_sum = 1.5 - 0.5 + 0.2  # Three returns.
    node.visit_count = 3
    self.assertAlmostEqual(node.value(), 1.2 / 3)

  def test_nodes_do_not_share_children(self):
    a, b = node_lib.Node(0.5), node_lib.Node(0.5)
    a.children[0] = node_lib.Node(1.)
    self.assertEmpty(b.children)

  def test_repr_names_the_statistics(self):
    node = node_lib.Node(0.5)
    node.visit_count, node.value_sum, node.to_play = 2, 1., 1
    self.assertEqual(
        repr(node), 'Node(prior=0.5, to_play=1, visit_count=2, value=0.5, '
        'reward=0, children=[])')


if __name__ == '__main__':
  absltest.main()
