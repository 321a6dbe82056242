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
r"""Soak: trains for a given time and records memory and replay over time.

Runs the main job (`experiment.run_selfplay`, checkpoints and TensorBoard
included) and every --sample_every seconds samples the process's resident
memory (VmRSS) and the replay buffer's size; the summary compares the RSS
once the replay window is full with the RSS at the end. See
docs/reliability.md.

    python -m benchmarks.soak --preset=tictactoe --seconds=3600 \
        --output_json=/tmp/soak.json
"""

import os
import tempfile
import time

from absl import app
from absl import flags
from absl import logging

from benchmarks import reporting
from muzero_snt import presets
from muzero_snt.run import experiment

PRESET = flags.DEFINE_enum('preset', 'tictactoe', ['cartpole', 'tictactoe'],
                           'the task.')
SECONDS = flags.DEFINE_float('seconds', 600., 'training time.')
SAMPLE_EVERY = flags.DEFINE_float('sample_every', 30.,
                                  'seconds between samples.')
OUTPUT_JSON = reporting.output_json_flag()


def rss_mb() -> float:
  """This process's resident set size, from /proc/self/status."""
  with open('/proc/self/status') as f:
    for line in f:
      if line.startswith('VmRSS:'):
        return int(line.split()[1]) / 1024
  raise RuntimeError('No VmRSS in /proc/self/status.')


def main(argv):
  reporting.check_no_arguments(argv)
  reporting.check_positive((SECONDS, SAMPLE_EVERY))
  config = presets.get_preset(PRESET.value).replace(training_steps=10**8)
  samples = []
  start, next_sample = time.time(), 0.

  def on_round(loop) -> bool:
    nonlocal next_sample
    elapsed = time.time() - start
    if elapsed >= next_sample or elapsed >= SECONDS.value:
      samples.append(dict(
          seconds=elapsed, rss_mb=rss_mb(), learner_steps=loop.learner.steps,
          games=loop.games, replay_games=len(loop.replay.game_ids),
          replay_positions=loop.replay.num_positions,
          window_full=len(loop.replay.game_ids) >= config.window_size))
      logging.info('soak: %s', samples[-1])
      next_sample = elapsed + SAMPLE_EVERY.value
    return elapsed >= SECONDS.value

  with tempfile.TemporaryDirectory() as directory:
    run_dir = os.path.join(directory, 'run')
    experiment.run_selfplay(config, PRESET.value, checkpoint_dir=run_dir,
                            logdir=run_dir, log_every=1000,
                            on_round=on_round)
  lines = [reporting.table(
      ('seconds', 'RSS MB', 'learner steps', 'games', 'replay games',
       'positions'),
      [(s['seconds'], s['rss_mb'], s['learner_steps'], s['games'],
        s['replay_games'], s['replay_positions']) for s in samples])]
  full = [s for s in samples if s['window_full']]
  summary = {'warm': len(full) >= 2}
  if summary['warm']:
    peak = max(s['rss_mb'] for s in full)
    summary.update(
        warm_at_seconds=full[0]['seconds'], rss_at_warm_mb=full[0]['rss_mb'],
        rss_at_end_mb=full[-1]['rss_mb'], rss_peak_after_warm_mb=peak,
        growth_after_warm=full[-1]['rss_mb'] / full[0]['rss_mb'] - 1,
        peak_over_warm=peak / full[0]['rss_mb'] - 1)
  lines.append(f'summary: {summary}')
  reporting.report({'machine': reporting.machine(), 'preset': PRESET.value,
                    'summary': summary, 'samples': samples},
                   OUTPUT_JSON.value, '\n'.join(lines))


if __name__ == '__main__':
  app.run(main)
