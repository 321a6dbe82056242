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
"""Search throughput against mctx; self-play.

Milliseconds a call of one search with root noise on a small MLP, the
first call excluded, each repeat timing every measurement once in a
rotated order: `xla` (`CompiledSearch`) and `mctx` (mctx_baseline.py; JAX
and mctx are optional) with MuZero's rules, `xla_gumbel` and `mctx_gumbel`
with Gumbel MuZero's. With --selfplay, instead: environment steps/s of
tic-tac-toe self-play. The numbers are in docs/benchmarks.md.

    python -m benchmarks.search --repeats=3
    python -m benchmarks.search --selfplay=1,64 --repeats=3
"""

import itertools
import math
import statistics
import time
from typing import Any, Dict, List, Sequence

from absl import app
from absl import flags
from absl import logging
import numpy as np
import tensorflow as tf

from benchmarks import mctx_baseline
from benchmarks import reporting
from muzero_snt import acting
from muzero_snt import config as config_lib
from muzero_snt import environments
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search as search_lib
from muzero_snt.search import compiled_search

OBSERVATION_SIZE, HIDDEN_SIZE, NUM_ACTIONS = 8, 32, 4
_RATIOS = (('xla', 'mctx'), ('xla_gumbel', 'mctx_gumbel'))

BATCH_SIZES = flags.DEFINE_list('batch_sizes', ['1', '16', '256'],
                                'search batch sizes.')
NUM_SIMULATIONS = flags.DEFINE_integer('num_simulations', 50,
                                       'simulations per search.')
REPEATS = flags.DEFINE_integer('repeats', 5, 'timings of each measurement.')
SELFPLAY = flags.DEFINE_list(
    'selfplay', [], 'instead of the searches, tic-tac-toe self-play with '
    'each of these numbers of games at once.')
OUTPUT_JSON = reporting.output_json_flag()

MIN_SECONDS = 0.2  # A timing repeats a call until it has run this long.
SEED = 0


def make_config(num_simulations: int = 50) -> config_lib.MuZeroConfig:
  """The benchmarked model: an MLP with scalar heads, one player."""
  return presets.make_cartpole_config().replace(
      action_space_size=NUM_ACTIONS, observation_shape=(OBSERVATION_SIZE,),
      num_simulations=num_simulations, discount=0.997, known_bounds=None,
      num_players=1,
      network=config_lib.NetworkConfig(
          kind='mlp', hidden_size=HIDDEN_SIZE, mlp_layers=(HIDDEN_SIZE,),
          head_layers=(HIDDEN_SIZE,), value_support_size=0,
          reward_support_size=0))


def time_batch(batch_size: int, config, network, jax_model,
               repeats: int) -> Dict[str, Any]:
  """Times every measurement at one batch size, in rotated turns."""
  seed = SEED
  rng = np.random.default_rng(seed + batch_size)
  observation = rng.standard_normal(
      (batch_size, OBSERVATION_SIZE)).astype(np.float32)
  legal = np.ones((batch_size, NUM_ACTIONS), bool)
  to_play = np.zeros(batch_size, np.int32)
  counter = iter(range(10**9))
  tasks = {name: lambda s=s: s.search_with_seed(
      observation, to_play, legal, [seed, next(counter)], add_noise=True)
           for name, s in (
               ('xla', compiled_search.CompiledSearch(config, network)),
               ('xla_gumbel', compiled_search.CompiledSearch(
                   config.replace(search_policy='gumbel'), network)))}
  if jax_model is not None:
    tasks.update(mctx_baseline.make_mctx_tasks(*jax_model, config,
                                               observation, legal, seed))
  timed = {}
  for name, function in tasks.items():
    first = reporting.seconds_per_call(function)  # Traces and compiles.
    once = reporting.seconds_per_call(function)
    timed[name] = (function, max(1, math.ceil(MIN_SECONDS / once)), 1.)
    logging.info('batch %d %s: first call %.2fs, then %.4fs', batch_size,
                 name, first, once)
  rates = reporting.rotated_rates(timed, repeats)  # Calls a second.
  return {
      'batch_size': batch_size,
      'milliseconds_per_call': {name: [1e3 / r for r in values]
                                for name, values in rates.items()},
      'ratios': {f'{a}/{b}': [x / y for x, y in zip(rates[a], rates[b])]
                 for a, b in _RATIOS if b in rates},
  }


def selfplay_rates(preset: str, num_envs: Sequence[int],
                   repeats: int) -> Dict[int, List[float]]:
  """Environment steps/s of `acting.Actor` with a fresh network of `preset`
  and `CompiledSearch`, playing continuous games (`Actor.play_games`),
  `num_envs` at once: `repeats` timings of at least 3 calls and 20,000
  steps (3,000 for one game) after an untimed call. Every padded batch
  size's search program is compiled first."""
  config = presets.get_preset(preset)
  network = networks.make_network(config)
  compiled = compiled_search.CompiledSearch(config, network)
  size = 1
  while size < 2 * max(num_envs):
    compiled.search_with_seed(
        np.zeros((size,) + config.observation_shape, np.float32),
        np.zeros(size, np.int32),
        np.ones((size, config.action_space_size), bool), seed=[0, 0])
    size *= 2
  rates = {}
  for envs, _ in itertools.product(num_envs, range(repeats)):
    actor = acting.Actor(
        config, compiled, search_lib.NetworkModel(network),
        lambda s: environments.CheckedEnvironment.from_config(
            environments.make_environment(preset, s), config),
        seed=SEED, num_envs=envs)
    moves = []
    actor.play_games(0, on_move=moves.append)
    moves.clear()
    start, calls = time.perf_counter(), 0
    while calls < 3 or sum(moves) < (20000 if envs > 1 else 3000):
      calls += 1
      actor.play_games(calls, on_move=moves.append)
    rates.setdefault(envs, []).append(
        sum(moves) / (time.perf_counter() - start))
    logging.info('self-play, %d games: %.0f steps/s', envs, rates[envs][-1])
  return rates


def format_table(results: List[Dict[str, Any]]) -> str:
  """Medians: ms a call and ratios of calls/s."""
  names = list(results[0]['milliseconds_per_call'])
  ratios = [n for n in results[0]['ratios']]
  return reporting.table(['batch'] + names + ratios, [
      [r['batch_size']] +
      [statistics.median(r['milliseconds_per_call'][n]) for n in names] +
      [statistics.median(r['ratios'][n]) for n in ratios] for r in results])


def main(argv):
  reporting.check_no_arguments(argv)
  reporting.check_positive((NUM_SIMULATIONS, REPEATS))
  output = {'machine': reporting.machine()}
  if SELFPLAY.value:
    rates = selfplay_rates('tictactoe', reporting.positive_ints(SELFPLAY),
                           REPEATS.value)
    output['selfplay_env_steps_per_second'] = rates
    reporting.report(output, OUTPUT_JSON.value, reporting.table(
        ('games at once', 'env steps/s (median)', 'repeats'),
        [(n, statistics.median(r), ', '.join(f'{x:.0f}' for x in r))
         for n, r in rates.items()]))
    return
  batch_sizes = reporting.positive_ints(BATCH_SIZES)
  config = make_config(NUM_SIMULATIONS.value)
  tf.random.set_seed(SEED)
  network = networks.make_network(config)
  network.create_variables()
  output['num_simulations'] = NUM_SIMULATIONS.value
  jax_model = None
  modules = mctx_baseline.import_mctx()
  if modules is not None:
    jax, mctx = modules
    jax_model = (jax, mctx, mctx_baseline.make_jax_model(jax, network,
                                                         NUM_ACTIONS))
    output['jax_max_difference'] = mctx_baseline.check_jax_model(
        jax, network, jax_model[2], seed=SEED)
    output['machine'].update(jax=jax.__version__, mctx=mctx.__version__)
  output['search'] = [
      time_batch(b, config, network, jax_model, REPEATS.value)
      for b in batch_sizes]
  reporting.report(output, OUTPUT_JSON.value, format_table(output['search']))


if __name__ == '__main__':
  app.run(main)
