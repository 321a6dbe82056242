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
"""A compiled search split along its batch among a strategy's replicas.

`CompiledSearch` with a `tf.distribute` strategy runs one search program per
replica on its part of the batch. Each root's noise is drawn for the whole
batch first, as one device draws it, so a root gets the noise of its row
however many replicas share the batch.
"""

from typing import Callable, Optional

import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.search import gumbel_search
from muzero_snt.search import stateless_dirichlet


def check_variables(strategy: tf.distribute.Strategy, network) -> None:
  """Raises ValueError if XLA on several replicas cannot read `network`.

  XLA cannot read a variable placed on another replica's device; variables
  created in the strategy's scope have a copy on each.
  """
  if strategy.num_replicas_in_sync <= 1:
    return
  outside = [v.name for v in getattr(network, 'variables', ())
             if not strategy.extended.variable_created_in_scope(v)]
  if outside:
    raise ValueError(
        f'jit_compile=True on {strategy.num_replicas_in_sync} replicas '
        'needs the network built under strategy.scope(); variable '
        f'{outside[0]} was created outside it. Build the network in '
        '`with strategy.scope():` or pass jit_compile=False.')


def whole_batch_noise(config: config_lib.MuZeroConfig, dtype: tf.DType,
                      jit_compile: bool) -> Callable:
  """The noise a one-device search draws in its program, as a function of
  `(legal_actions_mask, seed)`: the Dirichlet noise, or Gumbel MuZero's
  Gumbel sample. Compiled alike (XLA or not), so that its numbers are the
  one-device program's."""

  def draw(legal, seed):
    if config.search_policy == 'gumbel':
      return gumbel_search.sample_gumbel(tf.shape(legal), seed, dtype)
    return stateless_dirichlet.dirichlet_noise(
        config.root_dirichlet_alpha, legal, seed, dtype)
  return tf.function(draw, jit_compile=jit_compile, autograph=False)


def replicated(strategy: tf.distribute.Strategy, search: Callable,
               draw_noise: Optional[Callable]) -> Callable:
  """`search` split along the batch among the strategy's replicas.

  Args:
    strategy: the strategy; the batch size is a multiple of its replicas.
    search: `(observation, to_play, legal, seed, noise)` -> `(visit_counts,
      policy, root_value, action, finite)`, a search that mixes in the
      noise it is given.
    draw_noise: `whole_batch_noise`, or None if the noise is given (host
      noise, or none).

  Returns:
    A function of `search`'s arguments and results.
  """
  num_replicas = strategy.num_replicas_in_sync

  def replicated_search(observation, to_play, legal, seed, noise):
    per_replica = tf.shape(to_play)[0] // num_replicas
    if draw_noise is not None:
      noise = draw_noise(legal, seed)

    def split(tensor):
      def part(context):
        start = context.replica_id_in_sync_group * per_replica
        return tensor[start:start + per_replica]
      return strategy.experimental_distribute_values_from_function(part)

    def run(observation, to_play, legal, noise):
      # A replica draws nothing: its noise is given.
      return search(observation, to_play, legal, seed, noise)

    outputs = strategy.run(
        run, args=(split(observation), split(to_play), split(legal),
                   split(noise)))
    visit_counts, policy, root_value, action, finite = outputs
    finite = strategy.experimental_local_results(finite)
    return (strategy.gather(visit_counts, axis=0),
            strategy.gather(policy, axis=0),
            strategy.gather(root_value, axis=0),
            strategy.gather(action, axis=0),
            tf.reduce_all(tf.stack(finite), axis=0))
  return replicated_search
