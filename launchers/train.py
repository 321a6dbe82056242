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
"""Trains MuZero: self-play, replay and the compiled learner in one process.

With --data=selfplay (the default) this is the whole MuZero loop of
`training_loop.TrainingLoop`: the actor plays --num_envs games at once with
the search and the learner's current weights, the replay buffer keeps the
last `window_size` games, and the learner takes --train_ratio steps per
environment step. With --data=synthetic the learner alone trains on
synthetic batches with learnable targets fed through tf.data (smoke runs and
throughput on any --strategy).

--strategy picks the learner's devices (`distribute.make_strategy`);
--batch_size is the global batch, split evenly across the replicas. With
--logdir the metrics go to TensorBoard; with --checkpoint_dir the run saves
everything it needs to continue and resumes from there.

    python -m launchers.train --preset=tictactoe
    python -m launchers.train --preset=connect4
    python -m launchers.train --preset=atari_small --env=Breakout
    python -m launchers.train --preset=cartpole --data=synthetic \
        --training_steps=300
    python -m launchers.train --data=synthetic --strategy=mirrored \
        --nojit_compile --logdir=/tmp/muzero
    python -m launchers.train --data=synthetic --strategy=tpu --tpu=local
"""

import dataclasses
import time
from typing import Optional, Sequence

from absl import app
from absl import flags
from absl import logging
import numpy as np
import tensorflow as tf

from muzero_snt import acting
from muzero_snt import checkpointing
from muzero_snt import config as config_lib
from muzero_snt import distribute
from muzero_snt import export
from muzero_snt import datasets
from muzero_snt import learning
from muzero_snt import mixed_precision
from muzero_snt import networks
from muzero_snt import environments
from muzero_snt import presets
from muzero_snt import search
from muzero_snt import synthetic
from muzero_snt import training_loop

# Self-play settings per preset: games played at once, and learner steps
# per environment step (each step trains on batch_size positions).
SELF_PLAY_DEFAULTS = {
    'tictactoe': {'num_envs': 32, 'train_ratio': 0.1},
    'cartpole': {'num_envs': 8, 'train_ratio': 0.05},
    'connect4': {'num_envs': 32, 'train_ratio': 0.05},
    'go9': {'num_envs': 16, 'train_ratio': 0.02},
    'atari_small': {'num_envs': 4, 'train_ratio': 0.05},
    # Paper-sized: they run here, slowly; real runs need accelerators and
    # many actors.
    'atari': {'num_envs': 2, 'train_ratio': 0.05},
    'go': {'num_envs': 2, 'train_ratio': 0.01},
    'chess': {'num_envs': 2, 'train_ratio': 0.01},
    'shogi': {'num_envs': 2, 'train_ratio': 0.01},
}
DATA_SOURCES = ('selfplay', 'synthetic')
# How self-play searches: the batched search compiled with XLA, the same
# without XLA, or the reference NumPy search.
SEARCHES = ('xla', 'graph', 'reference')

PRESET = flags.DEFINE_enum('preset', 'tictactoe', sorted(presets.PRESETS),
                           'configuration preset.')
ENV = flags.DEFINE_string(
    'env', None, 'the game of a titled preset: an Atari title for '
    '--preset=atari/atari_small (default Pong), a gymnasium id for '
    '--preset=cartpole (default CartPole-v1).')
DATA = flags.DEFINE_enum(
    'data', 'selfplay', list(DATA_SOURCES),
    'selfplay: the whole MuZero loop; synthetic: the learner alone on '
    'synthetic batches.')
NUM_ENVS = flags.DEFINE_integer(
    'num_envs', None, 'self-play games played at once (default: preset).')
SEARCH = flags.DEFINE_enum(
    'search', 'xla', list(SEARCHES),
    'self-play search: xla (batched tensors, XLA-compiled), graph (batched, '
    'no XLA) or reference (NumPy, one tree per game).')
TRAIN_RATIO = flags.DEFINE_float(
    'train_ratio', None, 'learner steps per environment step (default: '
    'preset).')
TRAINING_STEPS = flags.DEFINE_integer(
    'training_steps', None, 'learner steps to run (default: preset).')
BATCH_SIZE = flags.DEFINE_integer('batch_size', None,
                                  'global batch size (default: preset).')
UNROLL_STEPS = flags.DEFINE_integer('num_unroll_steps', None,
                                    'K, the unroll length (default: preset).')
LR_INIT = flags.DEFINE_float('lr_init', None,
                             'initial learning rate (default: preset).')
TD_STEPS = flags.DEFINE_integer('td_steps', None,
                                'n of the n-step value target (default: '
                                'preset).')
LR_DECAY_STEPS = flags.DEFINE_float(
    'lr_decay_steps', None, 'steps per lr_decay_rate factor (default: preset).')
LR_DECAY_RATE = flags.DEFINE_float(
    'lr_decay_rate', None, 'learning-rate decay factor in (0, 1] (default: '
    'preset).')
WEIGHT_DECAY = flags.DEFINE_float('weight_decay', None,
                                  'L2 coefficient (default: preset).')
HIDDEN_SIZE = flags.DEFINE_integer(
    'hidden_size', None, 'MLP hidden-state size (default: preset).')
CHANNELS = flags.DEFINE_integer(
    'channels', None, 'planes of the residual tower (default: preset).')
NUM_BLOCKS = flags.DEFINE_integer(
    'num_blocks', None, 'residual blocks of h and g (default: preset).')
SUPPORT_SIZE = flags.DEFINE_integer(
    'support_size', None, 'atoms of the value and reward heads, odd >= 3, '
    'or 0 for scalar heads (default: preset).')
CHECKPOINT_INTERVAL = flags.DEFINE_integer(
    'checkpoint_interval', None, 'learner steps between checkpoints '
    '(default: preset).')
NUM_SIMULATIONS = flags.DEFINE_integer(
    'num_simulations', None, 'search simulations per move (default: preset).')
UNVISITED_Q = flags.DEFINE_enum(
    'unvisited_q', None, list(config_lib.UNVISITED_Q),
    'Q of unvisited children in pUCT (default: preset).')
MIXED_PRECISION = flags.DEFINE_enum(
    'mixed_precision', 'float32', sorted(mixed_precision.COMPUTE_DTYPES),
    'compute dtype of the learner; variables stay float32.')
OPTIMIZER = flags.DEFINE_enum('optimizer', None, list(config_lib.OPTIMIZERS),
                              'optimizer (default: preset).')
JIT_COMPILE = flags.DEFINE_bool('jit_compile', True,
                                'compile the loss and gradients with XLA.')
LOG_EVERY = flags.DEFINE_integer('log_every', 50, 'log every this many steps.')
SEED = flags.DEFINE_integer('seed', 0, 'random seed.')
CHECKPOINT_DIR = flags.DEFINE_string(
    'checkpoint_dir', None, 'where to save and resume checkpoints.')
STRATEGY = flags.DEFINE_enum('strategy', 'default',
                             list(distribute.STRATEGIES),
                             'tf.distribute strategy of the learner.')
TPU = flags.DEFINE_string('tpu', None,
                          'TPU address or name (with --strategy=tpu).')
EXPORT_DIR = flags.DEFINE_string(
    'export_dir', None, 'where to write a SavedModel of the two inference '
    'functions at the end.')
LOGDIR = flags.DEFINE_string('logdir', None,
                             'where to write TensorBoard summaries.')


def _validate_positive(name: str, value: Optional[int]):
  if value is not None and value <= 0:
    raise app.UsageError(f'--{name} must be positive, got {value}.')


def validate_flags() -> None:
  """Checks the flags that need no TensorFlow work; raises `UsageError`."""
  if STRATEGY.value == 'tpu' and not TPU.value:
    raise app.UsageError('--strategy=tpu needs --tpu, the TPU\'s address or '
                         'name (\'local\' on a TPU VM).')
  if TPU.value and STRATEGY.value != 'tpu':
    raise app.UsageError(f'--tpu={TPU.value} is only used with '
                         f'--strategy=tpu, got --strategy={STRATEGY.value}.')
  if ENV.value is not None and PRESET.value not in (
      environments.titled_environments()):
    raise app.UsageError(
        f'--env={ENV.value} chooses the game of '
        f'{sorted(environments.titled_environments())}; --preset='
        f'{PRESET.value} has no titles.')
  _validate_positive(NUM_ENVS.name, NUM_ENVS.value)
  if TRAIN_RATIO.value is not None and not TRAIN_RATIO.value > 0:
    raise app.UsageError(
        f'--train_ratio must be positive, got {TRAIN_RATIO.value}.')


def check_strategy(config: config_lib.MuZeroConfig,
                   strategy: tf.distribute.Strategy,
                   jit_compile: bool) -> None:
  """Checks the batch and XLA settings against the strategy's replicas.

  Args:
    config: the run's configuration; `batch_size` is the global batch.
    strategy: the learner's strategy.
    jit_compile: whether the loss and gradients are XLA-compiled.

  Raises:
    app.UsageError: if the global batch does not split evenly across the
      replicas, or XLA is asked of several replicas outside a TPU.
  """
  num_replicas = strategy.num_replicas_in_sync
  if config.batch_size % num_replicas:
    raise app.UsageError(
        f'--batch_size={config.batch_size} (the global batch) must be '
        f'divisible by the {num_replicas} replicas of the strategy.')
  is_tpu = isinstance(strategy, tf.distribute.TPUStrategy)
  if jit_compile and num_replicas > 1 and not is_tpu:
    raise app.UsageError(
        f'--jit_compile needs one replica (or a TPU), but the strategy has '
        f'{num_replicas} replicas: pass --nojit_compile.')


def make_config() -> config_lib.MuZeroConfig:
  """The preset with the flags' overrides, validated."""
  for flag in (TRAINING_STEPS, BATCH_SIZE, UNROLL_STEPS, LOG_EVERY, TD_STEPS,
               HIDDEN_SIZE, CHANNELS, NUM_BLOCKS, NUM_SIMULATIONS,
               CHECKPOINT_INTERVAL):
    _validate_positive(flag.name, flag.value)
  for flag in (LR_INIT, LR_DECAY_STEPS):
    if flag.value is not None and flag.value <= 0:
      raise app.UsageError(f'--{flag.name} must be positive, got '
                           f'{flag.value}.')
  overrides = {
      'batch_size': BATCH_SIZE.value,
      'num_unroll_steps': UNROLL_STEPS.value,
      'td_steps': TD_STEPS.value,
      'num_simulations': NUM_SIMULATIONS.value,
      'unvisited_q': UNVISITED_Q.value,
      'checkpoint_interval': CHECKPOINT_INTERVAL.value,
      'lr_init': LR_INIT.value,
      'lr_decay_steps': LR_DECAY_STEPS.value,
      'lr_decay_rate': LR_DECAY_RATE.value,
      'weight_decay': WEIGHT_DECAY.value,
      'optimizer': OPTIMIZER.value,
      'training_steps': TRAINING_STEPS.value,
  }
  network_overrides = {
      'hidden_size': HIDDEN_SIZE.value,
      'channels': CHANNELS.value,
      'num_blocks': NUM_BLOCKS.value,
      'value_support_size': SUPPORT_SIZE.value,
      'reward_support_size': SUPPORT_SIZE.value,
  }
  config = presets.get_preset(PRESET.value)
  try:
    network = dataclasses.replace(
        config.network,
        **{k: v for k, v in network_overrides.items() if v is not None})
    return config.replace(
        network=network,
        **{k: v for k, v in overrides.items() if v is not None})
  except ValueError as e:
    # The config names the field; say which flag set it.
    raise app.UsageError(f'{e} (from the flags of --preset={PRESET.value})'
                         ) from e


def make_learner(config: config_lib.MuZeroConfig, seed: int,
                 jit_compile: bool,
                 strategy: Optional[tf.distribute.Strategy],
                 compute_dtype: str) -> learning.Learner:
  """The network and its learner, variables created in the strategy."""
  tf.random.set_seed(seed)
  network = networks.make_network(config)
  learner = learning.Learner(network, config, strategy=strategy,
                             jit_compile=jit_compile,
                             compute_dtype=compute_dtype)
  logging.info('Learner on %s with %d replica(s).',
               type(learner.strategy).__name__,
               learner.strategy.num_replicas_in_sync)
  return learner


def make_environment_factory(preset: str, config: config_lib.MuZeroConfig,
                             title: Optional[str] = None
                             ) -> acting.EnvironmentFactory:
  """`(seed) -> environment` for a preset, checked against the config.

  Args:
    preset: names the environment (`environments.ENVIRONMENTS`).
    config: the run's configuration; every environment's specs must match.
    title: the Atari game or gymnasium id of a titled preset (None: the
      preset's default).
  """

  def make(seed: int) -> environments.Environment:
    return environments.CheckedEnvironment.from_config(
        environments.make_environment(preset, seed, title), config)

  return make


def check_environment(preset: str, config: config_lib.MuZeroConfig,
                      title: Optional[str] = None) -> None:
  """Builds one environment before any training; raises `UsageError`.

  Says which `pip install` extra is missing, which title is unknown, or how
  the environment's specs differ from the preset's, before TensorFlow
  builds anything.
  """
  try:
    make_environment_factory(preset, config, title)(0).close()
  except ImportError as e:
    raise app.UsageError(f'--preset={preset}: {e}') from e
  except ValueError as e:
    raise app.UsageError(
        f'--preset={preset}' + (f' --env={title}' if title else '') +
        f': {e}') from e


def _export(learner: learning.Learner, config: config_lib.MuZeroConfig,
            export_dir: Optional[str]) -> None:
  if export_dir:
    export.export_inference(learner.network, export_dir, config=config)
    logging.info('Exported the inference functions to %s.', export_dir)


def run_selfplay(config: config_lib.MuZeroConfig,
                 preset: str,
                 num_envs: Optional[int] = None,
                 train_ratio: Optional[float] = None,
                 jit_compile: bool = True,
                 seed: int = 0,
                 log_every: int = 50,
                 checkpoint_dir: Optional[str] = None,
                 strategy: Optional[tf.distribute.Strategy] = None,
                 logdir: Optional[str] = None,
                 compute_dtype: str = 'float32',
                 export_dir: Optional[str] = None,
                 on_round=None,
                 search_kind: str = 'xla',
                 title: Optional[str] = None) -> training_loop.TrainingLoop:
  """The whole MuZero loop until `config.training_steps` learner steps.

  Args:
    config: the run's configuration; `batch_size` is the global batch.
    preset: names the environment (`SELF_PLAY_DEFAULTS`).
    num_envs: games played at once (default: the preset's).
    train_ratio: learner steps per environment step (default: preset's).
    jit_compile: whether to XLA-compile the loss and gradients (one replica).
    seed: seed of TensorFlow, self-play and replay.
    log_every: log (and write summaries) every this many learner steps.
    checkpoint_dir: where to save checkpoints and resume from the latest.
    strategy: the learner's `tf.distribute` strategy (the current one by
      default).
    logdir: where to write TensorBoard summaries; none if unset.
    compute_dtype: 'float32' or 'bfloat16' for the learner's compute.
    export_dir: where to export the inference functions after training.
    on_round: `(loop) -> bool` after every round; True stops the run.
    search_kind: one of `SEARCHES`.
    title: the game of a titled preset (`--env`), None for its default.

  Returns:
    The finished `TrainingLoop` (its learner, replay buffer and counters).

  Raises:
    ValueError: if `search_kind` is not one of `SEARCHES`.
  """
  if search_kind not in SEARCHES:
    raise ValueError(f'search_kind must be one of {SEARCHES}, got '
                     f'{search_kind!r}.')
  defaults = SELF_PLAY_DEFAULTS[preset]
  learner = make_learner(config, seed, jit_compile, strategy, compute_dtype)
  actor = acting.Actor(
      config, search.make_search(config, learner.network, search_kind),
      search.NetworkModel(learner.network),
      make_environment_factory(preset, config, title), seed=seed,
      num_envs=num_envs or defaults['num_envs'])
  writer = tf.summary.create_file_writer(logdir) if logdir else None
  try:
    loop = training_loop.TrainingLoop(
        config, learner, actor,
        train_ratio=train_ratio or defaults['train_ratio'], seed=seed,
        checkpoint_dir=checkpoint_dir, writer=writer, log_every=log_every)
    loop.run(on_round=on_round)
  finally:
    if writer:
      writer.close()
  _export(learner, config, export_dir)
  return loop


def run_synthetic(config: config_lib.MuZeroConfig,
                  jit_compile: bool = True,
                  seed: int = 0,
                  log_every: int = 50,
                  checkpoint_dir: Optional[str] = None,
                  strategy: Optional[tf.distribute.Strategy] = None,
                  logdir: Optional[str] = None,
                  compute_dtype: str = 'float32',
                  export_dir: Optional[str] = None) -> learning.Learner:
  """The learner alone on synthetic batches; returns the learner.

  Args:
    config: the run's configuration; `batch_size` is the global batch.
    jit_compile: whether to XLA-compile the loss and gradients (one replica).
    seed: seed of TensorFlow and of the synthetic batches.
    log_every: log (and write summaries) every this many learner steps.
    checkpoint_dir: where to save checkpoints and resume from the latest.
    strategy: the learner's `tf.distribute` strategy (the current one by
      default).
    logdir: where to write TensorBoard summaries; none if unset.
    compute_dtype: 'float32', or 'bfloat16' for the learner's matmuls and
      convolutions (variables stay float32).
    export_dir: where to export `initial_inference` and
      `recurrent_inference` as a SavedModel after training; none if unset.

  Returns:
    The trained learner.
  """
  learner = make_learner(config, seed, jit_compile, strategy, compute_dtype)
  writer = tf.summary.create_file_writer(logdir) if logdir else None
  checkpointer = None
  if checkpoint_dir:
    # The same checkpoints as the self-play loop, without a replay buffer.
    checkpointer = checkpointing.Checkpointer(checkpoint_dir, **learner.state)
    checkpointer.restore()
  # Batch i depends on (seed, i) only: a resumed run continues the stream.
  dataset = datasets.from_batches(
      lambda: synthetic.SyntheticBatches(
          config, config.batch_size, seed=seed, start=learner.steps),
      config, config.batch_size)
  batches = learner.distribute_dataset(dataset)
  try:
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
        if writer:
          with writer.as_default(step=step):
            training_loop.write_learner_summaries(metrics, rate,
                                                  config.batch_size)
        last_log, last_step = now, step
      if checkpointer and (step % config.checkpoint_interval == 0 or
                           step == config.training_steps):
        checkpointer.save(step)
  finally:
    if writer:
      writer.close()
  _export(learner, config, export_dir)
  return learner


def main(argv: Sequence[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  validate_flags()
  config = make_config()
  strategy = distribute.make_strategy(STRATEGY.value, tpu=TPU.value)
  check_strategy(config, strategy, JIT_COMPILE.value)
  common = dict(
      jit_compile=JIT_COMPILE.value,
      seed=SEED.value,
      log_every=LOG_EVERY.value,
      checkpoint_dir=CHECKPOINT_DIR.value,
      strategy=strategy,
      logdir=LOGDIR.value,
      compute_dtype=MIXED_PRECISION.value,
      export_dir=EXPORT_DIR.value)
  if DATA.value == 'synthetic':
    run_synthetic(config, **common)
  else:
    check_environment(PRESET.value, config, ENV.value)
    run_selfplay(config, PRESET.value, num_envs=NUM_ENVS.value,
                 train_ratio=TRAIN_RATIO.value, search_kind=SEARCH.value,
                 title=ENV.value, **common)


if __name__ == '__main__':
  app.run(main)
