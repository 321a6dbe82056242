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

A fresh network of the preset plays 40 self-play games into a replay
buffer; then each of 7 rounds times, in turns, drawing a batch and
`Reanalyser.reanalyse` at --fraction, and drawing a batch and one
`Learner.step`, after 3 untimed rounds (compilation). Prints the medians,
the positions searched per batch and the ratio of the two (see
docs/reanalysis.md, "Cost"):

    python -m benchmarks.reanalysis_cost --preset=tictactoe --fraction=0.8
"""

import statistics

from absl import app
from absl import flags

from benchmarks import reporting
from muzero_snt import acting
from muzero_snt import presets
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import search
from muzero_snt.run import builders

PRESET = flags.DEFINE_enum('preset', 'tictactoe', ['cartpole', 'tictactoe'],
                           'the preset.')
FRACTION = flags.DEFINE_float('fraction', 0.8,
                              'reanalyze_fraction, in (0, 1].')
GAMES, ROUNDS, WARMUP, SEED = 40, 7, 3, 0


def main(argv):
  reporting.check_no_arguments(argv)
  reporting.check_positive([FRACTION])
  if FRACTION.value > 1:
    raise app.UsageError(f'--fraction must be in (0, 1], got '
                         f'{FRACTION.value}.')
  config = presets.get_preset(PRESET.value).replace(
      reanalyze_fraction=FRACTION.value)
  learner = builders.make_learner(config, seed=SEED)
  searcher = search.make_search(config, learner.network, 'xla')
  actor = acting.Actor(
      config, searcher, search.NetworkModel(learner.network),
      builders.make_environment_factory(PRESET.value, config),
      seed=SEED, num_envs=GAMES)
  replay = replay_lib.ReplayBuffer(config, seed=SEED)
  for result in actor.play_round(0):
    replay.save_game(result.trajectory)
  reanalyser = reanalysis.Reanalyser(config, learner.network, searcher,
                                     lambda: learner.steps, seed=SEED)
  tasks = {
      'reanalyse': (lambda: reanalysis.sample(config, replay, reanalyser),
                    1, 1.),
      'learner step': (lambda: learner.step(replay.sample_batch()[0]), 1, 1.),
  }
  for _ in range(WARMUP):
    for function, _, _ in tasks.values():
      function()
  reanalyser.take_stats()
  positions = []
  rates = reporting.rotated_rates(
      tasks, ROUNDS,
      lambda *_: positions.append(reanalyser.take_stats()[1]))
  seconds = {name: [1 / rate for rate in values]
             for name, values in rates.items()}
  ratios = [r / s for r, s in zip(seconds['reanalyse'],
                                  seconds['learner step'])]
  print(f'{PRESET.value}: fraction {FRACTION.value}, batch '
        f'{config.batch_size}, K = {config.num_unroll_steps}, '
        f'{config.num_simulations} simulations; {replay.num_games} games, '
        f'{replay.num_positions} positions; medians of {ROUNDS} rounds')
  print(f'positions searched per batch: {statistics.median(positions):.0f} '
        f'({min(positions)} to {max(positions)})')
  for name, values in seconds.items():
    print(f'{name:>13}: {statistics.median(values):.4f} s')
  print(f'reanalyse / learner step: {statistics.median(ratios):.2f} '
        f'({min(ratios):.2f} to {max(ratios):.2f})')


if __name__ == '__main__':
  app.run(main)
