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
"""Trains a MuZero network with the compiled learner.

The learner runs under `tf.function` (XLA with --jit_compile) on synthetic
batches with learnable targets: a smoke run and a throughput check of the
training step. Self-play and replay feed the same learner in the full loop.

    python -m launchers.train --preset=cartpole --training_steps=300
"""

import time
from typing import Optional, Sequence

from absl import app
from absl import flags
from absl import logging
import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import synthetic

PRESET = flags.DEFINE_enum('preset', 'cartpole', sorted(presets.PRESETS),
                           'configuration preset.')
TRAINING_STEPS = flags.DEFINE_integer('training_steps', 300,
                                      'learner steps to run.')
BATCH_SIZE = flags.DEFINE_integer('batch_size', None,
                                  'global batch size (default: preset).')
UNROLL_STEPS = flags.DEFINE_integer('num_unroll_steps', None,
                                    'K, the unroll length (default: preset).')
LR_INIT = flags.DEFINE_float('lr_init', None,
                             'initial learning rate (default: preset).')
OPTIMIZER = flags.DEFINE_enum('optimizer', None, list(config_lib.OPTIMIZERS),
                              'optimizer (default: preset).')
JIT_COMPILE = flags.DEFINE_bool('jit_compile', True,
                                'compile the loss and gradients with XLA.')
LOG_EVERY = flags.DEFINE_integer('log_every', 50, 'log every this many steps.')
SEED = flags.DEFINE_integer('seed', 0, 'random seed.')
CHECKPOINT_DIR = flags.DEFINE_string(
    'checkpoint_dir', None, 'where to save and resume checkpoints.')


def _validate_positive(name: str, value: Optional[int]):
  if value is not None and value <= 0:
    raise app.UsageError(f'--{name} must be positive, got {value}.')


def make_config() -> config_lib.MuZeroConfig:
  """The preset with the flags' overrides, validated."""
  for flag in (TRAINING_STEPS, BATCH_SIZE, UNROLL_STEPS, LOG_EVERY):
    _validate_positive(flag.name, flag.value)
  if LR_INIT.value is not None and LR_INIT.value <= 0:
    raise app.UsageError(f'--lr_init must be positive, got {LR_INIT.value}.')
  overrides = {
      'batch_size': BATCH_SIZE.value,
      'num_unroll_steps': UNROLL_STEPS.value,
      'lr_init': LR_INIT.value,
      'optimizer': OPTIMIZER.value,
      'training_steps': TRAINING_STEPS.value,
  }
  config = presets.get_preset(PRESET.value)
  try:
    return config.replace(
        **{k: v for k, v in overrides.items() if v is not None})
  except ValueError as e:
    raise app.UsageError(str(e)) from e


def run(config: config_lib.MuZeroConfig,
        jit_compile: bool = True,
        seed: int = 0,
        log_every: int = 50,
        checkpoint_dir: Optional[str] = None) -> learning.Learner:
  """Trains for `config.training_steps` steps; returns the learner."""
  tf.random.set_seed(seed)
  network = networks.make_network(config)
  learner = learning.Learner(network, config, jit_compile=jit_compile)
  manager = None
  if checkpoint_dir:
    checkpoint = tf.train.Checkpoint(**learner.state)
    manager = tf.train.CheckpointManager(checkpoint, checkpoint_dir, 3)
    if manager.latest_checkpoint:
      checkpoint.restore(manager.latest_checkpoint).assert_consumed()
      logging.info('Resumed from %s at step %d.', manager.latest_checkpoint,
                   learner.steps)
  batches = synthetic.SyntheticBatches(
      config, config.batch_size, seed=seed + learner.steps)
  start, last_log, last_step = time.time(), time.time(), learner.steps
  while learner.steps < config.training_steps:
    metrics = learner.step(next(batches))
    step = metrics['step']
    if step % log_every == 0 or step == config.training_steps:
      now = time.time()
      rate = (step - last_step) / (now - last_log)
      logging.info(
          'step %d/%d  loss %.4f  value %.4f  reward %.4f  policy %.4f  '
          'lr %.5f  %.1f steps/s  %.0f samples/s  elapsed %.0fs', step,
          config.training_steps, metrics['loss'],
          np.mean(metrics['value_loss']), np.mean(metrics['reward_loss']),
          np.mean(metrics['policy_loss']), metrics['learning_rate'], rate,
          rate * config.batch_size, now - start)
      last_log, last_step = now, step
    if manager and (step % config.checkpoint_interval == 0 or
                    step == config.training_steps):
      manager.save(checkpoint_number=step)
  return learner


def main(argv: Sequence[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  config = make_config()
  run(config,
      jit_compile=JIT_COMPILE.value,
      seed=SEED.value,
      log_every=LOG_EVERY.value,
      checkpoint_dir=CHECKPOINT_DIR.value)


if __name__ == '__main__':
  app.run(main)
