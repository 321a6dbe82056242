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
had in progress are lost. It plays rounds of one game per environment with
`Actor.play_round` and sends the finished games to the replay service
while it plays the next round; before sending again it waits for that
call, which the service holds while the actor is too far ahead.

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
from typing import Any, Dict, Optional

import numpy as np

from muzero_snt import acting
from muzero_snt import builders
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
  """Plays self-play rounds in a thread, for as long as the process lives."""

  def __init__(self, index: int, config: config_lib.MuZeroConfig,
               preset: str, title: Optional[str], search: str,
               num_envs: int, seed: int, service: str, weights: str,
               threads: int = 1):
    """Builds the actor and starts its loop.

    Args:
      index: this actor's number among the run's actors.
      config: the run's configuration.
      preset: names the environment (`presets.PRESETS`).
      title: the game of a titled preset, or None.
      search: one of `search.SEARCH_KINDS`.
      num_envs: games played at once.
      seed: the run's seed; each actor and each restart draws its own.
      service: the `ReplayService` actor's name. Names, not handles: Ray
        cannot always restart an actor whose constructor took handles.
      weights: the `WeightStore` actor's name.
      threads: TensorFlow's threads in this process.
    """
    self._worker = worker_setup.set_up(config, search, weights, threads)
    self._ray = self._worker.ray
    self._index = index
    self._config = config
    self._service = self._ray.get_actor(service)
    self._make_environment = builders.make_environment_factory(
        preset, config, title)
    self._num_envs = num_envs
    self._seed = seed
    self._version = weight_store.NO_VERSION
    self._asked = None  # The pending `WeightStore.latest` call.
    self._asked_at = -float('inf')  # time.monotonic() of the last one.
    self._rounds = 0
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

  def _loop(self) -> None:
    incarnation = self._ray.get(
        self._service.register.remote(self._index, os.getpid()))
    actor = acting.Actor(
        self._config, self._worker.search,
        search_lib.NetworkModel(self._worker.network),
        self._make_environment,
        seed=_seed(self._seed, self._index, incarnation),
        num_envs=self._num_envs)
    inserting = None  # The previous round's `insert` call.
    while not self._stop.is_set():
      self._update_weights()
      if self._version == weight_store.NO_VERSION:
        self._stop.wait(_POLL)
        continue
      results = actor.play_round(
          self._rounds, training_steps=lambda: self._version,
          on_move=lambda _: self._update_weights(wait=False))
      # The newest weights that played in these games.
      games = [replay_service.Game(r.trajectory, r.episode_return,
                                   self._version) for r in results]
      if inserting is not None:
        # Held here while the service still holds the last round's games
        # back (too far ahead of the learner): at most one round queued.
        self._ray.get(inserting)
      inserting = self._service.insert.remote(self._index, games)
      self._rounds += 1

  def status(self) -> Dict[str, Any]:
    """Rounds played, the weights' version, and the loop's error if any."""
    return {'rounds': self._rounds, 'version': self._version,
            'error': self._error}
