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
"""Simulations/s of muzero-general's tree search (Python, one root a call).

Run with muzero-general's venv python, from the repository root:

    /work/muzero-general-venv/bin/python \
        -m benchmarks.peers.muzero_general_search

On the model of benchmarks/search.py (observation 8, latent 32, 4 actions;
muzero_general_models.SEARCH_MODEL), 50 simulations, root Dirichlet noise
on, all actions legal, one player. Times what its self-play does for a
move, under `torch.no_grad()` with the model in eval mode:
`MCTS(config).run(model, observation, legal_actions, to_play, True)` (the
root inference, noise, then per simulation a descent in Python, one
recurrent inference of batch 1 and the backup) and `SelfPlay.select_action`
on the root. Its search has no batch: B roots are B calls, one after the
other. Each timing repeats the B calls until `--min_seconds` have passed;
simulations/s = B x simulations / seconds per B calls. Prints one JSON line.
"""

from typing import Any, Dict, Sequence

from absl import app
from absl import flags
import numpy as np
import torch

from benchmarks import reporting
from benchmarks.peers import muzero_general_models

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
  models, _, self_play = muzero_general_models.import_peer()
  torch.manual_seed(seed)
  np.random.seed(seed)  # It draws the root noise from NumPy's.
  config = muzero_general_models.make_config(
      muzero_general_models.SEARCH_MODEL, num_simulations=num_simulations)
  model = models.MuZeroNetwork(config)
  model.eval()
  rng = np.random.default_rng(seed)
  observations = rng.standard_normal(
      (batch_size,) + config.observation_shape).astype(np.float32)

  def search():
    with torch.no_grad():
      for observation in observations:
        root, _ = self_play.MCTS(config).run(
            model, observation, config.action_space, 0, True)
        self_play.SelfPlay.select_action(root, 1.)

  return reporting.search_result(search, batch_size, num_simulations,
                                   repeats, min_seconds)


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  if THREADS.value:
    torch.set_num_threads(THREADS.value)
  models = muzero_general_models
  reporting.print_search_results(
      'muzero_general', 'python',
      models.describe(models.make_config(models.SEARCH_MODEL)),
      time_search, BATCH_SIZES.value, NUM_SIMULATIONS.value, REPEATS.value,
      MIN_SECONDS.value, SEED.value)


if __name__ == '__main__':
  app.run(main)
