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
"""Search throughput against the reference search and mctx; self-play.

Simulations per second (batch x simulations / seconds a call, the first
call excluded) of one MuZero search with root noise on a small MLP
(observation 8, hidden state 32, 4 actions, scalar heads, one player):

  * `xla`, `graph`: `CompiledSearch(config, network, jit_compile=...)`;
  * `reference`: `search.search` with `NetworkModel`, the NumPy tree;
  * `mctx`: `mctx.muzero_policy` on a JAX copy of the network
    (mctx_baseline.py; JAX and mctx are optional);
  * `xla_gumbel`, `mctx_gumbel`: the same two for Gumbel MuZero (m = 16);
  * where the time goes: `xla_bare` (the program on tensors), `xla_root`
    (its prologue alone), `xla_network` and `jax_network` (the
    inferences alone), `xla_empty` and `jax_empty` (a compiled call).

Each repeat times every measurement once, in a rotated order. Then
self-play environment steps per second of `acting.Actor` on presets, with
the reference search and with `CompiledSearch`, in rounds and with
continuous games. See docs/benchmarks.md.

    python -m benchmarks.search --skip_reference --skip_selfplay --repeats=3
"""

import math
import statistics
import time
from typing import Any, Callable, Dict, List, NamedTuple

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
from muzero_snt import flat_call
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import search as search_lib
from muzero_snt.search import batched
from muzero_snt.search import compiled_search
from muzero_snt.search import reference_search

OBSERVATION_SIZE, HIDDEN_SIZE, NUM_ACTIONS = 8, 32, 4
# Columns of the tables, in order; the first six are searches.
_NAMES = ('xla', 'graph', 'reference', 'mctx', 'xla_gumbel', 'mctx_gumbel',
          'xla_bare', 'xla_root', 'xla_network', 'jax_network', 'xla_empty',
          'jax_empty')
_RATIOS = (('xla', 'mctx'), ('xla', 'reference'), ('xla', 'graph'),
           ('xla_gumbel', 'mctx_gumbel'))

BATCH_SIZES = flags.DEFINE_list('batch_sizes', ['1', '16', '256'],
                                'search batch sizes.')
NUM_SIMULATIONS = flags.DEFINE_integer('num_simulations', 50,
                                       'simulations per search.')
REPEATS = flags.DEFINE_integer('repeats', 5, 'timings of each measurement.')
MIN_SECONDS = flags.DEFINE_float(
    'min_seconds', 0.2, 'a timing repeats a call until it has run this long.')
NUM_ENVS = flags.DEFINE_list('num_envs', ['1', '16', '64'],
                             'self-play games played at once.')
SELFPLAY_PRESETS = flags.DEFINE_list('selfplay_presets',
                                     ['cartpole', 'tictactoe'],
                                     'presets of the self-play measurement.')
SKIP_MCTX = flags.DEFINE_bool('skip_mctx', False, 'skip mctx.')
SKIP_REFERENCE = flags.DEFINE_bool('skip_reference', False,
                                   'skip the reference search.')
SKIP_SELFPLAY = flags.DEFINE_bool('skip_selfplay', False, 'skip self-play.')
SEED = flags.DEFINE_integer('seed', 0, 'random seed.')
OUTPUT_JSON = reporting.output_json_flag()


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


def make_tf_tasks(config, network, observation, legal, seed: int,
                  reference: bool) -> Dict[str, Callable[[], Any]]:
  """Our searches, the reference and the pieces of the compiled search."""
  to_play = np.zeros(observation.shape[0], np.int32)
  searches = {
      'xla': compiled_search.CompiledSearch(config, network),
      'graph': compiled_search.CompiledSearch(config, network,
                                              jit_compile=False),
      'xla_gumbel': compiled_search.CompiledSearch(
          config.replace(search_policy='gumbel'), network),
  }
  counter = iter(range(10**9))
  tasks = {name: lambda s=s: s.search_with_seed(
      observation, to_play, legal, [seed, next(counter)], add_noise=True)
           for name, s in searches.items()}

  # The pieces are called as `CompiledSearch` calls its program: by the
  # concrete function's flat call, on tensors made once.
  def compiled(function, *args):
    return flat_call.flat_caller(tf.function(
        function, jit_compile=True,
        autograph=False).get_concrete_function(*args))

  tensors = [tf.constant(x) for x in (observation, to_play, legal)]
  noise = tf.constant(reference_search.dirichlet_noise(
      config.root_dirichlet_alpha, np.asarray(legal, bool),
      np.random.default_rng(seed)), tf.float32)

  def bare_search(simulate):
    # Without `simulate`, the search's prologue alone (root inference,
    # noise, trees of 2 nodes).
    def bare(observation, to_play, legal, noise):
      if not simulate:
        roots = batched.expand_roots(
            config.replace(num_simulations=1), network, observation,
            to_play, legal, seed=None, add_noise=True, noise=noise,
            dtype=tf.float32, check_inputs=True,
            known_bounds=config.known_bounds)
        tree = batched.add_exploration_noise(config, roots.tree, roots.noise)
        return tree.edges[:, 0], roots.finite
      output = batched.batched_search(
          config, network, observation, to_play, legal, noise=noise,
          add_noise=True)
      return (output.visit_counts, output.policy, output.root_value,
              output.finite)
    call = compiled(bare, *tensors, noise)
    return lambda: [x.numpy() for x in call(*tensors, noise)]

  def empty(observation, to_play, legal, noise):
    return (tf.reduce_sum(observation) + tf.reduce_sum(noise) + tf.cast(
        tf.reduce_sum(to_play) + tf.reduce_sum(tf.cast(legal, tf.int32)),
        tf.float32))

  def network_only(observation):
    output = network.initial_inference(observation)

    def body(i, hidden_state, total):
      action = tf.fill(tf.shape(hidden_state)[:1], i % NUM_ACTIONS)
      output = network.recurrent_inference(hidden_state, action)
      return i + 1, output.hidden_state, total + output.value

    return tf.while_loop(
        lambda i, *_: i < config.num_simulations, body,
        (tf.constant(0), output.hidden_state, output.value))[2]

  tasks['xla_bare'] = bare_search(True)
  tasks['xla_root'] = bare_search(False)
  empty_call = compiled(empty, *tensors, noise)
  tasks['xla_empty'] = lambda: empty_call(*tensors, noise).numpy()
  network_call = compiled(network_only, tensors[0])
  tasks['xla_network'] = lambda: network_call(tensors[0]).numpy()
  if reference:
    model = search_lib.NetworkModel(network)
    rng = np.random.default_rng(seed)
    tasks['reference'] = lambda: search_lib.search(
        config, model, observation, to_play, legal, rng, add_noise=True)
  return tasks


def time_batch(batch_size: int, config, network, jax_model, repeats: int,
               min_seconds: float, seed: int,
               reference: bool) -> Dict[str, Any]:
  """Times every measurement at one batch size, in rotated turns."""
  rng = np.random.default_rng(seed + batch_size)
  observation = rng.standard_normal(
      (batch_size, OBSERVATION_SIZE)).astype(np.float32)
  legal = np.ones((batch_size, NUM_ACTIONS), bool)
  tasks = make_tf_tasks(config, network, observation, legal, seed, reference)
  if jax_model is not None:
    tasks.update(mctx_baseline.make_mctx_tasks(*jax_model, config,
                                               observation, legal, seed))
  timed = {}
  for name, function in tasks.items():
    first = reporting.seconds_per_call(function)  # Traces and compiles.
    once = reporting.seconds_per_call(function)
    timed[name] = (function, max(1, math.ceil(min_seconds / once)), 1.)
    logging.info('batch %d %s: first call %.2fs, then %.4fs', batch_size,
                 name, first, once)
  calls_per_second = reporting.rotated_rates(timed, repeats)
  simulations = batch_size * config.num_simulations
  rates = {name: [simulations * r for r in calls_per_second[name]]
           for name in _NAMES[:6] if name in tasks}
  return {
      'batch_size': batch_size,
      'milliseconds_per_call': {name: [1e3 / r for r in values]
                                for name, values in calls_per_second.items()},
      'simulations_per_second': rates,
      'ratios': {f'{a}/{b}': [x / y for x, y in zip(rates[a], rates[b])]
                 for a, b in _RATIOS if b in rates},
  }


class SelfPlaySetup(NamedTuple):
  """A preset's config, fresh network, reference model and compiled search."""
  preset: str
  config: config_lib.MuZeroConfig
  model: search_lib.NetworkModel
  compiled: compiled_search.CompiledSearch


def make_selfplay_setup(preset: str, max_envs: int) -> SelfPlaySetup:
  """A preset's fresh network and its search compiled for every padded
  batch size up to `max_envs`, so that no timed round compiles."""
  config = presets.get_preset(preset)
  network = networks.make_network(config)
  compiled = compiled_search.CompiledSearch(config, network)
  size = 1
  while size < 2 * max_envs:
    compiled.search_with_seed(
        np.zeros((size,) + config.observation_shape, np.float32),
        np.zeros(size, np.int32),
        np.ones((size, config.action_space_size), bool), seed=[0, 0])
    size *= 2
  return SelfPlaySetup(preset, config, search_lib.NetworkModel(network),
                       compiled)


def selfplay_throughput(num_envs: int, setup: SelfPlaySetup,
                        use_compiled_search: bool, rounds: int = 2,
                        min_steps: int = 0, seed: int = 0,
                        continuous: bool = False) -> Dict[str, Any]:
  """Environment steps/s of `acting.Actor` after one warm-up round: at
  least `rounds` timed rounds, and more until `min_steps` steps. With
  `continuous`, `Actor.play_games` calls (games replaced as they end; the
  steps of games still in play count too)."""
  config = setup.config
  search = (setup.compiled if use_compiled_search else
            search_lib.ReferenceSearch(config, setup.model))
  actor = acting.Actor(
      config, search, setup.model,
      lambda s: environments.CheckedEnvironment.from_config(
          environments.make_environment(setup.preset, s), config),
      seed=seed, num_envs=num_envs)
  moves = []

  def play(index):
    if continuous:
      actor.play_games(index, on_move=moves.append)
    else:
      moves.extend(result.length for result in actor.play_round(index))

  play(0)
  moves.clear()
  start, played = time.perf_counter(), 0
  while played < rounds or sum(moves) < min_steps:
    played += 1
    play(played)
  seconds = time.perf_counter() - start
  return {'preset': setup.preset, 'num_envs': num_envs,
          'search': 'batched_xla' if use_compiled_search else 'reference',
          'schedule': 'continuous' if continuous else 'rounds',
          'rounds': played, 'env_steps': sum(moves), 'seconds': seconds,
          'env_steps_per_second': sum(moves) / seconds}


def format_tables(results: List[Dict[str, Any]],
                  selfplay: List[Dict[str, Any]]) -> str:
  """Medians: ms a call and ratios of simulations/s; self-play's rates."""
  names = [n for n in _NAMES if n in results[0]['milliseconds_per_call']]
  ratios = [n for n in results[0]['ratios']]
  text = reporting.table(['batch'] + names + ratios, [
      [r['batch_size']] +
      [statistics.median(r['milliseconds_per_call'][n]) for n in names] +
      [statistics.median(r['ratios'][n]) for n in ratios] for r in results])
  if selfplay:
    text += '\n\n' + reporting.table(
        ('preset', 'num_envs', 'search', 'schedule', 'env steps/s'),
        [(r['preset'], r['num_envs'], r['search'], r['schedule'],
          r['env_steps_per_second']) for r in selfplay])
  return text


def main(argv):
  reporting.check_no_arguments(argv)
  reporting.check_positive((NUM_SIMULATIONS, REPEATS, MIN_SECONDS))
  batch_sizes = reporting.positive_ints(BATCH_SIZES)
  num_envs = reporting.positive_ints(NUM_ENVS)
  config = make_config(NUM_SIMULATIONS.value)
  tf.random.set_seed(SEED.value)
  network = networks.make_network(config)
  network.create_variables()
  output = {'machine': reporting.machine(),
            'num_simulations': NUM_SIMULATIONS.value}
  jax_model = None
  modules = None if SKIP_MCTX.value else mctx_baseline.import_mctx()
  if modules is not None:
    jax, mctx = modules
    jax_model = (jax, mctx, mctx_baseline.make_jax_model(jax, network,
                                                         NUM_ACTIONS))
    output['jax_max_difference'] = mctx_baseline.check_jax_model(
        jax, network, jax_model[2], seed=SEED.value)
    output['machine'].update(jax=jax.__version__, mctx=mctx.__version__)
  output['search'] = [
      time_batch(b, config, network, jax_model, REPEATS.value,
                 MIN_SECONDS.value, SEED.value, not SKIP_REFERENCE.value)
      for b in batch_sizes]
  output['selfplay'] = []
  for preset in [] if SKIP_SELFPLAY.value else SELFPLAY_PRESETS.value:
    setup = make_selfplay_setup(preset, max(num_envs))
    for envs in num_envs:
      for compiled, continuous in ((False, False), (True, False),
                                   (True, True)):
        output['selfplay'].append(selfplay_throughput(
            envs, setup, compiled, min_steps=200, seed=SEED.value,
            continuous=continuous))
        logging.info('self-play %s', output['selfplay'][-1])
  reporting.report(output, OUTPUT_JSON.value,
                   format_tables(output['search'], output['selfplay']))


if __name__ == '__main__':
  app.run(main)
