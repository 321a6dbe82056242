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
"""Tests of benchmarks/reporting.py: medians, flags, timing loops, peers."""

import functools
import json
import time
from unittest import mock

from absl import app
from absl import flags
from absl.testing import absltest
import numpy as np
import pytest

from benchmarks import reporting
from benchmarks.peers import side_by_side


class WithMediansTest(absltest.TestCase):

  def test_a_list_of_numbers_becomes_its_median_and_values(self):
    self.assertEqual(reporting.with_medians([3, 1, 2, 10]),
                     {'median': 2.5, 'values': [3, 1, 2, 10]})
    self.assertEqual(
        reporting.with_medians({'a': [np.float32(4.0), 1.0, 9.0]})['a'],
        {'median': 4.0, 'values': [4.0, 1.0, 9.0]})

  def test_a_list_of_records_keeps_its_records_each_with_medians(self):
    # A benchmark that reports one record per checkpoint (tactics):
    # the records stay a list, in order, and their own lists get medians.
    tree = {'checkpoints': [{'step': 7, 'depths': [1, 5, 2]},
                            {'step': 9, 'depths': [4]}],
            'config': ['lr_init=0.1', 'td_steps=5'],
            'flags': [True, False], 'empty': []}
    out = reporting.with_medians(tree)
    self.assertEqual(out['checkpoints'], [
        {'step': 7, 'depths': {'median': 2, 'values': [1, 5, 2]}},
        {'step': 9, 'depths': {'median': 4, 'values': [4]}}])
    self.assertEqual(out['config'], ['lr_init=0.1', 'td_steps=5'])
    self.assertEqual(out['flags'], [True, False])
    self.assertEqual(out['empty'], [])
    json.dumps(out)  # What `report` writes.
    # A report of reports (presets --isolate) keeps their medians.
    self.assertEqual(reporting.with_medians(out), out)


class RotatedRatesTest(absltest.TestCase):

  def test_order_rotates_and_rates_are_work_over_seconds(self):
    # A fake clock: task a takes 1 s a call, b 2 s, c 4 s.
    clock = [0.]
    order = []

    def task(name, seconds):
      def run():
        order.append(name)
        clock[0] += seconds
      return run

    tasks = {'a': (task('a', 1.), 2, 10.), 'b': (task('b', 2.), 1, 6.),
             'c': (task('c', 4.), 1, 8.)}
    seen = []
    with mock.patch.object(reporting.time, 'perf_counter',
                           lambda: clock[0]):
      rates = reporting.rotated_rates(
          tasks, 3, lambda repeat, rates: seen.append(
              (repeat, len(rates['a']))))
    # Repeat r starts at the r-th task; a runs its 2 calls in a row.
    self.assertEqual(order, ['a', 'a', 'b', 'c', 'b', 'c', 'a', 'a',
                             'c', 'a', 'a', 'b'])
    # calls x work / seconds: a 2 x 10 / 2, b 6 / 2, c 8 / 4.
    self.assertEqual(rates, {'a': [10.] * 3, 'b': [3.] * 3, 'c': [2.] * 3})
    self.assertEqual(seen, [(0, 1), (1, 2), (2, 3)])


class _Clock:
  """`time.perf_counter` that a call of `tick` moves on by its step."""

  def __init__(self):
    self.now = 0.

  def __call__(self):
    return self.now

  def tick(self, seconds):
    self.now += seconds


@pytest.fixture(name='clock')
def _clock(monkeypatch):
  clock = _Clock()
  monkeypatch.setattr(reporting.time, 'perf_counter', clock)
  return clock


def test_learner_rates_warm_up_untimed_then_time_each_repeat(clock):
  durations = iter([5., 5., 0.5, 0.5, 0.25, 0.25])  # 2 warm-up calls first.
  calls = []

  def step():
    calls.append(None)
    clock.tick(next(durations))

  rates = reporting.learner_rates(step, batch_size=64, steps=2, repeats=2,
                                    warmup_steps=2)
  # 64 x 2 samples in 1 s, then in 0.5 s; the slow warm-up is not counted.
  assert rates == [128., 256.]
  assert len(calls) == 6


def test_calls_per_second_calls_until_the_seconds_have_passed(clock):
  calls = []

  def call():
    calls.append(None)
    clock.tick(0.03)

  # 4 calls (0.12 s >= 0.1 s).
  assert reporting.calls_per_second(call, 0.1) == pytest.approx(4 / 0.12)
  assert len(calls) == 4


def test_window_marks_after_the_warm_up_and_again_after_the_window(clock):
  work = []
  window = reporting.Window(warmup=2., window=3., mark=work.__len__)
  done = []
  for _ in range(8):  # A unit of work a second, then an update.
    clock.tick(1.)
    work.append(None)
    done.append(window.update())
  # Started at 1 s; marked at 3 s (3 units done) and at 6 s (6 units).
  assert done == [False] * 5 + [True] * 3
  assert window.span() == (3., 3, 6)


def test_first_and_repeats_gives_the_first_call_apart(clock):
  durations = iter([3., 0.1, 0.3, 0.2, 0.2])

  def call():
    clock.tick(next(durations))

  first, milliseconds = reporting.first_and_repeats(call, repeats=2, calls=2)
  assert first == 3.
  assert milliseconds == pytest.approx([200., 200.])


def test_check_known_names_the_unknown_values():
  values = flags.FlagValues()
  models = flags.DEFINE_list('models', ['a', 'x', 'y'], 'models.',
                             flag_values=values)
  values.mark_as_parsed()
  with pytest.raises(app.UsageError, match=r"Unknown --models \['x', 'y'\]; "
                     r"expected some of \['a', 'b'\]"):
    reporting.check_known(models, ['b', 'a'])


def test_check_positive_names_the_first_bad_flag():
  reporting.check_positive([('steps', 1), ('repeats', 3)])
  with pytest.raises(app.UsageError, match='--repeats must be positive, '
                     'got 0'):
    reporting.check_positive([('steps', 1), ('repeats', 0), ('batch', -1)])


def test_check_positive_reads_flag_holders_and_passes_none():
  values = flags.FlagValues()
  rounds = flags.DEFINE_integer('rounds', -2, 'rounds.', flag_values=values)
  batch = flags.DEFINE_integer('batch', None, 'batch.', flag_values=values)
  values.mark_as_parsed()
  reporting.check_positive([batch, ('steps', 1)])
  with pytest.raises(app.UsageError, match='--rounds must be positive, '
                     'got -2'):
    reporting.check_positive([batch, rounds])


def _define(define, argv, *args):
  """`define(*args)`'s flags on flag values of their own, parsed from argv."""
  values = flags.FlagValues()
  with mock.patch.object(reporting, 'flags', mock.Mock(
      **{name: functools.partial(getattr(flags, name), flag_values=values)
         for name in ('DEFINE_enum', 'DEFINE_integer', 'DEFINE_list',
                      'DEFINE_float', 'DEFINE_bool')})):
    holders = define(*args)
  values(['prog'] + argv)
  return holders


def _peer_flags(argv):
  return _define(reporting.define_peer_flags, argv, ['mlp', 'conv'])


def test_run_flags_are_the_presets_unless_given():
  settings = _define(reporting.define_run_flags, ['--train_ratio=0.2',
                                                  '--nopad_rounds'])
  assert settings() == {'num_envs': None, 'train_ratio': 0.2,
                        'continuous_selfplay': None,
                        'overlap_learning': None, 'pad_rounds': False}


def test_run_peer_times_the_learner_with_its_threads(capsys):
  threads = []

  def time_learner(model, batch_size, steps, repeats, warmup_steps, seed):
    assert (model, batch_size, steps, repeats, warmup_steps, seed) == (
        'conv', 64, 20, 2, 3, 0)
    return [10., 30.], {'torch': 'x'}

  reporting.run_peer(['prog'], _peer_flags(
      ['--model=conv', '--batch_size=64', '--repeats=2', '--threads=1']),
                     'peer', threads.append, time_learner)
  output = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
  assert threads == [1]
  assert (output['model'], output['samples_per_second'],
          output['steps_per_timing']) == ('conv', [10., 30.], 20)


def test_peer_flags_take_the_command_side_by_side_gives_a_peer():
  command = side_by_side.worker_command('lightzero', 'conv', 'py', 10, 3,
                                        128, 2)
  peer = _peer_flags(command[3:])
  assert (peer.model.value, peer.steps.value, peer.repeats.value,
          peer.batch_size.value, peer.threads.value) == ('conv', 10, 3, 128, 2)


def test_table_formats_each_kind_of_cell():
  text = reporting.table(('name', 'n', 'rate'),
                         [('a', 12345, 1234.6), ('b', None, 12.34),
                          ('c', True, 0.1234)])
  assert text.splitlines() == ['| name | n | rate |', '|---|---|---|',
                               '| a | 12,345 | 1,235 |', '| b | - | 12.3 |',
                               '| c | True | 0.12 |']


def test_check_no_arguments_names_them():
  reporting.check_no_arguments(['prog'])
  with pytest.raises(app.UsageError,
                     match=r"Unexpected arguments: \['x', '-y'\]"):
    reporting.check_no_arguments(['prog', 'x', '-y'])


def test_command_start_is_after_boot_and_before_this_test():
  with open('/proc/uptime') as f:
    boot = time.time() - float(f.read().split()[0])
  assert boot - 1 <= reporting.command_start() <= time.time()


def test_random_games_are_finished_games_of_nine_moves():
  from muzero_snt import presets  # pylint: disable=g-import-not-at-top
  config = presets.get_preset('tictactoe')
  games = reporting.random_games(config, 3, 0)
  again = reporting.random_games(config, 3, 0)
  assert len(games) == 3
  for game, same in zip(games, again):
    trajectory = game.trajectory
    assert trajectory.length == 9 and trajectory.terminal
    # Players alternate; each policy is a distribution over the 9 actions.
    np.testing.assert_array_equal(trajectory.to_play, [0, 1] * 4 + [0])
    np.testing.assert_allclose(np.sum(trajectory.policies, axis=1), 1.,
                               rtol=1e-6)
    np.testing.assert_array_equal(trajectory.observations,
                                  same.trajectory.observations)
  assert not np.array_equal(games[0].trajectory.observations,
                            games[1].trajectory.observations)
