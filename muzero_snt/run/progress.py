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
"""A training run's progress: the scalars of each log step, and loggers.

Every `log_every` learner steps `training_loop.TrainingLoop` hands a logger
(any callable, as Acme's) one dict of scalars: `learner_step`,
`training_steps`, `elapsed_seconds`, `steps_per_second` and
`remaining_seconds` once known, `learner_scalars` of the last step, and the
data source's by TensorBoard tag (`selfplay/games`, `replay/positions`, ...).
"""

import glob
import os
import sys
import tempfile
from typing import Callable, List, Mapping, Optional, Sequence

from absl import logging
import numpy as np
import tensorflow as tf

Logger = Callable[[Mapping[str, float]], None]


def learner_scalars(metrics: Mapping[str, object]) -> dict:
  """The scalars of a learner step's metrics (`Learner.step`'s output)."""
  scalars = {'loss': float(metrics['loss']),
             'loss/regularization': float(metrics['regularization'])}
  for name in ('value', 'reward', 'policy', 'consistency'):  # Per unroll step.
    if f'{name}_loss' in metrics:
      scalars[f'loss/{name}'] = float(np.mean(metrics[f'{name}_loss']))
  scalars['learning_rate'] = float(metrics['learning_rate'])
  scalars['gradient_norm'] = float(metrics['gradient_norm'])
  return scalars


def format_line(scalars: Mapping[str, float]) -> str:
  """The progress line of a log step's scalars, e.g. `learner step 40/100
  loss 1.2345  games 32  env steps 250  return 0.38  length 7.8  120.5 env
  steps/s  2.50 learner steps/s  elapsed 30s  remaining ~24s`."""
  get = scalars.get
  parts = [f'learner step {int(scalars["learner_step"])}/'
           f'{int(scalars["training_steps"])}',
           'loss -' if get('loss') is None else f'loss {get("loss"):.4f}']
  if get('selfplay/games') is not None:
    ended = '-  length -'
    if get('selfplay/episode_return') is not None:
      ended = (f'{get("selfplay/episode_return"):.2f}  length '
               f'{get("selfplay/game_length"):.1f}')
    parts.append(f'games {int(get("selfplay/games"))}  env steps '
                 f'{int(get("selfplay/env_steps"))}  return {ended}  '
                 f'{get("selfplay/env_steps_per_second"):.1f} env steps/s')
  ratio, window = (get('replay/observed_train_ratio'),
                   get('replay/train_ratio_window'))
  if ratio is not None or window is not None:
    # Unknown (None) before the replay service granted two learner steps.
    parts.append('train ratio ' + ('-' if ratio is None else f'{ratio:.4f}') +
                 ('' if window is None else
                  f' over the last {int(window)} steps'))
  if get('weights/version') is not None:
    parts.append(f'weights v{int(get("weights/version"))}')
  if get('reanalyse/rows') is not None:
    parts.append(f'reanalysed {int(get("reanalyse/rows"))} rows '
                 f'({get("reanalyse/seconds"):.1f} s)')
  if get('reanalyse/batches') is not None:
    parts.append(f'reanalysed {int(get("reanalyse/batches"))} batches' +
                 ('' if get('reanalyse/workers') is None else
                  f' by {int(get("reanalyse/workers"))} worker(s)'))
  rate, remaining = get('steps_per_second'), get('remaining_seconds')
  parts += ['-' if rate is None else f'{rate:.2f} learner steps/s',
            f'elapsed {scalars["elapsed_seconds"]:.0f}s',
            'remaining ' + ('unknown yet' if remaining is None else
                            f'~{remaining:.0f}s')]
  return '  '.join(parts)


def print_progress(scalars: Mapping[str, float]) -> None:
  """Prints the progress line to standard error (the library's default)."""
  print(format_line(scalars), file=sys.stderr, flush=True)


def log_progress(scalars: Mapping[str, float]) -> None:
  """Logs the progress line with absl at INFO (the launchers' logger)."""
  logging.info('%s', format_line(scalars))


def event_files(logdir: str) -> List[str]:
  """The event files directly in `logdir`, sorted by name."""
  return sorted(glob.glob(os.path.join(logdir, 'events.out.tfevents*')))


def _records(path: str) -> List[bytes]:
  """The complete records of a TFRecord file (a torn tail is dropped)."""
  records = []
  try:
    for record in tf.data.TFRecordDataset(path):
      records.append(record.numpy())
  except tf.errors.DataLossError:
    logging.warning('%s ends in a torn record (a killed writer); the complete '
                    'records are kept.', path)
  return records


def drop_events_after(logdir: str, step: int,
                      paths: Optional[Sequence[str]] = None) -> int:
  """Removes events logged at steps > `step`; returns how many.

  A resumed run logs again what its predecessor logged after checkpoint
  `step`: dropping those, TensorBoard shows each step once. Each file is
  replaced atomically. `paths` (default: every event file of `logdir`)
  should leave out a file a writer of this process has open.
  """
  removed = 0
  for path in event_files(logdir) if paths is None else paths:
    records = _records(path)
    kept = []
    for record in records:
      event = tf.compat.v1.Event.FromString(record)
      # Summaries carry the step; the file-version header (step 0) stays.
      if not (event.HasField('summary') and event.step > step):
        kept.append(record)
    if len(kept) == len(records) and os.path.getsize(path) == sum(
        len(r) + 16 for r in records):
      continue
    removed += len(records) - len(kept)
    handle, temporary = tempfile.mkstemp(dir=logdir, suffix='.tmp')
    os.close(handle)
    with tf.io.TFRecordWriter(temporary) as writer:
      for record in kept:
        writer.write(record)
    os.replace(temporary, path)
  if removed:
    logging.info('Removed %d TensorBoard events after learner step %d from '
                 '%s (logged by a run that stopped before checkpointing '
                 'them).', removed, step, logdir)
  return removed
