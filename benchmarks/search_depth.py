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
"""How deep the searches of a run's checkpoints go, and why.

Searches the same positions (games of uniformly random legal moves) with
the network of each checkpoint directory given, without noise, and
reports per directory the means of `benchmarks/search_lines.py`'s
statistics: the principal line's depth, its mean predicted reward, the
value at its end and the return it backs up; the most visited root
child's share and Q, and its gap to the next visited child's Q; the
search's and the network's value at the root. A line far deeper than the
game lasts that backs up far more than the network's value is a model
whose rewards outrun its values: the search then keeps its visits on the
child it visited first.

Each directory's latest checkpoint is used, with the configuration the run
saved beside it (`run_config.json`; the preset's if there is none).
Checkpoints of one run at several learner steps: copy the directory aside
as the run writes them.

    python -m benchmarks.search_depth --preset=cartpole \\
        --checkpoint_dirs=/tmp/cp110,/tmp/cp332,/tmp/cp1099
"""

import json

from absl import app
from absl import flags
import tensorflow as tf

from benchmarks import reporting
from benchmarks import search_lines
from muzero_snt import builders
from muzero_snt import loading
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import run_config
from muzero_snt import search

PRESET = flags.DEFINE_enum('preset', 'cartpole', sorted(presets.PRESETS),
                           'the preset the checkpoints were trained on.')
ENV = flags.DEFINE_string(
    'env', None, 'the game of a titled preset, as the launchers\' --env '
    '(default: the preset\'s).')
CHECKPOINT_DIRS = flags.DEFINE_list(
    'checkpoint_dirs', [], 'training runs of --preset; the latest network '
    'of each is searched (none: a freshly initialised network).')
NUM_POSITIONS = flags.DEFINE_integer('num_positions', 100,
                                     'positions searched.')
NUM_SIMULATIONS = flags.DEFINE_integer(
    'num_simulations', None, 'simulations per search (default: the '
    'configuration\'s).')
CONFIG = flags.DEFINE_list(
    'config', [], 'name=value changes to each configuration, as the '
    'launchers\' --config (for example unvisited_q=minimum).')
SEED = flags.DEFINE_integer('seed', 0, 'seeds the positions and a fresh '
                            'network.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results.')


def _config(checkpoint_dir):
  try:
    config = loading.run_or_preset_config(PRESET.value, checkpoint_dir)
  except ValueError as e:
    raise app.UsageError(str(e)) from e
  return run_config.apply_overrides(config, CONFIG.value)


def _network(config, checkpoint_dir):
  if checkpoint_dir:
    return loading.load_network(config, checkpoint_dir)
  tf.random.set_seed(SEED.value)
  return networks.make_network(config), 0


def main(argv):
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  if NUM_POSITIONS.value < 1:
    raise app.UsageError(f'--num_positions is {NUM_POSITIONS.value}; '
                         'expected at least 1.')
  if NUM_SIMULATIONS.value is not None and NUM_SIMULATIONS.value < 1:
    raise app.UsageError(f'--num_simulations is {NUM_SIMULATIONS.value}; '
                         'expected at least 1.')
  first = _config(CHECKPOINT_DIRS.value[0] if CHECKPOINT_DIRS.value else None)
  positions = search_lines.random_positions(
      builders.make_environment_factory(PRESET.value, first, ENV.value),
      first.action_space_size, NUM_POSITIONS.value, SEED.value,
      max_moves=first.max_moves)
  results = {'preset': PRESET.value, 'env': ENV.value,
             'num_positions': NUM_POSITIONS.value, 'seed': SEED.value,
             'config': CONFIG.value, 'machine': reporting.machine(),
             'checkpoints': []}
  for checkpoint_dir in CHECKPOINT_DIRS.value or [None]:
    config = _config(checkpoint_dir)
    network, step = _network(config, checkpoint_dir)
    summary = search_lines.measure(config, search.NetworkModel(network),
                                   positions, SEED.value,
                                   NUM_SIMULATIONS.value)
    summary.update(checkpoint_dir=checkpoint_dir, learner_step=step,
                   num_simulations=(NUM_SIMULATIONS.value or
                                    config.num_simulations))
    print(json.dumps(summary))
    results['checkpoints'].append(summary)
  reporting.report(results, OUTPUT_JSON.value)


if __name__ == '__main__':
  app.run(main)
