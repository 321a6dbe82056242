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
"""Sequential Halving of a root's simulations, as a table of visit counts.

Gumbel MuZero (Danihelka et al., ICLR 2022, section 3.2 and appendix) splits
the n simulations of a search among m root actions by Sequential Halving
(Karnin et al., 2013): phase after phase, each action still considered gets
the same number of visits, then the better half stays (never fewer than
two). A phase with k actions gives each max(1, floor(n / (ceil(log2 m) *
k))) visits; phases follow until the budget is spent.

The search on tensors needs no list of the remaining actions: at simulation
s the root visits, among the actions whose visit count equals
`considered_visits(m, n)[s]`, the one of highest score g + logits + sigma(q)
(`gumbel_rules.root_scores`). Every action still in the halving has exactly
that count when its turn comes, and the ones dropped have fewer. The same
schedule serves rows with fewer legal actions than m: such a row reads the
schedule of its own count, `visit_table(m, n)[min(m, legal)]`.
"""

import math
from typing import List, Tuple


def considered_visits(num_considered: int,
                      num_simulations: int) -> Tuple[int, ...]:
  """The visit count of the action each simulation of the halving visits.

  Args:
    num_considered: m, the actions sampled at the root (>= 0; with m <= 1
      every simulation visits the one action, whose count grows by one).
    num_simulations: n >= 0.

  Returns:
    n ints: entry s is the visit count, before simulation s, of the root
    action simulation s visits.

  Raises:
    ValueError: if either argument is a negative integer or not an integer.
  """
  for name, value in (('num_considered', num_considered),
                      ('num_simulations', num_simulations)):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
      raise ValueError(f'{name} must be an integer >= 0, got {value!r}.')
  if num_considered <= 1:
    return tuple(range(num_simulations))
  phases = math.ceil(math.log2(num_considered))
  schedule: List[int] = []
  visits = 0  # Of every action still in the halving.
  remaining = num_considered
  while len(schedule) < num_simulations:
    per_action = max(1, num_simulations // (phases * remaining))
    for _ in range(per_action):
      schedule.extend([visits] * remaining)
      visits += 1
    remaining = max(2, remaining // 2)
  return tuple(schedule[:num_simulations])


def visit_table(max_considered: int,
                num_simulations: int) -> Tuple[Tuple[int, ...], ...]:
  """`considered_visits(k, n)` for k = 0, ..., m: `[m + 1, n]` ints.

  Args:
    max_considered: m, `config.gumbel_max_considered_actions`.
    num_simulations: n.

  Returns:
    Row k is the schedule of a root with k actions to consider.
  """
  return tuple(considered_visits(k, num_simulations)
               for k in range(max_considered + 1))
