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
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

from absl import app
from absl import flags
import numpy as np

from benchmarks import reporting
from muzero_snt import builders
from muzero_snt import evaluation
from muzero_snt import loading
from muzero_snt import presets
from muzero_snt import run_config
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

# CartPole-v1's limits (gymnasium's `CartPoleEnv`): the episode terminates
# once the pole leans more than 12 degrees or the cart leaves [-2.4, 2.4].
CARTPOLE_ANGLE_LIMIT = 12 * 2 * np.pi / 360
CARTPOLE_POSITION_LIMIT = 2.4


class Episode(NamedTuple):
  """One episode: T moves, T + 1 observations (the last one's end)."""
  observations: np.ndarray  # [T + 1, *observation_shape]
  actions: np.ndarray  # [T] int64
  rewards: np.ndarray  # [T] float64
  root_values: np.ndarray  # [T] float64 the search's value before move t.
  terminal: bool  # False if the episode was truncated (a time limit).

  @property
  def episode_return(self) -> float:
    return float(np.sum(self.rewards))


def play_episodes(search: search_lib.Search,
                  make_environment: Callable[[int], Any],
                  num_episodes: int, seed: int = 0) -> List[Episode]:
  """`num_episodes` noise-free episodes in lockstep, recorded.

  Episode i runs in `make_environment(seed + i)`; each move searches the
  positions of the episodes still running at once and plays
  `evaluation.greedy_actions` of the search (what `MuZeroPlayer` plays).
  """
  if num_episodes < 1:
    raise ValueError(f'num_episodes is {num_episodes}; expected at least 1.')
  rng = np.random.default_rng(seed)
  envs = [make_environment(seed + i) for i in range(num_episodes)]
  steps = [env.reset() for env in envs]
  records = [dict(observations=[np.asarray(s.observation)], actions=[],
                  rewards=[], root_values=[]) for s in steps]
  live = list(range(num_episodes))
  while live:
    output = search(np.stack([steps[i].observation for i in live]),
                    [envs[i].to_play() for i in live],
                    [envs[i].legal_actions() for i in live], rng,
                    add_noise=False)
    actions = evaluation.greedy_actions(output)
    for i, action, value in zip(live, actions, output.root_value):
      steps[i] = envs[i].step(int(action))
      record = records[i]
      record['observations'].append(np.asarray(steps[i].observation))
      record['actions'].append(int(action))
      record['rewards'].append(float(steps[i].reward))
      record['root_values'].append(float(value))
    live = [i for i in live if not steps[i].last()]
  for env in envs:
    env.close()
  return [Episode(np.stack(r['observations']),
                  np.array(r['actions'], np.int64),
                  np.array(r['rewards'], np.float64),
                  np.array(r['root_values'], np.float64),
                  terminal=float(step.discount) == 0.)
          for r, step in zip(records, steps)]


def one_step_values(model, observations: np.ndarray, num_actions: int,
                    discount: float) -> np.ndarray:
  """`[N, A]` r(s, a) + discount * v(g(s, a)) of each action at each of N
  observations, under `model` (`search.NetworkModel`'s inference: the
  representation, then one step of the dynamics and the prediction); one
  player, so no sign changes."""
  root = model.initial_inference(np.asarray(observations, np.float32))
  values = np.empty((len(observations), num_actions), np.float64)
  for action in range(num_actions):
    after = model.recurrent_inference(
        root.hidden_state, np.full(len(observations), action, np.int32))
    values[:, action] = (np.asarray(after.reward, np.float64) +
                         discount * np.asarray(after.value, np.float64))
  return values


def cartpole_end(episode: Episode) -> str:
  """How a CartPole episode ended: 'time limit', 'angle', 'position' or
  'angle and position' (the limits its last observation crossed)."""
  if not episode.terminal:
    return 'time limit'
  x, _, theta, _ = episode.observations[-1]
  crossed = [name for name, out in (
      ('angle', abs(theta) > CARTPOLE_ANGLE_LIMIT),
      ('position', abs(x) > CARTPOLE_POSITION_LIMIT)) if out]
  return ' and '.join(crossed) or 'terminal'


def end_of(preset: str, episode: Episode) -> str:
  """How an episode ended: the CartPole limit, else 'time limit' or
  'terminal'."""
  if preset == 'cartpole':
    return cartpole_end(episode)
  return 'terminal' if episode.terminal else 'time limit'


def _first_numbers(observation: np.ndarray) -> str:
  """An observation's first 8 numbers as text, for the report."""
  return ' '.join(f'{v:.3f}' for v in np.ravel(observation)[:8])


def summarize(preset: str, episodes: Sequence[Episode], value_every: int,
              early_moves: int) -> Dict[str, Any]:
  """Per-episode records and the comparison of early root values.

  Returns a dict with `episodes` (return, length, end, last observation,
  root values every `value_every` moves), `ends` (a count per kind),
  `mean_return`, and `early_root_value` {'time limit': ..., 'ended': ...}:
  the mean root value over moves [0, early_moves) of the episodes that
  reached the time limit and of the others (None where there are none).
  """
  if value_every < 1 or early_moves < 1:
    raise ValueError(f'value_every ({value_every}) and early_moves '
                     f'({early_moves}) must be at least 1.')
  records, ends = [], {}
  early = {'time limit': [], 'ended': []}
  for episode in episodes:
    end = end_of(preset, episode)
    ends[end] = ends.get(end, 0) + 1
    early['time limit' if end == 'time limit' else 'ended'].append(
        episode.root_values[:early_moves])
    records.append({
        'return': episode.episode_return,
        'length': len(episode.actions),
        'end': end,
        'last_observation': _first_numbers(episode.observations[-1]),
        'root_values': {str(t): round(float(episode.root_values[t]), 2)
                        for t in range(0, len(episode.actions),
                                       value_every)},
    })
  return {
      'episodes': records,
      'ends': ends,
      'mean_return': float(np.mean([e.episode_return for e in episodes])),
      'early_root_value': {
          kind: (float(np.mean(np.concatenate(values))) if values else None)
          for kind, values in early.items()},
  }


def _load(checkpoint_dir: str):
  saved = run_config.load(checkpoint_dir)
  if saved and saved.preset != PRESET.value:
    raise app.UsageError(f'{checkpoint_dir} holds a run of preset '
                         f'{saved.preset!r}, not --preset={PRESET.value}.')
  config = saved.config if saved else presets.get_preset(PRESET.value)
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
  episodes = play_episodes(
      search_lib.make_search(config, network),
      builders.make_environment_factory(PRESET.value, config, ENV.value),
      NUM_EPISODES.value, SEED.value)
  results = summarize(PRESET.value, episodes, VALUE_EVERY.value,
                      EARLY_MOVES.value)
  model = search_lib.NetworkModel(network)
  for episode, record in zip(episodes, results['episodes']):
    if record['end'] != 'time limit':
      moves = np.arange(0, len(episode.actions), VALUE_EVERY.value)
      values = one_step_values(model, episode.observations[moves],
                               config.action_space_size, config.discount)
      record['one_step_values'] = {
          str(t): {str(a): round(float(v), 2) for a, v in enumerate(row)}
          for t, row in zip(moves.tolist(), values)}
      record['observations'] = {
          str(t): _first_numbers(episode.observations[t])
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
