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
"""`tf.data` input for the learner: global batches split among replicas.

A source of `Batch`es (synthetic batches, a replay buffer's sampler) becomes
a `tf.data.Dataset` of global batches; `Learner.distribute_dataset` hands it
to the strategy, which gives every replica its slice of each global batch
(`experimental_distribute_dataset`), prefetched on the devices.
"""

from typing import Callable, Iterator

import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import types


def batch_signature(config: config_lib.MuZeroConfig,
                    batch_size: int) -> types.Batch:
  """`tf.TensorSpec`s of a `Batch` of `batch_size` windows of `config`."""
  b, k, a = batch_size, config.num_unroll_steps, config.action_space_size
  return types.Batch(
      observation=tf.TensorSpec((b,) + config.observation_shape, tf.float32),
      action=tf.TensorSpec((b, k), tf.int32),
      target_value=tf.TensorSpec((b, k + 1), tf.float32),
      target_reward=tf.TensorSpec((b, k), tf.float32),
      target_policy=tf.TensorSpec((b, k + 1, a), tf.float32),
      policy_mask=tf.TensorSpec((b, k + 1), tf.float32),
      weight=tf.TensorSpec((b,), tf.float32),
      next_observation=(
          tf.TensorSpec((b, k) + config.observation_shape, tf.float32)
          if config.consistency_loss_weight > 0 else tf.NoneTensorSpec()))


def from_batches(make_batches: Callable[[], Iterator[types.Batch]],
                 config: config_lib.MuZeroConfig,
                 batch_size: int,
                 prefetch: int = 2) -> tf.data.Dataset:
  """A dataset of the global batches that `make_batches()` yields.

  Args:
    make_batches: returns an iterator of NumPy `Batch`es of `batch_size`
      windows (called once per pass over the dataset).
    config: gives the shapes.
    batch_size: the global batch size.
    prefetch: batches prepared ahead of the learner.

  Returns:
    A `tf.data.Dataset` of `Batch`es with static shapes. Each worker of a
    multi-worker strategy reads its own stream (sharding by data).
  """
  if batch_size <= 0:
    raise ValueError(f'batch_size must be positive, got {batch_size!r}.')
  dataset = tf.data.Dataset.from_generator(
      make_batches, output_signature=batch_signature(config, batch_size))
  options = tf.data.Options()
  options.experimental_distribute.auto_shard_policy = (
      tf.data.experimental.AutoShardPolicy.DATA)
  return dataset.with_options(options).prefetch(prefetch)
