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
"""CompiledSearch: the batched search compiled once, NumPy in and NumPy out.

Self-play hands it the observations, players and legal actions masks of
many games (`inputs.py`); it runs `batched.batched_search` (or Gumbel
MuZero's `gumbel_search.gumbel_search`) as one `tf.function`, XLA by
default, with a batch-agnostic signature, optionally split among the
replicas of a `tf.distribute` strategy, and returns the root statistics as
NumPy arrays: a `base.Search`, like the reference `ReferenceSearch` it is
tested against. The roots' Dirichlet noise is drawn in the program from a
stateless seed, each root's from its row alone (`stateless_dirichlet.py`),
or, with `host_noise`, in NumPy as the reference draws it (`root_noise.py`)
and passed to the program.
"""

from typing import Callable, List, Optional, Sequence

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import flat_call
from muzero_snt.search import base
from muzero_snt.search import batched
from muzero_snt.search import gumbel_search
from muzero_snt.search import inputs as inputs_lib
from muzero_snt.search import replicas
from muzero_snt.search import root_noise


# Batches up to this size are padded to a power of two; larger ones to a
# multiple of an eighth of their power of two.
_POWER_OF_TWO_UP_TO = 64


def _padded_size(batch_size: int, multiple: int) -> int:
  """The size a batch of `batch_size` is padded to, a `multiple` of replicas.

  XLA compiles one program per batch size. Up to 64 rows the size is the
  next power of two: self-play's batch shrinks as games end, and powers of
  two bound its programs by log2(num_envs) + 1. Above 64 (reanalysis
  searches hundreds of stored positions, a number that varies from batch
  to batch) it is the next multiple of p / 8, p the next power of two: at
  most 8 programs between p / 2 and p, and at most 1.25 times the work of
  the unpadded batch instead of 2.
  """
  size = 1
  while size < batch_size:
    size *= 2
  if size > _POWER_OF_TWO_UP_TO:
    step = size // 8
    size = -(-batch_size // step) * step
  return -(-size // multiple) * multiple


class CompiledSearch:
  """`batched.batched_search` as a compiled function over NumPy batches.

  The function reads the network's variables, not copies: a learner that
  updates the same network in this process is seen by the next search.
  Its inputs are checked in NumPy before the compiled function runs
  (`inputs.check_inputs`, as `ReferenceSearch`): under XLA, which drops
  assertions, the compiled function could not refuse them itself.

  Usage:

      search = CompiledSearch(config, network)
      output = search(observations, to_play, legal_actions_mask, rng)
  """

  def __init__(self,
               config: config_lib.MuZeroConfig,
               network,
               jit_compile: bool = True,
               dtype: tf.DType = tf.float32,
               strategy: Optional[tf.distribute.Strategy] = None,
               pad_batch: bool = True,
               num_simulations: Optional[int] = None,
               host_noise: bool = False,
               min_batch_size: int = 1):
    """Builds the compiled search (traced on the first call per batch size).

    Args:
      config: the hyperparameters.
      network: a `MuZeroNetwork` (or any object with its two inference
        methods); its variables are created here if they do not exist.
      jit_compile: compile the whole search with XLA.
      dtype: float type of the tree statistics (float32 or float64).
      strategy: if given, each call splits its batch among the strategy's
        replicas, one search per replica.
      pad_batch: pad each batch to a few sizes (`_padded_size`, a multiple
        of the replicas), so that XLA compiles few programs; padded rows
        are searched and dropped.
      num_simulations: simulations per search (default:
        `config.num_simulations`).
      host_noise: draw the MuZero search's Dirichlet noise in NumPy as the
        reference search draws it (`root_noise.dirichlet_noise`) and pass
        it to the program; with float64 statistics the search then equals
        `ReferenceSearch` with noise. By default the program draws it, each
        root's from a stateless seed and its row alone
        (`stateless_dirichlet.py`): other numbers, so other games.
      min_batch_size: pad every smaller batch to this many rows first (then
        to `_padded_size`), so that self-play's rounds, whose batch shrinks
        as their games end, run one program. Valid rows are searched as in
        a batch of their own, noise included, up to the network's rounding
        (a unit in the last place may differ between batch sizes). With a
        `strategy` the noise is drawn for the whole batch before it is
        split, so a root's noise is the same on any number of replicas.

    Raises:
      ValueError: if `dtype` is not float32 or float64, if
        `num_simulations` or `min_batch_size` is not a positive integer,
        if `min_batch_size` > 1 without `pad_batch`, or if XLA is asked for
        on several replicas with variables created outside the strategy's
        scope.
    """
    if (isinstance(min_batch_size, bool) or
        not isinstance(min_batch_size, int) or min_batch_size <= 0):
      raise ValueError(f'min_batch_size must be a positive integer, got '
                       f'{min_batch_size!r}.')
    if min_batch_size > 1 and not pad_batch:
      raise ValueError(f'min_batch_size={min_batch_size} pads batches: it '
                       'needs pad_batch=True.')
    if num_simulations is not None:
      config = config.replace(num_simulations=num_simulations)
    if dtype not in (tf.float32, tf.float64):
      raise ValueError(f'dtype must be tf.float32 or tf.float64, got {dtype}.')
    if hasattr(network, 'create_variables'):
      network.create_variables()
    if strategy is not None and jit_compile:
      replicas.check_variables(strategy, network)
    self._config = config
    self._network = network
    self._dtype = dtype
    self._strategy = strategy
    self._pad_batch = pad_batch
    self._min_batch_size = min_batch_size
    self._host_noise = bool(host_noise)
    self._num_replicas = strategy.num_replicas_in_sync if strategy else 1
    observation_spec = tf.TensorSpec(
        (None,) + tuple(config.observation_shape), tf.float32)
    signature = [
        observation_spec,
        tf.TensorSpec([None], tf.int32),
        tf.TensorSpec([None, config.action_space_size], tf.bool),
        tf.TensorSpec([2], tf.int32),
        # The roots' Dirichlet noise if drawn in NumPy (`host_noise`).
        tf.TensorSpec([None, config.action_space_size], dtype),
    ]
    self._searches = {}
    # Without AutoGraph: the search's loops are tf.while_loop already, and
    # converting the search would take seconds of every first call.
    for add_noise in (False, True):
      # On several replicas the noise is drawn for the whole batch before
      # it is split, and each replica's program is given its part.
      search = tf.function(
          self._search_fn(add_noise,
                          noise_given=self._noise_from_rng or bool(strategy)),
          input_signature=signature, jit_compile=jit_compile, autograph=False)
      if strategy is not None:
        draw_noise = None  # Host noise is given.
        if add_noise and not self._noise_from_rng:
          draw_noise = replicas.whole_batch_noise(config, dtype, jit_compile)
        search = tf.function(
            replicas.replicated(strategy, search, draw_noise),
            input_signature=signature, autograph=False)
      self._searches[add_noise] = search
    # Concrete functions, traced on first use, and their flat calls: the
    # search builds its input tensors itself, so it skips tf.function's
    # matching of the arguments against the signature and the concrete
    # function's binding of them (`flat_call.py`), which would be about half
    # of a one-root search's time.
    self._concrete = {}
    self._calls = {}
    self._zero_noises = {}

  def _search_fn(self, add_noise: bool, noise_given: bool):
    """The search of one batch; with `noise_given` it mixes in `noise` (the
    Dirichlet noise, or Gumbel MuZero's Gumbel sample) instead of drawing
    it from `seed`."""
    given = noise_given and add_noise

    def search(observation, to_play, legal, seed, noise):
      # The inputs were checked in NumPy (`inputs.check_inputs`).
      if self._config.search_policy == 'gumbel':
        output = gumbel_search.gumbel_search(
            self._config, self._network, observation, to_play, legal,
            seed=seed, add_noise=add_noise, dtype=self._dtype,
            gumbel=noise if given else None, check_inputs=False)
        action = output.action
      else:
        output = batched.batched_search(
            self._config, self._network, observation, to_play, legal,
            seed=seed, add_noise=add_noise, dtype=self._dtype,
            noise=noise if given else None, check_inputs=False)
        # MuZero's action is drawn from the visit counts by the caller.
        action = tf.zeros_like(to_play)
      return (output.visit_counts, output.policy, output.root_value,
              action, output.finite)
    return search

  @property
  def config(self) -> config_lib.MuZeroConfig:
    """The hyperparameters the search runs with (its `num_simulations`)."""
    return self._config

  def __call__(self,
               observations: np.ndarray,
               to_play: np.ndarray,
               legal_actions_mask: np.ndarray,
               rng: np.random.Generator,
               add_noise: bool = True) -> base.SearchOutput:
    """Searches from B positions; see `base.Search`.

    With `add_noise` the noise's stateless seed is drawn from `rng` as
    `rng.integers(0, 2**31 - 1, size=2)`, or with `host_noise` the
    Dirichlet noise itself, as the reference search draws it (one
    `rng.dirichlet` per root, in batch order). Without noise nothing is
    drawn.

    Raises:
      As `search_with_seed`, and TypeError if `rng` is not a
      `np.random.Generator`.
    """
    base.check_rng(rng)
    checked = inputs_lib.check_inputs(self._config, observations, to_play,
                                      legal_actions_mask)
    seed = np.zeros(2, np.int32)
    if add_noise and not self._noise_from_rng:
      seed = rng.integers(0, 2**31 - 1, size=2).astype(np.int32)
    return self._search(checked, seed, add_noise, rng)

  @property
  def _noise_from_rng(self) -> bool:
    """Whether the noise is drawn on the host (else from a seed)."""
    return self._host_noise and self._config.search_policy != 'gumbel'

  def search_with_seed(self,
                       observations: np.ndarray,
                       to_play: np.ndarray,
                       legal_actions_mask: np.ndarray,
                       seed,
                       add_noise: bool = True) -> base.SearchOutput:
    """Searches from B positions with the noise's seed given.

    Args:
      observations: `[B, *observation_shape]` floating observations.
      to_play: `[B]` int players to move.
      legal_actions_mask: `[B, A]` bool the legal actions.
      seed: two ints, the stateless seed of the noise (with `host_noise`
        the Dirichlet noise is drawn from `np.random.default_rng(seed)` as
        `__call__` draws it from its generator).
      add_noise: mix Dirichlet noise into the root priors (Gumbel: draw
        the root's Gumbel sample; without it the sample is 0).

    Returns:
      `base.SearchOutput`.

    Raises:
      TypeError, ValueError: if the inputs are not of the searches' form
        (`inputs.check_inputs`), or `seed` is not two integers.
      FloatingPointError: if the network returned a non-finite value,
        reward or policy logit during the search (from finite inputs).
    """
    checked = inputs_lib.check_inputs(self._config, observations, to_play,
                                      legal_actions_mask)
    seed_array = np.asarray(seed)
    if seed_array.shape != (2,) or not np.issubdtype(seed_array.dtype,
                                                     np.integer):
      raise ValueError(f'seed must be two integers, got {seed!r}.')
    seed = (seed_array.astype(np.int64) % (2**31)).astype(np.int32)
    rng = None  # Only host noise draws from a generator.
    if add_noise and self._noise_from_rng:
      rng = np.random.default_rng(seed.tolist())
    return self._search(checked, seed, add_noise, rng)

  def padded_sizes(self, batch_sizes: Sequence[int]) -> List[int]:
    """The batch sizes the search runs `batch_sizes` as, largest first
    (without padding, those that split among the replicas)."""
    if not self._pad_batch:
      return sorted({size for size in batch_sizes
                     if size % self._num_replicas == 0}, reverse=True)
    return sorted({self._padded_size(size) for size in batch_sizes},
                  reverse=True)

  def _padded_size(self, batch_size: int) -> int:
    return _padded_size(max(batch_size, self._min_batch_size),
                        self._num_replicas)

  def compile_function(self, batch_sizes: Sequence[int],
                       add_noise: bool = True) -> Callable[[], None]:
    """Traces the search now; returns a function that compiles it.

    The returned function runs the compiled search once on zeros for each
    padded size of `batch_sizes` (`padded_sizes`), so that XLA compiles
    those programs before a game needs them. It reads the network's
    variables and changes nothing; it may run in another thread (tracing,
    done here, is not meant to overlap another trace).
    """
    function = self._concrete_function(add_noise)
    config = self._config
    sizes = self.padded_sizes(batch_sizes)

    def compile_searches() -> None:
      for size in sizes:
        function(
            tf.zeros((size,) + tuple(config.observation_shape), tf.float32),
            tf.zeros([size], tf.int32),
            tf.ones([size, config.action_space_size], tf.bool),
            tf.zeros([2], tf.int32), self._zero_noise(size))
    return compile_searches

  def _zero_noise(self, size: int) -> tf.Tensor:
    """The noise input when the program draws the noise itself (or none):
    one zero tensor per batch size, made once."""
    if size not in self._zero_noises:
      self._zero_noises[size] = tf.zeros(
          [size, self._config.action_space_size], self._dtype)
    return self._zero_noises[size]

  def _concrete_function(self, add_noise: bool):
    if add_noise not in self._concrete:
      self._concrete[add_noise] = (
          self._searches[add_noise].get_concrete_function())
    return self._concrete[add_noise]

  def _call(self, add_noise: bool):
    """The concrete function's flat call (`flat_call.flat_caller`)."""
    if add_noise not in self._calls:
      self._calls[add_noise] = flat_call.flat_caller(
          self._concrete_function(add_noise))
    return self._calls[add_noise]

  def _search(self, checked: inputs_lib.SearchInputs, seed: np.ndarray,
              add_noise: bool,
              rng: Optional[np.random.Generator]) -> base.SearchOutput:
    """Runs the compiled search on checked inputs (padded), as NumPy.

    `rng` is read only for host noise (`host_noise` and `add_noise`).
    """
    config = self._config
    observation, to_play, legal = checked
    batch_size = len(observation)
    noise = None  # Drawn in the program, or none: the input is unused.
    if add_noise and self._noise_from_rng:
      noise = root_noise.dirichlet_noise(config.root_dirichlet_alpha, legal,
                                         rng).astype(self._dtype.as_numpy_dtype)
    size = batch_size
    if self._pad_batch:
      size = self._padded_size(batch_size)
    elif batch_size % self._num_replicas:
      raise ValueError(f'A batch of {batch_size} does not split among '
                       f'{self._num_replicas} replicas.')
    if size > batch_size:
      pad = size - batch_size
      observation = np.concatenate(
          [observation, np.zeros((pad,) + observation.shape[1:], np.float32)])
      to_play = np.concatenate([to_play, np.zeros(pad, np.int32)])
      legal = np.concatenate(
          [legal, np.ones((pad, config.action_space_size), bool)])
      if noise is not None:
        noise = np.concatenate([noise, np.zeros((pad,) + noise.shape[1:],
                                                noise.dtype)])
    # The tensors are made here in the signature's dtypes (`check_inputs`
    # cast them), as the flat call expects.
    visit_counts, policy, root_value, action, finite = (
        self._call(add_noise)(
            tf.constant(observation), tf.constant(to_play),
            tf.constant(legal), tf.constant(seed),
            self._zero_noise(size) if noise is None else tf.constant(noise)))
    finite = finite.numpy()
    if not finite.all():
      name = batched.CHECKED_OUTPUTS[int(np.argmin(finite))]
      # The observations were checked finite: the network made the value.
      raise FloatingPointError(
          f'The network returned a non-finite {name} during the search from '
          'finite observations: it has probably diverged.')
    return base.SearchOutput(
        visit_counts=visit_counts.numpy()[:batch_size],
        policy=policy.numpy()[:batch_size],
        root_value=root_value.numpy()[:batch_size],
        action=(action.numpy()[:batch_size]
                if self._config.search_policy == 'gumbel' else None))
