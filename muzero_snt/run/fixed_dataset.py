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
"""A data source of saved games only: learning from a fixed dataset.

MuZero Unplugged (Schrittwieser et al., 2021) trains on a fixed dataset
with Reanalyse and no environment interaction. `FixedReplay` samples a
replay file (`ReplayBuffer.save`: a checkpoint's `replay-N.npz` or
`export_replay`'s) as self-play would, with reanalysis if the config asks;
no game is added. The buffer is checkpointed like self-play's, so a
resumed run continues exactly.
"""

from typing import Callable, Dict, Optional, Tuple

import numpy as np
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.run import data_sources
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import types


def load_replay(config: config_lib.MuZeroConfig, path: str,
                seed: Optional[int] = None) -> replay_lib.ReplayBuffer:
  """Reads the replay file at `path` for a run of `config`.

  Args:
    config: the run's configuration; the file's data must fit it (action
      space, observation shape, players, discount, priority alpha) and its
      window must hold the file's games.
    path: a file written by `ReplayBuffer.save`.
    seed: the sampling generator's seed (None: the file's saved state).

  Raises:
    ValueError: naming `path` and what is wrong: missing, not a replay file,
      damaged, of another game or configuration, or holding no positions.
  """
  buffer = replay_lib.ReplayBuffer.restore(config, path, seed=seed)
  if not buffer.num_positions:
    raise ValueError(f'{path} holds no games: there is nothing to learn '
                     'from.')
  return buffer


class FixedReplay:
  """Learner steps on the games of a replay file; a round is one step.

  Usage:

      source = FixedReplay(config, '/tmp/run/replay-1000.npz', seed=0)
      loop = training_loop.TrainingLoop(config, learner, source)
  """

  def __init__(self, config: config_lib.MuZeroConfig, path: str,
               seed: int = 0,
               reanalyser: Optional[reanalysis.Reanalyser] = None):
    """Reads the file (see `load_replay` for its errors).

    Args:
      config: the run's configuration.
      path: the replay file.
      seed: seeds the sampling (the file's own sampling state is not used:
        runs of different seeds draw different batches from one file).
      reanalyser: if given, every batch goes through it.
    """
    self._config = config
    self._path = path
    self._replay = load_replay(config, path, seed=seed)
    self._reanalyser = reanalyser

  def counters(self) -> Dict[str, tf.Variable]:
    return {} if self._reanalyser is None else dict(self._reanalyser.state)

  @property
  def replay(self) -> replay_lib.ReplayBuffer:
    return self._replay

  def restore_replay(self, replay: Optional[replay_lib.ReplayBuffer]) -> None:
    if replay is not None:  # A resumed run: the checkpoint's priorities.
      self._replay = replay

  def sample(self) -> Tuple[types.Batch, Optional[np.ndarray]]:
    return reanalysis.sample(self._config, self._replay, self._reanalyser)

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray) -> None:
    self._replay.update_priorities(keys, priorities)

  def run_round(self, learn: data_sources.Learn,
                learner_steps: Callable[[], int],
                should_stop: Optional[Callable[[], bool]] = None) -> None:
    del learner_steps, should_stop  # One step per round, whatever happens.
    learn()

  def progress(self, elapsed: float) -> Dict[str, float]:
    del elapsed  # The learner's rate is the loop's.
    if self._reanalyser is None:
      return {}
    return data_sources.reanalysis_progress(self._reanalyser)

  def totals(self) -> str:
    return (f'{self._replay.num_games} games, {self._replay.num_positions} '
            f'positions from {self._path}, no new games')
