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
"""An evaluator process: the published weights against fixed opponents.

Whenever the published weights are at least `interval` learner steps newer
than the last evaluated, it evaluates them as `launchers/evaluate.py` does
(two-player presets: against their fixed opponents, `opponents.OPPONENTS`,
from both sides; one-player presets: episodes' returns) and writes
`evaluation_report.summary_scalars` to the run's TensorBoard directory at
the weights' learner step.
"""

from typing import Any, Dict, List, Optional, Tuple

import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.distributed import weight_store
from muzero_snt.distributed import worker_setup
from muzero_snt.evaluation import by_preset as preset_evaluation
from muzero_snt.evaluation import opponents as opponents_lib
from muzero_snt.evaluation import report as evaluation_report
from muzero_snt.run import builders

# Seconds between looks at the weight store.
_POLL = 0.5


def supported(preset: str, config: config_lib.MuZeroConfig) -> bool:
  """Whether the evaluator can evaluate `preset`: one player, or two with
  fixed opponents (`opponents.OPPONENTS`)."""
  return preset in opponents_lib.OPPONENTS or config.num_players == 1


class Evaluator(worker_setup.Worker):
  """Evaluates the newest weights every `interval` learner steps."""

  def __init__(self, config: config_lib.MuZeroConfig, preset: str,
               title: Optional[str], search: str, weights: str,
               logdir: Optional[str], interval: int, num_games: int,
               seed: int = 0,
               opponent_simulations: int = opponents_lib.MCTS_SIMULATIONS,
               opponent_rollouts: int = opponents_lib.MCTS_ROLLOUTS):
    """Builds the network copy and the opponents and starts the loop.

    Args:
      config: the run's configuration.
      preset: the run's preset (`supported`).
      title: the game of a titled preset, or None.
      search: one of `search.SEARCH_KINDS`.
      weights: the `WeightStore` actor's name.
      logdir: where to write the `eval/...` scalars (None: kept only in
        `results`).
      interval: learner steps between evaluations.
      num_games: games per opponent and side, or episodes.
      seed: seed of the opponents and environments.
      opponent_simulations: the MCTS opponent's simulations per move.
      opponent_rollouts: the MCTS opponent's random rollouts per leaf.
    """
    if not supported(preset, config):
      raise ValueError(
          f'The evaluator plays one-player presets or two-player presets '
          f'with opponents {sorted(opponents_lib.OPPONENTS)}, got '
          f'{preset!r}.')
    self._set_up(config, search, weights)
    self._make_environment = builders.make_environment_factory(
        preset, config, title)
    self._opponents = preset_evaluation.make_opponents(
        preset, self._make_environment, num_simulations=opponent_simulations,
        num_rollouts=opponent_rollouts, seed=seed)
    self._writer = tf.summary.create_file_writer(logdir) if logdir else None
    self._interval = interval
    self._num_games = num_games
    self._seed = seed
    self._results: List[Tuple[int, Dict[str, float]]] = []
    self._start_loop('evaluator')

  def _loop(self) -> None:
    newer_than = weight_store.NO_VERSION
    while not self._stop.is_set():
      if not self._weights.update(newer_than=newer_than):
        self._stop.wait(_POLL)
        continue
      version = self._weights.version
      scalars = evaluation_report.summary_scalars(preset_evaluation.evaluate(
          self._search, self._make_environment, self._opponents,
          self._num_games, self._seed))
      if self._writer:
        with self._writer.as_default(step=version):
          for tag, value in scalars.items():
            tf.summary.scalar(tag, value)
        self._writer.flush()
      self._results.append((version, scalars))
      newer_than = version + self._interval - 1

  def results(self) -> List[Tuple[int, Dict[str, float]]]:
    """(learner step, `eval/...` scalars) of every evaluation so far."""
    return list(self._results)

  def _progress(self) -> Dict[str, Any]:
    return {'evaluations': len(self._results)}
