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
"""Node: one state of the search tree (the pseudocode's `Node`)."""


class Node:
  """A state of the search tree, reached from its parent by one action.

  The pseudocode's `Node`, with the players' perspectives made explicit:

  * `to_play` is the player to move at this node (0 or 1; always 0 in
    one-player games), set when the node is expanded (-1 until then, as in
    the pseudocode).
  * `reward` is the reward the network predicted for the action leading to
    this node, from the perspective of the player who took it, i.e. the
    parent's `to_play`.
  * `value()` is the mean backed-up return from the perspective of this
    node's `to_play`.

  `__slots__` keeps a node small and its attributes quick to read: a search
  creates one node per action per expansion.

  Attributes:
    visit_count: N, the number of simulations through this node.
    to_play: the player to move at this node.
    prior: P(s, a), the prior probability of the action leading here.
    value_sum: the sum of the returns backed up through this node, each from
      the perspective of `to_play`.
    children: action (int) -> child `Node`, in increasing action order.
    hidden_state: the network's hidden state at this node (one example, no
      batch dimension), or None before expansion.
    reward: the predicted reward for moving into this node.
  """

  __slots__ = ('visit_count', 'to_play', 'prior', 'value_sum', 'children',
               'hidden_state', 'reward')

  def __init__(self, prior: float):
    """Creates an unexpanded node.

    Args:
      prior: P(s, a) of the action that leads to this node.
    """
    self.visit_count = 0
    self.to_play = -1
    self.prior = prior
    self.value_sum = 0.
    # No annotations here: an annotated attribute assignment evaluates its
    # annotation at every call, and the search creates many nodes.
    self.children = {}  # Dict[int, Node]
    self.hidden_state = None  # Optional[np.ndarray]
    self.reward = 0.

  def expanded(self) -> bool:
    """Whether the node has children (it has been expanded)."""
    return bool(self.children)

  def value(self) -> float:
    """The mean backed-up return for `to_play`; 0 before any visit."""
    if self.visit_count == 0:
      return 0.
    return self.value_sum / self.visit_count

  def __repr__(self) -> str:
    return (f'Node(prior={self.prior:.4g}, to_play={self.to_play}, '
            f'visit_count={self.visit_count}, value={self.value():.4g}, '
            f'reward={self.reward:.4g}, children={list(self.children)})')
