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
"""TensorBoard event files of a resumed run, without the lost future.

A run killed after its last checkpoint at step N has logged steps beyond N
that the resumed run logs again: TensorBoard would show two points (two
curves) for those steps. `drop_events_after(logdir, N)` rewrites the event
files so they keep only events at steps <= N (and the files' headers). A
file cut short by the kill keeps its complete records. Each file is
replaced atomically.
"""

import glob
import os
import tempfile
from typing import List, Optional, Sequence

from absl import logging
import tensorflow as tf

EVENT_FILE_PATTERN = 'events.out.tfevents*'


def event_files(logdir: str) -> List[str]:
  """The event files directly in `logdir`, sorted by name."""
  return sorted(glob.glob(os.path.join(logdir, EVENT_FILE_PATTERN)))


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

  Args:
    logdir: the run's TensorBoard directory.
    step: the learner step the run resumes from.
    paths: the files to rewrite (default: every event file of `logdir`);
      leave out a file a writer of this process has open.
  """
  removed = 0
  for path in event_files(logdir) if paths is None else paths:
    records = _records(path)
    kept = []
    for record in records:
      event = tf.compat.v1.Event.FromString(record)
      # Summaries carry the step; the file-version header (step 0) stays.
      if event.HasField('summary') and event.step > step:
        continue
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
