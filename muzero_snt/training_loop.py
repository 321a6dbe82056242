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
"""The whole MuZero loop in one process: self-play, replay and learning.

Self-play and learning are interleaved on the same variables: the actor's
search reads the network the learner updates. Environment steps count once
the replay buffer holds a batch's worth of positions; after every batched
move the learner has taken exactly floor(train_ratio * counted steps) steps
(the ratio is held as an exact fraction), so the ratio of learner steps to
environment steps is the configured one at every moment, not only on
average. Checkpoints are written between rounds of games (`acting.Actor`),
when no game is in progress.

A run restarted from its last checkpoint continues exactly as if it had
never stopped. Extending a finished run (a second run with a larger
`training_steps`) is exact only if the first run's last learner step came
at the end of a round: otherwise the first run played the rest of that
round without learning, where the longer run keeps learning.
"""

import fractions
import time
from typing import Callable, Dict, List, Optional

from absl import logging
import numpy as np
import tensorflow as tf

from muzero_snt import acting
from muzero_snt import checkpointing
from muzero_snt import config as config_lib
from muzero_snt import learning
from muzero_snt import replay as replay_lib


class TrainingLoop:
  """Interleaves self-play rounds and learner steps until training ends.

  Usage:

      loop = TrainingLoop(config, learner, actor, train_ratio=0.5,
                          checkpoint_dir=directory)
      loop.run()
  """

  def __init__(self,
               config: config_lib.MuZeroConfig,
               learner: learning.Learner,
               actor: acting.Actor,
               train_ratio: float,
               seed: int = 0,
               checkpoint_dir: Optional[str] = None,
               writer: Optional[tf.summary.SummaryWriter] = None,
               log_every: int = 50):
    """Constructs the loop and restores the last checkpoint, if any.

    Args:
      config: the run's configuration (training_steps, checkpoint_interval,
        batch_size and the replay settings).
      learner: the learner; its network is the one the actor's model reads.
      actor: plays the self-play games.
      train_ratio: learner steps per environment step (> 0).
      seed: seed of the replay buffer's sampling.
      checkpoint_dir: where to save and resume checkpoints; none if unset.
      writer: TensorBoard writer; none if unset.
      log_every: log and write summaries every this many learner steps (and
        after the first round).
    """
    if not train_ratio > 0:
      raise ValueError(f'train_ratio must be positive, got {train_ratio!r}.')
    if log_every <= 0:
      raise ValueError(f'log_every must be positive, got {log_every!r}.')
    self._config = config
    self._learner = learner
    self._actor = actor
    # Exact: floor(ratio * steps) with a float ratio can be off by one.
    self._train_ratio = fractions.Fraction(str(train_ratio))
    self._writer = writer
    self._log_every = log_every
    self._counters = checkpointing.counters(
        rounds=0, games=0, env_steps=0, counted_env_steps=0, paid_steps=0)
    self._replay = None
    self._checkpointer = None
    if checkpoint_dir:
      self._checkpointer = checkpointing.Checkpointer(
          checkpoint_dir, **learner.state, **self._counters)
      self._replay = self._checkpointer.restore(config)
    if self._replay is None:
      self._replay = replay_lib.ReplayBuffer(config, seed=seed)
    else:
      logging.info('Resumed at learner step %d, %d games, %d environment '
                   'steps.', learner.steps, self.games, self.env_steps)
    self._last_metrics: Optional[Dict[str, np.ndarray]] = None
    self._recent: List[acting.GameResult] = []

  @property
  def learner(self) -> learning.Learner:
    return self._learner

  @property
  def replay(self) -> replay_lib.ReplayBuffer:
    return self._replay

  @property
  def rounds(self) -> int:
    return int(self._counters['rounds'].numpy())

  @property
  def games(self) -> int:
    return int(self._counters['games'].numpy())

  @property
  def env_steps(self) -> int:
    return int(self._counters['env_steps'].numpy())

  def _done(self) -> bool:
    return self._learner.steps >= self._config.training_steps

  def _learn(self) -> None:
    batch, keys = self._replay.sample_batch()
    metrics = self._learner.step(batch)
    if self._config.prioritized_replay:
      self._replay.update_priorities(keys, metrics['priority'])
    self._last_metrics = metrics

  def _on_move(self, num_env_steps: int) -> None:
    """Takes the learner steps that `num_env_steps` new steps are owed."""
    self._counters['env_steps'].assign_add(num_env_steps)
    if self._replay.num_positions < self._config.batch_size:
      return
    counted = self._counters['counted_env_steps']
    paid = self._counters['paid_steps']
    counted.assign_add(num_env_steps)
    owed = int(self._train_ratio * int(counted.numpy()))  # floor, exactly.
    while int(paid.numpy()) < owed and not self._done():
      self._learn()
      paid.assign_add(1)

  def run(self,
          on_round: Optional[Callable[['TrainingLoop'], bool]] = None
         ) -> None:
    """Plays and learns until the learner has `config.training_steps` steps.

    Args:
      on_round: called after every round (and its checkpoint); returning
        True stops the loop there (benchmarks evaluate and stop with it).

    Raises:
      FloatingPointError: if a learner step's loss is not finite; the step
        is skipped and no checkpoint is written after it, so the last good
        checkpoint stays the one a restart resumes from.
    """
    start = time.time()
    start_steps = (self._learner.steps, self.env_steps)
    last_checkpoint = self._learner.steps
    last_log = None
    while not self._done():
      results = self._actor.play_round(
          self.rounds, training_steps=lambda: self._learner.steps,
          on_move=self._on_move)
      for result in results:
        self._replay.save_game(result.trajectory)
      self._recent.extend(results)
      self._counters['games'].assign_add(len(results))
      self._counters['rounds'].assign_add(1)
      steps = self._learner.steps
      if last_log is None or steps // self._log_every > last_log // (
          self._log_every) or self._done():
        self._log(start, start_steps)
        last_log = steps
      if self._checkpointer and (
          steps - last_checkpoint >= self._config.checkpoint_interval or
          self._done()):
        self._checkpointer.save(self.rounds, self._replay)
        last_checkpoint = steps
      if on_round is not None and on_round(self):
        break

  def _log(self, start: float, start_steps) -> None:
    """Logs progress and writes TensorBoard summaries of recent games."""
    elapsed = time.time() - start
    learner_steps = self._learner.steps
    total = self._config.training_steps
    steps_per_second = (learner_steps - start_steps[0]) / max(elapsed, 1e-9)
    env_steps_per_second = (self.env_steps - start_steps[1]) / max(
        elapsed, 1e-9)
    remaining = (total - learner_steps) / steps_per_second if (
        steps_per_second > 0) else float('nan')
    returns = [r.episode_return for r in self._recent]
    lengths = [r.length for r in self._recent]
    metrics = self._last_metrics
    loss = f'{float(metrics["loss"]):.4f}' if metrics else '-'
    logging.info(
        'learner step %d/%d  games %d  env steps %d  return %.2f  length '
        '%.1f  loss %s  %.2f learner steps/s  %.1f env steps/s  elapsed '
        '%.0fs  remaining ~%.0fs', learner_steps, total, self.games,
        self.env_steps, np.mean(returns), np.mean(lengths), loss,
        steps_per_second, env_steps_per_second, elapsed, remaining)
    if self._writer:
      with self._writer.as_default(step=learner_steps):
        tf.summary.scalar('selfplay/episode_return', np.mean(returns))
        tf.summary.scalar('selfplay/game_length', np.mean(lengths))
        tf.summary.scalar('selfplay/games', self.games)
        tf.summary.scalar('selfplay/env_steps', self.env_steps)
        tf.summary.scalar('selfplay/env_steps_per_second',
                          env_steps_per_second)
        tf.summary.scalar('replay/positions', self._replay.num_positions)
        if metrics:
          write_learner_summaries(metrics, steps_per_second,
                                  self._config.batch_size)
    self._recent = []


def write_learner_summaries(metrics: Dict[str, np.ndarray],
                            steps_per_second: float, batch_size: int) -> None:
  """Writes a learner step's metrics as scalars to the default writer.

  Args:
    metrics: the output of `Learner.step`.
    steps_per_second: learner steps per second since the last summary.
    batch_size: the global batch size, for samples per second.
  """
  tf.summary.scalar('loss', metrics['loss'])
  tf.summary.scalar('loss/regularization', metrics['regularization'])
  # Value and policy are predicted at unroll steps 0..K, rewards at 1..K.
  for name, first_step in (('value', 0), ('reward', 1), ('policy', 0)):
    per_step = metrics[f'{name}_loss']
    tf.summary.scalar(f'loss/{name}', np.mean(per_step))
    for k, value in enumerate(per_step, start=first_step):
      tf.summary.scalar(f'loss/{name}_step_{k}', value)
  tf.summary.scalar('learning_rate', metrics['learning_rate'])
  tf.summary.scalar('gradient_norm', metrics['gradient_norm'])
  tf.summary.scalar('steps_per_second', steps_per_second)
  tf.summary.scalar('samples_per_second', steps_per_second * batch_size)
