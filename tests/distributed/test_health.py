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
"""Tests of the learner's watch over its workers (a stand-in for Ray)."""

from unittest import mock

from muzero_snt.distributed import health
from tests import testing


class _Call:
  """A call's answer as the stand-in's `wait` and `get` see it."""

  def __init__(self, answer=None, ready=True):
    self.answer, self.ready = answer, ready


class _Ray:
  """What the watch asks of Ray: `wait`, `get` and the node table."""

  def __init__(self):
    self.nodes_alive = {'aaaa1111ffff': True, 'bbbb2222ffff': True}

  def wait(self, calls, num_returns=1, timeout=None):
    del num_returns, timeout
    return ([c for c in calls if c.ready], [c for c in calls if not c.ready])

  def get(self, call):
    if isinstance(call.answer, Exception):
      raise call.answer
    return call.answer

  def nodes(self):
    return [{'NodeID': node, 'Alive': alive, 'NodeManagerAddress': '10.0.0.'
             + str(i + 1), 'DeathReasonMessage': '' if alive else 'lost'}
            for i, (node, alive) in enumerate(self.nodes_alive.items())]


class _Worker:
  """A worker handle whose `status.remote()` answers `answer` (a status
  dict, an exception, or None for no answer yet)."""

  def __init__(self):
    self.answer = None
    self.calls = 0
    self.status = mock.Mock(remote=self._remote)

  def _remote(self):
    self.calls += 1
    return _Call(self.answer, ready=self.answer is not None)


def _status(pid, node, error=None):
  return {'error': error, 'pid': pid, 'node': node, 'version': 3}


class WatchTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    self.ray = _Ray()
    self.actor, self.evaluator = _Worker(), _Worker()
    self.now = [0.]
    clock = mock.Mock(monotonic=lambda: self.now[0])
    patcher = mock.patch.object(health, 'time', clock)
    patcher.start()
    self.addCleanup(patcher.stop)
    self.watch = health.Watch(self.ray, [
        health.Watched('Self-play actor 0', self.actor, 'its games',
                       'actor_placement'),
        health.Watched('The evaluator', self.evaluator, 'its evaluation',
                       'evaluator_placement')])

  def _check(self, at):
    self.now[0] = at
    with self.assertLogs(level='INFO') as logs:
      health.logging.info('-')  # assertLogs needs one line at least.
      statuses = self.watch.check()
    return statuses, [r.getMessage() for r in logs.records[1:]]

  def test_first_answers_log_where_each_worker_runs(self):
    self.actor.answer = _status(11, 'aaaa1111ffff')
    self.evaluator.answer = _status(12, 'bbbb2222ffff')
    statuses, lines = self._check(0.)
    self.assertEqual(statuses['Self-play actor 0']['pid'], 11)
    self.assertEqual(lines, [
        'Ray placed self-play actor 0 on node aaaa1111 (10.0.0.1) and the '
        'evaluator on node bbbb2222 (10.0.0.2).'])
    _, lines = self._check(10.)
    self.assertEqual(lines, [])  # Nothing changed: nothing said.

  def test_a_lost_node_its_workers_and_their_restart_are_logged(self):
    self.actor.answer = _status(11, 'aaaa1111ffff')
    self.evaluator.answer = _status(12, 'bbbb2222ffff')
    self._check(0.)
    # Node a dies with the actor; Ray has not started another yet.
    self.ray.nodes_alive['aaaa1111ffff'] = False
    self.actor.answer = RuntimeError('actor died')
    statuses, lines = self._check(10.)
    self.assertIsNone(statuses['Self-play actor 0'])
    self.assertEqual(lines, [
        'Ray lost node aaaa1111 (10.0.0.1): lost. Self-play actor 0 ran '
        'there; Ray starts it again on the nodes left, where one has room.'])
    # Ray's new process answers from node b: what the old one lost is said.
    self.actor.answer = _status(21, 'bbbb2222ffff')
    _, lines = self._check(20.)
    self.assertEqual(lines, [
        'Self-play actor 0 runs again: its process (pid 11 on node aaaa1111 '
        '(10.0.0.1)) died and Ray started another (pid 21 on node bbbb2222 '
        '(10.0.0.2)). Lost: its games.'])

  def test_a_worker_no_node_can_hold_is_logged_once(self):
    self.actor.answer = _status(11, 'aaaa1111ffff')
    self.evaluator.answer = _status(12, 'aaaa1111ffff')
    self._check(0.)
    self.ray.nodes_alive['aaaa1111ffff'] = False
    self.evaluator.answer = None  # Its call waits: Ray cannot place it.
    self.actor.answer = _status(21, 'bbbb2222ffff')
    calls = self.evaluator.calls
    self._check(10.)
    _, lines = self._check(10. + health.SILENT_SECONDS - 0.1)
    self.assertEqual(lines, [])
    _, lines = self._check(10. + health.SILENT_SECONDS)
    self.assertEqual(lines, [
        f'The evaluator has not answered for {health.SILENT_SECONDS:.0f} s '
        '(its process, pid 12 on node aaaa1111 (10.0.0.1), now gone, died): '
        'Ray has not started it again, as no live node has what '
        'evaluator_placement asks for, or it is still starting. The run '
        'goes on without it; it joins once Ray places it.'])
    _, lines = self._check(100.)
    self.assertEqual(lines, [])  # Said once.
    # One question in flight, not one per check.
    self.assertEqual(self.evaluator.calls, calls + 1)

  def test_a_worker_that_never_starts_is_logged_once(self):
    self.actor.answer = _status(11, 'aaaa1111ffff')
    self._check(0.)
    _, lines = self._check(health.SILENT_SECONDS)
    self.assertEqual(lines, [
        f'The evaluator has not started in {health.SILENT_SECONDS:.0f} s: '
        'Ray has not placed it, as no live node has what evaluator_placement '
        'asks for, or it is still starting. The run goes on without it '
        'meanwhile.'])
    self.evaluator.answer = _status(12, 'bbbb2222ffff')
    _, lines = self._check(health.SILENT_SECONDS + 1)
    self.assertEqual(lines, [])  # Its first process: nothing was lost.

  def test_a_failed_loop_is_raised_with_its_traceback(self):
    self.actor.answer = _status(11, 'aaaa1111ffff')
    self.evaluator.answer = _status(12, 'aaaa1111ffff',
                                    error='Traceback ...\nValueError: boom')
    with self.assertRaisesRegex(
        RuntimeError, '(?s)The evaluator failed:\nTraceback .*boom'):
      self.watch.check()

