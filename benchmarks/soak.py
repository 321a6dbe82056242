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

Runs the main job's loop (`experiment.run_selfplay`, checkpoints and
TensorBoard included, so every part of a long run is exercised) and samples
the process's resident memory (VmRSS) and the replay buffer's size every
--sample_every seconds. The summary compares the RSS after warm-up (once
the replay window is full) with the RSS at the end.

    python -m benchmarks.soak --preset=tictactoe --seconds=3600 \
        --output_json=/tmp/soak.json
"""

import json
import os
import tempfile
import time
from typing import Dict, List, Sequence

from absl import app
from absl import flags
from absl import logging

from benchmarks import reporting
from muzero_snt.run import experiment
from muzero_snt import presets

PRESET = flags.DEFINE_enum('preset', 'tictactoe', ['cartpole', 'tictactoe'],
                           'the task.')
SECONDS = flags.DEFINE_float('seconds', 600., 'training time.')
SAMPLE_EVERY = flags.DEFINE_float('sample_every', 30.,
                                  'seconds between samples.')
CHECKPOINT_INTERVAL = flags.DEFINE_integer(
    'checkpoint_interval', 500, 'learner steps between checkpoints.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the samples.')


def rss_bytes() -> int:
  """This process's resident set size, from /proc/self/status."""
  with open('/proc/self/status') as f:
    for line in f:
      if line.startswith('VmRSS:'):
        return int(line.split()[1]) * 1024
  raise RuntimeError('No VmRSS in /proc/self/status.')


class _Sampler:
  """The `on_round` callback: samples every few seconds, stops at the end."""

  def __init__(self, seconds: float, sample_every: float, window_size: int):
    self._seconds = seconds
    self._sample_every = sample_every
    self._window_size = window_size
    self._start = time.time()
    self._next = 0.
    self.samples: List[Dict[str, float]] = []

  def __call__(self, loop) -> bool:
    elapsed = time.time() - self._start
    if elapsed >= self._next or elapsed >= self._seconds:
      replay = loop.replay
      sample = dict(seconds=elapsed, rss_bytes=rss_bytes(),
                    learner_steps=loop.learner.steps, games=loop.games,
                    replay_games=len(replay.game_ids),
                    replay_positions=replay.num_positions,
                    window_full=len(replay.game_ids) >= self._window_size)
      self.samples.append(sample)
      logging.info('soak: %s', sample)
      self._next = elapsed + self._sample_every
    return elapsed >= self._seconds


def summarise(samples: Sequence[Dict[str, float]]) -> Dict[str, float]:
  """RSS at warm-up's end (window full) and at the end, and their ratio."""
  full = [s for s in samples if s['window_full']]
  if len(full) < 2:
    return {'warm': False}
  first, last = full[0], full[-1]
  peak = max(s['rss_bytes'] for s in full)
  return {
      'warm': True,
      'warm_at_seconds': first['seconds'],
      'rss_at_warm_mb': first['rss_bytes'] / 2**20,
      'rss_at_end_mb': last['rss_bytes'] / 2**20,
      'rss_peak_after_warm_mb': peak / 2**20,
      'growth_after_warm': last['rss_bytes'] / first['rss_bytes'] - 1,
      'peak_over_warm': peak / first['rss_bytes'] - 1,
  }


def main(argv: Sequence[str]) -> None:
  del argv
  preset = PRESET.value
  config = presets.get_preset(preset).replace(
      training_steps=10**8, checkpoint_interval=CHECKPOINT_INTERVAL.value)
  sampler = _Sampler(SECONDS.value, SAMPLE_EVERY.value, config.window_size)
  with tempfile.TemporaryDirectory() as directory:
    experiment.run_selfplay(
        config, preset, checkpoint_dir=os.path.join(directory, 'run'),
        logdir=os.path.join(directory, 'run'), log_every=1000,
        on_round=sampler)
  summary = summarise(sampler.samples)
  print(f'{"seconds":>8} {"RSS MB":>8} {"learner":>8} {"games":>8} '
        f'{"replay games":>12} {"positions":>10}')
  for s in sampler.samples:
    print(f'{s["seconds"]:>8.0f} {s["rss_bytes"] / 2**20:>8.1f} '
          f'{s["learner_steps"]:>8} {s["games"]:>8} {s["replay_games"]:>12} '
          f'{s["replay_positions"]:>10}')
  print('summary:', json.dumps(summary))
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump({'preset': preset, 'machine': reporting.machine(),
                 'summary': summary, 'samples': sampler.samples}, f,
                indent=1)


if __name__ == '__main__':
  app.run(main)
