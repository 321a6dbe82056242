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
"""Tests of benchmarks/peers/peer_timing.py on a fake clock."""

import json

from absl import app
import pytest

from benchmarks.peers import peer_timing


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
  monkeypatch.setattr(peer_timing.time, 'perf_counter', clock)
  return clock


def test_learner_rates_warm_up_untimed_then_time_each_repeat(clock):
  durations = iter([5., 5., 0.5, 0.5, 0.25, 0.25])  # 2 warm-up calls first.
  calls = []

  def step():
    calls.append(None)
    clock.tick(next(durations))

  rates = peer_timing.learner_rates(step, batch_size=64, steps=2, repeats=2,
                                    warmup_steps=2)
  # 64 x 2 samples in 1 s, then in 0.5 s; the slow warm-up is not counted.
  assert rates == [128., 256.]
  assert len(calls) == 6


def test_search_result_repeats_calls_until_min_seconds(clock):
  calls = []

  def search():
    calls.append(None)
    clock.tick(0.03)

  result = peer_timing.search_result(search, batch_size=4,
                                     num_simulations=50, repeats=2,
                                     min_seconds=0.1)
  # One untimed call, then 4 calls (0.12 s >= 0.1 s) per timing.
  assert len(calls) == 1 + 2 * 4
  assert result['simulations_per_second'] == pytest.approx(
      [4 * 50 * 4 / 0.12] * 2)
  assert result['milliseconds_per_call'] == pytest.approx(30.)
  assert result['batch_size'] == 4


def test_check_positive_names_the_first_bad_flag():
  peer_timing.check_positive([('steps', 1), ('repeats', 3)])
  with pytest.raises(app.UsageError, match='--repeats must be positive, '
                     'got 0'):
    peer_timing.check_positive([('steps', 1), ('repeats', 0), ('batch', -1)])


def test_print_search_results_times_each_batch_and_prints_one_line(capsys):
  calls = []

  def time_search(batch_size, num_simulations, repeats, min_seconds, seed):
    calls.append((batch_size, num_simulations, repeats, min_seconds, seed))
    return {'batch_size': batch_size, 'median': 100. * batch_size}

  peer_timing.print_search_results(
      'peer', 'tree', {'torch': 'x', 'batch_size': 256, 'num_unroll_steps': 5},
      time_search, ['1', '16'], 50, 3, 0.2, 7)
  assert calls == [(1, 50, 3, 0.2, 7), (16, 50, 3, 0.2, 7)]
  output = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
  # The learner's batch size and unroll are not the search's settings.
  assert 'batch_size' not in output and 'num_unroll_steps' not in output
  assert (output['library'], output['search'], output['torch'],
          output['num_simulations']) == ('peer', 'tree', 'x', 50)
  assert [r['median'] for r in output['results']] == [100., 1600.]
  with pytest.raises(app.UsageError, match='--batch_sizes must be positive, '
                     'got 0'):
    peer_timing.print_search_results('peer', 'tree', {}, time_search, ['0'],
                                     50, 3, 0.2, 7)
  assert len(calls) == 2  # Refused before any timing.
