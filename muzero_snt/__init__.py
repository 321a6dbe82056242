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
"""muzero_snt: MuZero (arXiv:1911.08265) as Sonnet 2 modules on TensorFlow 2.

What is public is what this module exports (`__all__`):

- the pseudocode's names: `MuZeroConfig`, `KnownBounds`, the
  `make_*_config` functions, `NetworkOutput`, `scalar_loss`,
  `update_weights` (the literal rendition), `scale_gradient` (Sonnet's),
  `Node`, `MinMaxStats`, `run_mcts`, `ucb_score`, `backpropagate`,
  `add_exploration_noise`, `select_action`, `ReplayBuffer`, ...;
- the pieces a user builds with: presets (`get_preset`), the configuration
  of a user's own environment (`config_for_environment`), `make_network`,
  the batched loss (`unrolled_loss`), `Learner`, `make_search`, `Actor`,
  `ReplayBuffer`, `Reanalyser`;
- the run entry point, `train(RunConfig(...))`: a whole experiment
  (self-play, replay, learner, checkpoints, logs).

The subpackages `networks`, `search` and `environments` are public too.
The machinery that runs an experiment is reached through
`muzero_snt.run`, evaluation through `muzero_snt.evaluation`, the Ray
processes through `muzero_snt.distributed`; other modules are the
library's own.
"""

import sonnet as snt

from muzero_snt import environments
from muzero_snt import networks
from muzero_snt import search
from muzero_snt.acting import Actor
from muzero_snt.config import KnownBounds
from muzero_snt.config import MAXIMUM_FLOAT_VALUE
from muzero_snt.config import MoveCountTemperature
from muzero_snt.config import MuZeroConfig
from muzero_snt.config import NetworkConfig
from muzero_snt.config import TrainingStepTemperature
from muzero_snt.frames import FrameStack
from muzero_snt.learning import Learner
from muzero_snt.learning import learning_rate_schedule
from muzero_snt.losses import consistency_loss
from muzero_snt.losses import l2_regularization
from muzero_snt.losses import policy_loss
from muzero_snt.losses import scalar_loss
from muzero_snt.losses import unrolled_loss
from muzero_snt.networks import make_network
from muzero_snt.networks import MuZeroNetwork
from muzero_snt.optimizers import Adam
from muzero_snt.optimizers import Momentum
from muzero_snt.presets import config_for_environment
from muzero_snt.presets import get_preset
from muzero_snt.presets import make_atari_config
from muzero_snt.presets import make_board_game_config
from muzero_snt.presets import make_cartpole_config
from muzero_snt.presets import make_chess_config
from muzero_snt.presets import make_go_config
from muzero_snt.presets import make_openspiel_chess_config
from muzero_snt.presets import make_openspiel_shogi_config
from muzero_snt.presets import make_shogi_config
from muzero_snt.presets import make_tictactoe_config
from muzero_snt.presets import PRESETS
from muzero_snt.reanalysis import Reanalyser
from muzero_snt.reference import update_weights
from muzero_snt.replay import ReplayBuffer
from muzero_snt.run.experiment import run as train
from muzero_snt.run.run_config import RunConfig
from muzero_snt.search import add_exploration_noise
from muzero_snt.search import backpropagate
from muzero_snt.search import CompiledSearch
from muzero_snt.search import expand_node
from muzero_snt.search import legal_actions_to_mask
from muzero_snt.search import make_search
from muzero_snt.search import MinMaxStats
from muzero_snt.search import Node
from muzero_snt.search import ReferenceSearch
from muzero_snt.search import run_mcts
from muzero_snt.search import Search
from muzero_snt.search import SEARCH_KINDS
from muzero_snt.search import SearchOutput
from muzero_snt.search import select_action
from muzero_snt.search import select_child
from muzero_snt.search import ucb_score
from muzero_snt.trajectory import Target
from muzero_snt.trajectory import Trajectory
from muzero_snt.types import Batch
from muzero_snt.types import LossExtra
from muzero_snt.types import LossOutput
from muzero_snt.types import NetworkOutput
from muzero_snt.value_transforms import scalar_to_support
from muzero_snt.value_transforms import scalar_to_two_hot
from muzero_snt.value_transforms import signed_hyperbolic
from muzero_snt.value_transforms import signed_parabolic
from muzero_snt.value_transforms import support_to_scalar
from muzero_snt.value_transforms import two_hot_to_scalar

# The pseudocode's `tf.scale_gradient` is Sonnet's function, not a copy:
# identity forward, gradient times `scale` backward.
scale_gradient = snt.scale_gradient

__version__ = '0.1.0'

__all__ = (
    'Actor',
    'Adam',
    'Batch',
    'CompiledSearch',
    'FrameStack',
    'KnownBounds',
    'Learner',
    'LossExtra',
    'LossOutput',
    'MAXIMUM_FLOAT_VALUE',
    'MinMaxStats',
    'Momentum',
    'MoveCountTemperature',
    'MuZeroConfig',
    'MuZeroNetwork',
    'NetworkConfig',
    'NetworkOutput',
    'Node',
    'PRESETS',
    'Reanalyser',
    'ReferenceSearch',
    'ReplayBuffer',
    'RunConfig',
    'SEARCH_KINDS',
    'Search',
    'SearchOutput',
    'Target',
    'TrainingStepTemperature',
    'Trajectory',
    'add_exploration_noise',
    'backpropagate',
    'config_for_environment',
    'consistency_loss',
    'environments',
    'expand_node',
    'get_preset',
    'l2_regularization',
    'learning_rate_schedule',
    'legal_actions_to_mask',
    'make_atari_config',
    'make_board_game_config',
    'make_cartpole_config',
    'make_chess_config',
    'make_go_config',
    'make_network',
    'make_openspiel_chess_config',
    'make_openspiel_shogi_config',
    'make_search',
    'make_shogi_config',
    'make_tictactoe_config',
    'networks',
    'policy_loss',
    'run_mcts',
    'scalar_loss',
    'scalar_to_support',
    'scalar_to_two_hot',
    'scale_gradient',
    'search',
    'select_action',
    'select_child',
    'signed_hyperbolic',
    'signed_parabolic',
    'support_to_scalar',
    'train',
    'two_hot_to_scalar',
    'ucb_score',
    'unrolled_loss',
    'update_weights',
)
