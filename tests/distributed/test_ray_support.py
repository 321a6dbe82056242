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
"""Tests of Ray's import and connection checks (no Ray instance started)."""

import socket
import sys
from unittest import mock

from muzero_snt.distributed import ray_support
from tests import testing


def _closed_port() -> int:
  """A loopback port where nothing listens."""
  with socket.socket() as probe:
    probe.bind(('127.0.0.1', 0))
    return probe.getsockname()[1]


class RaySupportTest(testing.TestCase):

  def test_malformed_addresses_are_named(self):
    for address in ('localhost', '10.0.0.5:', 'host:99999', 'a b:1'):
      with self.assertRaisesRegex(ValueError,
                                  f'HOST:PORT .* got {address!r}'):
        ray_support.check_address(address)

  def test_an_address_without_a_cluster_is_a_clear_error(self):
    port = _closed_port()
    with self.assertRaisesRegex(
        ValueError, f'ray_address=127.0.0.1:{port}: no Ray cluster answers '
        f'there .*ray start --head --port={port}'):
      ray_support.connect(f'127.0.0.1:{port}')

  def test_a_listening_address_passes_the_check(self):
    with socket.socket() as server:
      server.bind(('127.0.0.1', 0))
      server.listen(1)
      ray_support.check_address(f'127.0.0.1:{server.getsockname()[1]}')

  def test_missing_ray_names_the_extra_to_install(self):
    # None in sys.modules makes `import ray` fail as if it were absent.
    with mock.patch.dict(sys.modules, {'ray': None}):
      for check in (ray_support.check_installed, ray_support.require_ray,
                    ray_support.connect):
        with self.assertRaisesRegex(
            ImportError, r"needs Ray.*pip install -e '\.\[distributed\]'"):
          check()


class RunnerChecksTest(testing.TestCase):
  """What `runner.start` refuses before it starts or joins Ray."""

  def test_an_evaluator_without_opponents_is_refused_by_name(self):
    # Go 19x19 has two players and no fixed opponents to evaluate against.
    # Imported here: the runner imports the library's learner and search.
    from muzero_snt import presets  # pylint: disable=g-import-not-at-top
    from muzero_snt.run import run_config  # pylint: disable=g-import-not-at-top
    from muzero_snt.distributed import runner  # pylint: disable=g-import-not-at-top
    config = presets.get_preset('go')
    settings = run_config.RunConfig(preset='go', num_actors=2,
                                        eval_interval=100)
    connect = mock.Mock(side_effect=AssertionError('Ray was started'))
    with mock.patch.object(ray_support, 'connect', connect):
      with self.assertRaisesRegex(
          ValueError, "eval_interval: the evaluator plays .* not 'go'; set "
          'it to 0'):
        with runner.start(settings.replace(config=config).resolved(),
                          learner=None):
          pass
    connect.assert_not_called()


class RunnerStopTest(testing.TestCase):
  """A run that fails stops its weights' publisher before Ray: a send in
  flight when Ray stops ends the process, and the run's error with it."""

  def test_a_failed_run_closes_its_source_before_ray_stops(self):
    from muzero_snt import presets  # pylint: disable=g-import-not-at-top
    from muzero_snt.run import run_config  # pylint: disable=g-import-not-at-top
    from muzero_snt.distributed import replay_source  # pylint: disable=g-import-not-at-top
    from muzero_snt.distributed import runner  # pylint: disable=g-import-not-at-top
    settings = run_config.RunConfig(preset='tictactoe', num_actors=1)
    settings = settings.replace(
        config=presets.get_preset('tictactoe')).resolved()
    events = []
    source = mock.Mock()
    source.close.side_effect = lambda **kw: events.append(('close', kw))
    with mock.patch.object(ray_support, 'connect', return_value=True), \
        mock.patch.object(ray_support, 'require_ray',
                          return_value=mock.MagicMock()), \
        mock.patch.object(replay_source, 'ReplayServiceSource',
                          return_value=source), \
        mock.patch.object(ray_support, 'shutdown',
                          side_effect=lambda: events.append('shutdown')):
      with self.assertRaisesRegex(FloatingPointError, 'NaN loss'):
        with runner.start(settings, learner=None):
          raise FloatingPointError('NaN loss')
      self.assertEqual(events, [('close', {'failed': True}), 'shutdown'])
      del events[:]
      with runner.start(settings, learner=None):
        pass
      self.assertEqual(events, [('close', {}), 'shutdown'])
