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
"""The training loop: rounds of data, learner steps, logs and checkpoints.

A run restarted from its last checkpoint continues exactly as if it had
never stopped. Extending a finished self-play run (a larger
`training_steps`) is exact only if its last learner step ended a round.
"""

import concurrent.futures
import contextlib
import time
from typing import Callable, Dict, Optional

from absl import logging
import numpy as np
import tensorflow as tf

from muzero_snt.run import checkpointing
from muzero_snt import config as config_lib
from muzero_snt.run import data_sources
from muzero_snt import learning
from muzero_snt.run import overlapped_learning
from muzero_snt.run import progress
from muzero_snt import replay as replay_lib
from muzero_snt.run import stopping


class TrainingLoop:
  """Runs rounds of a data source (`data_sources.py`) until the learner has
  `config.training_steps` steps; logs and checkpoints between rounds."""

  def __init__(self,
               config: config_lib.MuZeroConfig,
               learner: learning.Learner,
               source: data_sources.DataSource,
               checkpoint_dir: Optional[str] = None,
               writer: Optional[tf.summary.SummaryWriter] = None,
               log_every: int = 50,
               checkpoint_seconds: Optional[float] = None,
               compile_first: bool = True,
               overlap_learning: bool = False,
               stop: Optional[stopping.StopOnSignals] = None,
               logger: Optional[progress.Logger] = progress.print_progress):
    """Constructs the loop and restores the last checkpoint, if any.

    Args:
      config: training_steps, checkpoint_interval, and the replay settings
        a restored buffer is read with.
      learner: with self-play, its network is the one the actor searches.
      checkpoint_dir: where to save and resume checkpoints (None: nowhere).
      log_every: log every this many learner steps (and after the first
        round, and at the end).
      checkpoint_seconds: also checkpoint after this much wall time.
      compile_first: compile the source's search and the learner's step
        side by side before the first round.
      overlap_learning: take each move's learner steps in a second thread;
        needs a source with `actor_weights`.
      stop: the `StopOnSignals` of a start-up already listening to signals.
      logger: called with the scalars of each log step (None: no log).

    Raises:
      ValueError: for a bad `log_every` or `checkpoint_seconds`, or
        `overlap_learning` with a source that cannot overlap.
    """
    if (isinstance(log_every, bool) or not isinstance(log_every, int) or
        log_every <= 0):
      raise ValueError(f'log_every must be a positive integer, got '
                       f'{log_every!r}.')
    if checkpoint_seconds is not None and not checkpoint_seconds > 0:
      raise ValueError(f'checkpoint_seconds must be positive, got '
                       f'{checkpoint_seconds!r}.')
    if overlap_learning and getattr(source, 'actor_weights', None) is None:
      raise ValueError(
          'overlap_learning=True needs a self-play source whose actor '
          'searches a network of its own (data_sources.SelfPlay with '
          f'actor_weights); got {type(source).__name__} without one.')
    self._config = config
    self._learner = learner
    self._source = source
    self._overlap = bool(overlap_learning)
    # With overlap: the batches drawn for the next steps, the replay keys
    # of the running ones, and the learner steps counted through the last
    # metrics taken, asked for, and in the actor's weights.
    self._staged = []
    self._running_keys = []
    self._thread = overlapped_learning.LearnerThread(
        lambda batch: self._learner.step_prepared(batch),
        source.actor_weights.read if overlap_learning else None)
    self._job_steps = 0
    self._steps_asked = 0
    self._actor_steps = 0
    self._checkpoint_seconds = checkpoint_seconds
    self._compile_first = compile_first
    self._stop = stop or stopping.StopOnSignals()
    self._writer = writer
    self._logger = logger
    self._log_every = log_every
    self._checkpointer = None
    self._last_metrics: Optional[Dict[str, np.ndarray]] = None
    self._last_checkpoint: Optional[str] = None
    if checkpoint_dir:
      self._checkpointer = checkpointing.Checkpointer(
          checkpoint_dir, **learner.state, **source.counters())
      source.restore_replay(self._checkpointer.restore(
          None if source.replay is None else config))
      if self._checkpointer.latest_number is not None:
        self._last_checkpoint = self._checkpointer.latest_path
        logging.info('Resumed from %s at learner step %d.',
                     self._last_checkpoint, learner.steps)
    # Wall time and learner steps of this process's first learner step.
    self._first_step: Optional[tuple] = None
    self._start = None

  @property
  def learner(self) -> learning.Learner:
    return self._learner

  @property
  def source(self) -> data_sources.DataSource:
    return self._source

  @property
  def replay(self) -> Optional[replay_lib.ReplayBuffer]:
    return self._source.replay

  # Self-play's rounds, games and environment steps (0 without games).
  @property
  def rounds(self) -> int:
    return getattr(self._source, 'rounds', 0)

  @property
  def games(self) -> int:
    return getattr(self._source, 'games', 0)

  @property
  def env_steps(self) -> int:
    return getattr(self._source, 'env_steps', 0)

  @property
  def last_checkpoint(self) -> Optional[str]:
    """The path of the newest checkpoint (written or restored), if any."""
    return self._last_checkpoint

  @property
  def elapsed(self) -> float:
    """Seconds since `run` started in this process (0 before)."""
    return 0. if self._start is None else time.time() - self._start

  def _done(self) -> bool:
    return self._learner.steps >= self._config.training_steps

  @property
  def stopped_by(self) -> Optional[str]:
    """The signal that stopped the last `run` early, if one did."""
    return self._stop.signal_name

  def _took(self, metrics: Dict[str, np.ndarray], keys: Optional[np.ndarray],
            steps: int) -> None:
    """Takes a learner step's metrics and its batch's new priorities."""
    if keys is not None:
      self._source.update_priorities(keys, metrics['priority'])
    self._last_metrics = metrics
    if self._first_step is None:
      self._first_step = (time.time(), steps)

  def _learn(self) -> bool:
    """One learner step on the next batch; False once done or stopping."""
    if self._stop.requested:
      return False
    batch, keys = self._source.sample()
    self._took(self._learner.step(batch), keys, self._learner.steps)
    return not (self._done() or self._stop.requested)

  def _stage(self) -> bool:
    """`_learn` with overlap: draws the batch now, steps at `_end_move`."""
    if self._stop.requested:
      return False
    batch, keys = self._source.sample()
    self._staged.append((self._learner.prepare(batch), keys))
    self._steps_asked += 1
    return not (self._steps_asked >= self._config.training_steps or
                self._stop.requested)

  def _take_metrics(self, done, keys) -> None:
    for metrics, step_keys in zip(done, keys):
      metrics = {name: value.numpy() for name, value in metrics.items()}
      self._job_steps += 1
      metrics['step'] = self._job_steps
      self._took(metrics, step_keys, self._job_steps)

  def _end_move(self) -> None:
    """After a move's steps were drawn: waits for the previous move's and
    takes their metrics and priorities here (this thread alone writes the
    replay), starts this move's, and gives the actor the weights read after
    the previous ones (if any step ran)."""
    keys, self._running_keys = self._running_keys, []
    try:
      finished = self._thread.wait()
    except Exception as error:
      self._take_metrics(getattr(error, 'completed_metrics', []), keys)
      raise
    self._take_metrics(finished.metrics, keys)
    steps = self._job_steps = self._learner.steps
    if self._staged:
      staged, self._staged = self._staged, []
      self._running_keys = [keys for _, keys in staged]
      self._thread.start([batch for batch, _ in staged])
    if finished.weights is not None:
      self._source.actor_weights.write(finished.weights)
      self._actor_steps = steps

  def save(self) -> Optional[str]:
    """Saves a checkpoint numbered by the learner step and logs its path;
    raises `checkpointing.CheckpointError` if the save fails."""
    if self._checkpointer is None:
      return None
    step = self._learner.steps
    path = self._checkpointer.save(step, self._source.replay)
    self._last_checkpoint = path
    logging.info('Checkpoint at learner step %d: %s', step, path)
    return path

  def run(self,
          on_round: Optional[Callable[['TrainingLoop'], bool]] = None,
          end_round: Optional[Callable[['TrainingLoop'], bool]] = None
         ) -> None:
    """Runs rounds until the learner has `config.training_steps` steps.

    A SIGINT or SIGTERM stops the run after the current learner step with
    a final checkpoint (`stopping.py`), and `stopped_by` names it.

    Args:
      on_round: called after every round (and its checkpoint); True stops
        the loop there.
      end_round: checked after every move; True ends the round there
        (continuous self-play's games in play go on in the next round; a
        source that plays rounds to the end drops them).

    Raises:
      FloatingPointError: if a learner step's loss is not finite (no
        checkpoint follows it).
      checkpointing.CheckpointError: if a save fails.
      stopping.Stopped: if a signal came before the first round.
    """
    self._start = time.time()
    with self._stop, contextlib.ExitStack() as cleanup:
      self._stop.begin('compiling')
      if self._compile_first and not self._done():
        self._compile()
      self._stop.begin(None)
      last_checkpoint, last_save_time = self._learner.steps, time.time()
      last_log, last_log_time = None, self._start
      cleanup.callback(self._thread.close)
      while not self._done():
        should_stop = self._stop
        if end_round is not None:
          should_stop = lambda: self._stop() or end_round(self)
        if self._overlap:
          self._running_keys = []
          self._steps_asked = self._actor_steps = self._learner.steps
          self._source.actor_weights()
          self._source.run_round(self._stage, lambda: self._actor_steps,
                                 should_stop=should_stop,
                                 end_move=self._end_move)
          # Twice: every step drawn taken, the actor's weights the learner's.
          self._end_move()
          self._end_move()
        else:
          self._source.run_round(self._learn, lambda: self._learner.steps,
                                 should_stop=should_stop)
        steps = self._learner.steps
        stopping_now = self._stop.requested
        if last_log is None or steps // self._log_every > last_log // (
            self._log_every) or self._done() or stopping_now:
          now = time.time()
          self._log(now - last_log_time)
          last_log, last_log_time = steps, now
        on_time = (self._checkpoint_seconds is not None and
                   time.time() - last_save_time >= self._checkpoint_seconds)
        if self._checkpointer and steps > last_checkpoint and (
            steps - last_checkpoint >= self._config.checkpoint_interval or
            self._done() or stopping_now or on_time):
          self.save()
          last_checkpoint, last_save_time = steps, time.time()
        if stopping_now:
          logging.warning('Stopped by %s at learner step %d%s.',
                          self._stop.signal_name, steps,
                          f'; checkpoint {self._last_checkpoint}'
                          if self._last_checkpoint else '')
          break
        if on_round is not None and on_round(self):
          break

  def _compile(self) -> None:
    """Compiles the source's search and the learner's step side by side.

    Two threads (XLA releases the interpreter); the search only reads the
    variables the learner's compile changes and restores. This thread
    traces both first, then only waits, so that a stop raises `Stopped` at
    once; the compiles finish in non-daemon threads (one killed inside XLA
    would abort the process).
    """
    prepare = getattr(self._source, 'compile_function', None)
    compile_source = prepare() if prepare is not None else None
    if compile_source is None:
      return
    start = time.time()
    # Traced here, before the threads start: see `Learner.compile_function`.
    compile_learner = self._learner.compile_function()
    pool = concurrent.futures.ThreadPoolExecutor(2, 'compile')
    searches = pool.submit(compile_source)
    learner = pool.submit(compile_learner or (lambda: None))
    pool.shutdown(wait=False)
    pending = {searches, learner}
    while pending:
      # Signal handlers run in this thread between the waits.
      _, pending = concurrent.futures.wait(pending, timeout=0.05)
      if pending and self._stop.requested:
        logging.info('Stopping: the compilation in progress finishes in its '
                     'threads (it cannot be cut short); the process exits '
                     'after it.')
        self._stop.check()
    searches.result()
    learner.result()
    logging.info('Compiled %s in %.1f s.',
                 'the learner step with the search beside it'
                 if compile_learner else 'the search', time.time() - start)

  def steps_per_second(self) -> Optional[float]:
    """The learner's rate since the end of its first step in this process
    (so tracing and compilation do not count); None if unknown."""
    if self._first_step is None:
      return None
    start_time, start_steps = self._first_step
    steps = self._learner.steps - start_steps
    seconds = time.time() - start_time
    return steps / seconds if steps > 0 and seconds > 0 else None

  def _log(self, since_last: float) -> None:
    """Logs progress and writes TensorBoard summaries since the last log."""
    steps, total = self._learner.steps, self._config.training_steps
    metrics = self._last_metrics
    rate = self.steps_per_second()
    source_scalars = self._source.progress(since_last)
    learner_scalars = progress.learner_scalars(metrics) if metrics else {}
    scalars = {'learner_step': steps, 'training_steps': total,
               'elapsed_seconds': self.elapsed}
    if rate is not None:
      scalars['steps_per_second'] = rate
      scalars['remaining_seconds'] = (total - steps) / rate
    scalars.update(learner_scalars)
    scalars.update(source_scalars)
    if self._logger is not None:
      self._logger(scalars)
    if not self._writer:
      return
    summaries = {**source_scalars, **learner_scalars}
    if metrics:
      # Value and policy at unroll steps 0..K, reward and consistency 1..K.
      for name, first_step in (('value', 0), ('reward', 1), ('policy', 0),
                               ('consistency', 1)):
        for k, value in enumerate(metrics.get(f'{name}_loss', ()),
                                  start=first_step):
          summaries[f'loss/{name}_step_{k}'] = value
      if rate is not None:
        summaries['steps_per_second'] = rate
        summaries['samples_per_second'] = rate * self._config.batch_size
    with self._writer.as_default(step=steps):
      for tag, value in summaries.items():
        tf.summary.scalar(tag, value)
