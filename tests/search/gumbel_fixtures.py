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
"""Gumbel MuZero's search on one MLP model, by mctx and by this library.

`mctx_policy` runs `mctx.gumbel_muzero_policy` on the JAX copy of an MLP
`MuZeroNetwork` (`benchmarks/mctx_baseline.py`), in float32 or, with JAX's
64-bit mode, float64. `Float64Model` is the same model in TensorFlow in
float64, so that both searches can be compared without float32 rounding,
which sigma(q) amplifies (its scale reaches c_visit + n and q is divided
by the range of Q).
"""

import functools
from typing import NamedTuple

import numpy as np
import tensorflow as tf

from benchmarks import mctx_baseline
from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt import types

OBSERVATION_SIZE, HIDDEN_SIZE, NUM_ACTIONS = 8, 32, 4


def make_config(num_players: int, num_simulations: int,
                max_considered: int) -> config_lib.MuZeroConfig:
  """A small MLP model with scalar heads and 4 actions, as
  benchmarks/search.py's; one or two players."""
  return presets.make_cartpole_config().replace(
      action_space_size=NUM_ACTIONS,
      observation_shape=(OBSERVATION_SIZE,),
      num_simulations=num_simulations,
      discount=0.997,
      known_bounds=None,
      num_players=num_players,
      search_policy='gumbel',
      gumbel_max_considered_actions=max_considered,
      network=config_lib.NetworkConfig(
          kind='mlp', hidden_size=HIDDEN_SIZE, mlp_layers=(HIDDEN_SIZE,),
          head_layers=(HIDDEN_SIZE,), value_support_size=0,
          reward_support_size=0))


def random_inputs(batch_size: int, seed: int):
  """`(observation, legal)`: normal observations; rows with 1 to A legal."""
  rng = np.random.default_rng(seed)
  observation = rng.standard_normal(
      (batch_size, OBSERVATION_SIZE)).astype(np.float32)
  legal = np.ones((batch_size, NUM_ACTIONS), bool)
  for row in legal[batch_size // 2:]:  # Half the rows with all legal.
    row[rng.permutation(NUM_ACTIONS)[:rng.integers(0, NUM_ACTIONS)]] = False
  return observation, legal


class Float64Model:
  """An MLP `MuZeroNetwork` recomputed in TensorFlow in float64.

  The layers of `networks/mlp.py` as `mctx_baseline.make_jax_model` writes
  them, on the network's weights cast to float64.
  """

  def __init__(self, network):
    self._layers = {
        path: [(tf.constant(w, tf.float64), tf.constant(b, tf.float64))
               for w, b in layers]
        for path, layers in mctx_baseline.mlp_layers(network).items()}
    self._num_actions = network.num_actions

  def _mlp(self, path, x, activate_final=False):
    layers = self._layers[path]
    for i, (w, b) in enumerate(layers):
      x = x @ w + b
      if activate_final or i < len(layers) - 1:
        x = tf.nn.relu(x)
    return x

  def _scale(self, hidden_state):
    low = tf.reduce_min(hidden_state, axis=-1, keepdims=True)
    high = tf.reduce_max(hidden_state, axis=-1, keepdims=True)
    return (hidden_state - low) / tf.maximum(high - low, 1e-5)

  def _predict(self, hidden_state, reward):
    features = self._mlp('prediction/torso', hidden_state, True)
    return types.NetworkOutput(
        value=self._mlp('prediction/value_head/mlp', features)[:, 0],
        reward=reward,
        policy_logits=self._mlp('prediction/policy_head', features),
        hidden_state=hidden_state)

  def initial_inference(self, observation):
    observation = tf.cast(observation, tf.float64)
    hidden_state = self._scale(self._mlp('representation/torso',
                                         observation))
    return self._predict(hidden_state,
                         tf.zeros_like(hidden_state[:, 0]))

  def recurrent_inference(self, hidden_state, action):
    inputs = tf.concat(
        [hidden_state, tf.one_hot(action, self._num_actions,
                                  dtype=tf.float64)], axis=-1)
    next_state = self._mlp('dynamics/torso', inputs)
    reward = self._mlp('dynamics/reward_head/mlp', next_state)[:, 0]
    return self._predict(self._scale(next_state), reward)


class MctxOutput(NamedTuple):
  """NumPy results of `mctx.gumbel_muzero_policy`."""
  action: np.ndarray  # [B]
  policy: np.ndarray  # [B, A] action_weights.
  visit_counts: np.ndarray  # [B, A]
  gumbel: np.ndarray  # [B, A] the root's Gumbel sample.


def mctx_policy(jax, mctx, config, network, observation, legal, seed: int,
                float64: bool, gumbel_scale: float = 1.) -> MctxOutput:
  """`mctx.gumbel_muzero_policy` on the JAX copy of `network`.

  sigma's constants are the config's (mctx's `value_scale` is c_scale and
  `maxvisit_init` c_visit); two players pass discount -g, mctx's way of
  changing a value's sign between players. `gumbel_scale` 0: no noise.
  """
  jnp = jax.numpy
  params, initial, recurrent = mctx_baseline.make_jax_model(
      jax, network, config.action_space_size)
  dtype = jnp.float64 if float64 else jnp.float32
  params = jax.tree_util.tree_map(lambda x: jnp.asarray(x, dtype), params)
  discount = config.discount * (-1. if config.num_players == 2 else 1.)

  def recurrent_fn(params, rng_key, action, embedding):
    del rng_key
    reward, logits, value, next_state = recurrent(params, embedding, action)
    return mctx.RecurrentFnOutput(
        reward=reward, discount=jnp.full_like(reward, discount),
        prior_logits=logits, value=value), next_state

  @jax.jit
  def policy(params, rng_key, observation, invalid_actions):
    logits, value, hidden_state = initial(params, observation)
    return mctx.gumbel_muzero_policy(
        params, rng_key,
        mctx.RootFnOutput(prior_logits=logits, value=value,
                          embedding=hidden_state),
        recurrent_fn, config.num_simulations,
        invalid_actions=invalid_actions,
        max_num_considered_actions=config.gumbel_max_considered_actions,
        gumbel_scale=gumbel_scale,
        qtransform=functools.partial(
            mctx.qtransform_completed_by_mix_value,
            value_scale=config.gumbel_c_scale,
            maxvisit_init=config.gumbel_c_visit))

  output = policy(params, jax.random.PRNGKey(seed),
                  jnp.asarray(observation, dtype), jnp.asarray(~legal))
  return MctxOutput(
      action=np.asarray(output.action),
      policy=np.asarray(output.action_weights),
      visit_counts=np.asarray(output.search_tree.summary().visit_counts),
      gumbel=np.asarray(output.search_tree.extra_data.root_gumbel))
