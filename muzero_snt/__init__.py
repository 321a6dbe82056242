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

The public names are `__all__`: the pseudocode's (`MuZeroConfig`,
`update_weights`, `run_mcts`, ...), the pieces a user builds with
(`get_preset`, `make_network`, `Learner`, ...), the entry point
`train(RunConfig(...))` and the subpackages `networks`, `search` and
`environments`; a run's machinery is in `muzero_snt.run`, `.evaluation` and
`.distributed`.
"""

import importlib
from typing import Any, TYPE_CHECKING

if TYPE_CHECKING:
  # The modules `__getattr__` imports from, for readers, type checkers and
  # the Bazel targets (`tools/build_files.py` reads these imports).
  # pylint: disable=g-bad-import-order,unused-import
  import sonnet
  from muzero_snt import acting
  from muzero_snt import config
  from muzero_snt import environments
  from muzero_snt import frames
  from muzero_snt import learning
  from muzero_snt import losses
  from muzero_snt import networks
  from muzero_snt import optimizers
  from muzero_snt import presets
  from muzero_snt import reanalysis
  from muzero_snt import reference
  from muzero_snt import replay
  from muzero_snt import search
  from muzero_snt import trajectory
  from muzero_snt import types
  from muzero_snt import value_transforms
  from muzero_snt.run import experiment
  from muzero_snt.run import run_config
  # pylint: enable=g-bad-import-order,unused-import

# Each public name by the module that defines it, imported on first use (PEP
# 562): `import muzero_snt`, its configuration and presets load without
# TensorFlow, so a launcher checks its flags in a moment.
_SOURCES = {
    'muzero_snt.acting': ('Actor',),
    'muzero_snt.config': ('KnownBounds', 'MAXIMUM_FLOAT_VALUE',
                          'MoveCountTemperature', 'MuZeroConfig',
                          'NetworkConfig', 'TrainingStepTemperature'),
    'muzero_snt.frames': ('FrameStack',),
    'muzero_snt.learning': ('Learner', 'learning_rate_schedule'),
    'muzero_snt.losses': ('consistency_loss', 'l2_regularization',
                          'policy_loss', 'scalar_loss', 'unrolled_loss'),
    'muzero_snt.networks': ('make_network', 'MuZeroNetwork'),
    'muzero_snt.optimizers': ('Adam', 'Momentum'),
    'muzero_snt.presets': ('config_for_environment', 'get_preset',
                           'make_atari_config', 'make_board_game_config',
                           'make_cartpole_config', 'make_chess_config',
                           'make_go_config', 'make_openspiel_chess_config',
                           'make_openspiel_shogi_config', 'make_shogi_config',
                           'make_tictactoe_config', 'PRESETS'),
    'muzero_snt.reanalysis': ('Reanalyser',),
    'muzero_snt.reference': ('update_weights',),
    'muzero_snt.replay': ('ReplayBuffer',),
    'muzero_snt.run.experiment': ('train',),
    'muzero_snt.run.run_config': ('RunConfig',),
    'muzero_snt.search': ('add_exploration_noise', 'backpropagate',
                          'CompiledSearch', 'expand_node',
                          'legal_actions_to_mask', 'make_search', 'MinMaxStats',
                          'Node', 'ReferenceSearch', 'run_mcts', 'Search',
                          'SEARCH_KINDS', 'SearchOutput', 'select_action',
                          'select_child', 'ucb_score'),
    'muzero_snt.trajectory': ('Target', 'Trajectory'),
    'muzero_snt.types': ('Batch', 'LossExtra', 'LossOutput', 'NetworkOutput'),
    'muzero_snt.value_transforms': ('scalar_to_support', 'scalar_to_two_hot',
                                    'signed_hyperbolic', 'signed_parabolic',
                                    'support_to_scalar', 'two_hot_to_scalar'),
}
# A name defined under another: `train` is the run's entry point.
_RENAMED = {'train': 'run'}
_SUBPACKAGES = ('environments', 'networks', 'search')
_MODULE_OF = {name: module for module, names in _SOURCES.items()
              for name in names}


def __getattr__(name: str) -> Any:
  """Imports the module defining public `name` and returns the name."""
  if name in _SUBPACKAGES:
    value = importlib.import_module(f'muzero_snt.{name}')
  elif name == 'scale_gradient':
    # The pseudocode's `tf.scale_gradient` is Sonnet's function, not a
    # copy: identity forward, gradient times `scale` backward.
    value = importlib.import_module('sonnet').scale_gradient
  elif name in _MODULE_OF:
    module = importlib.import_module(_MODULE_OF[name])
    value = getattr(module, _RENAMED.get(name, name))
  else:
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
  globals()[name] = value
  return value


def __dir__():
  return sorted(set(globals()) | set(__all__))


__version__ = '0.1.0'

__all__ = tuple(sorted((*_MODULE_OF, *_SUBPACKAGES, 'scale_gradient')))
