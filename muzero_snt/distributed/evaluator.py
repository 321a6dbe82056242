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
"""An evaluator process: the newest published weights against fixed
opponents, written as `eval/...` scalars.

Run as a Ray actor on the learner's machine (`runner.py`), restarted by Ray
if its process dies. Its constructor builds a network copy and starts a
thread that, whenever the published weights are at least `interval` learner
steps newer than the last evaluated ones, evaluates them as
`launchers/evaluate.py` does (two-player presets: their fixed opponents
from `opponents.OPPONENTS`, both sides, e.g. tic-tac-toe's perfect and
random players or connect four's OpenSpiel MCTS bot and random player;
one-player presets: episodes' returns) and writes
`evaluation_report.summary_scalars` to the run's TensorBoard directory at
the weights' learner step.
"""

from typing import Any, Dict, List, Optional, Tuple

from muzero_snt.run import builders
from muzero_snt import config as config_lib
from muzero_snt.evaluation import report as evaluation_report
from muzero_snt.evaluation import opponents as opponents_lib
from muzero_snt.evaluation import by_preset as preset_evaluation
from muzero_snt.distributed import weight_store
from muzero_snt.distributed import worker_setup

# Seconds between looks at the weight store.
_POLL = 0.5


def supported(preset: str, config: config_lib.MuZeroConfig) -> bool:
  """Whether the evaluator can evaluate `preset`: one player, or two with
  fixed opponents (`opponents.OPPONENTS`)."""
  return preset in opponents_lib.OPPONENTS or config.num_players == 1


class Evaluator(worker_setup.LoopThread):
  """Evaluates the newest weights every `interval` learner steps."""

  def __init__(self, config: config_lib.MuZeroConfig, preset: str,
               title: Optional[str], search: str, weights: str,
               logdir: Optional[str], interval: int, num_games: int,
               seed: int = 0,
               opponent_simulations: int = opponents_lib.MCTS_SIMULATIONS,
               opponent_rollouts: int = opponents_lib.MCTS_ROLLOUTS,
               environment=None):
    """Builds the network copy and starts the loop.

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
      opponent_simulations: the MCTS opponent's simulations per move
        (connect four, 9x9 Go).
      opponent_rollouts: the MCTS opponent's random rollouts per leaf.
      environment: the user's environment factory or its import string
        (`RunConfig.environment`), or None.
    """
    if not supported(preset, config):
      raise ValueError(
          f'The evaluator plays one-player presets or two-player presets '
          f'with opponents {sorted(opponents_lib.OPPONENTS)}, got '
          f'{preset!r}.')
    import tensorflow as tf  # pylint: disable=g-import-not-at-top
    self._tf = tf
    self._worker = worker_setup.set_up(config, search, weights)
    self._preset = preset
    self._make_environment = builders.make_environment_factory(
        preset, config, title, environment)
    self._opponents = preset_evaluation.make_opponents(
        preset, self._make_environment, num_simulations=opponent_simulations,
        num_rollouts=opponent_rollouts, seed=seed)
    self._writer = tf.summary.create_file_writer(logdir) if logdir else None
    self._interval = interval
    self._num_games = num_games
    self._seed = seed
    self._results: List[Tuple[int, Dict[str, float]]] = []
    self._start_loop('evaluator')

  def _evaluate(self) -> Dict[str, float]:
    results = preset_evaluation.evaluate(
        self._worker.search, self._make_environment, self._opponents,
        self._num_games, self._seed)
    return evaluation_report.summary_scalars(results)

  def _loop(self) -> None:
    evaluated = None
    worker = self._worker
    while not self._stop.is_set():
      version, (reference,) = worker.ray.get(worker.weights.latest.remote())
      if version == weight_store.NO_VERSION or (
          evaluated is not None and version < evaluated + self._interval):
        self._stop.wait(_POLL)
        continue
      weight_store.assign_arrays(worker.network, worker.ray.get(reference))
      scalars = self._evaluate()
      if self._writer:
        with self._writer.as_default(step=version):
          for tag, value in scalars.items():
            self._tf.summary.scalar(tag, value)
        self._writer.flush()
      self._results.append((version, scalars))
      evaluated = version

  def results(self) -> List[Tuple[int, Dict[str, float]]]:
    """(learner step, `eval/...` scalars) of every evaluation so far."""
    return list(self._results)

  def status(self) -> Dict[str, Any]:
    return {'evaluations': len(self._results), 'error': self._error}
