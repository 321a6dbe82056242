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
"""`tf.distribute` strategies for the learner, by name."""

from typing import Optional

import tensorflow as tf

STRATEGIES = ('default', 'cpu', 'gpu', 'mirrored', 'multi_worker', 'tpu')


def _mirrored_devices():
  """Every local GPU, or every logical CPU when there is no GPU."""
  gpus = tf.config.list_logical_devices('GPU')
  devices = gpus or tf.config.list_logical_devices('CPU')
  return [device.name for device in devices]


def make_strategy(name: str,
                  tpu: Optional[str] = None) -> tf.distribute.Strategy:
  """Builds the `tf.distribute.Strategy` the `Learner` runs under.

  The strategies:

    * 'default': the current strategy (one replica on TensorFlow's default
      device placement), for a laptop or a quick run.
    * 'cpu': one replica pinned to '/cpu:0', e.g. to keep a GPU free for
      self-play.
    * 'gpu': one replica pinned to '/gpu:0', the usual single-accelerator run.
    * 'mirrored': synchronous data parallelism over every local GPU (or every
      logical CPU when there is none), one replica per device.
    * 'multi_worker': synchronous data parallelism over the devices of
      several machines; the cluster comes from the `TF_CONFIG` environment
      variable.
    * 'tpu': the cores of a TPU (a Cloud TPU VM or pod slice), the paper's
      setting; the whole step is XLA-compiled.

  Args:
    name: one of `STRATEGIES`.
    tpu: the TPU's address or name (e.g. 'grpc://10.0.0.2:8470', 'local'
      on a TPU VM, or the Cloud TPU's name); required by 'tpu'.

  Returns:
    The strategy; build the `Learner` after it, outside its scope.

  Raises:
    ValueError: if `name` is not one of `STRATEGIES`, 'tpu' lacks `tpu`, or
      'gpu' is asked of a machine without a GPU.
  """
  if name not in STRATEGIES:
    raise ValueError(f'Unknown strategy {name!r}: expected one of '
                     f'{STRATEGIES}.')
  if name == 'default':
    return tf.distribute.get_strategy()
  if name == 'cpu':
    return tf.distribute.OneDeviceStrategy('/cpu:0')
  if name == 'gpu':
    if not tf.config.list_logical_devices('GPU'):
      raise ValueError("Strategy 'gpu' needs a GPU, but TensorFlow sees "
                       "none; use 'cpu' or 'default'.")
    return tf.distribute.OneDeviceStrategy('/gpu:0')
  if name == 'mirrored':
    # Explicit devices: without them MirroredStrategy ignores all CPUs but
    # the first, so logical CPUs would give a single replica.
    return tf.distribute.MirroredStrategy(_mirrored_devices())
  if name == 'multi_worker':
    return tf.distribute.MultiWorkerMirroredStrategy()
  if not tpu:
    raise ValueError("Strategy 'tpu' needs the TPU's address or name in "
                     '`tpu`, got {!r}.'.format(tpu))
  resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu)
  tf.config.experimental_connect_to_cluster(resolver)
  tf.tpu.experimental.initialize_tpu_system(resolver)
  return tf.distribute.TPUStrategy(resolver)
