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

Milliseconds a call of a search with root noise on a small MLP, in rotated
turns after a first call: `xla` (`CompiledSearch`) and `mctx` on a JAX copy
of the network (`pip install -e '.[bench]'`) with MuZero's rules,
`xla_gumbel` and `mctx_gumbel` with Gumbel MuZero's. With --selfplay,
environment steps/s of tic-tac-toe self-play instead. See docs/benchmarks.md.

    python -m benchmarks.search --repeats=3
    python -m benchmarks.search --selfplay=1,64 --repeats=3
"""

import functools
import itertools
import math
import re
import statistics
import time
from typing import Any, Callable, Dict, List, Sequence

from absl import app
from absl import flags
from absl import logging
import numpy as np
import tensorflow as tf

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
# The forward pass of the JAX copy may differ from TensorFlow's by rounding.
_TOLERANCE = 1e-5


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


def import_mctx():
  """(jax, mctx), or None with a warning if either is missing."""
  try:
    import jax  # pylint: disable=g-import-not-at-top
    import mctx  # pylint: disable=g-import-not-at-top
  except ImportError:
    logging.warning('mctx skipped: JAX and mctx are not installed '
                    '(pip install -e \'.[bench]\').')
    return None
  return jax, mctx


def mlp_layers(network) -> Dict[str, List[tuple]]:
  """Module path -> the `(w, b)` NumPy arrays of its `snt.nets.MLP`."""
  pattern = re.compile(r'(.*)/linear_(\d+)/([wb]):0$')
  found = {}
  for variable in network.variables:
    match = pattern.match(variable.name)
    if not match:
      raise ValueError(f'{variable.name} is not a layer of an MLP network.')
    path, index, kind = match.group(1), int(match.group(2)), match.group(3)
    found.setdefault(path, {}).setdefault(index, {})[kind] = variable.numpy()
  return {path: [(layers[i]['w'], layers[i]['b']) for i in sorted(layers)]
          for path, layers in found.items()}


def make_jax_model(jax, network, num_actions: int):
  """`(params, initial, recurrent)`: the network's weights and its two
  inferences in JAX, as `networks/mlp.py` computes them."""
  jnp = jax.numpy
  params = jax.tree_util.tree_map(jnp.asarray, mlp_layers(network))

  def mlp(layers, x, activate_final=False):
    for i, (w, b) in enumerate(layers):
      x = x @ w + b
      if activate_final or i < len(layers) - 1:
        x = jax.nn.relu(x)
    return x

  def scale(hidden_state):
    low = hidden_state.min(axis=-1, keepdims=True)
    high = hidden_state.max(axis=-1, keepdims=True)
    return (hidden_state - low) / jnp.maximum(high - low, 1e-5)

  def predict(params, hidden_state):
    features = mlp(params['prediction/torso'], hidden_state,
                   activate_final=True)
    return (mlp(params['prediction/policy_head'], features),
            mlp(params['prediction/value_head/mlp'], features)[:, 0])

  def initial(params, observation):
    flat = observation.reshape(observation.shape[0], -1)
    hidden_state = scale(mlp(params['representation/torso'], flat))
    policy_logits, value = predict(params, hidden_state)
    return policy_logits, value, hidden_state

  def recurrent(params, hidden_state, action):
    inputs = jnp.concatenate(
        [hidden_state, jax.nn.one_hot(action, num_actions)], axis=-1)
    next_state = mlp(params['dynamics/torso'], inputs)
    # As in networks/mlp.py, the reward head reads the unscaled state.
    reward = mlp(params['dynamics/reward_head/mlp'], next_state)[:, 0]
    next_state = scale(next_state)
    policy_logits, value = predict(params, next_state)
    return reward, policy_logits, value, next_state

  return params, initial, recurrent


def check_jax_model(jax, network, jax_model, batch_size: int = 64,
                    seed: int = 0) -> float:
  """Max |JAX - TF| over both inferences on random inputs, asserted below
  `_TOLERANCE`."""
  params, initial, recurrent = jax_model
  rng = np.random.default_rng(seed)
  observation = rng.standard_normal(
      (batch_size,) + network.observation_shape).astype(np.float32)
  action = rng.integers(0, network.num_actions, batch_size).astype(np.int32)
  tf_initial = network.initial_inference(observation)
  tf_recurrent = network.recurrent_inference(tf_initial.hidden_state, action)
  jax_initial = jax.jit(initial)(params, observation)
  jax_recurrent = jax.jit(recurrent)(
      params, tf_initial.hidden_state.numpy(), action)
  ours = (tf_initial.policy_logits, tf_initial.value, tf_initial.hidden_state,
          tf_recurrent.reward, tf_recurrent.policy_logits, tf_recurrent.value,
          tf_recurrent.hidden_state)
  difference = max(float(np.max(np.abs(np.asarray(a) - np.asarray(b))))
                   for a, b in zip(ours, jax_initial + jax_recurrent))
  if not difference < _TOLERANCE:  # Also under `python -O`.
    raise AssertionError(f'The JAX model differs from the TF network by '
                         f'{difference}, more than {_TOLERANCE}.')
  return difference


def make_mctx_tasks(jax, mctx, jax_model, config, observation, legal,
                    seed: int) -> Dict[str, Callable[[], Any]]:
  """`mctx` (`muzero_policy`) and `mctx_gumbel` (`gumbel_muzero_policy` with
  the config's m, c_visit and c_scale)."""
  jnp = jax.numpy
  params, initial, recurrent = jax_model
  num_simulations = config.num_simulations

  def recurrent_fn(params, rng_key, action, embedding):
    del rng_key
    reward, policy_logits, value, next_state = recurrent(
        params, embedding, action)
    return mctx.RecurrentFnOutput(
        reward=reward, discount=jnp.full_like(reward, config.discount),
        prior_logits=policy_logits, value=value), next_state

  def make_policy(policy_fn, **kwargs):
    @jax.jit
    def policy(params, rng_key, observation, invalid_actions):
      policy_logits, value, hidden_state = initial(params, observation)
      output = policy_fn(
          params, rng_key,
          root=mctx.RootFnOutput(prior_logits=policy_logits, value=value,
                                 embedding=hidden_state),
          recurrent_fn=recurrent_fn, num_simulations=num_simulations,
          invalid_actions=invalid_actions, **kwargs)
      return (output.search_tree.summary().visit_counts,
              output.action_weights, output.action)
    return policy

  policy = make_policy(
      mctx.muzero_policy, dirichlet_fraction=config.root_exploration_fraction,
      dirichlet_alpha=config.root_dirichlet_alpha, pb_c_init=config.pb_c_init,
      pb_c_base=config.pb_c_base)
  gumbel_policy = make_policy(
      mctx.gumbel_muzero_policy,
      max_num_considered_actions=config.gumbel_max_considered_actions,
      qtransform=functools.partial(
          mctx.qtransform_completed_by_mix_value,
          value_scale=config.gumbel_c_scale,
          maxvisit_init=config.gumbel_c_visit))

  invalid_actions = (~legal).astype(np.float32)
  keys = iter(np.asarray(jax.random.split(jax.random.PRNGKey(seed), 100_000)))
  to_numpy = lambda tree: jax.tree_util.tree_map(np.asarray, tree)
  return {
      'mctx': lambda: to_numpy(policy(params, next(keys), observation,
                                      invalid_actions)),
      'mctx_gumbel': lambda: to_numpy(gumbel_policy(
          params, next(keys), observation, invalid_actions)),
  }


def time_batch(batch_size: int, config, network, jax_model,
               repeats: int) -> Dict[str, Any]:
  """Times every measurement at one batch size, in rotated turns."""
  rng = np.random.default_rng(SEED + batch_size)
  observation = rng.standard_normal(
      (batch_size, OBSERVATION_SIZE)).astype(np.float32)
  legal = np.ones((batch_size, NUM_ACTIONS), bool)
  to_play = np.zeros(batch_size, np.int32)
  counter = iter(range(10**9))
  tasks = {name: lambda s=s: s.search_with_seed(
      observation, to_play, legal, [SEED, next(counter)], add_noise=True)
           for name, s in (
               ('xla', compiled_search.CompiledSearch(config, network)),
               ('xla_gumbel', compiled_search.CompiledSearch(
                   config.replace(search_policy='gumbel'), network)))}
  if jax_model is not None:
    tasks.update(make_mctx_tasks(*jax_model, config, observation, legal, SEED))
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
  """Environment steps/s of `acting.Actor` with a fresh network of `preset`,
  `num_envs` games at once: `repeats` timings of at least 3 calls and
  20,000 steps (3,000 for one game) after an untimed call, every padded
  batch compiled first."""
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
  ratios = list(results[0]['ratios'])
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
  modules = import_mctx()
  if modules is not None:
    jax, mctx = modules
    jax_model = (jax, mctx, make_jax_model(jax, network, NUM_ACTIONS))
    output['jax_max_difference'] = check_jax_model(
        jax, network, jax_model[2], seed=SEED)
    output['machine'].update(jax=jax.__version__, mctx=mctx.__version__)
  output['search'] = [
      time_batch(b, config, network, jax_model, REPEATS.value)
      for b in batch_sizes]
  reporting.report(output, OUTPUT_JSON.value, format_table(output['search']))


if __name__ == '__main__':
  app.run(main)
