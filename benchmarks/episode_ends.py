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
"""How a checkpoint's noise-free episodes end, and what its values saw.

Plays --num_episodes episodes of a one-player preset with the search the
evaluation uses (no noise, the most visited action; environment i seeded
seed + i, as `evaluation.evaluate_episodes`), records every move's
observation and the search's root value, and reports each episode's
return, its length, how it ended (the time limit or a terminal state;
for CartPole which limit: the pole's angle beyond 12 degrees or the cart
beyond 2.4 from the centre), its last observation, and the root value
every --value_every moves. The summary compares the root values early in
the episodes that reach the time limit with those of the episodes that
end sooner: whether the values tell a failing start from a good one.
For every episode that ends before the time limit it also gives, every
--value_every moves, the observation (its first 8 numbers) and each
action's one-step value under the network (the predicted reward plus the
discounted value after the action): how clearly the model points to a
move away from the end.

    python -m benchmarks.episode_ends --preset=cartpole \\
        --checkpoint_dir=/tmp/cp3000 --num_episodes=20
"""

import json

from absl import app
from absl import flags
import numpy as np

from benchmarks import episode_records
from benchmarks import reporting
from muzero_snt import builders
from muzero_snt import evaluation
from muzero_snt import loading
from muzero_snt import search as search_lib

PRESET = flags.DEFINE_enum('preset', 'cartpole', ['cartpole', 'minatar'],
                           'the one-player preset the checkpoint was '
                           'trained on.')
ENV = flags.DEFINE_string(
    'env', None, 'the game of a titled preset, as the launchers\' --env.')
CHECKPOINT_DIR = flags.DEFINE_string(
    'checkpoint_dir', None, 'a training run of --preset; its latest '
    'network plays.', required=True)
NUM_EPISODES = flags.DEFINE_integer('num_episodes', 20, 'episodes played.')
SEED = flags.DEFINE_integer('seed', 0, 'the first environment seed.')
VALUE_EVERY = flags.DEFINE_integer(
    'value_every', 10, 'report the root value every this many moves.')
EARLY_MOVES = flags.DEFINE_integer(
    'early_moves', 50, 'the summary\'s early root values: moves [0, N).')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results.')

def _load(checkpoint_dir: str):
  try:
    config = loading.run_or_preset_config(PRESET.value, checkpoint_dir)
  except ValueError as e:
    raise app.UsageError(str(e)) from e
  network, step = loading.load_network(config, checkpoint_dir)
  return config, network, step


def main(argv):
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  for name, flag in (('num_episodes', NUM_EPISODES),
                     ('value_every', VALUE_EVERY),
                     ('early_moves', EARLY_MOVES)):
    if flag.value < 1:
      raise app.UsageError(f'--{name} is {flag.value}; expected at least 1.')
  config, network, step = _load(CHECKPOINT_DIR.value)
  episodes = evaluation.play_episodes(
      search_lib.make_search(config, network),
      builders.make_environment_factory(PRESET.value, config, ENV.value),
      NUM_EPISODES.value, SEED.value, record_observations=True)
  results = episode_records.summarize(PRESET.value, episodes,
                                     VALUE_EVERY.value, EARLY_MOVES.value)
  model = search_lib.NetworkModel(network)
  for episode, record in zip(episodes, results['episodes']):
    if record['end'] != 'time limit':
      moves = np.arange(0, len(episode.actions), VALUE_EVERY.value)
      values = episode_records.one_step_values(
          model, episode.observations[moves], config.action_space_size,
          config.discount)
      record['one_step_values'] = {
          str(t): {str(a): round(float(v), 2) for a, v in enumerate(row)}
          for t, row in zip(moves.tolist(), values)}
      record['observations'] = {
          str(t): episode_records.first_numbers(episode.observations[t])
          for t in moves.tolist()}
  for record in results['episodes']:
    print(json.dumps({k: v for k, v in record.items()
                      if k not in ('root_values', 'one_step_values',
                                   'observations')}))
  results.update(preset=PRESET.value, env=ENV.value,
                 checkpoint_dir=CHECKPOINT_DIR.value, learner_step=step,
                 seed=SEED.value, machine=reporting.machine())
  # Records, not repeated measurements: written as they are, without
  # `reporting.report`'s medians.
  text = json.dumps(results, indent=1, default=float)
  print(text)
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      f.write(text)


if __name__ == '__main__':
  app.run(main)
