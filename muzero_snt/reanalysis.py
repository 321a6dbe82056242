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
"""Reanalyse: fresh targets for stored positions (MuZero Reanalyze).

Appendix H of arXiv:1911.08265; on a fixed dataset, MuZero Unplugged
(Schrittwieser et al., 2021). Its choices are in docs/reanalysis.md.
"""

import time
from typing import Callable, Dict, NamedTuple, Optional, Tuple

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import networks
from muzero_snt import replay as replay_lib
from muzero_snt import search as search_lib
from muzero_snt import symmetries
from muzero_snt import types


def num_rows(fraction: float, batch_size: int,
             rng: np.random.Generator) -> int:
  """How many of a batch's rows to reanalyse, fraction * B on average:
  floor(f B), plus one with probability f B - floor(f B) (drawn only then)."""
  exact = fraction * batch_size
  count = int(np.floor(exact))
  if exact > count:
    count += int(rng.random() < exact - count)
  return count


def choose_rows(fraction: float, batch_size: int,
                rng: np.random.Generator) -> np.ndarray:
  """`num_rows` distinct rows of a batch, drawn from `rng`, ascending."""
  return np.sort(rng.choice(batch_size,
                            num_rows(fraction, batch_size, rng),
                            replace=False))


class Inputs(NamedTuple):
  """What the new targets of a batch's chosen rows need from the replay:
  P positions searched again and Q bootstrap observations (b = j + n inside
  the game) evaluated; NumPy arrays only, to travel between processes."""
  rows: np.ndarray  # [R] int64 the chosen rows, ascending.
  searched: np.ndarray  # [P, 2] int64 (row, unroll step) searched again.
  observations: np.ndarray  # [P, *observation_shape] stored observations.
  to_play: np.ndarray  # [P] int64 the players to move there.
  legal_actions: np.ndarray  # [P, A] bool their legal actions.
  bootstraps: np.ndarray  # [Q, 2] int64 (row, unroll step) bootstrapping.
  bootstrap_observations: np.ndarray  # [Q, *observation_shape] at b.
  stored_values: np.ndarray  # [Q] float64 the stored value targets z_j.
  stored_bootstraps: np.ndarray  # [Q] float64 the root values stored at b.
  signs: np.ndarray  # [Q] float64 s(j, b): +1 if one player moves at both.


def gather_inputs(config: config_lib.MuZeroConfig, keys: np.ndarray,
                  rows: np.ndarray, replay: replay_lib.ReplayBuffer
                 ) -> Inputs:
  """The `Inputs` of `[R]` rows (`choose_rows`) of a batch with `[B, 2]`
  (game id, position) `keys`, read from the `replay` it came from."""
  k, n = config.num_unroll_steps, config.td_steps
  keys = np.asarray(keys)
  searched = []  # (row, unroll step, game, position) searched again.
  bootstraps = []  # (row, unroll step, game, position j, bootstrap b).
  for row in np.asarray(rows).tolist():
    game = replay.game(int(keys[row, 0]))
    t = int(keys[row, 1])
    for step in range(min(k + 1, game.length - t)):
      j = t + step
      if config.reanalyze_policy:
        searched.append((row, step, game, j))
      if j + n < game.length:
        bootstraps.append((row, step, game, j, j + n))
  shape = (0,) + tuple(config.observation_shape)

  def stack(arrays, empty):
    return np.stack(arrays) if arrays else empty

  return Inputs(
      rows=np.asarray(rows, np.int64),
      searched=np.array([(r, s) for r, s, *_ in searched],
                        np.int64).reshape(-1, 2),
      observations=stack([game.observation(j)
                          for *_, game, j in searched],
                         np.zeros(shape, np.float32)),
      to_play=np.array([int(game.to_play[j]) for *_, game, j in searched],
                       np.int64),
      legal_actions=stack([game.legal_actions[j]
                           for *_, game, j in searched],
                          np.zeros((0, config.action_space_size), bool)),
      bootstraps=np.array([(r, s) for r, s, *_ in bootstraps],
                          np.int64).reshape(-1, 2),
      bootstrap_observations=stack(
          [game.observation(b) for *_, game, _, b in bootstraps],
          np.zeros(shape, np.float32)),
      stored_values=np.array(
          [game.value_targets(n)[j] for *_, game, j, _ in bootstraps],
          np.float64),
      stored_bootstraps=np.array(
          [game.root_values[b] for *_, game, _, b in bootstraps],
          np.float64),
      signs=np.array([1. if game.to_play[j] == game.to_play[b] else -1.
                      for *_, game, j, b in bootstraps], np.float64))


class Reanalyser:
  """Recomputes the targets of a random fraction of a sampled batch's rows.

  In each chosen row, the window's positions inside the game are searched
  again without noise, in one batched call, for the policy targets (unless
  `config.reanalyze_policy` is False). Where the bootstrap position b = j + n
  lies inside the game, the value target's bootstrap term becomes
  g^n s(j, b) v^-(o_b), the target network's value. The target network and
  the call count are `state`, so a resumed run reanalyses as an
  uninterrupted one.
  """

  def __init__(self,
               config: config_lib.MuZeroConfig,
               network,
               search: search_lib.Search,
               learner_steps: Callable[[], int],
               seed: int = 0):
    """Builds a target network copying the learner's `network` unless
    td_steps >= max_moves (then no value bootstraps inside a game); `search`
    is a `search.Search` over `network` (else a `TypeError`), `learner_steps`
    returns the learner's steps so far, `seed` seeds the choice of rows."""
    if not isinstance(search, search_lib.Search):
      raise TypeError(f'Reanalyser needs a search.Search (e.g. '
                      f'search.make_search(config, network)), got '
                      f'{type(search).__name__}.')
    self._config = config
    self._network = network
    self._search = search
    self._symmetries = symmetries.BoardSymmetries(
        config.board_symmetries, config.observation_shape,
        config.action_space_size)
    self._learner_steps = learner_steps
    self._seed = seed
    # Checkpointed (`state`), int64 like the run's counters.
    self._counters = {
        name: tf.Variable(value, dtype=tf.int64, trainable=False, name=name)
        for name, value in (('reanalysed_batches', 0),
                            ('target_network_step', -1))}
    self._target_network = None
    self._target_model = None
    if config.td_steps < config.max_moves:
      network.create_variables()
      self._target_network = networks.make_network(config)
      self._target_network.create_variables()
      self._target_model = search_lib.NetworkModel(self._target_network)
      shapes = [v.shape for v in network.variables]
      if shapes != [v.shape for v in self._target_network.variables]:
        raise ValueError(f'The network\'s variables {shapes} are not those '
                         'of networks.make_network(config): reanalysis '
                         'copies them into a target network of the config.')
    self._rows = 0
    self._positions = 0
    self._seconds = 0.
    self._total_seconds = 0.

  @property
  def target_network(self):
    """The target network (None when no value target bootstraps)."""
    return self._target_network

  @property
  def target_network_step(self) -> int:
    """The learner step of the target network's last copy (-1: none yet)."""
    return int(self._counters['target_network_step'].numpy())

  @property
  def state(self) -> Dict[str, tf.Module]:
    """Trackables for the run's checkpoint (names unique to reanalysis)."""
    state = {f'reanalyse_{name}': v for name, v in self._counters.items()}
    if self._target_network is not None:
      state['reanalyse_target_network'] = self._target_network
    return state

  @property
  def total_seconds(self) -> float:
    """Wall time spent in `reanalyse` by this process."""
    return self._total_seconds

  def take_stats(self) -> Tuple[int, int, float]:
    """(rows, positions searched, seconds) since the last call."""
    stats = (self._rows, self._positions, self._seconds)
    self._rows, self._positions, self._seconds = 0, 0, 0.
    return stats

  def _next_rng(self) -> np.random.Generator:
    """This call's generator, seeded by (seed, calls before); refreshes the
    target network when its interval has passed."""
    calls = self._counters['reanalysed_batches']
    rng = np.random.default_rng([self._seed, int(calls.numpy())])
    calls.assign_add(1)
    if self._target_network is not None:
      step = self._learner_steps()
      last = self.target_network_step
      if last < 0 or step - last >= self._config.target_update_interval:
        for target, source in zip(self._target_network.variables,
                                  self._network.variables):
          target.assign(source)
        self._counters['target_network_step'].assign(step)
    return rng

  def reanalyse(self, batch: types.Batch, keys: np.ndarray,
                replay: replay_lib.ReplayBuffer) -> types.Batch:
    """A new batch with fresh `target_policy` and `target_value` in a random
    `reanalyze_fraction` of rows of `replay.sample_batch()`'s `batch`, keys
    `[B, 2]`."""
    start = time.perf_counter()
    rng = self._next_rng()
    rows = choose_rows(self._config.reanalyze_fraction, len(keys), rng)
    if not len(rows):
      return batch
    inputs = gather_inputs(self._config, keys, rows, replay)
    return self._new_targets(batch, inputs, rng, start)

  def reanalyse_gathered(self, batch: types.Batch, inputs: Inputs,
                         maps: Optional[np.ndarray] = None) -> types.Batch:
    """`reanalyse` of a `sample_batch(augment=False)` batch whose rows'
    `inputs` were gathered by the replay's process (`choose_rows`,
    `gather_inputs`), each row then moved by its `[B]` symmetry map
    (`ReplayBuffer.draw_symmetries`; None: none)."""
    start = time.perf_counter()
    rng = self._next_rng()
    if len(inputs.rows):
      batch = self._new_targets(batch, inputs, rng, start)
    if maps is None:
      return batch
    return self._symmetries.apply(batch, maps)

  def _new_targets(self, batch: types.Batch, inputs: Inputs,
                   rng: np.random.Generator, start: float) -> types.Batch:
    config = self._config
    n, g = config.td_steps, config.discount
    target_policy = np.array(batch.target_policy, np.float32)  # [B, K+1, A]
    if len(inputs.searched):
      output = self._search(
          inputs.observations, [int(p) for p in inputs.to_play],
          inputs.legal_actions, rng, add_noise=False)
      for (row, step), policy in zip(inputs.searched.tolist(),
                                     output.policy):
        target_policy[row, step] = policy
    target_value = np.array(batch.target_value, np.float32)  # [B, K+1]
    if len(inputs.bootstraps):
      values = self._target_model.initial_inference(
          inputs.bootstrap_observations
      ).value.astype(np.float64)  # [Q] for the player to move at b.
      # The stored target minus its bootstrap term plus the new one.
      z = inputs.stored_values + g**n * inputs.signs * (
          values - inputs.stored_bootstraps)  # [Q]
      for (row, step), value in zip(inputs.bootstraps.tolist(), z):
        target_value[row, step] = value
    self._rows += len(inputs.rows)
    self._positions += len(inputs.searched)
    seconds = time.perf_counter() - start
    self._seconds += seconds
    self._total_seconds += seconds
    return batch._replace(target_policy=target_policy,
                          target_value=target_value)


def sample(config: config_lib.MuZeroConfig, replay: replay_lib.ReplayBuffer,
           reanalyser: Optional[Reanalyser] = None
           ) -> Tuple[types.Batch, Optional[np.ndarray]]:
  """A `Batch` of `replay`, reanalysed if a `reanalyser` is given, and its
  `[B, 2]` keys if `config.prioritized_replay`, else None."""
  if reanalyser is None:
    batch, keys = replay.sample_batch()
  else:
    # The search reads stored positions: augment after the new targets.
    batch, keys = replay.sample_batch(augment=False)
    batch = replay.augment(reanalyser.reanalyse(batch, keys, replay))
  return batch, keys if config.prioritized_replay else None
