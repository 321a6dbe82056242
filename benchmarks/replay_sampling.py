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
r"""Milliseconds per replay batch: `ReplayBuffer.sample_batch` and per row.

For each preset, a `ReplayBuffer` of its config holds `--games` random
finished games (the preset's observation shape and action count, lengths
drawn uniformly from `--lengths`). Two routes draw the same batches:
`sample_batch` (each window gathered from the buffer's per-position
columns) and the per-row route, which builds each row with
`Trajectory.make_target`,
`observation` and `actions_window`. They alternate within one process,
`--repeats` times `--batches` batches each; the table gives medians and the
median of the per-repeat ratios. Both routes give the same arrays from
equal generators (checked here on one batch; tests/test_replay.py too).

    python -m benchmarks.replay_sampling --presets=cartpole,tictactoe
"""

import json
import time
import weakref
from typing import Dict, List, Sequence

from absl import app
from absl import flags
import numpy as np

from muzero_snt import presets
from muzero_snt import replay as replay_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt import types

PRESETS = flags.DEFINE_list('presets', ['cartpole', 'tictactoe'],
                            'presets whose shapes to use.')
GAMES = flags.DEFINE_integer('games', 300, 'games in the buffer.')
LENGTHS = flags.DEFINE_list('lengths', ['5', '200'],
                            'shortest and longest game, in moves.')
BATCHES = flags.DEFINE_integer('batches', 50, 'batches per timing.')
REPEATS = flags.DEFINE_integer('repeats', 7, 'timings of each route.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results.')


def random_game(config, length: int,
                rng: np.random.Generator) -> trajectory_lib.Trajectory:
  """A finished game of `length` random moves in `config`'s shapes."""
  game = trajectory_lib.Trajectory(config.action_space_size,
                                   config.num_players, config.discount)
  a = config.action_space_size
  for t in range(length):
    game.append(rng.random(config.observation_shape).astype(np.float32),
                t % config.num_players, int(rng.integers(a)),
                float(rng.normal()), rng.dirichlet(np.ones(a)),
                float(rng.normal()))
  game.finish(terminal=True)
  return game


# Keyed by the buffer itself: an id() could be reused by the next preset's
# buffer once this one is freed, and hand it this one's games.
_CACHE = weakref.WeakKeyDictionary()


def _games_and_offsets(buffer: replay_lib.ReplayBuffer):
  """The buffer's games and first flat index of each, computed once (as the
  buffer keeps its own offsets), so the timing is of the rows alone."""
  if buffer not in _CACHE:
    games = [buffer.game(i) for i in buffer.game_ids]
    _CACHE[buffer] = (games, np.cumsum([0] + [g.length for g in games]))
  return _CACHE[buffer]


def per_row_batch(buffer: replay_lib.ReplayBuffer,
                  rng: np.random.Generator) -> types.Batch:
  """A batch built row by row, as `sample_batch` did before (no augment)."""
  config = buffer.config
  b, k, n = config.batch_size, config.num_unroll_steps, config.td_steps
  flat = rng.integers(0, buffer.num_positions, b)
  games, offsets = _games_and_offsets(buffer)
  game_index = np.searchsorted(offsets, flat, side='right') - 1
  rows = []
  for g, t in zip(game_index.tolist(), (flat - offsets[game_index]).tolist()):
    target = games[g].make_target(t, k, n)
    rows.append((games[g].observation(t), games[g].actions_window(t, k, rng),
                 target))
  return types.Batch(
      observation=np.stack([r[0] for r in rows]),
      action=np.stack([r[1] for r in rows]),
      target_value=np.stack([r[2].target_value for r in rows]),
      target_reward=np.stack([r[2].target_reward for r in rows]),
      target_policy=np.stack([r[2].target_policy for r in rows]),
      policy_mask=np.stack([r[2].policy_mask for r in rows]),
      weight=np.ones(b, np.float32))


def time_preset(preset: str, num_games: int, lengths: Sequence[int],
                batches: int, repeats: int) -> Dict[str, float]:
  """Median ms per batch of both routes and their per-repeat ratio."""
  config = presets.get_preset(preset).replace(prioritized_replay=False,
                                              window_size=num_games)
  rng = np.random.default_rng(0)
  buffer = replay_lib.ReplayBuffer(config, seed=1)
  for _ in range(num_games):
    buffer.save_game(random_game(
        config, int(rng.integers(lengths[0], lengths[1] + 1)), rng))
  # Both routes draw the same batch from equal generators (uniform draws,
  # then the padding actions row by row).
  check = replay_lib.ReplayBuffer(config, seed=1)
  for game_id in buffer.game_ids:
    check.save_game(buffer.game(game_id))
  ours, _ = check.sample_batch(augment=False)
  theirs = per_row_batch(check, np.random.default_rng(1))
  for name, value in ours._asdict().items():
    if not np.array_equal(value, getattr(theirs, name)):
      raise AssertionError(f'{preset}: the routes differ in {name}.')
  timings: Dict[str, List[float]] = {'sample_batch': [], 'per_row': []}
  row_rng = np.random.default_rng(2)
  for _ in range(repeats):
    start = time.perf_counter()
    for _ in range(batches):
      buffer.sample_batch(augment=False)
    timings['sample_batch'].append((time.perf_counter() - start) / batches)
    start = time.perf_counter()
    for _ in range(batches):
      per_row_batch(buffer, row_rng)
    timings['per_row'].append((time.perf_counter() - start) / batches)
  ratios = [p / s for p, s in zip(timings['per_row'], timings['sample_batch'])]
  return {
      'preset': preset,
      'batch_size': config.batch_size,
      'num_unroll_steps': config.num_unroll_steps,
      'positions': buffer.num_positions,
      'sample_batch_ms': 1e3 * float(np.median(timings['sample_batch'])),
      'per_row_ms': 1e3 * float(np.median(timings['per_row'])),
      'per_row_over_sample_batch': float(np.median(ratios)),
  }


def main(argv: Sequence[str]) -> None:
  del argv
  lengths = [int(x) for x in LENGTHS.value]
  results = [time_preset(p, GAMES.value, lengths, BATCHES.value,
                         REPEATS.value) for p in PRESETS.value]
  print(f'{"preset":12} {"batch":>5} {"K":>2} {"positions":>9} '
        f'{"sample_batch ms":>15} {"per row ms":>10} {"ratio":>6}')
  for r in results:
    print(f'{r["preset"]:12} {r["batch_size"]:5d} {r["num_unroll_steps"]:2d} '
          f'{r["positions"]:9d} {r["sample_batch_ms"]:15.2f} '
          f'{r["per_row_ms"]:10.2f} {r["per_row_over_sample_batch"]:6.1f}')
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(results, f, indent=1)


if __name__ == '__main__':
  app.run(main)
