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
"""Where a run's parts execute: the learner's strategy, the search's device
(docs/accelerators.md)."""

import socket
from typing import Any, Optional

import tensorflow as tf

from muzero_snt.run import choices

STRATEGIES = choices.STRATEGIES
SEARCH_DEVICES = choices.SEARCH_DEVICES


def devices_found() -> str:
  """The local devices TensorFlow sees, e.g. 'CPU:0, GPU:0'."""
  names = [d.name.split('device:')[-1]
           for d in tf.config.list_logical_devices()]
  return ', '.join(names) or 'no device'


def _mirrored_devices():
  """Every local GPU, or every logical CPU when there is no GPU."""
  gpus = tf.config.list_logical_devices('GPU')
  devices = gpus or tf.config.list_logical_devices('CPU')
  return [device.name for device in devices]


def _tpu_strategy(tpu: str) -> tf.distribute.Strategy:
  """The TPU strategy of `tpu`, or a one-line `ValueError`."""
  if tpu == 'local' and not tf.config.list_physical_devices('TPU'):
    raise ValueError(
        f"strategy='tpu' with tpu='local' needs a TPU VM, but TensorFlow "
        f'sees only {devices_found()}: run on a TPU VM, name a Cloud TPU '
        "(tpu='NAME' or tpu='grpc://HOST:8470'), or use strategy='gpu', "
        "strategy='cpu' or strategy='default'.")
  try:
    if tpu.startswith('grpc://'):
      # Connecting to an address nothing answers would wait for minutes.
      host, _, port = tpu[len('grpc://'):].rpartition(':')
      socket.create_connection((host, int(port)), timeout=10).close()
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu)
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
  except (tf.errors.OpError, OSError, ValueError, RuntimeError) as e:
    reason = (str(e).strip().splitlines() or [type(e).__name__])[0][:160]
    raise ValueError(
        f"strategy='tpu' found no TPU at tpu={tpu!r} ({reason}); this "
        f'machine has {devices_found()}: check the TPU\'s name or address, '
        "or use strategy='gpu', strategy='cpu' or strategy='default'."
    ) from e
  return tf.distribute.TPUStrategy(resolver)


def check_batch_size(batch_size: int,
                     strategy: tf.distribute.Strategy) -> None:
  """Raises a one-line `ValueError` unless the replicas split the batch."""
  replicas = strategy.num_replicas_in_sync
  if batch_size % replicas:
    lower = batch_size // replicas * replicas
    hint = f'batch_size={lower} or ' if lower else ''
    devices = ', '.join(d.split('device:')[-1]
                        for d in strategy.extended.worker_devices)
    raise ValueError(
        f'batch_size={batch_size} does not split among the {replicas} '
        f'replicas of the strategy (on {devices}): use a multiple of '
        f'{replicas}, e.g. {hint}batch_size={lower + replicas}.')


def make_strategy(name: str,
                  tpu: Optional[str] = None,
                  batch_size: Optional[int] = None
                 ) -> tf.distribute.Strategy:
  """Builds the `tf.distribute.Strategy` the `Learner` runs under.

  `name`: 'default' is the current strategy; 'cpu' and 'gpu' one replica
  on '/cpu:0' or '/gpu:0'; 'mirrored' one replica per local GPU (else per
  logical CPU, at least two: the stand-ins for accelerators in tests);
  'multi_worker' the devices of the machines of `TF_CONFIG`; 'tpu' the
  cores of the TPU `tpu` ('grpc://10.0.0.2:8470', 'local' on a TPU VM, or
  a Cloud TPU's name), the paper's setting. A `batch_size` is checked to
  split among the replicas. Build the `Learner` after, outside its scope.

  Raises:
    ValueError: in one line naming what was asked, the devices found and
      what to do, if the machine cannot run the strategy or the batch.
  """
  if name not in STRATEGIES:
    raise ValueError(f'Unknown strategy {name!r}: expected one of '
                     f'{STRATEGIES}.')
  if name == 'multi_worker':
    # First: collective ops are configured before the context starts, which
    # listing the devices would do.
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    if batch_size is not None:
      check_batch_size(batch_size, strategy)
    return strategy
  gpus = tf.config.list_logical_devices('GPU')
  if name == 'gpu' and not gpus:
    raise ValueError(
        f"strategy='gpu' needs a GPU, but TensorFlow sees only "
        f"{devices_found()}: use strategy='cpu' or strategy='default' here, "
        'or a machine with a GPU and a CUDA build of TensorFlow.')
  if name == 'mirrored' and len(_mirrored_devices()) < 2 and not gpus:
    raise ValueError(
        f"strategy='mirrored' needs GPUs (one replica each), but TensorFlow "
        f"sees only {devices_found()}: use strategy='cpu' or "
        "strategy='default' here.")
  if name == 'tpu' and not tpu:
    raise ValueError("Strategy 'tpu' needs the TPU's address or name in "
                     '`tpu`, got {!r}.'.format(tpu))
  if name == 'default':
    strategy = tf.distribute.get_strategy()
  elif name in ('cpu', 'gpu'):
    strategy = tf.distribute.OneDeviceStrategy(f'/{name}:0')
  elif name == 'mirrored':
    # Explicit devices: without them MirroredStrategy ignores all CPUs but
    # the first, so logical CPUs would give a single replica.
    strategy = tf.distribute.MirroredStrategy(_mirrored_devices())
  else:
    strategy = _tpu_strategy(tpu)
  if batch_size is not None:
    check_batch_size(batch_size, strategy)
  return strategy


class PlacedSearch:
  """A `search.Search` whose methods (and the function `compile_function`
  returns) run inside `tf.device(device)`; other attributes are its own."""

  def __init__(self, search, device: str):
    self._search = search
    self._device = device

  @property
  def device(self) -> str:
    return self._device

  def __call__(self, *args, **kwargs):
    with tf.device(self._device):
      return self._search(*args, **kwargs)

  def __getattr__(self, name: str) -> Any:
    value = getattr(self._search, name)
    if not callable(value):
      return value

    def on_device(*args, **kwargs):
      with tf.device(self._device):
        result = value(*args, **kwargs)
      if name != 'compile_function' or result is None:
        return result

      def compile_on_device():
        with tf.device(self._device):
          result()
      return compile_on_device
    return on_device


def place_search(search, network, search_device: str = 'accelerator',
                 jit_compile: bool = True) -> PlacedSearch:
  """Puts the self-play search on the accelerator or on the host.

  'accelerator' runs `search` on the device of `network`'s variables, where
  an XLA program reads the newest weights in place; 'host' on the CPU (a
  network too small to gain from a GPU), where an XLA search
  (`jit_compile`) needs the variables too. An unknown `search_device`, or
  'host' for an XLA search of variables elsewhere, raises ValueError.
  """
  if search_device not in SEARCH_DEVICES:
    raise ValueError(f'search_device must be one of {SEARCH_DEVICES}, got '
                     f'{search_device!r}.')
  variables = list(network.variables)
  weights = tf.DeviceSpec.from_string(variables[0].device if variables
                                      else '/cpu:0')
  if search_device == 'accelerator':
    return PlacedSearch(search, weights.to_string())
  # The first CPU of the machine that holds the weights.
  host = weights.replace(device_type='CPU', device_index=0)
  if jit_compile and host != weights:
    raise ValueError(
        f"search_device='host' with search='xla' needs the network's "
        f'variables on the host (CPU:0), but they are on '
        f'{weights.device_type}:{weights.device_index}: use '
        "search_device='accelerator', or "
        "search='graph' to search on the host with a copy of the weights "
        'per call.')
  return PlacedSearch(search, host.to_string())
