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
"""A self-play actor process: `acting.Actor` feeding the replay service.

Its constructor starts the self-play loop, so a process that Ray restarts
plays again unasked (the games in progress are lost). The search compiles
before the first weights arrive, while the learner compiles its step.

It plays in one of two ways (`RunConfig.continuous_selfplay`):

* rounds: one game per environment with `Actor.play_round`, all to their
  end; a round's games are sent while the next round is played, and the
  actor waits for that `insert` (which the service holds while the actor
  is too far ahead) before sending again;
* continuous: `Actor.play_games`, a new game in each slot as soon as its
  game ends; the games that ended are sent after the move they ended on
  if the last `insert` has returned, and kept otherwise (waiting for it
  once `num_envs` are kept), so the actor is at most as far ahead.

After every batched move the actor takes newer weights if the store's
answer has come (`weight_store.Follower`), so a round is played by weights
at most a move behind the newest publication, as in one process; taking
them only between rounds played whole rounds with one stale network and
learnt far worse (docs/distributed.md).
"""

import os
from typing import Any, Dict, List, Optional

from muzero_snt import acting
from muzero_snt import config as config_lib
from muzero_snt import search as search_lib
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import worker_setup
from muzero_snt.run import builders

# Seconds between looks at the weight store before the first publication.
_POLL = 0.05


class SelfPlayWorker(worker_setup.Worker):
  """Plays self-play games in a thread, for as long as the process lives."""

  def __init__(self, index: int, config: config_lib.MuZeroConfig,
               preset: str, title: Optional[str], search: str,
               num_envs: int, seed: int, service: str, weights: str,
               threads: int = 1, continuous: bool = False,
               pad_rounds: bool = False):
    """Builds the actor and starts its loop.

    Args:
      index: this actor's number among the run's actors.
      config: the run's configuration.
      preset: names the environment (`presets.PRESETS`).
      title: the game of a titled preset, or None.
      search: one of `search.SEARCH_KINDS`.
      num_envs: games played at once.
      seed: the run's seed; each actor and each restart draws its own.
      service: the `ReplayService` actor's name.
      weights: the `WeightStore` actor's name.
      threads: TensorFlow's threads in this process.
      continuous: replace each game as it ends (`Actor.play_games`) and
        send games as they end, instead of rounds (`Actor.play_round`).
      pad_rounds: search every move of a round with `num_envs` rows: one
        compiled search program (`RunConfig.pad_rounds`).
    """
    self._set_up(config, search, weights, service, threads,
                 min_batch_size=num_envs if pad_rounds else 1)
    self._index = index
    self._config = config
    self._make_environment = builders.make_environment_factory(
        preset, config, title)
    self._num_envs = num_envs
    self._seed = seed
    self._continuous = bool(continuous)
    self._rounds = 0
    self._games_sent = 0
    self._inserts = 0
    self._inserting = None  # The last `insert` call, if it may be pending.
    self._start_loop(f'self-play-{index}')

  def _insert(self, results: List[acting.GameResult]) -> None:
    """Sends finished games, once the last `insert` has returned."""
    games = [replay_service.Game(r.trajectory, r.episode_return)
             for r in results]
    if self._inserting is not None:
      self._ray.get(self._inserting)
    self._inserting = self._service.insert.remote(self._index, games)
    self._inserts += 1
    self._games_sent += len(games)

  def _insert_ready(self) -> bool:
    """Whether an `insert` now would not wait for the last one."""
    return (self._inserting is None or
            bool(self._ray.wait([self._inserting], timeout=0)[0]))

  def _loop(self) -> None:
    incarnation = self._ray.get(
        self._service.register.remote(self._index, os.getpid()))
    actor = acting.Actor(
        self._config, self._search, search_lib.NetworkModel(self._network),
        self._make_environment,
        seed=worker_setup.seed(self._seed, self._index, incarnation),
        num_envs=self._num_envs)
    compile_search = actor.compile_function(self._continuous)
    if compile_search is not None:
      compile_search()  # Shapes only: the weights may come later.
    if not self._await_weights(_POLL):
      return
    while not self._stop.is_set():
      self._weights.update()
      if self._continuous:
        self._play_games(actor)
      else:
        self._insert(actor.play_round(
            self._rounds, training_steps=lambda: self._weights.version,
            on_move=lambda _: self._weights.update(wait=False)))
      self._rounds += 1

  def _play_games(self, actor: acting.Actor) -> None:
    """One `Actor.play_games` call: `num_envs` games end, sent as they do."""
    ended: List[acting.GameResult] = []

    def on_move(_) -> None:
      self._weights.update(wait=False)
      if ended and (len(ended) >= self._num_envs or self._insert_ready()):
        self._insert(ended)
        ended.clear()

    actor.play_games(self._rounds, training_steps=lambda: self._weights.version,
                     on_move=on_move, should_stop=self._stop.is_set,
                     on_game_end=ended.append)
    if ended:
      self._insert(ended)

  def _progress(self) -> Dict[str, Any]:
    """Rounds played (`play_games` calls when continuous), games sent and
    the `insert` calls that sent them, and the weights' version."""
    return {'rounds': self._rounds, 'games': self._games_sent,
            'inserts': self._inserts, 'version': self._weights.version}
