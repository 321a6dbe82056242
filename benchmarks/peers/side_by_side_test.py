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
"""Tests of benchmarks/peers/side_by_side.py: commands, parsing, ratios.

No peer library is needed: these check the arithmetic and the command
lines, not the timings.
"""

import pytest

from benchmarks.peers import side_by_side


def test_summarise_takes_medians_of_rates_and_of_per_round_ratios():
  # Rounds: 20000/10000 = 2.0, 30000/10000 = 3.0, 24000/12000 = 2.0.
  summary = side_by_side.summarise([20000., 30000., 24000.],
                                   [10000., 10000., 12000.])
  assert summary['ours'] == 24000.
  assert summary['peer'] == 10000.
  assert summary['ratios'] == pytest.approx([2.0, 3.0, 2.0])
  # The median of the ratios (2.0), not the ratio of the medians (2.4).
  assert summary['ratio'] == pytest.approx(2.0)


def test_summarise_even_rounds_average_the_middle_ratios():
  summary = side_by_side.summarise([10., 40.], [10., 10.])
  assert summary['ratios'] == pytest.approx([1.0, 4.0])
  assert summary['ratio'] == pytest.approx(2.5)
  assert summary['ours'] == 25.


@pytest.mark.parametrize('ours, peer, match', [
    ([1., 2.], [1.], 'one rate per round'),
    ([], [], 'one rate per round'),
    ([1., 0.], [1., 1.], 'positive rates, got 0.0'),
    ([1.], [float('nan')], 'positive rates, got nan'),
])
def test_summarise_rejects_bad_rates(ours, peer, match):
  with pytest.raises(ValueError, match=match):
    side_by_side.summarise(ours, peer)


def test_worker_commands_pass_the_shape_and_the_threads():
  ours = side_by_side.worker_command('muzero_snt', 'cartpole_mlp', 'py', 20,
                                     5, threads=1)
  assert ours == ['py', '-m', 'benchmarks.learner', '--peer_worker',
                  '--models=cartpole_mlp', '--steps=20', '--repeats=5',
                  '--batch_size=256', '--threads=1']
  peer = side_by_side.worker_command('lightzero', 'tictactoe_residual',
                                     '/venv/bin/python', 10, 3, 128, 2)
  # Only the flags the peers' drivers define (`define_peer_flags`).
  assert peer == ['/venv/bin/python', '-m', 'benchmarks.peers.lightzero',
                  '--model=tictactoe_residual', '--steps=10', '--repeats=3',
                  '--batch_size=128', '--threads=2']
  with pytest.raises(ValueError, match="Unknown library 'mctx'"):
    side_by_side.worker_command('mctx', 'cartpole_mlp', 'py', 1, 1)


def test_parse_output_reads_the_last_json_line():
  stdout = ('some log line\n{"samples_per_second": [1.0]}\n'
            '{"samples_per_second": [2.0, 3.0]}\n')
  assert side_by_side.parse_output(stdout) == {
      'samples_per_second': [2.0, 3.0]}
  with pytest.raises(ValueError, match='No JSON line'):
    side_by_side.parse_output('Traceback ...\n')


def test_format_table_rows():
  summary = {'cartpole_mlp': {'lightzero': side_by_side.summarise(
      [22000., 26000.], [10000., 10000.])}}
  lines = side_by_side.format_table(summary).splitlines()
  assert lines[2] == ('| cartpole_mlp | lightzero | 24,000 | 10,000 | 2.40 | '
                      '2.20, 2.60 |')


def test_run_alternates_ours_and_each_peer_with_its_own_python(monkeypatch):
  # Rates per (library, round): ours 3000 then 4000 a round, LightZero 1000
  # then 1000, muzero-general 500 then 2000; each process reports three
  # timings whose median is that rate.
  rates = {('muzero_snt', 0): 3000., ('muzero_snt', 1): 4000.,
           ('lightzero', 0): 1000., ('lightzero', 1): 1000.,
           ('muzero_general', 0): 500., ('muzero_general', 1): 2000.}
  commands = []

  def fake_worker(command):
    commands.append(command)
    library = ('muzero_snt' if command[2] == 'benchmarks.learner' else
               command[2].split('.')[-1])
    rate = rates[(library, sum(c[2] == command[2] for c in commands) - 1)]
    model = next(c for c in command if c.startswith('--model'))
    return {'library': library, 'model': model.split('=')[1],
            'samples_per_second': [rate - 10., rate, rate + 50.]}

  monkeypatch.setattr(side_by_side, 'run_worker', fake_worker)
  monkeypatch.setitem(side_by_side.DEFAULT_PEER_PYTHONS, 'lightzero', '/lz')
  output = side_by_side.run(['cartpole_mlp'], ['lightzero', 'muzero_general'],
                            rounds=2, log=lambda _: None)
  assert [(c[0], c[2]) for c in commands] == 2 * [
      (side_by_side.sys.executable, 'benchmarks.learner'),
      ('/lz', 'benchmarks.peers.lightzero'),
      (side_by_side.DEFAULT_PEER_PYTHONS['muzero_general'],
       'benchmarks.peers.muzero_general')]
  summary = output['summary']['cartpole_mlp']
  # Ratios per round: 3000 / 1000, 4000 / 1000; 3000 / 500, 4000 / 2000.
  assert summary['lightzero']['ratios'] == [3., 4.]
  assert summary['lightzero']['ratio'] == 3.5
  assert summary['muzero_general']['ratios'] == [6., 2.]
  assert summary['muzero_general']['ratio'] == 4.
  assert summary['muzero_general']['peer'] == 1250.


def test_run_refuses_an_unknown_peer():
  with pytest.raises(ValueError, match=r"Unknown peers \['acme'\]"):
    side_by_side.run(['cartpole_mlp'], ['acme'], rounds=1)
