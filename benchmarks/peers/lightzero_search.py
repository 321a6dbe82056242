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
"""Simulations/s of LightZero 0.2.0's compiled tree search (ctree).

Run with the peers' venv python, from the repository root:

    /work/peers-venv/bin/python -m benchmarks.peers.lightzero_search

On the model of benchmarks/search.py (observation 8, latent 32, 4 actions,
scalar heads; lightzero_models.SEARCH_MODEL), 50 simulations, root Dirichlet
noise on, all actions legal, one player. Times
`MuZeroPolicy._forward_collect(observation, action_mask, to_play=...)`, what
LightZero's collector calls once per move: the root inference, noise, the
C++ tree search (`MuZeroMCTSCtree.search`, one batched torch call per
simulation) and the sampled action, NumPy in and out. Each timing repeats
the call until `--min_seconds` have passed; simulations/s = batch x
simulations / seconds per call. Prints one JSON line.
"""

from typing import Any, Dict, Sequence

from absl import app
from absl import flags
import numpy as np
import torch

from benchmarks import reporting
from benchmarks.peers import lightzero_models

BATCH_SIZES = flags.DEFINE_list('batch_sizes', ['1', '16', '256'],
                                'search batch sizes.')
NUM_SIMULATIONS = flags.DEFINE_integer('num_simulations', 50,
                                       'simulations per search.')
REPEATS = flags.DEFINE_integer('repeats', 5, 'timings of each batch size.')
MIN_SECONDS = flags.DEFINE_float('min_seconds', 0.2,
                                 'a timing repeats a call this long.')
THREADS = flags.DEFINE_integer(
    'threads', 0, 'torch.set_num_threads (0: torch\'s default).')
SEED = flags.DEFINE_integer('seed', 0, 'seed of the inputs and weights.')


def time_search(batch_size: int, num_simulations: int, repeats: int,
                min_seconds: float, seed: int = 0) -> Dict[str, Any]:
  """Simulations/s of `repeats` timings of one batch size."""
  torch.manual_seed(seed)
  np.random.seed(seed)  # LightZero draws the root noise from NumPy's.
  config = lightzero_models.make_policy_config(
      lightzero_models.SEARCH_MODEL, num_simulations=num_simulations)
  policy = lightzero_models.make_policy(config)
  rng = np.random.default_rng(seed)
  observation = torch.from_numpy(rng.standard_normal(
      (batch_size, config.model.observation_shape)).astype(np.float32))
  action_mask = np.ones((batch_size, config.model.action_space_size),
                        np.float32)
  to_play = [-1] * batch_size

  def search():
    # pylint: disable-next=protected-access
    return policy._forward_collect(observation, action_mask, temperature=1.,
                                   to_play=to_play, epsilon=0.)

  return reporting.search_result(search, batch_size, num_simulations,
                                   repeats, min_seconds)


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  if THREADS.value:
    torch.set_num_threads(THREADS.value)
  reporting.print_search_results(
      'lightzero', 'ctree',
      lightzero_models.describe(
          lightzero_models.make_policy_config(lightzero_models.SEARCH_MODEL)),
      time_search, BATCH_SIZES.value, NUM_SIMULATIONS.value, REPEATS.value,
      MIN_SECONDS.value, SEED.value)


if __name__ == '__main__':
  app.run(main)
