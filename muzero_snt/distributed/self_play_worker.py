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
"""A self-play actor process: the library's `acting.Actor` on its own
network copy, feeding the replay service.

Run as a Ray actor with `max_restarts=-1` (`runner.py`). Its constructor
builds the network, the search (`search.make_search`) and the environments
and starts the self-play loop in a thread, so a process that Ray restarts
(after a crash or kill -9) plays again without being asked; the games it
had in progress are lost. Its search's programs compile before the first
weights arrive (the learner compiles its step meanwhile).

It plays in one of two ways (`RunConfig.continuous_selfplay`):

* rounds: one game per environment with `Actor.play_round`, all to their
  end; it sends a round's games to the replay service while it plays the
  next round, and before sending again waits for that call, which the
  service holds while the actor is too far ahead;
* continuous: `Actor.play_games`, a new game in each slot as soon as its
  game ends, so the batched search stays full; the games that ended are
  sent after the move they ended on if the last `insert` has returned, and
  otherwise kept until it has (the actor waits for it once `num_envs`
  games are kept), so it is as far ahead as with rounds at most.

Fresh weights: after every batched move the actor looks, without waiting,
at the answer to its last question to the weight store, and takes newer
weights there and then; the next question goes out once 0.05 s have passed
since the last (about one learner step of the small presets). The games of a
round are therefore played by weights at most a move's wait behind the
newest publication, as in one process where the actor and the learner
share the network. Taking weights only between rounds (a round of 32
tic-tac-toe games is about 24 learner steps) played whole rounds with one
stale, and at the preset's learning rate sometimes degenerate, network: a
1-actor run lost 50 / 46 of 50 games to the perfect player at 4,000
learner steps where one process lost 0 / 12 (docs/distributed.md).
"""

import os
import time
from typing import Any, Dict, List, Optional

import numpy as np

from muzero_snt import acting
from muzero_snt.run import builders
from muzero_snt import config as config_lib
from muzero_snt import search as search_lib
from muzero_snt.distributed import replay_service
from muzero_snt.distributed import weight_store
from muzero_snt.distributed import worker_setup

# Seconds between looks at the weight store before the first publication.
_POLL = 0.05
# Seconds between questions to the weight store while playing: about one
# learner step of the small presets (tic-tac-toe takes 20-30 ms a step
# here), and 20 questions a second per actor at most.
_ASK_INTERVAL = 0.05


def _seed(*parts: int) -> int:
  return int(np.random.SeedSequence(list(parts)).generate_state(1)[0])


class SelfPlayWorker(worker_setup.LoopThread):
  """Plays self-play games in a thread, for as long as the process lives."""

  def __init__(self, index: int, config: config_lib.MuZeroConfig,
               preset: str, title: Optional[str], search: str,
               num_envs: int, seed: int, service: str, weights: str,
               threads: int = 1, continuous: bool = False,
               pad_rounds: bool = False, environment=None):
    """Builds the actor and starts its loop.

    Args:
      index: this actor's number among the run's actors.
      config: the run's configuration.
      preset: names the environment (`presets.preset_names()`); None with
        `environment`.
      title: the game of a titled preset, or None.
      search: one of `search.SEARCH_KINDS`.
      num_envs: games played at once.
      seed: the run's seed; each actor and each restart draws its own.
      service: the `ReplayService` actor's name. Names, not handles: Ray
        cannot always restart an actor whose constructor took handles.
      weights: the `WeightStore` actor's name.
      threads: TensorFlow's threads in this process.
      continuous: replace each game as it ends (`Actor.play_games`) and
        send games as they end, instead of rounds (`Actor.play_round`).
      pad_rounds: search every move of a round with `num_envs` rows: one
        compiled search program (`RunConfig.pad_rounds`).
      environment: the user's environment factory or its import string
        (`RunConfig.environment`), or None.
    """
    self._worker = worker_setup.set_up(
        config, search, weights, threads,
        min_batch_size=num_envs if pad_rounds else 1)
    self._ray = self._worker.ray
    self._index = index
    self._config = config
    self._service = self._ray.get_actor(service)
    self._make_environment = builders.make_environment_factory(
        preset, config, title, environment)
    self._num_envs = num_envs
    self._seed = seed
    self._continuous = bool(continuous)
    self._version = weight_store.NO_VERSION
    self._asked = None  # The pending `WeightStore.latest` call.
    self._asked_at = -float('inf')  # time.monotonic() of the last one.
    self._rounds = 0
    self._games_sent = 0
    self._inserts = 0
    self._inserting = None  # The last `insert` call, if it may be pending.
    self._start_loop(f'self-play-{index}')

  def _update_weights(self, wait: bool = True) -> None:
    """Takes the store's newest weights if they are newer than ours.

    Args:
      wait: wait for the store's answer; otherwise use it only if it has
        come, and ask again only `_ASK_INTERVAL` seconds after the last
        question (one question is in flight at a time).
    """
    if self._asked is None:
      if not wait and time.monotonic() - self._asked_at < _ASK_INTERVAL:
        return
      self._asked = self._worker.weights.latest.remote()
      self._asked_at = time.monotonic()
    if not wait:
      ready, _ = self._ray.wait([self._asked], timeout=0)
      if not ready:
        return
    self._version = worker_setup.take_newer_weights(
        self._worker, self._asked, self._version)
    self._asked = None

  def _insert(self, results: List[acting.GameResult]) -> None:
    """Sends finished games, once the last `insert` has returned (held by
    the service while this actor is too far ahead of the learner)."""
    # The newest weights that played in these games.
    games = [replay_service.Game(r.trajectory, r.episode_return,
                                 self._version) for r in results]
    if self._inserting is not None:
      self._ray.get(self._inserting)
    self._inserting = self._service.insert.remote(self._index, games)
    self._inserts += 1
    self._games_sent += len(games)

  def _insert_ready(self) -> bool:
    """Whether an `insert` now would not wait for the last one."""
    if self._inserting is None:
      return True
    ready, _ = self._ray.wait([self._inserting], timeout=0)
    return bool(ready)

  def _loop(self) -> None:
    incarnation = self._ray.get(
        self._service.register.remote(self._index, os.getpid()))
    actor = acting.Actor(
        self._config, self._worker.search,
        search_lib.NetworkModel(self._worker.network),
        self._make_environment,
        seed=_seed(self._seed, self._index, incarnation),
        num_envs=self._num_envs)
    compile_search = actor.compile_function(self._continuous)
    if compile_search is not None:
      # While the learner compiles its step: the programs depend on the
      # shapes only, not on the weights still to come.
      compile_search()
    while not self._stop.is_set():
      self._update_weights()
      if self._version == weight_store.NO_VERSION:
        self._stop.wait(_POLL)
        continue
      if self._continuous:
        self._play_games(actor)
      else:
        self._insert(actor.play_round(
            self._rounds, training_steps=lambda: self._version,
            on_move=lambda _: self._update_weights(wait=False)))
      self._rounds += 1

  def _play_games(self, actor: acting.Actor) -> None:
    """One `Actor.play_games` call: `num_envs` games end, sent as they do."""
    ended: List[acting.GameResult] = []

    def on_move(_) -> None:
      self._update_weights(wait=False)
      if ended and (len(ended) >= self._num_envs or self._insert_ready()):
        self._insert(ended)
        ended.clear()

    actor.play_games(self._rounds, training_steps=lambda: self._version,
                     on_move=on_move, should_stop=self._stop.is_set,
                     on_game_end=ended.append)
    if ended:
      self._insert(ended)

  def status(self) -> Dict[str, Any]:
    """Rounds played (`play_games` calls when continuous), games sent and
    the `insert` calls that sent them, the weights' version, and the
    loop's error if any."""
    return {'rounds': self._rounds, 'games': self._games_sent,
            'inserts': self._inserts, 'version': self._version,
            'error': self._error}
