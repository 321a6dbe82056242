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
"""How the value given to an unvisited child shapes a preset's self-play.

The pseudocode scores a child that has no visits with Q = 0, the lowest a
min-max normalised value can be; `unvisited_q='parent'` gives it its
parent's value instead (`MuZeroConfig.unvisited_q`). With few simulations
and many actions the first rule can keep the search on the children it
visited first. This plays one round of self-play (`--num_envs` games cut at
`--moves` moves, the preset's exploration noise and temperature at step 0)
with the same network under each rule: freshly initialised, or the latest
checkpoint of a training run (`--checkpoint_dir`; the rule collapses a
search once the network's values are alike and positive, which a fresh
network's are not). It reports per rule, over every searched position:

  * `root_children_visited`: children of the root with a visit (mean);
  * `root_entropy_bits`: entropy of the root's visit distribution (mean),
    and `root_entropy_fraction`, the same over log2 of the action count;
  * `top_action_share`: the share of moves that played the most played
    action, and `actions_played`, how often each action was played.

    python -m benchmarks.unvisited_q --preset=atari_small --moves=100
    python -m benchmarks.unvisited_q --preset=minatar --env=breakout \
        --checkpoint_dir=/tmp/breakout
"""

import json

from absl import app
from absl import flags

from benchmarks import reporting
from benchmarks import search_breadth
from muzero_snt import config as config_lib
from muzero_snt import presets

PRESET = flags.DEFINE_enum('preset', 'atari_small', sorted(presets.PRESETS),
                           'the preset whose self-play is measured.')
ENV = flags.DEFINE_string(
    'env', None, 'the game of a titled preset, as the launchers\' --env '
    '(default: the preset\'s).')
RULES = flags.DEFINE_list('rules', list(config_lib.UNVISITED_Q),
                          f'values of unvisited_q, of {config_lib.UNVISITED_Q}.')
NUM_ENVS = flags.DEFINE_integer('num_envs', 4, 'games played at once.')
MOVES = flags.DEFINE_integer('moves', 100, 'moves per game (games are cut).')
SEED = flags.DEFINE_integer('seed', 0, 'seeds the network and the games.')
CHECKPOINT_DIR = flags.DEFINE_string(
    'checkpoint_dir', None, 'a training run of --preset whose latest '
    'network plays (default: a freshly initialised one).')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results.')


def main(argv):
  del argv
  for rule in RULES.value:
    if rule not in config_lib.UNVISITED_Q:
      raise app.UsageError(f'--rules: unknown rule {rule!r}; expected some '
                           f'of {config_lib.UNVISITED_Q}.')
  results = {'preset': PRESET.value, 'env': ENV.value,
             'num_envs': NUM_ENVS.value, 'moves': MOVES.value,
             'seed': SEED.value, 'checkpoint_dir': CHECKPOINT_DIR.value,
             'machine': reporting.machine(), 'rules': {}}
  network = search_breadth.make_network(PRESET.value, SEED.value,
                                       CHECKPOINT_DIR.value)
  for rule in RULES.value:
    results['rules'][rule] = search_breadth.measure(
        network, PRESET.value, ENV.value, rule, NUM_ENVS.value, MOVES.value,
        SEED.value)
    print(rule, json.dumps(results['rules'][rule]))
  reporting.report(results, OUTPUT_JSON.value)


if __name__ == '__main__':
  app.run(main)
