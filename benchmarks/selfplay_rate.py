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
"""Self-play environment steps per second (part 2 of benchmarks/search.py).

`acting.Actor` on a preset with the reference search or the
`CompiledSearch` (XLA), every search program compiled before the timing.
See docs/benchmarks.md.
"""

import time
from typing import Any, Dict, NamedTuple

import numpy as np

from muzero_snt import acting
from muzero_snt import config as config_lib
from muzero_snt import environments
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search as search_lib
from muzero_snt.search import compiled_search


class SelfPlaySetup(NamedTuple):
  """A preset's config, fresh network, reference model and compiled search."""
  preset: str
  config: config_lib.MuZeroConfig
  network: Any
  model: search_lib.NetworkModel
  compiled: compiled_search.CompiledSearch


def make_selfplay_setup(preset: str, max_envs: int) -> SelfPlaySetup:
  """Builds a preset's network; compiles the search for up to `max_envs`.

  `CompiledSearch` compiles one XLA program per padded batch size (powers of
  two); all of them are compiled here, so that no timed round compiles.
  """
  config = presets.get_preset(preset)
  network = networks.make_network(config)
  model = search_lib.NetworkModel(network)
  compiled = compiled_search.CompiledSearch(config, network)
  size = 1
  while size < 2 * max_envs:  # Every size the padding can produce.
    compiled.search_with_seed(
        np.zeros((size,) + config.observation_shape, np.float32),
        np.zeros(size, np.int32),
        np.ones((size, config.action_space_size), bool), seed=[0, 0])
    size *= 2
  return SelfPlaySetup(preset, config, network, model, compiled)


def selfplay_throughput(num_envs: int,
                        setup: SelfPlaySetup,
                        use_compiled_search: bool,
                        rounds: int = 2,
                        min_steps: int = 0,
                        seed: int = 0,
                        continuous: bool = False) -> Dict[str, Any]:
  """Environment steps per second of `acting.Actor` on a preset.

  One warm-up round, then timed rounds (every game of a round played to its
  end): at least `rounds` of them, and more until `min_steps` environment
  steps. The search is the reference one with `setup.model`, or, with
  `use_compiled_search`, `setup.compiled`. With `continuous` the actor plays
  `Actor.play_games` calls instead of rounds (each a "round" here) and the
  steps counted are all those played, of games still in play too.

  Returns:
    A JSON-serialisable dict.
  """
  config = setup.config

  def make_environment(environment_seed: int):
    return environments.CheckedEnvironment.from_config(
        environments.make_environment(setup.preset, environment_seed),
        config)

  if use_compiled_search:
    search = setup.compiled
  else:
    search = search_lib.ReferenceSearch(config, setup.model)
  actor = acting.Actor(config, search, setup.model, make_environment,
                       seed=seed, num_envs=num_envs)
  moves = []

  def play(index):
    if continuous:  # Steps played, those of the games still in play too.
      actor.play_games(index, on_move=moves.append)
    else:
      moves.extend(result.length for result in actor.play_round(index))

  play(0)  # Warm-up.
  moves.clear()
  start = time.perf_counter()
  played = 0
  while played < rounds or sum(moves) < min_steps:
    played += 1
    play(played)
  seconds = time.perf_counter() - start
  steps = sum(moves)
  return {
      'preset': setup.preset,
      'num_envs': num_envs,
      'search': 'batched_xla' if use_compiled_search else 'reference',
      'schedule': 'continuous' if continuous else 'rounds',
      'rounds': played,
      'env_steps': steps,
      'seconds': seconds,
      'env_steps_per_second': steps / seconds,
  }
