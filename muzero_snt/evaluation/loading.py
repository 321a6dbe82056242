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
"""The network of a training run's latest checkpoint."""

import os
from typing import Tuple

import tensorflow as tf

from muzero_snt.run import checkpointing
from muzero_snt import config as config_lib
from muzero_snt import networks


def check_checkpoint_dir(checkpoint_dir: str) -> None:
  """Raises unless `checkpoint_dir` is a directory holding a checkpoint.

  Raises:
    FileNotFoundError: if it does not exist, or holds no checkpoint.
    NotADirectoryError: if it is a file.
  """
  where = f'checkpoint_dir={checkpoint_dir}'
  if not os.path.exists(checkpoint_dir):
    raise FileNotFoundError(f'{where} does not exist: give the checkpoint '
                            'directory of a training run.')
  if not os.path.isdir(checkpoint_dir):
    raise NotADirectoryError(f'{where} is a file, not a directory: give '
                             'the checkpoint directory of a training run.')
  if checkpointing.Checkpointer(checkpoint_dir).latest_number is None:
    what_is_there = ('it is empty' if not os.listdir(checkpoint_dir) else
                     'no ckpt-N.index file')
    raise FileNotFoundError(f'{where} holds no checkpoint ({what_is_there}): '
                            'give the checkpoint directory of a training '
                            'run that has saved one.')


def load_network(config: config_lib.MuZeroConfig,
                 checkpoint_dir: str) -> Tuple[networks.MuZeroNetwork, int]:
  """(network, learner step) of the latest checkpoint in `checkpoint_dir`.

  Raises:
    FileNotFoundError, NotADirectoryError: as `check_checkpoint_dir`.
    ValueError: if no intact checkpoint's network fits `config`'s.
  """
  check_checkpoint_dir(checkpoint_dir)
  network = networks.make_network(config)
  network.create_variables()
  step = tf.Variable(0, dtype=tf.int64, trainable=False)
  checkpointer = checkpointing.Checkpointer(checkpoint_dir, network=network,
                                            step=step)
  try:
    # Read-only: a training run may be writing to the directory.
    checkpointer.restore(read_only=True)
  except checkpointing.CheckpointError as e:
    raise ValueError(
        f'No checkpoint in {checkpoint_dir} fits the config\'s network '
        f'({config.network}) and is intact: {e}') from e
  return network, int(step.numpy())

