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
"""The model of benchmarks/search.py and our searches on it as timed calls.

`make_tf_tasks` gives the `CompiledSearch` (XLA, graph, Gumbel), the
reference search and the pieces of the compiled search (bare, root only,
network only, an empty compiled call); `mctx_baseline.make_mctx_tasks`
gives mctx's on a JAX copy of the same network.
"""

from typing import Any, Callable, Dict

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import flat_call
from muzero_snt import presets
from muzero_snt import search as search_lib
from muzero_snt.search import batched
from muzero_snt.search import compiled_search
from muzero_snt.search import root_noise

OBSERVATION_SIZE, HIDDEN_SIZE, NUM_ACTIONS = 8, 32, 4


def make_config(num_simulations: int = 50) -> config_lib.MuZeroConfig:
  """The benchmarked model: an MLP with scalar heads, one player."""
  return presets.make_cartpole_config().replace(
      action_space_size=NUM_ACTIONS,
      observation_shape=(OBSERVATION_SIZE,),
      num_simulations=num_simulations,
      discount=0.997,
      known_bounds=None,
      num_players=1,
      network=config_lib.NetworkConfig(
          kind='mlp', hidden_size=HIDDEN_SIZE, mlp_layers=(HIDDEN_SIZE,),
          head_layers=(HIDDEN_SIZE,), value_support_size=0,
          reward_support_size=0))


def make_tf_tasks(config, network, observation, legal, seed: int,
                  reference: bool) -> Dict[str, Callable[[], Any]]:
  """Our searches, the reference, and the pieces of the compiled search."""
  batch_size = observation.shape[0]
  to_play = np.zeros(batch_size, np.int32)
  searches = {
      name: compiled_search.CompiledSearch(config, network,
                                           jit_compile=jit_compile)
      for name, jit_compile in (('xla', True), ('graph', False))
  }
  searches['xla_gumbel'] = compiled_search.CompiledSearch(
      config.replace(search_policy='gumbel'), network)
  counter = iter(range(10**9))

  def run(search):
    return lambda: search.search_with_seed(
        observation, to_play, legal, [seed, next(counter)], add_noise=True)

  tasks = {name: run(search) for name, search in searches.items()}

  # The pieces are called as `CompiledSearch` calls its program: the
  # concrete function's flat call on tensors made once
  # (`flat_call.flat_caller`), so that they time programs, not
  # tf.function's argument matching.
  def compiled(function, *args):
    return flat_call.flat_caller(
        tf.function(function, jit_compile=True,
                    autograph=False).get_concrete_function(*args))

  def bare_search(num_simulations):
    # The roots' noise as `CompiledSearch` passes it (drawn on the host),
    # here drawn once: the program alone is timed.
    def bare(observation, to_play, legal, noise):
      output = batched.batched_search(
          config, network, observation, to_play, legal, noise=noise,
          add_noise=True, num_simulations=num_simulations)
      return (output.visit_counts, output.policy, output.root_value,
              output.finite)
    call = compiled(bare, *tensors, root_dirichlet)
    return lambda: [x.numpy() for x in call(*tensors, root_dirichlet)]

  def empty(observation, to_play, legal, noise_seed):
    return (tf.reduce_sum(observation) + tf.cast(
        tf.reduce_sum(to_play) + tf.reduce_sum(noise_seed) +
        tf.reduce_sum(tf.cast(legal, tf.int32)), tf.float32))

  tensors = [tf.constant(x) for x in (observation, to_play, legal)]
  noise_seed = tf.constant([seed, 1], tf.int32)
  root_dirichlet = tf.constant(root_noise.dirichlet_noise(
      config.root_dirichlet_alpha, np.asarray(legal, bool),
      np.random.default_rng(seed)), tf.float32)
  tasks['xla_bare'] = bare_search(config.num_simulations)
  tasks['xla_root'] = bare_search(0)
  empty_call = compiled(empty, *tensors, noise_seed)
  tasks['xla_empty'] = lambda: empty_call(*tensors, noise_seed).numpy()

  def network_only(observation):
    output = network.initial_inference(observation)

    def body(i, hidden_state, total):
      action = tf.fill(tf.shape(hidden_state)[:1], i % NUM_ACTIONS)
      output = network.recurrent_inference(hidden_state, action)
      return i + 1, output.hidden_state, total + output.value

    return tf.while_loop(
        lambda i, *_: i < config.num_simulations, body,
        (tf.constant(0), output.hidden_state, output.value))[2]

  network_call = compiled(network_only, tensors[0])
  tasks['xla_network'] = lambda: network_call(tensors[0]).numpy()
  if reference:
    model = search_lib.NetworkModel(network)
    legal_lists = [np.flatnonzero(row).tolist() for row in legal]
    rng = np.random.default_rng(seed)
    tasks['reference'] = lambda: search_lib.search(
        config, model, observation, to_play, legal_lists, rng,
        add_noise=True)
  return tasks
