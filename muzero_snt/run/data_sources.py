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
"""Where a training loop's batches come from: self-play, a file, synthetic.

`training_loop.TrainingLoop` runs rounds of a `DataSource`; its counters are
`tf.Variable`s, checkpointed with its replay buffer.
"""

import fractions
from typing import Callable, Dict, Iterator, List, Optional, Protocol, Tuple

from absl import logging
import numpy as np
import tensorflow as tf

from muzero_snt import acting
from muzero_snt.run import checkpointing
from muzero_snt import config as config_lib
from muzero_snt import learning
from muzero_snt.run import overlapped_learning
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt.run import synthetic
from muzero_snt import types

# Takes one learner step; returns False once training is over.
Learn = Callable[[], bool]


class DataSource(Protocol):
  """What a training loop needs of its data."""

  def counters(self) -> Dict[str, tf.Variable]:
    """Counters to checkpoint with the learner (names unique to the source)."""

  @property
  def replay(self) -> Optional[replay_lib.ReplayBuffer]:
    """The replay buffer to checkpoint, None if the source has none."""

  def restore_replay(self, replay: Optional[replay_lib.ReplayBuffer]) -> None:
    """Takes the replay buffer of a restored checkpoint (None: start anew)."""

  def sample(self) -> Tuple[types.Batch, Optional[np.ndarray]]:
    """The next batch, and its replay keys if priorities are to be updated."""

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray) -> None:
    ...

  def run_round(self, learn: Learn, learner_steps: Callable[[], int],
                should_stop: Optional[Callable[[], bool]] = None) -> None:
    """Produces one round of data, calling `learn` for each step owed;
    `should_stop()` ends it early (dropping unfinished games)."""

  def progress(self, elapsed: float) -> Dict[str, float]:
    """Scalars of the rounds since the last call, by TensorBoard tag."""

  def totals(self) -> str:
    """What the source produced over the whole run, for the final summary."""


class SelfPlay:
  """The MuZero loop: self-play rounds, learner steps at an exact ratio.

  Environment steps count once replay holds a batch's worth of positions;
  after every batched move the learner has taken exactly floor(train_ratio
  * counted steps) steps. A round is one game per environment, so a
  checkpoint between rounds continues exactly; with `continuous` it is
  `Actor.play_games` (games in play at a checkpoint are not in it). A
  `reanalyser` gives a fraction of each batch fresh targets (MuZero
  Reanalyze); `actor_weights` fills the actor's own network from the
  learner's (for `overlap_learning`).
  """

  def __init__(self, config: config_lib.MuZeroConfig, actor: acting.Actor,
               train_ratio: float, seed: int = 0,
               reanalyser: Optional[reanalysis.Reanalyser] = None,
               continuous: bool = False,
               actor_weights: Optional[
                   overlapped_learning.WeightCopy] = None):
    if not (isinstance(train_ratio, (int, float)) and
            np.isfinite(train_ratio) and train_ratio > 0):
      raise ValueError(f'train_ratio must be a positive finite number, got '
                       f'{train_ratio!r}.')
    self._config = config
    self._actor = actor
    # Exact: floor(ratio * steps) with a float ratio can be off by one.
    self._train_ratio = fractions.Fraction(str(train_ratio))
    self._counters = checkpointing.counters(
        rounds=0, games=0, env_steps=0, counted_env_steps=0, paid_steps=0)
    self._replay = replay_lib.ReplayBuffer(config, seed=seed)
    if reanalyser is not None and actor_weights is not None:
      raise ValueError('Reanalysis with an actor network of its own '
                       '(actor_weights) is not supported: the reanalyser '
                       "searches the learner's network, which a learner "
                       'thread changes meanwhile; pass one or the other.')
    self._reanalyser = reanalyser
    self._actor_weights = actor_weights
    self._continuous = bool(continuous)
    self._recent: List[acting.GameResult] = []
    self._last_results: List[acting.GameResult] = []
    self._last_env_steps = 0

  @property
  def actor(self) -> acting.Actor:
    return self._actor

  @property
  def reanalyser(self) -> Optional[reanalysis.Reanalyser]:
    return self._reanalyser

  @property
  def actor_weights(self) -> Optional[overlapped_learning.WeightCopy]:
    return self._actor_weights

  def counters(self) -> Dict[str, tf.Variable]:
    if self._reanalyser is None:
      return dict(self._counters)
    return {**self._counters, **self._reanalyser.state}

  @property
  def replay(self) -> replay_lib.ReplayBuffer:
    return self._replay

  @property
  def last_results(self) -> List[acting.GameResult]:
    """The games the last round finished (in the order they were stored)."""
    return list(self._last_results)

  def restore_replay(self, replay: Optional[replay_lib.ReplayBuffer]) -> None:
    if replay is not None:
      self._replay = replay
    self._last_env_steps = self.env_steps

  @property
  def rounds(self) -> int:
    return int(self._counters['rounds'].numpy())

  @property
  def games(self) -> int:
    return int(self._counters['games'].numpy())

  @property
  def env_steps(self) -> int:
    return int(self._counters['env_steps'].numpy())

  def sample(self) -> Tuple[types.Batch, Optional[np.ndarray]]:
    return reanalysis.sample(self._config, self._replay, self._reanalyser)

  def compile_function(self) -> Optional[Callable[[], None]]:
    """`Actor.compile_function` of the way this source plays, or None."""
    compile_function = getattr(self._actor, 'compile_function', None)
    if compile_function is None:
      return None
    return compile_function(self._continuous)

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray) -> None:
    self._replay.update_priorities(keys, priorities)

  def run_round(self, learn: Learn, learner_steps: Callable[[], int],
                should_stop: Optional[Callable[[], bool]] = None,
                end_move: Optional[Callable[[], None]] = None) -> None:
    """`DataSource.run_round`, calling `end_move` after each move whose
    learner steps were asked for."""
    counted = self._counters['counted_env_steps']
    paid = self._counters['paid_steps']
    state = {'training': True}

    def on_move(num_env_steps: int) -> None:
      self._counters['env_steps'].assign_add(num_env_steps)
      if self._replay.num_positions < self._config.batch_size:
        return
      counted.assign_add(num_env_steps)
      owed = int(self._train_ratio * int(counted.numpy()))  # floor, exactly.
      while state['training'] and int(paid.numpy()) < owed:
        state['training'] = learn()
        paid.assign_add(1)
      if end_move is not None:
        end_move()

    results: List[acting.GameResult] = []

    def store(result: acting.GameResult) -> None:
      self._replay.save_game(result.trajectory)
      self._counters['games'].assign_add(1)
      results.append(result)

    if self._continuous:
      self._actor.play_games(
          self.rounds, first_game=self.games, training_steps=learner_steps,
          on_move=on_move, should_stop=should_stop, on_game_end=store)
    else:
      finished = self._actor.play_round(
          self.rounds, training_steps=learner_steps, on_move=on_move,
          should_stop=should_stop)
      if len(finished) < self._actor.num_envs:
        logging.info('Round ended early: %d unfinished games dropped.',
                     self._actor.num_envs - len(finished))
      for result in finished:
        store(result)
    self._recent.extend(results)
    self._last_results = results
    self._counters['rounds'].assign_add(1)

  def progress(self, elapsed: float) -> Dict[str, float]:
    returns = [r.episode_return for r in self._recent]
    lengths = [r.length for r in self._recent]
    rate = (self.env_steps - self._last_env_steps) / max(elapsed, 1e-9)
    self._recent, self._last_env_steps = [], self.env_steps
    scalars = {
        'selfplay/games': self.games,
        'selfplay/env_steps': self.env_steps,
        'selfplay/env_steps_per_second': rate,
        'replay/positions': self._replay.num_positions,
    }
    if returns:  # Rounds ended early may have finished no game.
      scalars['selfplay/episode_return'] = float(np.mean(returns))
      scalars['selfplay/game_length'] = float(np.mean(lengths))
    if self._reanalyser is not None:
      scalars.update(reanalysis_progress(self._reanalyser))
    return scalars

  def totals(self) -> str:
    return (f'{self.games} games, {self.env_steps} environment steps, '
            f'{self._replay.num_positions} positions in replay')


def reanalysis_progress(reanalyser: reanalysis.Reanalyser
                       ) -> Dict[str, float]:
  """The scalars of the reanalysis since the last call."""
  rows, positions, seconds = reanalyser.take_stats()
  return {'reanalyse/rows': rows, 'reanalyse/positions': positions,
          'reanalyse/seconds': seconds}


def load_replay(config: config_lib.MuZeroConfig, path: str,
                seed: Optional[int] = None) -> replay_lib.ReplayBuffer:
  """Reads the replay file at `path` for `config`, sampling with `seed`
  (None: the file's saved state); a ValueError names `path` and what is
  wrong (missing, damaged, of another game or configuration, empty)."""
  buffer = replay_lib.ReplayBuffer.restore(config, path, seed=seed)
  if not buffer.num_positions:
    raise ValueError(f'{path} holds no games: there is nothing to learn '
                     'from.')
  return buffer


class FixedReplay:
  """Learner steps on the games of a replay file, no new games (MuZero
  Unplugged, Schrittwieser et al., 2021); a round is one step.

  The file is read on construction (raising as `load_replay`); runs of
  different `seed`s draw different batches from it.
  """

  def __init__(self, config: config_lib.MuZeroConfig, path: str,
               seed: int = 0,
               reanalyser: Optional[reanalysis.Reanalyser] = None):
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

  def run_round(self, learn: Learn, learner_steps: Callable[[], int],
                should_stop: Optional[Callable[[], bool]] = None) -> None:
    del learner_steps, should_stop  # One step per round, whatever happens.
    learn()

  def progress(self, elapsed: float) -> Dict[str, float]:
    del elapsed  # The learner's rate is the loop's.
    if self._reanalyser is None:
      return {}
    return reanalysis_progress(self._reanalyser)

  def totals(self) -> str:
    return (f'{self._replay.num_games} games, {self._replay.num_positions} '
            f'positions from {self._path}, no new games')


def from_batches(make_batches: Callable[[], Iterator[types.Batch]],
                 config: config_lib.MuZeroConfig,
                 batch_size: int) -> tf.data.Dataset:
  """A `tf.data.Dataset` of the global batches `make_batches()` yields.

  `make_batches` returns an iterator of NumPy `Batch`es of `batch_size`
  windows, once per pass; the shapes are static, from `config`, and each
  worker of a multi-worker strategy reads its own stream (sharding by data).
  """
  if batch_size <= 0:
    raise ValueError(f'batch_size must be positive, got {batch_size!r}.')
  # The shapes and dtypes of `learning.zero_batch`, for `batch_size` rows.
  signature = types.Batch(*(
      tf.NoneTensorSpec() if x is None else
      tf.TensorSpec((batch_size,) + x.shape[1:], x.dtype)
      for x in learning.zero_batch(config, 1)))
  dataset = tf.data.Dataset.from_generator(make_batches,
                                           output_signature=signature)
  options = tf.data.Options()
  options.experimental_distribute.auto_shard_policy = (
      tf.data.experimental.AutoShardPolicy.DATA)
  return dataset.with_options(options).prefetch(2)


class SyntheticBatches:
  """Learnable synthetic batches (`synthetic.py`) through `tf.data`; a round
  is one learner step, and a resumed run continues the stream."""

  def __init__(self, config: config_lib.MuZeroConfig,
               learner: learning.Learner, seed: int = 0):
    self._config = config
    self._learner = learner
    self._seed = seed
    self._batches = None

  def counters(self) -> Dict[str, tf.Variable]:
    return {}

  @property
  def replay(self) -> None:
    return None

  def restore_replay(self, replay: Optional[replay_lib.ReplayBuffer]) -> None:
    del replay  # Synthetic batches keep no replay.

  def sample(self) -> Tuple[types.Batch, None]:
    if self._batches is None:
      config, start = self._config, self._learner.steps
      dataset = from_batches(
          lambda: synthetic.SyntheticBatches(
              config, config.batch_size, seed=self._seed, start=start),
          config, config.batch_size)
      self._batches = self._learner.distribute_dataset(dataset)
    return next(self._batches), None

  def update_priorities(self, keys: np.ndarray, priorities: np.ndarray) -> None:
    raise ValueError('Synthetic batches have no priorities to update.')

  def run_round(self, learn: Learn, learner_steps: Callable[[], int],
                should_stop: Optional[Callable[[], bool]] = None) -> None:
    del learner_steps, should_stop  # One step per round, whatever happens.
    learn()

  def progress(self, elapsed: float) -> Dict[str, float]:
    del elapsed  # The learner's rate is the loop's.
    return {}

  def totals(self) -> str:
    return 'synthetic batches'
