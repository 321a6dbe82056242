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
"""Evaluation results as printed tables and as `eval/...` scalars."""

from typing import Dict, Sequence, Tuple, Union

from muzero_snt.evaluation import matches as evaluation

# What an evaluation returns: tic-tac-toe matches or one-player episodes.
Results = Union[Sequence[evaluation.MatchResult], evaluation.EpisodeStats]


def tictactoe_table(results: Sequence[evaluation.MatchResult]) -> str:
  """One row per opponent and MuZero's side: games, wins, draws, losses and
  games cut by the move limit; then, if any were, how many of all."""
  lines = [f'{"opponent":<10}{"muzero":<8}{"games":>6}{"wins":>6}'
           f'{"draws":>6}{"losses":>7}{"cut":>6}']
  for r in results:
    lines.append(f'{r.opponent:<10}{r.side:<8}{r.num_games:>6}{r.wins:>6}'
                 f'{r.draws:>6}{r.losses:>7}{r.cut:>6}')
  cut = sum(r.cut for r in results)
  if cut:
    limit = max(r.max_moves for r in results if r.cut)
    lines.append(f'{cut} of {sum(r.num_games for r in results)} games cut '
                 f'at {limit} moves (neither won, drawn nor lost).')
  return '\n'.join(lines)


def episodes_table(stats: evaluation.EpisodeStats) -> str:
  """The number of episodes and the mean, std, min and max return; then, if
  the move limit cut any, how many."""
  table = (f'{"episodes":>8}{"mean":>9}{"std":>9}{"min":>9}{"max":>9}\n'
           f'{len(stats.returns):>8}{stats.mean:>9.1f}{stats.std:>9.1f}'
           f'{stats.min:>9.1f}{stats.max:>9.1f}')
  if stats.cut:
    table += (f'\n{stats.cut} of {len(stats.returns)} episodes cut at '
              f'{stats.max_moves} moves.')
  return table


def summary_scalars(results: Results) -> Dict[str, float]:
  """The results as `eval/...` scalars.

  Tic-tac-toe: `eval/<opponent>/{win,draw,loss}_rate` over both sides, of
  all games (a game cut by the move limit is none of them); episodes:
  `eval/return_{mean,std,min,max}`.
  """
  if isinstance(results, evaluation.EpisodeStats):
    return {'eval/return_mean': results.mean, 'eval/return_std': results.std,
            'eval/return_min': results.min, 'eval/return_max': results.max}
  counts: Dict[str, Tuple[int, int, int, int]] = {}
  for r in results:
    wins, draws, losses, games = counts.get(r.opponent, (0, 0, 0, 0))
    counts[r.opponent] = (wins + r.wins, draws + r.draws, losses + r.losses,
                          games + r.num_games)
  scalars = {}
  for opponent, (*outcomes, games) in counts.items():
    for name, count in zip(('win', 'draw', 'loss'), outcomes):
      scalars[f'eval/{opponent}/{name}_rate'] = count / games
  return scalars
