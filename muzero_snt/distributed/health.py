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
"""The learner's watch over its worker processes and Ray's nodes.

A worker's failed loop (a bug) stops the run; Ray starts a dead worker
again where its placement allows while the run goes on, and the watch
logs each change once, so that nothing is lost silently.
"""

import time
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from absl import logging

SILENT_SECONDS = 30.  # Seconds without an answer before a worker is missing.
_ANSWER_TIMEOUT = 1.  # Seconds `check` waits for the workers' answers.


class Watched(NamedTuple):
  """A worker process the learner watches."""
  name: str  # As the logs and errors name it, e.g. 'Self-play actor 0'.
  handle: Any  # Its Ray actor handle.
  lost: str  # What its death loses, e.g. 'the games it was playing'.
  placement: str  # The `RunConfig` field that places it.


def _node_name(node_id: Optional[str], nodes: Dict[str, Dict[str, Any]]
              ) -> str:
  """'node 1a2b3c4d (10.0.0.5)'."""
  if node_id is None:
    return 'an unknown node'
  address = nodes.get(node_id, {}).get('NodeManagerAddress')
  return f'node {node_id[:8]}' + (f' ({address})' if address else '')


def _join(names: Sequence[str]) -> str:
  """'a, b and c' of worker names, lower case but at the start."""
  names = [names[0]] + [n[0].lower() + n[1:] for n in names[1:]]
  return names[0] if len(names) < 2 else (
      ', '.join(names[:-1]) + ' and ' + names[-1])


class Watch:
  """Asks a run's workers how they are; logs deaths, restarts and nodes."""

  def __init__(self, ray: Any, workers: Sequence[Watched]):
    self._ray = ray
    self._workers = tuple(workers)
    self._pending: Dict[str, Any] = {}  # Unanswered `status` calls.
    # (pid, node id) of each worker's process when it last answered.
    self._seen: Dict[str, Tuple[int, Optional[str]]] = {}
    self._silent_since: Dict[str, float] = {}
    self._reported_silent = set()
    # Every node Ray has reported, by id (alive or not), and the live ones.
    self._nodes: Dict[str, Dict[str, Any]] = {}
    self._alive: Optional[set] = None

  def check(self) -> Dict[str, Optional[Dict[str, Any]]]:
    """Every worker's `status`, None for one that has not answered (within
    1 s; the question stays in flight); logs what changed: nodes lost or
    joined, workers restarted or silent for `SILENT_SECONDS`. Raises
    RuntimeError naming a worker whose loop failed, with its traceback."""
    asked = []
    for worker in self._workers:
      if worker.name not in self._pending:
        self._pending[worker.name] = worker.handle.status.remote()
        asked.append(self._pending[worker.name])
    # Only new questions are waited for: one a worker left unanswered at
    # the last check (Ray cannot place it) would cost every check 1 s.
    if asked:
      self._ray.wait(asked, num_returns=len(asked), timeout=_ANSWER_TIMEOUT)
    now = time.monotonic()
    statuses: Dict[str, Optional[Dict[str, Any]]] = {}
    for worker in self._workers:
      call = self._pending[worker.name]
      status = None
      if self._ray.wait([call], timeout=0)[0]:
        del self._pending[worker.name]
        try:
          status = self._ray.get(call)
        except Exception:  # pylint: disable=broad-except
          pass  # Its process died; Ray may be starting another.
      statuses[worker.name] = status
      if status is not None and status['error']:
        raise RuntimeError(f'{worker.name} failed:\n{status["error"]}')
    self._see_nodes()
    placed = []
    for worker in self._workers:
      status = statuses[worker.name]
      if status is None:
        self._silent(worker, now)
      else:
        placed += self._answered(worker, status)
    if placed:
      placed[0] = placed[0][0].lower() + placed[0][1:]
      logging.info('Ray placed %s.', _join(placed))
    return statuses

  def _answered(self, worker: Watched, status: Dict[str, Any]) -> List[str]:
    """Logs a new process of `worker`; returns where a first one runs."""
    self._silent_since.pop(worker.name, None)
    self._reported_silent.discard(worker.name)
    where = (status['pid'], status['node'])
    before = self._seen.get(worker.name)
    self._seen[worker.name] = where
    if before is None:
      return [f'{worker.name} on {_node_name(where[1], self._nodes)}']
    if before != where:
      logging.warning(
          '%s runs again: its process (pid %d on %s) died and Ray started '
          'another (pid %d on %s). Lost: %s.', worker.name, before[0],
          _node_name(before[1], self._nodes), where[0],
          _node_name(where[1], self._nodes), worker.lost)
    return []

  def _silent(self, worker: Watched, now: float) -> None:
    """Logs once that `worker` has not answered for `SILENT_SECONDS`."""
    since = self._silent_since.setdefault(worker.name, now)
    if (now - since < SILENT_SECONDS or
        worker.name in self._reported_silent):
      return
    self._reported_silent.add(worker.name)
    if worker.name not in self._seen:
      logging.warning(
          '%s has not started in %.0f s: Ray has not placed it, as no live '
          'node has what %s asks for, or it is still starting. The run goes '
          'on without it meanwhile.', worker.name, now - since,
          worker.placement)
      return
    pid, node = self._seen[worker.name]
    logging.warning(
        '%s has not answered for %.0f s (its process, pid %d on %s%s, '
        'died): Ray has not started it again, as no live node has what %s '
        'asks for, or it is still starting. The run goes on without it; it '
        'joins once Ray places it.', worker.name, now - since, pid,
        _node_name(node, self._nodes),
        ', now gone' if node not in (self._alive or ()) else '',
        worker.placement)

  def _see_nodes(self) -> None:
    """Logs the nodes Ray lost or gained since the last check."""
    for node in self._ray.nodes():
      self._nodes[node['NodeID']] = node
    alive = {i for i, node in self._nodes.items() if node['Alive']}
    if self._alive is not None:
      for node_id in sorted(self._alive - alive):
        node = self._nodes[node_id]
        ran = [w.name for w in self._workers
               if self._seen.get(w.name, (None, None))[1] == node_id]
        logging.warning(
            'Ray lost %s: %s. %s', _node_name(node_id, self._nodes),
            node.get('DeathReasonMessage') or 'no reason given',
            f'{_join(ran)} ran there; Ray starts '
            f'{"them" if len(ran) > 1 else "it"} again on the nodes left, '
            'where one has room.' if ran else
            'None of this run\'s workers ran there.')
      for node_id in sorted(alive - self._alive):
        logging.info('Ray: %s joined the cluster.',
                     _node_name(node_id, self._nodes))
    self._alive = alive
