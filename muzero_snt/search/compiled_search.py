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
"""`CompiledSearch`, a batched search compiled once, and `make_search`."""

from typing import Callable, List, Optional, Sequence

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import flat_call
from muzero_snt.search import base
from muzero_snt.search import batched
from muzero_snt.search import gumbel_search
from muzero_snt.search import model as model_lib
from muzero_snt.search import reference_search

# xla: the batched search compiled with XLA; graph: the same as a TensorFlow
# graph without XLA; reference: the NumPy trees of the pseudocode.
SEARCH_KINDS = ('xla', 'graph', 'reference')
_POWER_OF_TWO_UP_TO = 64


def _padded_size(batch_size: int, multiple: int) -> int:
  """The size a batch is padded to, a `multiple` of the replicas, so that XLA
  compiles few programs: up to `_POWER_OF_TWO_UP_TO` rows the next power of
  two p, above it the next multiple of p / 8 (at most 8 programs between
  p / 2 and p, at most 1.25 times the work)."""
  size = 1
  while size < batch_size:
    size *= 2
  if size > _POWER_OF_TWO_UP_TO:
    step = size // 8
    size = -(-batch_size // step) * step
  return -(-size // multiple) * multiple


def _replicated(strategy: tf.distribute.Strategy, search: Callable,
                draw_noise: Optional[Callable]) -> Callable:
  """`search` split along the batch among the strategy's replicas;
  `draw_noise(legal, seed)` draws the noise for the whole batch first (None:
  it is given), so a root's noise does not depend on the replicas."""
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
      return search(observation, to_play, legal, seed, noise)

    *results, finite = strategy.run(
        run, args=(split(observation), split(to_play), split(legal),
                   split(noise)))
    finite = strategy.experimental_local_results(finite)
    return tuple(strategy.gather(x, axis=0) for x in results) + (
        tf.reduce_all(tf.stack(finite), axis=0),)
  return replicated_search


class CompiledSearch:
  """A batched search (XLA by default) compiled over NumPy batches, reading
  the network's variables at each call. Inputs are checked in NumPy
  (`base.check_inputs`): under XLA the program could not refuse them."""

  def __init__(self,
               config: config_lib.MuZeroConfig,
               network,
               jit_compile: bool = True,
               dtype: tf.DType = tf.float32,
               strategy: Optional[tf.distribute.Strategy] = None,
               pad_batch: bool = True,
               host_noise: bool = False,
               min_batch_size: int = 1):
    """Builds the search (traced on first use).

    Args:
      config: `search_policy` chooses the search.
      network: a `MuZeroNetwork`, or any object with its two inferences.
      dtype: float type of the tree statistics (float32 or float64).
      strategy: if given, each call splits its batch among the replicas;
        with XLA the network must be built in its scope.
      pad_batch: pad each batch to a few sizes (`_padded_size`); padded rows
        are searched and dropped.
      host_noise: draw MuZero's Dirichlet noise from the NumPy rng as the
        reference does (with float64 statistics the search then equals
        `ReferenceSearch`), not in the program (`stateless_dirichlet.py`).
      min_batch_size: pad every smaller batch to this many rows first, so
        that self-play's shrinking rounds run one program (each row searched
        as in a batch of its own, up to the network's rounding).

    Raises:
      ValueError: if `dtype` or `min_batch_size` is invalid, or the network
        is outside `strategy`'s scope.
    """
    if (isinstance(min_batch_size, bool) or
        not isinstance(min_batch_size, int) or min_batch_size <= 0):
      raise ValueError(f'min_batch_size must be a positive integer, got '
                       f'{min_batch_size!r}.')
    if min_batch_size > 1 and not pad_batch:
      raise ValueError(f'min_batch_size={min_batch_size} pads batches: it '
                       'needs pad_batch=True.')
    if dtype not in (tf.float32, tf.float64):
      raise ValueError(f'dtype must be tf.float32 or tf.float64, got {dtype}.')
    if hasattr(network, 'create_variables'):
      network.create_variables()
    if strategy is not None and jit_compile:
      # Each replica reads its own copy of a variable made in the scope.
      outside = [v.name for v in getattr(network, 'variables', ())
                 if not strategy.extended.variable_created_in_scope(v)]
      if outside and strategy.num_replicas_in_sync > 1:
        raise ValueError(
            f'jit_compile=True on {strategy.num_replicas_in_sync} replicas '
            'needs the network built under strategy.scope(); variable '
            f'{outside[0]} was created outside it. Build the network in '
            '`with strategy.scope():` or pass jit_compile=False.')
    self._config = config
    self._network = network
    self._dtype = dtype
    self._pad_batch = pad_batch
    self._min_batch_size = min_batch_size
    # Host noise is MuZero's: Gumbel MuZero draws its sample in the program.
    self._noise_from_rng = bool(host_noise) and config.search_policy != (
        'gumbel')
    self._num_replicas = strategy.num_replicas_in_sync if strategy else 1
    num_actions = config.action_space_size
    signature = [
        tf.TensorSpec((None,) + tuple(config.observation_shape), tf.float32),
        tf.TensorSpec([None], tf.int32),
        tf.TensorSpec([None, num_actions], tf.bool),
        tf.TensorSpec([2], tf.int32),
        tf.TensorSpec([None, num_actions], dtype),  # Given noise, if any.
    ]
    self._searches = {}
    # Without AutoGraph: the loops are tf.while_loop already, and converting
    # the search would take seconds of every first call.
    for add_noise in (False, True):
      # On several replicas the noise is drawn for the whole batch first.
      search = tf.function(
          self._search_fn(add_noise, self._noise_from_rng or bool(strategy)),
          input_signature=signature, jit_compile=jit_compile, autograph=False)
      if strategy is not None:
        draw_noise = None
        if add_noise and not self._noise_from_rng:
          draw_noise = tf.function(
              lambda legal, seed: batched.draw_noise(config, legal, seed,
                                                     dtype),
              jit_compile=jit_compile, autograph=False)
        search = tf.function(_replicated(strategy, search, draw_noise),
                             input_signature=signature, autograph=False)
      self._searches[add_noise] = search
    # Flat calls (`flat_call.py`) skip tf.function's argument matching.
    self._calls = {}
    self._zero_noises = {}

  def _search_fn(self, add_noise: bool, noise_given: bool):
    search_fn = (gumbel_search.gumbel_search
                 if self._config.search_policy == 'gumbel' else
                 batched.batched_search)

    def search(observation, to_play, legal, seed, noise):
      output = search_fn(
          self._config, self._network, observation, to_play, legal,
          seed=seed, add_noise=add_noise,
          noise=noise if noise_given and add_noise else None,
          dtype=self._dtype, check_inputs=False)
      # MuZero's action is drawn from the visit counts by the caller.
      action = (tf.zeros_like(to_play) if output.action is None else
                output.action)
      return (output.visit_counts, output.policy, output.root_value,
              action, output.finite)
    return search

  @property
  def config(self) -> config_lib.MuZeroConfig:
    return self._config

  def __call__(self,
               observations: np.ndarray,
               to_play: np.ndarray,
               legal_actions_mask: np.ndarray,
               rng: np.random.Generator,
               add_noise: bool = True) -> base.SearchOutput:
    """`base.Search`; with `add_noise` the seed is `rng.integers(0,
    2**31 - 1, size=2)` (`host_noise`: the noise is drawn from `rng`).

    Raises:
      As `search_with_seed`, and TypeError if `rng` is not a Generator.
    """
    base.check_rng(rng)
    checked = base.check_inputs(self._config, observations, to_play,
                                legal_actions_mask)
    seed = np.zeros(2, np.int32)
    if add_noise and not self._noise_from_rng:
      seed = rng.integers(0, 2**31 - 1, size=2).astype(np.int32)
    return self._search(checked, seed, add_noise, rng)

  def search_with_seed(self,
                       observations: np.ndarray,
                       to_play: np.ndarray,
                       legal_actions_mask: np.ndarray,
                       seed,
                       add_noise: bool = True) -> base.SearchOutput:
    """`__call__` with the noise's seed (two ints) given; with `host_noise`
    the noise is drawn from `np.random.default_rng(seed)`.

    Raises:
      TypeError, ValueError: as `base.check_inputs`, or if `seed` is not two
        integers.
      FloatingPointError: if the network returned a non-finite output.
    """
    checked = base.check_inputs(self._config, observations, to_play,
                                legal_actions_mask)
    seed_array = np.asarray(seed)
    if seed_array.shape != (2,) or not np.issubdtype(seed_array.dtype,
                                                     np.integer):
      raise ValueError(f'seed must be two integers, got {seed!r}.')
    seed = (seed_array.astype(np.int64) % (2**31)).astype(np.int32)
    rng = (np.random.default_rng(seed.tolist())
           if add_noise and self._noise_from_rng else None)
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
    """Traces the search now; returns a function that compiles it, by a
    run on zeros of each of `padded_sizes(batch_sizes)`. That function
    changes nothing and may run in another thread."""
    call = self._call(add_noise)
    config = self._config
    sizes = self.padded_sizes(batch_sizes)

    def compile_searches() -> None:
      for size in sizes:
        call(tf.zeros((size,) + tuple(config.observation_shape), tf.float32),
             tf.zeros([size], tf.int32),
             tf.ones([size, config.action_space_size], tf.bool),
             tf.zeros([2], tf.int32), self._zero_noise(size))
    return compile_searches

  def _zero_noise(self, size: int) -> tf.Tensor:
    if size not in self._zero_noises:
      self._zero_noises[size] = tf.zeros(
          [size, self._config.action_space_size], self._dtype)
    return self._zero_noises[size]

  def _call(self, add_noise: bool):
    if add_noise not in self._calls:
      self._calls[add_noise] = flat_call.flat_caller(
          self._searches[add_noise].get_concrete_function())
    return self._calls[add_noise]

  def _search(self, checked: base.SearchInputs, seed: np.ndarray,
              add_noise: bool,
              rng: Optional[np.random.Generator]) -> base.SearchOutput:
    config = self._config
    observation, to_play, legal = checked
    batch_size = len(observation)
    noise = None
    if add_noise and self._noise_from_rng:
      noise = reference_search.dirichlet_noise(
          config.root_dirichlet_alpha, legal,
          rng).astype(self._dtype.as_numpy_dtype)
    size = batch_size
    if self._pad_batch:
      size = self._padded_size(batch_size)
    elif batch_size % self._num_replicas:
      raise ValueError(f'A batch of {batch_size} does not split among '
                       f'{self._num_replicas} replicas.')
    if size > batch_size:
      def pad(rows, value=0):
        return np.pad(rows, [(0, size - batch_size)] + [(0, 0)] * (
            rows.ndim - 1), constant_values=value)
      observation, to_play, legal = (pad(observation), pad(to_play),
                                     pad(legal, True))
      noise = None if noise is None else pad(noise)
    # The tensors are in the signature's dtypes (`check_inputs` cast them).
    visit_counts, policy, root_value, action, finite = self._call(add_noise)(
        tf.constant(observation), tf.constant(to_play), tf.constant(legal),
        tf.constant(seed),
        self._zero_noise(size) if noise is None else tf.constant(noise))
    finite = finite.numpy()
    if not finite.all():
      name = batched.CHECKED_OUTPUTS[int(np.argmin(finite))]
      raise FloatingPointError(
          f'The network returned a non-finite {name} during the search from '
          'finite observations: it has probably diverged.')
    return base.SearchOutput(
        visit_counts=visit_counts.numpy()[:batch_size],
        policy=policy.numpy()[:batch_size],
        root_value=root_value.numpy()[:batch_size],
        action=(action.numpy()[:batch_size]
                if config.search_policy == 'gumbel' else None))


def make_search(config: config_lib.MuZeroConfig,
                network,
                kind: str = 'xla',
                *,
                min_batch_size: int = 1) -> base.Search:
  """The search of one of `SEARCH_KINDS` over `network`, MuZero's or Gumbel
  MuZero's (`config.search_policy`; batched kinds only), reading the
  network's variables at each call. `min_batch_size` is `CompiledSearch`'s.

  Raises:
    ValueError: if `kind` is not one of `SEARCH_KINDS`, or is 'reference'
      with Gumbel MuZero or a `min_batch_size` other than 1.
  """
  if kind not in SEARCH_KINDS:
    raise ValueError(f'kind must be one of {SEARCH_KINDS}, got {kind!r}.')
  if kind != 'reference':
    return CompiledSearch(
        config, network, jit_compile=kind == 'xla',
        min_batch_size=min_batch_size)
  if config.search_policy != 'muzero':
    raise ValueError(
        f'search_policy={config.search_policy!r} runs on the batched search '
        f'only: kind must be \'xla\' or \'graph\', got {kind!r}.')
  if min_batch_size != 1:
    raise ValueError(f'min_batch_size={min_batch_size!r} pads the batched '
                     'searches\' batches; the reference search has no '
                     "batch: use 1 with kind='reference'.")
  return reference_search.ReferenceSearch(config,
                                          model_lib.NetworkModel(network))
