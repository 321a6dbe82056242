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
"""How broad a preset's root searches are under a rule for unvisited children.

The measures of `benchmarks/unvisited_q.py`: one round of self-play with a
network under a value of `MuZeroConfig.unvisited_q`, and statistics of its
root searches.
"""

from typing import Any, Dict, Optional

import numpy as np
import tensorflow as tf

from muzero_snt import acting
from muzero_snt import builders
from muzero_snt import loading
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search


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


def make_network(preset: str, seed: int,
                 checkpoint_dir: Optional[str] = None):
  """The latest network of `checkpoint_dir`, or one initialised from `seed`.

  The rule for unvisited children is the search's, so one network serves
  every rule.
  """
  config = presets.get_preset(preset)
  if checkpoint_dir:
    return loading.load_network(config, checkpoint_dir)[0]
  tf.random.set_seed(seed)
  return networks.make_network(config)


def measure(network, preset: str, title: Optional[str], rule: str,
            num_envs: int, moves: int, seed: int) -> Dict[str, Any]:
  """One round of self-play of `network` under `rule`."""
  config = presets.get_preset(preset).replace(unvisited_q=rule,
                                              max_moves=moves)
  actor = acting.Actor(config, search.make_search(config, network),
                       search.NetworkModel(network),
                       builders.make_environment_factory(preset, config, title),
                       seed=seed, num_envs=num_envs)
  results = actor.play_round(0)
  policies = np.concatenate([r.trajectory.policies for r in results])
  actions = np.concatenate([r.trajectory.actions for r in results])
  return root_statistics(policies, actions)
