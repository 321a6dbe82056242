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
"""A whole training run from a config: what the launchers call.

    import muzero_snt
    muzero_snt.train(muzero_snt.RunConfig(preset='tictactoe',
                                          checkpoint_dir='/tmp/ttt'))
"""

import contextlib
import os
from typing import Callable, Optional

from absl import logging
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import learning
from muzero_snt.run import builders
from muzero_snt.run import checkpointing
from muzero_snt.run import data_sources
from muzero_snt.run import export
from muzero_snt.run import progress
from muzero_snt.run import resources
from muzero_snt.run import run_config as run_config_lib
from muzero_snt.run import run_lock
from muzero_snt.run import stopping
from muzero_snt.run import training_loop
# Ray itself is imported only when a run has actors (`runner.start`).
from muzero_snt.distributed import replay_source
from muzero_snt.distributed import runner


def describe_config(run: run_config_lib.RunConfig) -> str:
  """The run in one paragraph: game, changes to its config, settings."""
  run = run.resolved()
  diffs = run_config_lib.differences(run.replace(config=None), run)
  changed = ', '.join(f'{name}={value!r}' for name, _, value in diffs)
  if run.environment is None:
    game, unchanged = f'preset {run.preset}', ' (as shipped)'
  else:
    game = builders.describe_game(None, environment=run.environment)
    unchanged = ' (as derived from its specs)'
  return (game + (f' ({changed})' if changed else unchanged) + '; ' +
          ', '.join(f'{k}={v!r}' for k, v in run.defining_settings().items())
          + f'; {run.config.training_steps} learner steps of batch '
          f'{run.config.batch_size}')


def check_reanalysis(run: run_config_lib.RunConfig) -> None:
  """Raises ValueError if the run asks for reanalysis where there is none."""
  run = run.resolved()
  fraction, workers = run.config.reanalyze_fraction, run.num_reanalyze_workers
  if workers and not fraction:
    raise ValueError(f'num_reanalyze_workers={workers} needs '
                     'reanalyze_fraction > 0 (nothing to reanalyse).')
  if fraction and run.data == 'synthetic':
    raise ValueError(f'reanalyze_fraction={fraction} is not available with '
                     "data='synthetic' (no stored games to search again); "
                     'set it to 0.')
  if fraction and run.data == 'selfplay' and run.overlap_learning:
    raise ValueError(f'reanalyze_fraction={fraction} is not available with '
                     'overlap_learning (the reanalyser searches the '
                     "learner's network while the learner's thread changes "
                     'it); set one of them off.')


def check_train_ratio(run: run_config_lib.RunConfig) -> None:
  """Raises ValueError if the replay window holds fewer than 1/train_ratio
  positions: self-play would run forever without a learner step."""
  run = run.resolved()
  if run.data != 'selfplay':
    return
  config, ratio = run.config, run.train_ratio
  positions = config.window_size * config.max_moves
  if ratio * positions < 1:
    raise ValueError(
        f'train_ratio={ratio:g} asks for one learner step every '
        f'{1 / ratio:.3g} environment steps, more than the replay window '
        f'holds (window_size={config.window_size} games of at most '
        f'max_moves={config.max_moves}: {positions} positions), so no '
        f'learner step would ever come; expected train_ratio >= '
        f'{1 / positions:.3g}.')


def check_mode_switch(directory: str, run: run_config_lib.RunConfig) -> None:
  """Raises `RunConfigError` if the checkpoints are of the other mode
  (in one process or with Ray actors), whose counters differ."""
  names = checkpointing.saved_names(directory)
  if not names:
    return
  distributed = any(name.startswith(replay_source.COUNTER_PREFIX)
                    for name in names)
  if distributed == bool(run.num_actors):
    return
  if distributed:
    saved, asked = 'with Ray actors (num_actors > 0)', (
        'in one process (num_actors=0)')
  else:
    saved, asked = 'in one process (num_actors=0)', (
        f'with num_actors={run.num_actors}')
  raise run_config_lib.RunConfigError(
      f'The checkpoints in {directory} are of a run that played {saved}; '
      f'they cannot be resumed {asked}, because the two modes count '
      'their self-play progress differently. Resume in the mode the run '
      'was started in, or start the new run in another directory.')


def check_run(run: run_config_lib.RunConfig,
              available_memory: Optional[int] = None) -> None:
  """Checks memory, output directories, disk space and the checkpoint
  directory's run before any work.

  Raises:
    resources.ResourceError: naming the part or the path and what to do.
    run_config.RunConfigError: if the checkpoint directory holds another run.
  """
  run = run.resolved()
  config = run.config
  check_reanalysis(run)
  check_train_ratio(run)
  with_replay = run.data != 'synthetic'
  frame_stack = builders.frame_stack(run.preset, run.environment)
  resources.check_memory(
      config, available_bytes=available_memory, with_replay=with_replay,
      games_in_flight=run.num_envs if run.data == 'selfplay' else 0,
      frame_stack=frame_stack)
  if run.checkpoint_dir:
    saved = config if with_replay else config.replace(window_size=1,
                                                      max_moves=1)
    keep = checkpointing.MAX_TO_KEEP
    resources.check_output_directory(
        run.checkpoint_dir, 'checkpoint_dir',
        min_free_bytes=resources.checkpoint_space_needed(
            saved, run.checkpoint_dir, keep, frame_stack),
        needed_for=f'{keep} checkpoints kept and the next one, written '
        f'before the oldest is deleted, of up to '
        f'{resources.checkpoint_bytes(saved, frame_stack):,} bytes each, '
        'counting those already there')
    check_mode_switch(run.checkpoint_dir, run)
    run_config_lib.check_resume(run.checkpoint_dir, run,
                                run.allow_config_changes)
  for name in ('logdir', 'export_dir'):
    if getattr(run, name):
      resources.check_output_directory(getattr(run, name), name)
  if run.export_replay:
    resources.check_output_directory(
        os.path.dirname(os.path.abspath(run.export_replay)),
        'export_replay')
  if run.data == 'replay':
    data_sources.load_replay(config, run.replay_path)


# What `run` does while building the data source, by `run.data`.
_SOURCE_STAGES = {
    'selfplay': 'building the environments and the search',
    'synthetic': 'building the synthetic batches',
    'replay': 'loading the replay file',
}

_OnRound = Callable[[training_loop.TrainingLoop], bool]


def run(run_config: run_config_lib.RunConfig,
        strategy: Optional[tf.distribute.Strategy] = None,
        on_round: Optional[_OnRound] = None,
        end_round: Optional[_OnRound] = None,
        stop: Optional[stopping.StopOnSignals] = None,
        logger: Optional[progress.Logger] = progress.print_progress
       ) -> training_loop.TrainingLoop:
  """Trains until `config.training_steps` learner steps; returns the loop.

  A SIGINT or SIGTERM stops the run cleanly (`stopping.py`).

  Args:
    run_config: the run (its config's `batch_size` is the global batch).
    strategy: the learner's `tf.distribute` strategy (default: the current).
    on_round, end_round: as in `TrainingLoop.run`.
    stop: the caller's `StopOnSignals`, if it listens to signals already.
    logger: called with each log step's scalars (`progress.py`; None:
      nothing); other messages go to absl's log.

  Raises:
    ValueError: if the strategy cannot run the batch or XLA as asked, or
      the checkpoint directory holds another run (`RunConfigError`).
    run_lock.RunLockError: if another live process writes there.
    checkpointing.CheckpointError: if no checkpoint there is intact, or a
      save fails.
    FloatingPointError: if a learner step's loss is not finite.
    stopping.Stopped: if a signal came before the training loop began.
  """
  run = run_config.resolved()
  config, directory = run.config, run.checkpoint_dir
  stop = stop or stopping.StopOnSignals()
  with stop, contextlib.ExitStack() as stack:
    stop.begin('checking the run')
    logging.info('Run: %s.', describe_config(run))
    logging.info('Checkpoints: %s. TensorBoard: %s.',
                 directory or 'none (no --checkpoint_dir)',
                 run.logdir or 'none (no --logdir)')
    strategy = strategy or tf.distribute.get_strategy()
    builders.check_strategy(config, strategy, run.jit_compile)
    check_reanalysis(run)
    check_train_ratio(run)
    if directory:
      stop.begin('checking the checkpoint directory')
      # One writer per directory, for the whole run.
      stack.enter_context(run_lock.RunLock(directory))
      check_mode_switch(directory, run)
      saved = run_config_lib.check_resume(directory, run,
                                          run.allow_config_changes)
      if saved is None and tf.train.latest_checkpoint(directory):
        logging.warning('%s has checkpoints but no %s (an older run): '
                        'resuming without checking its configuration.',
                        directory, run_config_lib.RUN_CONFIG_FILE)
    stop.begin('building the learner')
    learner = builders.make_learner(config, run.seed, run.jit_compile,
                                    strategy, run.compute_dtype)
    if run.num_actors:
      stop.begin('starting Ray and the actors')
      source = stack.enter_context(runner.start(run, learner))
    else:
      stop.begin(_SOURCE_STAGES[run.data])
      source = builders.make_source(run, learner)
    stop.begin('restoring the checkpoint' if directory else
               'building the training loop')
    writer, earlier_events = None, []
    if run.logdir:
      earlier_events = progress.event_files(run.logdir)
      writer = tf.summary.create_file_writer(run.logdir)
      stack.callback(writer.close)
    loop = training_loop.TrainingLoop(
        config, learner, source, checkpoint_dir=directory,
        writer=writer, log_every=run.log_every,
        checkpoint_seconds=(None if run.checkpoint_minutes is None else
                            60 * run.checkpoint_minutes),
        overlap_learning=run.overlap_learning, stop=stop, logger=logger)
    if directory:
      # Restored: this run continues the directory's, so its record says so.
      run_config_lib.save(directory, run)
    if earlier_events:
      # Steps logged after the resumed checkpoint come again: drop the old.
      progress.drop_events_after(run.logdir, learner.steps, earlier_events)
    loop.run(on_round=on_round, end_round=end_round)
  if run.export_replay:
    loop.replay.save(run.export_replay)
    logging.info('Wrote the replay buffer (%d games) to %s.',
                 loop.replay.num_games, run.export_replay)
  if run.export_dir:
    export.export_inference(loop.learner.network, run.export_dir,
                            config=config)
    logging.info('Exported the inference functions to %s.',
                 run.export_dir)
  logging.info('%s', summary(loop, run))
  return loop


def summary(loop: training_loop.TrainingLoop,
            run: run_config_lib.RunConfig) -> str:
  """What a finished run did and where its results are."""
  how = (f'Stopped by {loop.stopped_by}' if loop.stopped_by else 'Done')
  lines = [f'{how}: {loop.learner.steps} learner steps, '
           f'{loop.source.totals()}, in {loop.elapsed:.0f} s.']
  if loop.last_checkpoint:
    lines.append(f'  checkpoint: {loop.last_checkpoint}')
  if run.logdir:
    lines.append(f'  TensorBoard: tensorboard --logdir={run.logdir} '
                 '--host=127.0.0.1')
  if run.export_dir:
    lines.append(f'  SavedModel: {run.export_dir}')
  if run.export_replay:
    lines.append(f'  replay: {run.export_replay}')
  return '\n'.join(lines)


def run_selfplay(config: config_lib.MuZeroConfig, preset: str,
                 strategy: Optional[tf.distribute.Strategy] = None,
                 on_round=None, end_round=None,
                 logger: Optional[progress.Logger] = progress.print_progress,
                 **settings) -> training_loop.TrainingLoop:
  """`run` with self-play data; `settings` are other `RunConfig` fields."""
  return run(run_config_lib.RunConfig(preset=preset, config=config,
                                      data='selfplay', **settings),
             strategy=strategy, on_round=on_round, end_round=end_round,
             logger=logger)


def run_synthetic(config: config_lib.MuZeroConfig, preset: str = 'tictactoe',
                  strategy: Optional[tf.distribute.Strategy] = None,
                  logger: Optional[progress.Logger] = progress.print_progress,
                  **settings) -> learning.Learner:
  """`run` on synthetic batches; returns the trained learner."""
  return run(run_config_lib.RunConfig(preset=preset, config=config,
                                      data='synthetic', **settings),
             strategy=strategy, logger=logger).learner
