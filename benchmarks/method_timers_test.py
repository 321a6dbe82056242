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
"""Tests for `benchmarks/method_timers.py`, on a fake clock."""

from absl.testing import absltest

from benchmarks import method_timers


class _Clock:
  """A clock that moves only when `advance` is called."""

  def __init__(self):
    self.now = 100.

  def __call__(self):
    return self.now

  def advance(self, seconds):
    self.now += seconds


class _Base:

  def inherited(self):
    return 'base'


class _Worker(_Base):

  def __init__(self, clock):
    self.clock = clock

  def outer(self, x):
    self.clock.advance(1.)
    self.inner()
    self.clock.advance(0.5)
    return 2 * x

  def inner(self):
    self.clock.advance(0.25)

  def fails(self):
    self.clock.advance(3.)
    raise RuntimeError('boom')


class MethodTimersTest(absltest.TestCase):

  def setUp(self):
    super().setUp()
    self.clock = _Clock()
    self.timers = method_timers.MethodTimers(clock=self.clock)

  def test_a_caller_counts_its_callees_and_each_call_counts(self):
    self.timers.wrap(_Worker, 'outer', 'outer')
    self.timers.wrap(_Worker, 'inner', 'inner')
    worker = _Worker(self.clock)
    with self.timers:
      self.assertEqual(worker.outer(3), 6)
      self.assertEqual(worker.outer(4), 8)
      worker.inner()
    # outer: (1 + 0.25 + 0.5) x 2; inner: 0.25 x 3.
    self.assertAlmostEqual(self.timers.seconds['outer'], 3.5)
    self.assertAlmostEqual(self.timers.seconds['inner'], 0.75)
    self.assertEqual(self.timers.calls['outer'], 2)
    self.assertEqual(self.timers.calls['inner'], 3)

  def test_a_call_that_raises_is_timed_and_the_error_passes(self):
    self.timers.wrap(_Worker, 'fails', 'fails')
    with self.timers:
      with self.assertRaisesRegex(RuntimeError, 'boom'):
        _Worker(self.clock).fails()
    self.assertAlmostEqual(self.timers.seconds['fails'], 3.)
    self.assertEqual(self.timers.calls['fails'], 1)

  def test_the_methods_are_put_back_after_the_block(self):
    own, inherited = _Worker.__dict__['outer'], _Worker.inherited
    self.timers.wrap(_Worker, 'outer', 'outer')
    self.timers.wrap(_Worker, 'inherited', 'inherited')
    with self.timers:
      self.assertIsNot(_Worker.__dict__['outer'], own)
      self.assertIn('inherited', _Worker.__dict__)
      self.assertEqual(_Worker(self.clock).inherited(), 'base')
    self.assertIs(_Worker.__dict__['outer'], own)
    self.assertNotIn('inherited', _Worker.__dict__)
    self.assertIs(_Worker.inherited, inherited)
    _Worker(self.clock).outer(1)  # Not counted: outside the block.
    self.assertEqual(self.timers.calls['outer'], 0)
    self.assertEqual(self.timers.calls['inherited'], 1)

  def test_an_unknown_or_repeated_method_is_refused(self):
    with self.assertRaisesRegex(AttributeError, '_Worker has no method'):
      self.timers.wrap(_Worker, 'missing', 'x')
    self.timers.wrap(_Worker, 'inner', 'inner')
    with self.assertRaisesRegex(ValueError, r'_Worker.inner is already'):
      self.timers.wrap(_Worker, 'inner', 'again')


class PerStepTest(absltest.TestCase):

  def test_rows_by_hand(self):
    timers = method_timers.MethodTimers()
    timers.seconds.update({'compile': 10., 'step': 8., 'batch': 1.,
                           'move': 3., 'search': 2.})
    timers.calls.update({'compile': 1, 'step': 400, 'batch': 400,
                         'move': 100, 'search': 100})
    rows = method_timers.per_step(
        timers, ['compile', 'step', 'batch', 'move', 'search'],
        disjoint=['compile', 'step', 'batch', 'move'], paid_once='compile',
        total=25., steps=400)
    # The rest: 25 - (10 + 8 + 1 + 3) = 3 s; per step in ms: s / 400 x 1000.
    self.assertAlmostEqual(rows['the rest']['seconds'], 3.)
    self.assertAlmostEqual(rows['the rest']['ms_per_step'], 7.5)
    self.assertAlmostEqual(rows['step']['ms_per_step'], 20.)
    self.assertAlmostEqual(rows['search']['ms_per_step'], 5.)
    self.assertEqual(rows['compile']['ms_per_step'], 0.)
    # The total's per-step time leaves compilation out: (25 - 10) / 400.
    self.assertAlmostEqual(rows['total']['ms_per_step'], 37.5)
    self.assertEqual(list(rows)[-2:], ['the rest', 'total'])


if __name__ == '__main__':
  absltest.main()
