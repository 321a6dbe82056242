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
"""Momentum SGD and Adam that apply updates under any tf.distribute strategy.

Sonnet 2's optimizers accept only Sonnet's replicators; these update through
`strategy.extended.update`. Slots are created by `initialize`, before
tracing, so that they checkpoint; `apply_updates` false lets the compiled
step skip a non-finite update.
"""

from typing import Optional, Sequence, Union

import sonnet as snt
import tensorflow as tf

LearningRate = Union[float, tf.Variable, tf.Tensor]


def _slots_like(parameters: Sequence[tf.Variable], name: str):
  with tf.name_scope(name):
    return [
        tf.Variable(tf.zeros_like(p), trainable=False, name=f'{name}_{i}')
        for i, p in enumerate(parameters)
    ]


class _Optimizer(snt.Module):
  """Shared plumbing: a subclass's `initialize` creates its slots and its
  `_apply_cross_replica` updates them and the parameters, or keeps them."""

  def apply(self,
            updates: Sequence[tf.Tensor],
            parameters: Sequence[tf.Variable],
            apply_updates: Union[bool, tf.Tensor] = True) -> None:
    """Applies `updates`, one gradient per parameter (None: skip it), to
    `parameters` unless the boolean scalar `apply_updates` is false. From a
    replica, `updates` must already be all-reduced."""
    if len(updates) != len(parameters):
      raise ValueError(f'{len(updates)} updates for {len(parameters)} '
                       'parameters: expected one update per parameter.')
    self.initialize(parameters)
    apply_updates = tf.convert_to_tensor(apply_updates, tf.bool)
    in_replica = (tf.distribute.has_strategy() and
                  not tf.distribute.in_cross_replica_context())
    if in_replica:
      tf.distribute.get_replica_context().merge_call(
          self._apply_cross_replica, args=(updates, parameters, apply_updates))
    else:
      self._apply_cross_replica(tf.distribute.get_strategy(), updates,
                                parameters, apply_updates)


class Momentum(_Optimizer):
  """SGD with momentum, as TF1's `MomentumOptimizer` in the pseudocode.

      accumulation <- momentum * accumulation + gradient
      variable <- variable - learning_rate * accumulation
  """

  def __init__(self,
               learning_rate: LearningRate,
               momentum: float = 0.9,
               name: Optional[str] = None):
    super().__init__(name=name)
    self.learning_rate = learning_rate
    self.momentum = momentum
    self.accumulation = None

  def initialize(self, parameters: Sequence[tf.Variable]) -> None:
    """Creates the accumulators, once; call it inside `strategy.scope()`."""
    if self.accumulation is None:
      self.accumulation = _slots_like(parameters, 'accumulation')

  def _apply_cross_replica(self, strategy, updates, parameters,
                           apply_updates):
    def update(parameter, gradient, accumulation, apply_updates):
      gradient = tf.cast(gradient, parameter.dtype)
      new_accumulation = tf.cast(self.momentum,
                                 parameter.dtype) * accumulation + gradient
      learning_rate = tf.cast(self.learning_rate, parameter.dtype)
      new_parameter = parameter - learning_rate * new_accumulation
      accumulation.assign(tf.where(apply_updates, new_accumulation,
                                  accumulation))
      parameter.assign(tf.where(apply_updates, new_parameter, parameter))

    for gradient, parameter, accumulation in zip(updates, parameters,
                                                 self.accumulation):
      if gradient is not None:
        strategy.extended.update(
            parameter, update, args=(gradient, accumulation, apply_updates),
            group=False)


class Adam(_Optimizer):
  """Adam (Kingma and Ba, 2015) with bias correction."""

  def __init__(self,
               learning_rate: LearningRate,
               beta1: float = 0.9,
               beta2: float = 0.999,
               epsilon: float = 1e-8,
               name: Optional[str] = None):
    super().__init__(name=name)
    self.learning_rate = learning_rate
    self.beta1 = beta1
    self.beta2 = beta2
    self.epsilon = epsilon
    self.step = None
    self.m = None
    self.v = None

  def initialize(self, parameters: Sequence[tf.Variable]) -> None:
    """Creates the moments and the step, once; inside `strategy.scope()`."""
    if self.m is None:
      self.step = tf.Variable(0, trainable=False, dtype=tf.int64, name='step')
      self.m = _slots_like(parameters, 'm')
      self.v = _slots_like(parameters, 'v')

  def _apply_cross_replica(self, strategy, updates, parameters,
                           apply_updates):
    # The number of this update, for the bias correction; read before the
    # step counter advances (only where the update is applied).
    t = tf.cast(self.step, tf.float32) + 1.

    def update(parameter, gradient, m, v, apply_updates):
      dtype = parameter.dtype
      gradient = tf.cast(gradient, dtype)
      new_m = self.beta1 * m + (1. - self.beta1) * gradient
      new_v = self.beta2 * v + (1. - self.beta2) * tf.square(gradient)
      m_hat = new_m / (1. - tf.pow(tf.cast(self.beta1, dtype), t))
      v_hat = new_v / (1. - tf.pow(tf.cast(self.beta2, dtype), t))
      learning_rate = tf.cast(self.learning_rate, dtype)
      new_parameter = parameter - learning_rate * m_hat / (
          tf.sqrt(v_hat) + self.epsilon)
      m.assign(tf.where(apply_updates, new_m, m))
      v.assign(tf.where(apply_updates, new_v, v))
      parameter.assign(tf.where(apply_updates, new_parameter, parameter))

    for gradient, parameter, m, v in zip(updates, parameters, self.m, self.v):
      if gradient is not None:
        strategy.extended.update(
            parameter, update, args=(gradient, m, v, apply_updates),
            group=False)
    strategy.extended.update(
        self.step,
        lambda step, apply: step.assign_add(tf.cast(apply, tf.int64)),
        args=(apply_updates,), group=False)
