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
"""Learning curves: a run's TensorBoard scalars, read back and plotted."""

import glob
import os
from typing import Dict, Sequence, Tuple

import numpy as np
import tensorflow as tf


def read_scalars(logdir: str) -> Dict[str, Tuple[np.ndarray, np.ndarray]]:
  """Every scalar of the TensorBoard event files directly in `logdir`, as
  `{tag: (steps [N] int64, values [N] float64)}` sorted by step (a step
  written twice, by a resumed run, keeps the later value);
  FileNotFoundError if `logdir` holds no event file."""
  paths = sorted(glob.glob(os.path.join(logdir, 'events.out.tfevents*')))
  if not paths:
    raise FileNotFoundError(f'No TensorBoard event files in {logdir!r}.')
  points: Dict[str, Dict[int, Tuple[float, float]]] = {}
  for path in paths:
    for event in tf.compat.v1.train.summary_iterator(path):
      for value in event.summary.value:
        if value.WhichOneof('value') == 'simple_value':
          number = value.simple_value
        elif value.WhichOneof('value') == 'tensor':
          array = tf.make_ndarray(value.tensor)
          # Scalars only: histograms and images are not 0-d, text not numeric.
          if array.shape or not np.issubdtype(array.dtype, np.number):
            continue
          number = float(array)
        else:
          continue
        steps = points.setdefault(value.tag, {})
        previous = steps.get(event.step)
        if previous is None or event.wall_time >= previous[0]:
          steps[event.step] = (event.wall_time, number)
  scalars = {}
  for tag, steps in points.items():
    ordered = sorted(steps)
    scalars[tag] = (np.array(ordered, np.int64),
                    np.array([steps[s][1] for s in ordered], np.float64))
  return scalars


def learning_curve_png(logdir: str, tags: Sequence[str], path: str) -> str:
  """Plots `tags` of the run in `logdir` (`read_scalars`) against the
  learner step into PNG `path` (its directory is created), returned.

  Raises:
    FileNotFoundError: if `logdir` holds no event file.
    ValueError: if `tags` is empty or a tag is not in the logs.
    ImportError: if matplotlib is not installed.
  """
  if isinstance(tags, str) or not tags:
    raise ValueError(f'tags must be a non-empty sequence of tags, got '
                     f'{tags!r}.')
  scalars = read_scalars(logdir)
  for tag in tags:
    if tag not in scalars:
      raise ValueError(f'No scalar {tag!r} in the event files of {logdir!r}; '
                       f'available tags: {sorted(scalars)}.')
  try:  # matplotlib is an optional dependency ('plots').
    # pylint: disable=g-import-not-at-top
    from matplotlib import figure
    from matplotlib.backends import backend_agg
  except ImportError as e:
    raise ImportError('learning_curve_png needs matplotlib: pip install -e '
                      "'.[plots]'") from e
  # A Figure on its own Agg canvas: no pyplot, no global backend switch.
  fig = figure.Figure(figsize=(7, 2.4 * len(tags)), dpi=100)
  backend_agg.FigureCanvasAgg(fig)
  axes = fig.subplots(len(tags), 1, sharex=True, squeeze=False)[:, 0]
  for ax, tag in zip(axes, tags):
    steps, values = scalars[tag]
    ax.plot(steps, values, marker='.' if len(steps) < 50 else None)
    ax.set_ylabel(tag)
    ax.grid(alpha=0.3)
  axes[-1].set_xlabel('learner step')
  fig.tight_layout()
  os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
  fig.savefig(path, format='png')
  return path
