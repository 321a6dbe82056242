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
"""mctx on a JAX copy of an MLP MuZeroNetwork, for benchmarks/search.py.

JAX and mctx are optional (`pip install -e '.[bench]'`).
"""

import functools
import re
from typing import Any, Callable, Dict, List

from absl import logging
import numpy as np

# The forward pass of the JAX copy may differ from TensorFlow's by rounding.
_TOLERANCE = 1e-5


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
  """The `(w, b)` NumPy arrays of each `snt.nets.MLP` by module path, e.g.
  'dynamics/torso' -> [(w_0, b_0), (w_1, b_1)]."""
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
  inferences in JAX, `initial(params, observation) -> (policy_logits,
  value, hidden_state)` and `recurrent(params, hidden_state, action) ->
  (reward, policy_logits, value, hidden_state)`, as `networks/mlp.py`
  computes them."""
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
