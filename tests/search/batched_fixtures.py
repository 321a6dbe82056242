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
"""Random roots, networks and references shared by the batched-search tests."""

import functools

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import networks
from muzero_snt import types
from muzero_snt.search import base
from muzero_snt.search import batched
from muzero_snt.search import model as model_lib
from muzero_snt.search import reference_search
from tests import testing

NUM_ROOTS = 64
NUM_ACTIONS = 5
OBSERVATION_SHAPE = (6,)

# name -> (value/reward support size, num_players, discount, known bounds,
# unvisited_q). Every pUCT rule for unvisited children is covered once.
CONFIGS = {
    'one_player_scalar': (0, 1, 0.997, None, 'zero'),
    'one_player_support': (21, 1, 0.997, None, 'parent'),
    'two_players_scalar': (0, 2, 1.0, config_lib.KnownBounds(-1., 1.),
                           'minimum'),
    'two_players_support': (21, 2, 1.0, config_lib.KnownBounds(-1., 1.),
                            'zero'),
}


def config_by_name(name: str) -> config_lib.MuZeroConfig:
  support, players, discount, bounds, unvisited_q = CONFIGS[name]
  return testing.tiny_mlp_config(
      support, action_space_size=NUM_ACTIONS,
      observation_shape=OBSERVATION_SHAPE, num_players=players,
      discount=discount, known_bounds=bounds, unvisited_q=unvisited_q)


def make_network(config, seed: int):
  """A network with random initial weights, the same for the same seed."""
  tf.random.set_seed(seed)
  network = networks.make_network(config)
  network.create_variables()
  return network


def random_roots(config, batch_size: int, seed: int):
  """Random observations, players and legal masks (>= 1 legal per row)."""
  rng = np.random.default_rng(seed)
  a = config.action_space_size
  observation = rng.normal(
      size=(batch_size,) + config.observation_shape).astype(np.float32)
  to_play = rng.integers(0, config.num_players, batch_size).astype(np.int32)
  legal = rng.random((batch_size, a)) < 0.5
  legal[np.arange(batch_size), rng.integers(0, a, batch_size)] = True
  legal[0] = True  # Every action legal.
  legal[1] = np.arange(a) == 3  # A single legal action.
  return observation, to_play, legal


def lists(legal):
  """The pseudocode's lists of legal action ids of each row of a mask."""
  return [np.flatnonzero(row).tolist() for row in legal]


class XlaModel:
  """A `model.Model` whose two inferences run under XLA, as in the search."""

  def __init__(self, network):
    self._initial = tf.function(
        lambda o: tuple(network.initial_inference(o)[:4]), jit_compile=True)
    self._recurrent = tf.function(
        lambda h, a: tuple(network.recurrent_inference(h, a)[:4]),
        jit_compile=True)

  def initial_inference(self, observation):
    outputs = self._initial(tf.constant(observation, tf.float32))
    return types.NetworkOutput(*(x.numpy() for x in outputs))

  def recurrent_inference(self, hidden_state, action):
    outputs = self._recurrent(tf.constant(hidden_state, tf.float32),
                              tf.constant(action, tf.int32))
    return types.NetworkOutput(*(x.numpy() for x in outputs))


class Setup:
  """One config's network, random roots and reference searches."""

  def __init__(self, name: str, seed: int):
    self.config = config_by_name(name)
    self.network = make_network(self.config, seed)
    self.observation, self.to_play, self.legal = random_roots(
        self.config, NUM_ROOTS, seed)

  def reference(self, model):
    # The mask through the pseudocode's lists, as self-play makes it.
    legal = base.legal_actions_to_mask(lists(self.legal), NUM_ACTIONS)
    return reference_search.search(
        self.config, model, self.observation, self.to_play, legal,
        np.random.default_rng(0), add_noise=False)

  @functools.cached_property
  def tf_reference(self):
    return self.reference(model_lib.NetworkModel(self.network))

  @functools.cached_property
  def xla_reference(self):
    return self.reference(XlaModel(self.network))

  def batched(self, dtype, jit_compile):
    search = tf.function(
        lambda o, t, l: batched.batched_search(
            self.config, self.network, o, t, l, add_noise=False,
            dtype=dtype),
        jit_compile=jit_compile)
    return search(self.observation, self.to_play, self.legal)


@functools.lru_cache(maxsize=None)
def setup(name: str) -> Setup:
  return Setup(name, seed=sorted(CONFIGS).index(name))

