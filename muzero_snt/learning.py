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
"""The MuZero learner: a compiled step under any tf.distribute strategy."""

from typing import Any, Callable, Dict, Optional

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import flat_call
from muzero_snt import losses
from muzero_snt import mixed_precision
from muzero_snt import optimizers
from muzero_snt import types
from muzero_snt.networks import muzero_network

LOSS_REDUCTIONS = ('mean', 'sum')


def learning_rate_schedule(config: config_lib.MuZeroConfig,
                           step: tf.Tensor) -> tf.Tensor:
  """The pseudocode's `lr_init * lr_decay_rate ** (step / lr_decay_steps)`
  at update `step` (0 first), times min(1, (step + 1) / W) for
  `config.lr_warmup_steps` W > 0 (docs/pseudocode.md, deviation R)."""
  exponent = tf.cast(step, tf.float32) / float(config.lr_decay_steps)
  learning_rate = config.lr_init * tf.pow(float(config.lr_decay_rate),
                                          exponent)
  if config.lr_warmup_steps:
    warmup = (tf.cast(step, tf.float32) + 1.) / float(config.lr_warmup_steps)
    learning_rate *= tf.minimum(warmup, 1.)
  return learning_rate


def make_optimizer(config: config_lib.MuZeroConfig,
                   learning_rate: optimizers.LearningRate):
  """Momentum SGD (the pseudocode's) or Adam, as `config.optimizer` says."""
  if config.optimizer == 'momentum':
    return optimizers.Momentum(learning_rate, config.momentum)
  return optimizers.Adam(learning_rate)


def _replica_local_state_creator(next_creator, **kwargs):
  """Makes a network's non-trainable state (batch-norm statistics) local:
  a mirrored variable could be assigned inside a replica only through a
  `merge_call`, impossible in XLA, so each replica keeps its own copy (as in
  TF-Replicator), read outside a replica as the first replica's."""
  trainable = kwargs.get('trainable')  # None (unspecified): trainable.
  if (trainable is not None and not trainable and
      kwargs.get('synchronization') in (None,
                                        tf.VariableSynchronization.AUTO)):
    kwargs['synchronization'] = tf.VariableSynchronization.ON_READ
    kwargs['aggregation'] = tf.VariableAggregation.ONLY_FIRST_REPLICA
  return next_creator(**kwargs)


def _as_batch_of_tensors(batch: types.Batch) -> types.Batch:
  return types.Batch(
      observation=tf.convert_to_tensor(batch.observation),
      action=tf.cast(batch.action, tf.int32),
      target_value=tf.cast(batch.target_value, tf.float32),
      target_reward=tf.cast(batch.target_reward, tf.float32),
      target_policy=tf.cast(batch.target_policy, tf.float32),
      policy_mask=tf.cast(batch.policy_mask, tf.float32),
      weight=tf.cast(batch.weight, tf.float32),
      next_observation=(None if batch.next_observation is None else
                        tf.convert_to_tensor(batch.next_observation)))


def zero_batch(config: config_lib.MuZeroConfig,
               batch_size: int) -> types.Batch:
  """A valid batch of replay batches' shapes and dtypes: zeros, uniform
  policy targets and unit weights."""
  b, k, a = batch_size, config.num_unroll_steps, config.action_space_size
  return types.Batch(
      observation=np.zeros((b,) + tuple(config.observation_shape),
                           np.float32),
      action=np.zeros((b, k), np.int32),
      target_value=np.zeros((b, k + 1), np.float32),
      target_reward=np.zeros((b, k), np.float32),
      target_policy=np.full((b, k + 1, a), 1. / a, np.float32),
      policy_mask=np.ones((b, k + 1), np.float32),
      weight=np.ones(b, np.float32),
      next_observation=(
          np.zeros((b, k) + tuple(config.observation_shape), np.float32)
          if config.consistency_loss_weight > 0 else None))


def _check_values(batch: types.Batch, num_actions: int) -> None:
  """Raises a `ValueError` for illegal actions and non-finite numbers."""
  action = np.asarray(batch.action)
  bad = action[(action < 0) | (action >= num_actions)]
  if bad.size:
    raise ValueError(f'Batch.action holds {int(bad.flat[0])}, outside the '
                     f'action space [0, {num_actions}).')
  for field, value in batch._asdict().items():
    if field == 'action' or value is None:
      continue
    value = np.asarray(value)
    if np.issubdtype(value.dtype, np.floating) and not np.all(
        np.isfinite(value)):
      index = tuple(int(i) for i in np.argwhere(~np.isfinite(value))[0])
      raise ValueError(f'Batch.{field}{list(index)} is {value[index]}: '
                       'expected a finite number.')


class Learner:
  """Trains a `MuZeroNetwork` with the unrolled MuZero loss."""

  def __init__(self,
               network: muzero_network.MuZeroNetwork,
               config: config_lib.MuZeroConfig,
               strategy: Optional[tf.distribute.Strategy] = None,
               jit_compile: bool = False,
               loss_reduction: str = 'mean',
               validate_batches: bool = True,
               compute_dtype: str = 'float32'):
    """Creates all the learner's variables, in `strategy.scope()` (None:
    the current strategy's).

    Args:
      network: the model, not yet called when the strategy has several
        replicas.
      jit_compile: whether to compile the step with XLA (one replica; a TPU
        strategy compiles it regardless).
      loss_reduction: 'mean' over the global batch, or 'sum' as the
        pseudocode's `update_weights`.
      validate_batches: whether `step()` checks a batch's actions and
        finiteness in NumPy first.
      compute_dtype: 'bfloat16' for the network's matmuls and convolutions
        (`mixed_precision.py`), else 'float32'.

    Raises:
      ValueError: if `loss_reduction` or `compute_dtype` is unknown, or
        `jit_compile` is asked of a multi-replica strategy other than a TPU's.
    """
    if loss_reduction not in LOSS_REDUCTIONS:
      raise ValueError(f'loss_reduction must be one of {LOSS_REDUCTIONS}, '
                       f'got {loss_reduction!r}.')
    dtype = mixed_precision.get_compute_dtype(compute_dtype)
    strategy = strategy or tf.distribute.get_strategy()
    num_replicas = strategy.num_replicas_in_sync
    is_tpu = isinstance(strategy, tf.distribute.TPUStrategy)
    if jit_compile and num_replicas > 1 and not is_tpu:
      # A nested XLA function is traced once and would capture the first
      # replica's copy of replica-local state (batch-norm statistics).
      raise ValueError(
          f'jit_compile=True needs a single-replica strategy (or a TPU, '
          f'where the whole step is compiled anyway); got '
          f'{type(strategy).__name__} with {num_replicas} replicas.')
    self._network = network
    self._compute_network = (
        network if dtype == tf.float32 else
        mixed_precision.ComputeDtypeNetwork(network, dtype))
    self._config = config
    self._strategy = strategy
    self._loss_reduction = loss_reduction
    self._validate_batches = validate_batches
    with self._strategy.scope():
      with tf.variable_creator_scope(_replica_local_state_creator):
        network.create_variables()
      self._variables = list(network.trainable_variables)
      self._step_counter = tf.Variable(
          0, dtype=tf.int64, trainable=False, name='learner_step')
      self._learning_rate = tf.Variable(
          config.lr_init, dtype=tf.float32, trainable=False,
          name='learning_rate')
      self._optimizer = make_optimizer(config, self._learning_rate)
      self._optimizer.initialize(self._variables)
    # Without AutoGraph: the step has no tensor control flow, and converting
    # it costs seconds. Several replicas sum gradients between the loss and
    # the update, which only a TPU compiles as one program.
    self._compiled_step = tf.function(
        self._step, autograph=False,
        jit_compile=jit_compile and num_replicas == 1)
    # By flat call: matching a `Batch` against the traces costs ~1 ms.
    self._flat_step = flat_call.FlatFunction(self._compiled_step)
    # A one-device strategy's step is called on its device: an XLA program
    # runs where it is called and reads variables on that device only.
    self._device = (strategy.extended.worker_devices[0] if isinstance(
        strategy, tf.distribute.OneDeviceStrategy) else None)

  @property
  def network(self) -> muzero_network.MuZeroNetwork:
    return self._network

  @property
  def optimizer(self):
    return self._optimizer

  @property
  def strategy(self) -> tf.distribute.Strategy:
    return self._strategy

  @property
  def steps(self) -> int:
    """Number of applied (finite) updates."""
    return int(self._step_counter.numpy())

  @property
  def state(self) -> Dict[str, Any]:
    """Trackables for `tf.train.Checkpoint(**learner.state)`."""
    return {
        'network': self._network,
        'optimizer': self._optimizer,
        'step': self._step_counter,
    }

  def compile_function(self) -> Optional[Callable[[], None]]:
    """Traces the step for `config.batch_size` batches now; returns a
    function that compiles it, by a step on `zero_batch` after which every
    variable is restored bit for bit (nothing else may read them
    meanwhile), and may run in another thread. None on a strategy with
    several replicas (their first step compiles).

    Trace in one thread, before any other starts TensorFlow work: a
    program's name counts the process's traces and graphs before it, and
    keys XLA's persistent cache (`run/compile_cache.py`), so a trace racing
    another thread's would miss the cache in the next run.
    """
    if self._strategy.num_replicas_in_sync > 1:
      return None
    batch = _as_batch_of_tensors(
        zero_batch(self._config, self._config.batch_size))
    with tf.device(self._device):
      self._compiled_step.get_concrete_function(batch)

    def compile_step() -> None:
      # Every variable a step can change, batch-norm statistics included.
      variables = list({
          variable.ref(): variable
          for variable in (list(self._network.variables) +
                           list(self._optimizer.variables) +
                           [self._step_counter, self._learning_rate])
      }.values())
      # Host copies: a tensor read from a variable may share its buffer.
      saved = [np.array(variable.numpy()) for variable in variables]
      try:
        with tf.device(self._device):
          self._compiled_step(batch)
      finally:
        for variable, value in zip(variables, saved):
          variable.assign(value)
    return compile_step

  def warm_up(self) -> bool:
    """Traces and compiles the step now (`compile_function`); False, doing
    nothing, on a strategy with several replicas, else True."""
    compile_step = self.compile_function()
    if compile_step is None:
      return False
    compile_step()
    return True

  def _loss_and_gradients(self, batch: types.Batch):
    num_replicas = self._strategy.num_replicas_in_sync
    with tf.GradientTape() as tape:
      loss_output = losses.unrolled_loss(
          self._compute_network,
          batch,
          weight_decay=self._config.weight_decay,
          value_loss_weight=self._config.value_loss_weight,
          reward_loss_weight=self._config.reward_loss_weight,
          is_training=True,
          consistency_loss_weight=self._config.consistency_loss_weight)
      data_loss = tf.reduce_sum(loss_output.extra.per_example)
      if self._loss_reduction == 'mean':
        local_batch = tf.cast(tf.shape(batch.action)[0], tf.float32)
        data_loss /= local_batch * num_replicas
      # Every replica adds its share: the summed gradients hold it once.
      replica_loss = data_loss + (
          loss_output.extra.regularization / num_replicas)
    gradients = tape.gradient(replica_loss, self._variables)
    return loss_output, replica_loss, gradients

  def _replica_step(self, batch: types.Batch):
    loss_output, replica_loss, gradients = self._loss_and_gradients(batch)
    context = tf.distribute.get_replica_context()
    gradients = context.all_reduce(tf.distribute.ReduceOp.SUM, gradients)
    loss = context.all_reduce(tf.distribute.ReduceOp.SUM, replica_loss)
    gradient_norm = tf.linalg.global_norm(gradients)
    finite = tf.math.is_finite(loss) & tf.math.is_finite(gradient_norm)
    self._optimizer.apply(gradients, self._variables, apply_updates=finite)
    extra = loss_output.extra
    metrics = {
        'loss': loss,
        'gradient_norm': gradient_norm,
        'finite': tf.cast(finite, tf.int32),
        'regularization': extra.regularization,
        'value_loss': extra.value_loss,
        'reward_loss': extra.reward_loss,
        'policy_loss': extra.policy_loss,
    }
    if extra.consistency_loss is not None:
      metrics['consistency_loss'] = extra.consistency_loss
    return metrics, extra.priority

  def _step(self, batch: types.Batch):
    self._learning_rate.assign(
        learning_rate_schedule(self._config, self._step_counter))
    metrics, priority = self._strategy.run(self._replica_step, args=(batch,))
    reduce = self._strategy.reduce
    mean = tf.distribute.ReduceOp.MEAN
    metrics = {
        name: reduce(mean, value, axis=None) for name, value in metrics.items()
    }
    metrics['finite'] = tf.cast(metrics['finite'] > 0, tf.int32)
    self._step_counter.assign_add(tf.cast(metrics['finite'], tf.int64))
    metrics['learning_rate'] = self._learning_rate.read_value()
    metrics['priority'] = self._strategy.gather(priority, axis=0)
    return metrics

  def _distribute(self, batch: types.Batch):
    """Splits a global batch among the replicas (identity for one)."""
    num_replicas = self._strategy.num_replicas_in_sync
    if num_replicas == 1:
      return batch
    global_batch = batch.action.shape[0]
    if global_batch % num_replicas:
      raise ValueError(f'The global batch size {global_batch} is not '
                       f'divisible by the {num_replicas} replicas.')
    local = global_batch // num_replicas

    def value_fn(context):
      start = context.replica_id_in_sync_group * local
      # (An absent field, None, is a leaf of tf.nest and stays None.)
      return tf.nest.map_structure(
          lambda x: None if x is None else x[start:start + local], batch)

    return self._strategy.experimental_distribute_values_from_function(
        value_fn)

  def distribute_dataset(self, dataset: tf.data.Dataset):
    """An iterator of `dataset`'s global `Batch`es split among the replicas,
    on their devices, for `step()`."""
    return iter(self._strategy.experimental_distribute_dataset(dataset))

  def prepare(self, batch: types.Batch) -> types.Batch:
    """`step`'s checks and tensors of a batch, each replica's slice
    (`distribute_dataset` elements pass unchanged), for `step_prepared`,
    possibly in another thread; a `ValueError` as `step`'s."""
    if isinstance(batch.action, tf.distribute.DistributedValues):
      return batch
    losses.check_batch(batch, self._config.action_space_size,
                       self._config.num_unroll_steps)
    if self._validate_batches:
      _check_values(batch, self._config.action_space_size)
    return self._distribute(_as_batch_of_tensors(batch))

  def step_prepared(self, batch: types.Batch) -> Dict[str, tf.Tensor]:
    """`step` on a batch from `prepare`; the metrics stay tensors and
    'step' is left out (read `steps`). Raises as `step`."""
    # By flat call on one replica; several need `tf.function`'s call.
    if self._strategy.num_replicas_in_sync > 1:
      metrics = self._compiled_step(batch)
    else:
      with tf.device(self._device):
        metrics = self._flat_step(batch)
    finite = bool(metrics.pop('finite').numpy())
    if not finite:
      raise FloatingPointError(
          f'Non-finite loss {metrics["loss"].numpy()} (gradient norm '
          f'{metrics["gradient_norm"].numpy()}) at learner step '
          f'{self.steps}: the update was skipped and the variables keep '
          'their last finite values.')
    return metrics

  def step(self, batch: types.Batch) -> Dict[str, np.ndarray]:
    """Runs one update on a global `Batch` of NumPy arrays or tensors, or an
    element of `distribute_dataset(...)`.

    Returns:
      NumPy metrics: 'loss' (data loss + L2), 'gradient_norm',
      'regularization', 'learning_rate', per unroll step 'value_loss' `[K+1]`,
      'reward_loss' `[K]`, 'policy_loss' `[K+1]` (and 'consistency_loss'
      `[K]`), 'priority' `[B]`, and 'step' (updates so far).

    Raises:
      ValueError: if the batch does not fit the config or the network.
      FloatingPointError: if the loss or gradients are not finite; the
        update is then skipped.
    """
    metrics = self.step_prepared(self.prepare(batch))
    metrics = {name: value.numpy() for name, value in metrics.items()}
    metrics['step'] = self.steps
    return metrics
