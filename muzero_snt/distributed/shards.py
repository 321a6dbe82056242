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
"""Replay shards: where games go, which shard a batch comes from, files.

Actor i sends its games to shard i mod S, a `ReplayService` with its own
rate limiter and about window_size / S games. The learner draws each
batch from one shard, chosen in proportion to its sampling mass M_s
(`ReplayBuffer.sampling_mass`: its positions N_s when uniform, the sum of
p^alpha over them when prioritised), which draws the positions as one
buffer does, so each row's probability is the one buffer's:

    P(i) = M_s / M * p_i^alpha / M_s = p_i^alpha / M,  M = sum_s M_s

The importance weights (N_s P_s(i))^-beta differ from (N P(i))^-beta by
a factor (N_s M / (N M_s))^-beta common to the batch, which the division
by its largest weight removes. A batch's rows share a shard, so they are
not independent draws, but each one's distribution is exact.
"""

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from muzero_snt import config as config_lib
from muzero_snt import replay as replay_lib
from muzero_snt import replay_files

# The counters a shard checkpoints (`ReplayService.counters`).
COUNTER_NAMES = ('env_steps', 'counted_env_steps', 'learner_steps', 'games')


class Part(NamedTuple):
  """One shard's share of a replay file."""
  contents: replay_files.Contents
  counters: Optional[Dict[str, int]]  # None in a file of one buffer.


def check_num_shards(num_shards: int, window_size: int,
                     name: str = 'num_shards') -> None:
  """Raises ValueError naming `name` unless 1 <= num_shards <= window_size."""
  if (isinstance(num_shards, bool) or not isinstance(num_shards, int) or
      not 1 <= num_shards <= window_size):
    raise ValueError(f'{name} must be an integer in [1, window_size = '
                     f'{window_size}] (each shard keeps a game at least), '
                     f'got {num_shards!r}.')


def shard_of(actor: int, num_shards: int) -> int:
  """The shard of actor `actor`'s games."""
  return actor % num_shards


def shard_seed(seed: int, shard: int) -> int:
  """The seed of shard `shard`'s buffer: the run's for shard 0 (one shard
  samples as one buffer does), one drawn from both for the others."""
  if shard == 0:
    return seed
  return int(np.random.SeedSequence([seed, shard]).generate_state(1)[0])


def shard_config(config: config_lib.MuZeroConfig, shard: int,
                 num_shards: int) -> config_lib.MuZeroConfig:
  """`config` with shard `shard`'s window: window_size split into
  `num_shards` parts differing by one game at most, the first larger."""
  check_num_shards(num_shards, config.window_size)
  window, extra = divmod(config.window_size, num_shards)
  return config.replace(window_size=window + (shard < extra))


def choose(masses: Sequence[float], rng: np.random.Generator) -> int:
  """A shard drawn with probability proportional to its mass; one chosen
  uniformly when every mass is 0 (no shard holds a position)."""
  masses = np.asarray(masses, np.float64)
  total = masses.sum()
  if not total > 0:
    return int(rng.integers(len(masses)))
  return int(min(np.searchsorted(np.cumsum(masses), rng.random() * total,
                                 side='right'), len(masses) - 1))


def write(path: str, config: config_lib.MuZeroConfig,
          buffers: Sequence[replay_lib.ReplayBuffer],
          counters: Sequence[Dict[str, int]]) -> None:
  """Writes the shards' `buffers` and `counters` into one replay file
  `path`, atomically: their games in shard order, each shard's size, id
  counter, generator state and counters in the metadata, so that
  `ReplayBuffer.restore` reads one buffer of all the games and `deal` any
  number of shards; ValueError if their games differ in frame layout."""
  contents = [buffer.contents() for buffer in buffers]
  stacks = {c.frame_stack for c in contents if c.games}
  if len(stacks) > 1:
    raise ValueError(f'the shards hold games of different frame layouts: '
                     f'{sorted(map(str, stacks))}.')
  games = [game for c in contents for game in c.games]
  meta = {
      # Read as one buffer: every game, ids from 0, shard 0's generator.
      'games_saved': len(games),
      'rng_state': contents[0].meta['rng_state'],
      'shards': [dict(c.meta, games=len(c.games),
                      counters={n: int(k[n]) for n in COUNTER_NAMES})
                 for c, k in zip(contents, counters)]}
  replay_files.write(
      path, config, games, stacks.pop() if stacks else None,
      np.concatenate([c.priorities for c in contents]), meta)


def read(config: config_lib.MuZeroConfig, path: str) -> List[Part]:
  """The shards of a replay file (`write`'s, or one buffer's `save`);
  ValueError naming `path`, or if its shards do not add up to its games."""
  whole = replay_files.read(path, config)
  shards = whole.meta.get('shards')
  if shards is None:
    return [Part(whole, None)]
  sizes = [int(shard['games']) for shard in shards]
  if sum(sizes) != len(whole.games):
    raise ValueError(f'{path}: its shards hold {sizes} games, not the '
                     f'{len(whole.games)} of the file.')
  parts, first, start = [], 0, 0
  for size, shard in zip(sizes, shards):
    lengths = whole.lengths[first:first + size]
    end = start + int(lengths.sum())
    meta = {k: v for k, v in shard.items() if k not in ('games', 'counters')}
    parts.append(Part(
        replay_files.Contents(whole.games[first:first + size], lengths,
                              whole.priorities[start:end], meta,
                              whole.frame_stack if size else None),
        {n: int(shard['counters'][n]) for n in COUNTER_NAMES}))
    first, start = first + size, end
  return parts


def deal(config: config_lib.MuZeroConfig, parts: Sequence[Part],
         num_shards: int, seed: int, counters: Dict[str, int]
        ) -> List[Tuple[replay_lib.ReplayBuffer, Dict[str, int]]]:
  """The buffers and counters of `num_shards` shards holding `read`'s
  `parts`: with as many shards as parts, each takes its own part back, with
  its id counter, generator state and counters (a file of one buffer: with
  `counters`, the checkpoint's); otherwise the games are dealt in turn
  (each shard's window fits them as the run's fits the file), `counters`
  split in proportion to the positions dealt, generators from `shard_seed`."""
  configs = [shard_config(config, k, num_shards) for k in range(num_shards)]
  if len(parts) == num_shards:
    return [(replay_lib.ReplayBuffer.from_contents(c, part.contents),
             dict(part.counters if part.counters is not None else counters))
            for c, part in zip(configs, parts)]
  games = [game for part in parts for game in part.contents.games]
  lengths = np.concatenate([p.contents.lengths for p in parts])
  priorities = np.split(np.concatenate([p.contents.priorities for p in parts]),
                        np.cumsum(lengths)[:-1])  # Each game's.
  stacks = [p.contents.frame_stack for p in parts if p.contents.games]
  buffers = []
  for k in range(num_shards):
    mine = games[k::num_shards]
    contents = replay_files.Contents(
        mine, lengths[k::num_shards],
        np.concatenate(priorities[k::num_shards] + [np.zeros(0)]),
        {'games_saved': len(mine)}, stacks[0] if mine else None)
    buffers.append(replay_lib.ReplayBuffer.from_contents(
        configs[k], contents, seed=shard_seed(seed, k)))
  # Each counter split by the positions dealt (equally if none), in
  # integers that add up to it.
  positions = np.asarray([b.num_positions for b in buffers], np.float64)
  weights = (positions if positions.sum() else np.ones(num_shards)) / (
      positions.sum() or num_shards)
  split = [dict() for _ in buffers]
  for name in COUNTER_NAMES:
    total = int(counters[name])
    shares = np.floor(weights * total).astype(np.int64)
    shares[:total - int(shares.sum())] += 1  # The remainder, one each.
    for dealt, share in zip(split, shares):
      dealt[name] = int(share)
  return list(zip(buffers, split))


def summed(counters: Sequence[Dict[str, Any]]) -> Dict[str, int]:
  """The shards' counters added up, name by name."""
  return {n: sum(int(c[n]) for c in counters) for n in COUNTER_NAMES}


def combined_stats(stats: Sequence[Dict[str, Any]]) -> Dict[str, Any]:
  """The shards' `ReplayService.stats` as one service's: counts add up, the
  observed ratio is the shards' learner steps over their windows divided by
  the environment steps those took, and the worst deviation the largest
  shard's (each shard's limiter holds its own)."""
  if len(stats) == 1:
    return dict(stats[0])
  out = {name: sum(s[name] for s in stats) for name in COUNTER_NAMES + (
      'positions', 'queued_games', 'reanalysed_batches', 'reanalysis_held')
         if all(name in s for s in stats)}
  out['returns'] = [r for s in stats for r in s['returns']]
  out['lengths'] = [n for s in stats for n in s['lengths']]
  timed = [s for s in stats if s['observed_ratio']]
  out['ratio_window'] = sum(s['ratio_window'] for s in timed)
  env_steps = sum(s['ratio_window'] / s['observed_ratio'] for s in timed)
  out['observed_ratio'] = (out['ratio_window'] / env_steps if env_steps
                           else None)
  worst = [s['worst_ratio_deviation'] for s in stats
           if s['worst_ratio_deviation'] is not None]
  out['worst_ratio_deviation'] = max(worst) if worst else None
  return out
