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
"""A MinAtar training run's self-play curve against frames, beside DQN's.

Plots each logging interval's mean self-play return from a run's
TensorBoard scalars (`launchers.train --logdir`), their running mean over
--window intervals, the --evaluations and DQN's published curve:

    python -m benchmarks.minatar_run_curve --env=breakout \
        --logdir=/tmp/bk1m/logs --evaluations=239000:8.0,292000:9.4 \
        --output_png=docs/results_minatar_breakout_1m.png
"""

from absl import app
from absl import flags

from benchmarks import minatar_baselines
from benchmarks import reporting
from muzero_snt.evaluation import curves

LOGDIR = flags.DEFINE_string('logdir', None, 'the run\'s TensorBoard '
                             'directory.', required=True)
ENV = flags.DEFINE_enum('env', 'breakout', list(minatar_baselines.DQN_AT_5M),
                        'the MinAtar game the run learnt.')
EVALUATIONS = flags.DEFINE_list(
    'evaluations', [], 'noise-free evaluations as FRAMES:MEAN_RETURN.')
WINDOW = flags.DEFINE_integer('window', 8, 'logging intervals in the '
                              'running mean.')
OUTPUT_PNG = flags.DEFINE_string('output_png', None, 'the PNG to write.',
                                 required=True)


def main(argv):
  reporting.check_no_arguments(argv)
  reporting.check_positive([WINDOW])
  try:
    evaluations = minatar_baselines.parse_evaluations(EVALUATIONS.value)
    frames, returns = minatar_baselines.frames_and_returns(
        curves.read_scalars(LOGDIR.value))
  except ValueError as e:
    raise app.UsageError(str(e)) from e
  _, mean = minatar_baselines.moving_average(list(zip(frames, returns)),
                                             WINDOW.value)
  import matplotlib  # pylint: disable=g-import-not-at-top
  matplotlib.use('Agg')
  from matplotlib import pyplot  # pylint: disable=g-import-not-at-top
  figure, axis = pyplot.subplots(figsize=(7, 4))
  axis.plot(frames, returns, color='tab:blue', alpha=0.25, lw=0.8,
            label='MuZero self-play, each logging interval')
  axis.plot(frames, mean, color='tab:blue',
            label=f'MuZero self-play, mean of {WINDOW.value} intervals')
  if evaluations:
    axis.plot(*zip(*evaluations), 'o', color='tab:red',
              label='MuZero noise-free search (--evaluations)')
  minatar_baselines.draw_dqn(axis, ENV.value, frames[-1])
  axis.set_xlabel('frames (environment steps)')
  axis.set_ylabel('return')
  axis.set_title(f'MuZero on MinAtar {ENV.value}')
  axis.legend(fontsize=8)
  figure.tight_layout()
  figure.savefig(OUTPUT_PNG.value, dpi=100)
  print(f'{len(frames)} intervals to {int(frames[-1]):,} frames; last '
        f'running mean {mean[-1]:.2f}; wrote {OUTPUT_PNG.value}')


if __name__ == '__main__':
  app.run(main)
