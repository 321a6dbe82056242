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
r"""Bytes per stored replay position, measured, for every preset.

For each preset of `presets.PRESETS`, self-play (`acting.Actor`, the
library's recording path) plays one game of at most `--moves` moves in the
preset's real environment (`builders.make_environment_factory`) with a
stand-in search that plays uniformly over the legal actions (the recording
does not depend on the search), the game goes into a `ReplayBuffer` of the
preset's config, one batch is drawn, and every NumPy array the buffer
holds is counted (views once, by their base): the games' arrays, their
cached value targets, the priorities and their cumulative sum. Bytes per
position are that total over the stored positions. With the analytic
figure of `resources.replay_position_bytes` beside it.

The script also runs on earlier versions of the library (the "before"
figures in docs/benchmarks.md): copy it into their tree and run it there.

    python -m benchmarks.replay_memory --output_json=/tmp/after.json
    (cd /tmp/old_tree && python -m benchmarks.replay_memory)
"""

import inspect
import json
from typing import Any, Dict, Optional, Sequence

from absl import app
from absl import flags
import numpy as np

from muzero_snt import acting
from muzero_snt import builders
from muzero_snt import environments
from muzero_snt import presets
from muzero_snt import replay as replay_lib
from muzero_snt import resources
from muzero_snt import search
from muzero_snt import types

PRESETS_FLAG = flags.DEFINE_list('presets', sorted(presets.PRESETS),
                                 'presets to measure.')
MOVES = flags.DEFINE_integer('moves', 40, 'most moves of the game played.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'also write the results here.')


class UniformSearch:
  """A `search.Search` stand-in: uniform visits over the legal actions."""

  def __init__(self, action_space_size: int):
    self._a = action_space_size

  def __call__(self, observations, to_play, legal_actions, rng,
               add_noise=True):
    del observations, to_play, rng, add_noise
    counts = np.zeros((len(legal_actions), self._a), np.int32)
    for i, legal in enumerate(legal_actions):
      counts[i, np.asarray(legal, np.int64)] = 1
    policy = (counts / counts.sum(-1, keepdims=True)).astype(np.float32)
    return search.SearchOutput(
        counts, policy, np.zeros(len(counts), np.float32))


class ZeroModel:
  """A `search.Model` stand-in: value 0 (bootstrap of a cut game)."""

  def initial_inference(self, observation):
    return types.NetworkOutput(
        value=np.zeros(len(observation), np.float32), reward=None,
        policy_logits=None, hidden_state=None, value_logits=None,
        reward_logits=None)

  def recurrent_inference(self, hidden_state, action):
    raise NotImplementedError


def array_bytes(root: Any) -> int:
  """Bytes of the NumPy arrays reachable from `root`, each base once."""
  seen, bases, stack = set(), {}, [root]
  while stack:
    item = stack.pop()
    if id(item) in seen:
      continue
    seen.add(id(item))
    if isinstance(item, np.ndarray):
      while isinstance(item.base, np.ndarray):
        item = item.base
      bases[id(item)] = item.nbytes
    elif isinstance(item, dict):
      stack.extend(item.values())
    elif isinstance(item, (list, tuple)):
      stack.extend(item)
    elif hasattr(item, '__dict__') and not isinstance(item, type):
      stack.extend(vars(item).values())
  return sum(bases.values())


def _estimate(config, frame_stack) -> Optional[int]:
  parameters = inspect.signature(resources.replay_position_bytes).parameters
  if 'frame_stack' not in parameters:  # The library before frames.
    return resources.replay_position_bytes(config)
  return resources.replay_position_bytes(config, frame_stack)


def measure(preset: str, moves: int, seed: int = 0) -> Dict[str, Any]:
  """One preset's stored bytes per position; 'skipped' if it cannot run."""
  config = presets.get_preset(preset).replace(max_moves=moves, batch_size=8)
  frame_stack = getattr(environments.ENVIRONMENTS[preset], 'frame_stack',
                        None)
  result = {'preset': preset,
            'observation_shape': list(config.observation_shape)}
  try:
    factory = builders.make_environment_factory(preset, config)
    actor = acting.Actor(config, UniformSearch(config.action_space_size),
                         ZeroModel(), factory, seed=seed)
    games = actor.play_round(0)
  except ImportError as e:
    return dict(result, skipped=str(e))
  replay = replay_lib.ReplayBuffer(config, seed=seed)
  for game in games:
    replay.save_game(game.trajectory)
  replay.sample_batch()  # Caches the cumulative priorities.
  positions = replay.num_positions
  return dict(result, positions=positions,
              bytes_per_position=array_bytes(replay) / positions,
              estimate=_estimate(config, frame_stack))


def format_table(results: Sequence[Dict[str, Any]]) -> str:
  lines = ['| preset | observation | positions | bytes/position | '
           'estimate |', '|---|---|---:|---:|---:|']
  for r in results:
    if 'skipped' in r:
      lines.append(f'| {r["preset"]} | skipped: {r["skipped"]} | | | |')
      continue
    lines.append(f'| {r["preset"]} | {r["observation_shape"]} | '
                 f'{r["positions"]} | {r["bytes_per_position"]:,.0f} | '
                 f'{r["estimate"]:,} |')
  return '\n'.join(lines)


def main(argv: Sequence[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  unknown = sorted(set(PRESETS_FLAG.value) - set(presets.PRESETS))
  if unknown:
    raise app.UsageError(f'Unknown presets {unknown}; expected some of '
                         f'{sorted(presets.PRESETS)}.')
  results = [measure(name, MOVES.value) for name in PRESETS_FLAG.value]
  print(format_table(results))
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump({'results': results}, f, indent=1)


if __name__ == '__main__':
  app.run(main)
