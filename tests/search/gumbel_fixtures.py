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

`mctx_policy` runs `mctx.gumbel_muzero_policy` on a JAX copy of an MLP
`MuZeroNetwork`, in float32 or, with JAX's 64-bit mode, float64.
`Float64Model` is the same model in TensorFlow in float64, so that both
searches can be compared without float32 rounding, which sigma(q) amplifies
(its scale reaches c_visit + n and q is divided by the range of Q). Both
copies compute the layers of `networks/mlp.py` by `_inferences`.
"""

import functools
import re
import types as python_types
from typing import Dict, List, NamedTuple

import numpy as np
import tensorflow as tf

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


def mlp_layers(network) -> Dict[str, List[tuple]]:
  """The `(w, b)` NumPy arrays of each `snt.nets.MLP`, by module path.

  E.g. 'dynamics/torso' -> [(w_0, b_0), (w_1, b_1)], from the variables
  'dynamics/torso/linear_0/w:0', ...
  """
  pattern = re.compile(r'(.*)/linear_(\d+)/([wb]):0$')
  found = {}
  for variable in network.variables:
    path, index, kind = pattern.match(variable.name).groups()
    found.setdefault(path, {}).setdefault(int(index), {})[kind] = (
        variable.numpy())
  return {path: [(layers[i]['w'], layers[i]['b']) for i in sorted(layers)]
          for path, layers in found.items()}


def _inferences(layers, ops):
  """The two inferences of an MLP network with `layers`, in `ops`' library.

  The layer order of `networks/mlp.py`: an `snt.nets.MLP` is Linear layers
  with a ReLU between them (and after the last only with `activate_final`);
  the hidden state is min-max scaled per example with a range floor of 1e-5
  after the representation and after the dynamics torso, whose unscaled
  output feeds the reward head; the dynamics sees concat(h, one_hot(a)).

  Args:
    layers: `mlp_layers`' dict, its arrays in the library's dtype.
    ops: `relu`, `concat` (of a list, last axis), `one_hot` (of actions),
      `min` and `max` (last axis, kept) and `maximum`.

  Returns:
    `initial(observation) -> (policy_logits, value, hidden_state)` and
    `recurrent(hidden_state, action) -> (reward, policy_logits, value,
    hidden_state)`.
  """

  def mlp(path, x, activate_final=False):
    for i, (w, b) in enumerate(layers[path]):
      x = x @ w + b
      if activate_final or i < len(layers[path]) - 1:
        x = ops.relu(x)
    return x

  def scale(hidden_state):
    low, high = ops.min(hidden_state), ops.max(hidden_state)
    return (hidden_state - low) / ops.maximum(high - low, 1e-5)

  def predict(hidden_state):
    features = mlp('prediction/torso', hidden_state, activate_final=True)
    return (mlp('prediction/policy_head', features),
            mlp('prediction/value_head/mlp', features)[:, 0])

  def initial(observation):
    hidden_state = scale(mlp('representation/torso', observation))
    return predict(hidden_state) + (hidden_state,)

  def recurrent(hidden_state, action):
    next_state = mlp('dynamics/torso',
                     ops.concat([hidden_state, ops.one_hot(action)]))
    reward = mlp('dynamics/reward_head/mlp', next_state)[:, 0]
    next_state = scale(next_state)
    return (reward,) + predict(next_state) + (next_state,)

  return initial, recurrent


class Float64Model:
  """An MLP `MuZeroNetwork` recomputed in TensorFlow in float64."""

  def __init__(self, network):
    layers = {path: [(tf.constant(w, tf.float64), tf.constant(b, tf.float64))
                     for w, b in path_layers]
              for path, path_layers in mlp_layers(network).items()}
    self._initial, self._recurrent = _inferences(
        layers, python_types.SimpleNamespace(
            relu=tf.nn.relu, concat=lambda xs: tf.concat(xs, axis=-1),
            one_hot=lambda a: tf.one_hot(a, network.num_actions,
                                         dtype=tf.float64),
            min=lambda x: tf.reduce_min(x, axis=-1, keepdims=True),
            max=lambda x: tf.reduce_max(x, axis=-1, keepdims=True),
            maximum=tf.maximum))

  def initial_inference(self, observation):
    logits, value, hidden_state = self._initial(
        tf.cast(observation, tf.float64))
    return types.NetworkOutput(value=value,
                               reward=tf.zeros_like(hidden_state[:, 0]),
                               policy_logits=logits,
                               hidden_state=hidden_state)

  def recurrent_inference(self, hidden_state, action):
    reward, logits, value, next_state = self._recurrent(hidden_state, action)
    return types.NetworkOutput(value=value, reward=reward,
                               policy_logits=logits, hidden_state=next_state)


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
  dtype = jnp.float64 if float64 else jnp.float32
  params = jax.tree_util.tree_map(lambda x: jnp.asarray(x, dtype),
                                  mlp_layers(network))
  ops = python_types.SimpleNamespace(
      relu=jax.nn.relu, concat=lambda xs: jnp.concatenate(xs, axis=-1),
      one_hot=lambda a: jax.nn.one_hot(a, config.action_space_size,
                                       dtype=dtype),
      min=lambda x: x.min(axis=-1, keepdims=True),
      max=lambda x: x.max(axis=-1, keepdims=True), maximum=jnp.maximum)
  initial = lambda params, x: _inferences(params, ops)[0](x)
  recurrent = lambda params, h, a: _inferences(params, ops)[1](h, a)
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
