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
"""What reanalysing one batch costs beside one learner step.

A fresh network of the preset plays --games self-play games (one batched
round, the preset's search), which fill a replay buffer. Then, in turns so
that load falls on both alike, each round times:

- `reanalyse`: drawing a batch and `Reanalyser.reanalyse` at --fraction
  (the search of the chosen rows' positions and, where values bootstrap,
  the target network's values);
- `learner step`: drawing a batch and one `Learner.step` on it.

Warm-up rounds first compile the learner step and the search's padded sizes.
Prints medians, the positions searched per batch and the ratio of the two
(docs/reanalysis.md, "Cost"):

    python -m benchmarks.reanalysis_cost --preset=tictactoe --fraction=0.8
    python -m benchmarks.reanalysis_cost --preset=cartpole --fraction=0.8
"""

import time
from typing import Sequence

from absl import app
from absl import flags
import numpy as np

from muzero_snt import acting
from muzero_snt.run import builders
from muzero_snt import presets
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import search

PRESET = flags.DEFINE_enum('preset', 'tictactoe', ['cartpole', 'tictactoe'],
                           'the preset.')
FRACTION = flags.DEFINE_float('fraction', 0.8,
                              'reanalyze_fraction, in (0, 1].')
GAMES = flags.DEFINE_integer('games', 40, 'self-play games in the replay.')
ROUNDS = flags.DEFINE_integer('rounds', 7, 'timed rounds.')
WARMUP = flags.DEFINE_integer('warmup', 3, 'untimed rounds first.')
SEED = flags.DEFINE_integer('seed', 0, 'network, games and sampling seed.')


def main(argv: Sequence[str]) -> None:
  del argv
  if not 0 < FRACTION.value <= 1:
    raise app.UsageError(f'--fraction must be in (0, 1], got '
                         f'{FRACTION.value}.')
  if GAMES.value < 1 or ROUNDS.value < 1 or WARMUP.value < 0:
    raise app.UsageError(
        f'--games and --rounds must be >= 1 and --warmup >= 0, got '
        f'{GAMES.value}, {ROUNDS.value}, {WARMUP.value}.')
  config = presets.get_preset(PRESET.value).replace(
      reanalyze_fraction=FRACTION.value)
  learner = builders.make_learner(config, seed=SEED.value)
  searcher = search.make_search(config, learner.network, 'xla')
  actor = acting.Actor(
      config, searcher, search.NetworkModel(learner.network),
      builders.make_environment_factory(PRESET.value, config),
      seed=SEED.value, num_envs=GAMES.value)
  replay = replay_lib.ReplayBuffer(config, seed=SEED.value)
  for result in actor.play_round(0):
    replay.save_game(result.trajectory)
  reanalyser = reanalysis.Reanalyser(config, learner.network, searcher,
                                     lambda: learner.steps, seed=SEED.value)

  def reanalyse():
    reanalysis.sample(config, replay, reanalyser)

  def learner_step():
    learner.step(replay.sample_batch()[0])

  tasks = {'reanalyse': reanalyse, 'learner step': learner_step}
  seconds = {name: [] for name in tasks}
  positions = []
  for round_index in range(WARMUP.value + ROUNDS.value):
    for name, task in tasks.items():
      start = time.perf_counter()
      task()
      if round_index >= WARMUP.value:
        seconds[name].append(time.perf_counter() - start)
    _, searched, _ = reanalyser.take_stats()
    if round_index >= WARMUP.value:
      positions.append(searched)
  medians = {name: float(np.median(values))
             for name, values in seconds.items()}
  ratios = np.array(seconds['reanalyse']) / np.array(seconds['learner step'])
  print(f'{PRESET.value}: fraction {FRACTION.value}, batch '
        f'{config.batch_size}, K = {config.num_unroll_steps}, '
        f'{config.num_simulations} simulations; {replay.num_games} games, '
        f'{replay.num_positions} positions; median of {ROUNDS.value} rounds')
  print(f'positions searched per batch: median {np.median(positions):.0f} '
        f'(min {min(positions)}, max {max(positions)})')
  for name, median in medians.items():
    print(f'{name:>13}: {median:.4f} s')
  print(f'reanalyse / learner step: {np.median(ratios):.2f} (median of the '
        f'rounds\' ratios; min {ratios.min():.2f}, max {ratios.max():.2f})')


if __name__ == '__main__':
  app.run(main)
