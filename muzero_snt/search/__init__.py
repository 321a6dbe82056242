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
"""The MuZero search, the pseudocode's MCTS in NumPy or as batched tensors: a
`Search` (`make_search`) of legal actions as a `[B, A]` bool mask."""

from muzero_snt.search.base import legal_actions_to_mask
from muzero_snt.search.base import Search
from muzero_snt.search.base import SearchOutput
from muzero_snt.search.compiled_search import CompiledSearch
from muzero_snt.search.compiled_search import make_search
from muzero_snt.search.compiled_search import SEARCH_KINDS
from muzero_snt.search.mcts import add_exploration_noise
from muzero_snt.search.mcts import backpropagate
from muzero_snt.search.mcts import expand_node
from muzero_snt.search.mcts import MinMaxStats
from muzero_snt.search.mcts import Node
from muzero_snt.search.mcts import q_value
from muzero_snt.search.mcts import run_mcts
from muzero_snt.search.mcts import sample_action
from muzero_snt.search.mcts import sample_actions
from muzero_snt.search.mcts import select_action
from muzero_snt.search.mcts import select_child
from muzero_snt.search.mcts import ucb_score
from muzero_snt.search.mcts import visit_softmax
from muzero_snt.search.model import Model
from muzero_snt.search.model import NetworkModel
from muzero_snt.search.reference_search import ReferenceSearch
from muzero_snt.search.reference_search import root_statistics
from muzero_snt.search.reference_search import search
from muzero_snt.search.reference_search import search_trees

__all__ = (
    'CompiledSearch',
    'MinMaxStats',
    'Model',
    'NetworkModel',
    'Node',
    'ReferenceSearch',
    'SEARCH_KINDS',
    'Search',
    'SearchOutput',
    'add_exploration_noise',
    'backpropagate',
    'expand_node',
    'legal_actions_to_mask',
    'make_search',
    'q_value',
    'root_statistics',
    'run_mcts',
    'sample_action',
    'sample_actions',
    'search',
    'search_trees',
    'select_action',
    'select_child',
    'ucb_score',
    'visit_softmax',
)
