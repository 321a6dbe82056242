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
"""A run's choices besides its hyperparameters: `RunSettings`.

Where the data comes from, the search, seeds, output directories and the
distributed mode, each checked when the settings are made. `experiment.run`
takes them with a `config.MuZeroConfig`.
"""

import dataclasses
from typing import Optional, Tuple

from muzero_snt import config as config_lib
from muzero_snt import mixed_precision
from muzero_snt import presets
from muzero_snt.run import run_config
from muzero_snt import search

DATA_SOURCES = ('selfplay', 'synthetic', 'replay')
# How self-play searches (`search.make_search`).
SEARCHES = search.SEARCH_KINDS


@dataclasses.dataclass(frozen=True)
class RunSettings:
  """A run's choices besides its hyperparameters.

  Attributes:
    preset: names the environment and the self-play defaults
      (`presets.PRESETS`).
    title: the game of a titled preset (an Atari title, a gymnasium id);
      None for the preset's default.
    data: 'selfplay' (the MuZero loop), 'synthetic' (the learner alone)
      or 'replay' (the games of `replay_path` only, no new self-play).
    num_envs: self-play games played at once by each player of games
      (None: the preset's, split among the actors when num_actors > 0, so
      that as many games are in flight as in one process).
    train_ratio: learner steps per environment step (None: the preset's).
    continuous_selfplay: replace each self-play game as it ends
      (`acting.Actor.play_games`) instead of playing rounds that wait for
      their longest game, in this process or in each actor. None: the
      preset's (`presets.SelfPlaySettings.continuous`).
    overlap_learning: take each move's learner steps in a second thread
      while self-play plays the next move on a copy of the weights
      (`overlapped_learning.py`; data='selfplay', num_actors=0). None: the
      preset's (`presets.SelfPlaySettings.overlap_learning`).
    pad_rounds: search every move of a self-play round with all num_envs
      rows, so that the batched search compiles one program; the games
      are those of unpadded rounds, up to rounding
      (`presets.SelfPlaySettings.pad_rounds`; rounds of a batched search
      only). None: the preset's with the xla search (the graph search
      traces one program for every batch size, so padding gains nothing
      there), off with continuous self-play.
    search: one of `SEARCHES`.
    seed: seed of TensorFlow, self-play, replay and synthetic batches.
    jit_compile: XLA-compile the loss and gradients (one replica or a TPU).
    compute_dtype: 'float32' or 'bfloat16' for the learner's compute.
    log_every: log and write summaries every this many learner steps.
    checkpoint_dir: where to save checkpoints and resume from the newest.
    logdir: where to write TensorBoard summaries.
    export_dir: where to export the inference functions after training.
    allow_config_changes: configuration fields a resumed run may change
      besides `run_config.CHANGEABLE`.
    checkpoint_minutes: also checkpoint after this much wall time since
      the last checkpoint (None: by learner steps only).
    num_actors: self-play actor processes on Ray (`distributed/`); 0 plays
      in the learner's process.
    ray_address: HOST:PORT of a Ray cluster to join (None: start Ray on
      this machine); with num_actors > 0 only.
    publish_interval: learner steps between weight publications to the
      actors (num_actors > 0). 4 by default: actors ask for new weights
      every 0.05 s at most, two or three tic-tac-toe steps, so publishing
      more often mostly costs the learner (docs/distributed.md).
    eval_interval: learner steps between evaluations of the published
      weights by an evaluator process writing `eval/...` scalars to
      `logdir` (num_actors > 0; 0: none).
    eval_games: games per opponent and side (two players) or episodes (one
      player) of each of those evaluations.
    num_reanalyze_workers: reanalyse worker processes on Ray
      (num_actors > 0, reanalyze_fraction > 0); 0 reanalyses in the
      learner's process.
    replay_path: the replay file of data='replay' (`ReplayBuffer.save`).
    export_replay: where to write the run's replay buffer at the end
      (data 'selfplay' or 'replay', num_actors 0).
  """
  preset: str = 'tictactoe'
  title: Optional[str] = None
  data: str = 'selfplay'
  num_envs: Optional[int] = None
  train_ratio: Optional[float] = None
  continuous_selfplay: Optional[bool] = None
  overlap_learning: Optional[bool] = None
  pad_rounds: Optional[bool] = None
  search: str = 'xla'
  seed: int = 0
  jit_compile: bool = True
  compute_dtype: str = 'float32'
  log_every: int = 50
  checkpoint_dir: Optional[str] = None
  logdir: Optional[str] = None
  export_dir: Optional[str] = None
  allow_config_changes: Tuple[str, ...] = ()
  checkpoint_minutes: Optional[float] = None
  num_actors: int = 0
  ray_address: Optional[str] = None
  publish_interval: int = 4
  eval_interval: int = 0
  eval_games: int = 20
  num_reanalyze_workers: int = 0
  replay_path: Optional[str] = None
  export_replay: Optional[str] = None

  def __post_init__(self):
    def fail(name, expected):
      raise ValueError(f'{name} must be {expected}, got '
                       f'{getattr(self, name)!r}.')

    def check_count(name, minimum):  # An int (not a bool) >= 0 or >= 1.
      if type(getattr(self, name)) is not int or getattr(self, name) < minimum:
        fail(name, ('a non-negative', 'a positive')[minimum] + ' integer')
    if self.preset not in presets.PRESETS:
      fail('preset', f'one of {sorted(presets.PRESETS)}')
    if self.data not in DATA_SOURCES:
      fail('data', f'one of {DATA_SOURCES}')
    if self.search not in SEARCHES:
      fail('search', f'one of {SEARCHES}')
    if self.compute_dtype not in mixed_precision.COMPUTE_DTYPES:
      fail('compute_dtype', f'one of {sorted(mixed_precision.COMPUTE_DTYPES)}')
    if self.num_envs is not None and (
        isinstance(self.num_envs, bool) or not isinstance(self.num_envs, int)
        or self.num_envs <= 0):
      fail('num_envs', 'None or a positive integer')
    if self.train_ratio is not None and not (
        isinstance(self.train_ratio, (int, float)) and
        0 < self.train_ratio < float('inf')):
      fail('train_ratio', 'None or a positive finite number')
    if self.checkpoint_minutes is not None and not (
        isinstance(self.checkpoint_minutes, (int, float)) and
        0 < self.checkpoint_minutes < float('inf')):
      fail('checkpoint_minutes', 'None or a positive finite number')
    if not (self.continuous_selfplay is None or
            isinstance(self.continuous_selfplay, bool)):
      fail('continuous_selfplay', 'None, True or False')
    if self.continuous_selfplay and self.data != 'selfplay':
      fail('continuous_selfplay', "False unless data='selfplay'")
    if not (self.overlap_learning is None or
            isinstance(self.overlap_learning, bool)):
      fail('overlap_learning', 'None, True or False')
    if self.overlap_learning and (self.data != 'selfplay' or
                                  self.num_actors):
      fail('overlap_learning', "False unless data='selfplay' in one "
           'process (num_actors=0; actors on Ray overlap already)')
    if not (self.pad_rounds is None or isinstance(self.pad_rounds, bool)):
      fail('pad_rounds', 'None, True or False')
    if self.pad_rounds and (self.data != 'selfplay' or
                            self.continuous_selfplay or
                            self.search == 'reference'):
      fail('pad_rounds', "False unless data='selfplay' plays rounds "
           '(continuous_selfplay off) with a batched search (xla or graph)')
    check_count('log_every', 1)
    check_count('num_actors', 0)
    if self.num_actors and self.data != 'selfplay':
      fail('num_actors', f'0 with data={self.data!r}')
    if (self.data == 'replay') != bool(self.replay_path):
      fail('replay_path', "a file with data='replay' (only then)")
    if self.export_replay and (self.data == 'synthetic' or self.num_actors):
      fail('export_replay', 'None with synthetic data or num_actors > 0 '
           '(no replay buffer in this process)')
    if self.ray_address and not self.num_actors:
      fail('ray_address', 'None unless num_actors > 0')
    check_count('publish_interval', 1)
    check_count('eval_interval', 0)
    check_count('eval_games', 1)
    if self.eval_interval and not self.num_actors:
      fail('eval_interval', '0 unless num_actors > 0')
    check_count('num_reanalyze_workers', 0)
    if self.num_reanalyze_workers and not self.num_actors:
      fail('num_reanalyze_workers', '0 unless num_actors > 0 (reanalyse '
           'workers are Ray processes of the distributed mode)')

  @property
  def self_play(self) -> presets.SelfPlaySettings:
    """The preset's self-play settings with this run's overrides.

    `num_envs` is per actor: by default the actors share the preset's
    games (rounded up), so each game's moves span as many learner steps as
    in one process and the replay's window covers as many learner steps.
    """
    defaults = presets.get_self_play(self.preset)
    num_envs = self.num_envs
    if num_envs is None:
      num_envs = -(-defaults.num_envs // max(self.num_actors, 1))
    continuous = self.continuous_selfplay
    if continuous is None:
      continuous = defaults.continuous and self.data == 'selfplay'
    overlap = self.overlap_learning
    if overlap is None:
      overlap = (defaults.overlap_learning and self.data == 'selfplay' and
                 not self.num_actors)
    pad_rounds = self.pad_rounds
    if pad_rounds is None:
      pad_rounds = (defaults.pad_rounds and self.data == 'selfplay' and
                    not continuous and self.search == 'xla')
    return presets.SelfPlaySettings(
        num_envs=num_envs,
        train_ratio=self.train_ratio or defaults.train_ratio,
        continuous=continuous,
        overlap_learning=overlap,
        pad_rounds=pad_rounds)

  def overlaps_learning(self, config: config_lib.MuZeroConfig) -> bool:
    """Whether the run takes its learner steps beside self-play.

    The setting, or the preset's; a preset's default gives way to
    reanalysis (whose searches read the learner's network), an explicit
    True does not (`experiment.check_reanalysis` refuses the pair).
    """
    if self.overlap_learning is None and config.reanalyze_fraction:
      return False
    return self.data == 'selfplay' and self.self_play.overlap_learning

  def run_config(self, config: config_lib.MuZeroConfig
                ) -> run_config.RunConfig:
    """What defines the run, as saved beside its checkpoints."""
    values = {'data': self.data, 'seed': self.seed}
    if self.data == 'replay':
      values.update(replay_path=self.replay_path, search=self.search)
    if self.data == 'selfplay':
      self_play = self.self_play
      values.update(env=self.title, num_envs=self_play.num_envs,
                    train_ratio=self_play.train_ratio, search=self.search)
      if self_play.continuous:
        values.update(continuous_selfplay=True)
      if self_play.pad_rounds:
        values.update(pad_rounds=True)
      if self.overlaps_learning(config):
        values.update(overlap_learning=True)
    return run_config.RunConfig(self.preset, config, values)
