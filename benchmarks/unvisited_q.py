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
    python -m benchmarks.unvisited_q --preset=minatar --title=breakout \
        --checkpoint_dir=/tmp/breakout
"""

import json
from typing import Any, Dict, Optional

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

from benchmarks import reporting
from muzero_snt import acting
from muzero_snt import builders
from muzero_snt import config as config_lib
from muzero_snt import loading
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search

PRESET = flags.DEFINE_enum('preset', 'atari_small', sorted(presets.PRESETS),
                           'the preset whose self-play is measured.')
TITLE = flags.DEFINE_string(
    'title', None, 'the Atari game or MinAtar game (default: the preset\'s).')
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


def root_statistics(policies: np.ndarray,
                    actions: np.ndarray) -> Dict[str, Any]:
  """Breadth of the root searches behind `policies` and the moves played.

  Args:
    policies: `[T, A]` root visit distributions of T searched positions.
    actions: `[T]` the actions played there.
  """
  num_actions = policies.shape[-1]
  safe = np.where(policies > 0, policies, 1.)
  entropy = -np.sum(policies * np.log2(safe), axis=-1)
  counts = np.bincount(actions, minlength=num_actions)
  return {
      'positions': int(len(actions)),
      'root_children_visited': float(np.mean(np.sum(policies > 0, axis=-1))),
      'root_entropy_bits': float(np.mean(entropy)),
      'root_entropy_fraction': float(np.mean(entropy) / np.log2(num_actions)),
      'top_action_share': float(counts.max() / counts.sum()),
      'actions_played': counts.tolist(),
  }


def measure(preset: str, title: Optional[str], rule: str, num_envs: int,
            moves: int, seed: int,
            checkpoint_dir: Optional[str] = None) -> Dict[str, Any]:
  """One round of self-play under `rule`.

  The network is the latest of `checkpoint_dir`, or one initialised from
  `seed`.
  """
  config = presets.get_preset(preset).replace(unvisited_q=rule,
                                              max_moves=moves)
  if checkpoint_dir:
    network, _ = loading.load_network(config, checkpoint_dir)
  else:
    tf.random.set_seed(seed)
    network = networks.make_network(config)
  actor = acting.Actor(config, search.make_search(config, network),
                       search.NetworkModel(network),
                       builders.make_environment_factory(preset, config, title),
                       seed=seed, num_envs=num_envs)
  results = actor.play_round(0)
  policies = np.concatenate([r.trajectory.policies for r in results])
  actions = np.concatenate([r.trajectory.actions for r in results])
  return root_statistics(policies, actions)


def main(argv):
  del argv
  for rule in RULES.value:
    if rule not in config_lib.UNVISITED_Q:
      raise app.UsageError(f'--rules: unknown rule {rule!r}; expected some '
                           f'of {config_lib.UNVISITED_Q}.')
  results = {'preset': PRESET.value, 'title': TITLE.value,
             'num_envs': NUM_ENVS.value, 'moves': MOVES.value,
             'seed': SEED.value, 'checkpoint_dir': CHECKPOINT_DIR.value,
             'machine': reporting.machine(), 'rules': {}}
  for rule in RULES.value:
    results['rules'][rule] = measure(PRESET.value, TITLE.value, rule,
                                     NUM_ENVS.value, MOVES.value, SEED.value,
                                     CHECKPOINT_DIR.value)
    print(rule, json.dumps(results['rules'][rule]))
  reporting.report(results, OUTPUT_JSON.value)


if __name__ == '__main__':
  app.run(main)
