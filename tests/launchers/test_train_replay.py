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
"""Tests of the launcher's reanalysis flags, --data=replay, --export_replay."""

import os
import tempfile
from unittest import mock

from absl import app
from absl import flags
from absl.testing import absltest
from absl.testing import flagsaver
import numpy as np

from launchers import train
from muzero_snt.run import experiment
from muzero_snt import replay as replay_lib
from tests import testing

FLAGS = flags.FLAGS

# A tiny tic-tac-toe run; n = 2 < 9 moves, so values bootstrap too.
_FLAGS = dict(
    preset='tictactoe', batch_size=8, num_unroll_steps=2, td_steps=2,
    channels=4, num_simulations=4, jit_compile=False, search='graph',
    log_every=1000, checkpoint_minutes=0.)


class TrainReplayTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not FLAGS.is_parsed():
      FLAGS.mark_as_parsed()
    self.loops = []
    run = experiment.run

    def capture(*args, **kwargs):
      self.loops.append(run(*args, **kwargs))
      return self.loops[-1]

    self.enter_context(mock.patch.object(experiment, 'run', capture))

  def _path(self, name):
    return os.path.join(tempfile.mkdtemp(dir=self.get_temp_dir()), name)

  def test_export_then_train_from_the_file_with_reanalysis(self):
    path = self._path('replay.npz')
    with flagsaver.flagsaver(training_steps=3, num_envs=2, train_ratio=0.5,
                             reanalyze_fraction=0.5, target_update_interval=2,
                             export_replay=path, **_FLAGS):
      train.main(['train'])
    played = self.loops[-1]
    self.assertEqual(played.learner.steps, 3)
    self.assertGreater(played.games, 0)
    self.assertIn('reanalyse_target_network', played.source.counters())
    saved = replay_lib.ReplayBuffer.restore(played.replay.config, path)
    self.assertEqual(saved.game_ids, played.replay.game_ids)
    for game_id in saved.game_ids:
      np.testing.assert_array_equal(saved.game(game_id).legal_actions,
                                    played.replay.game(game_id).legal_actions)

    directory = self._path('offline')
    with flagsaver.flagsaver(training_steps=5, data='replay', replay_path=path,
                             reanalyze_fraction=1.0, checkpoint_dir=directory,
                             **_FLAGS):
      train.main(['train'])
    offline = self.loops[-1]
    self.assertEqual(offline.learner.steps, 5)
    self.assertEqual((offline.games, offline.env_steps), (0, 0))
    self.assertEqual(offline.replay.game_ids, saved.game_ids)
    self.assertIn('from ' + path, offline.source.totals())
    # The checkpoint holds the file's games (and the reanalysis state).
    self.assertTrue(os.path.exists(os.path.join(directory, 'replay-5.npz')))

  def test_replay_flags_are_checked(self):
    for changes, message in (
        (dict(data='replay'), '--data=replay needs --replay_path'),
        (dict(replay_path='/x.npz'), '--replay_path is read by --data=replay '
         'only, got --data=selfplay'),
        (dict(data='replay', replay_path='/x.npz', num_envs=2),
         '--num_envs only apply to --data=selfplay'),
        (dict(data='synthetic', export_replay='/x.npz'),
         '--export_replay only apply to --data=selfplay or replay'),
        (dict(reanalyze_fraction=1.5), r'--reanalyze_fraction must be in '
         r'\[0, 1\], got 1.5'),
    ):
      with flagsaver.flagsaver(**changes):
        with self.assertRaisesRegex(app.UsageError, message):
          train.validate_flags()
    with flagsaver.flagsaver(target_update_interval=0):
      with self.assertRaisesRegex(app.UsageError,
                                  '--target_update_interval must be positive'):
        train.make_config()

  def test_a_corrupt_replay_file_is_a_usage_error_naming_it(self):
    path = self._path('replay.npz')
    with open(path, 'wb') as f:
      f.write(b'not a replay file')
    with flagsaver.flagsaver(training_steps=2, data='replay', replay_path=path,
                             **_FLAGS):
      with self.assertRaisesRegex(
          app.UsageError, f'{path} is not a readable replay file'):
        train.main(['train'])
    self.assertEmpty(self.loops)

  def test_reanalysis_without_stored_games_is_a_usage_error(self):
    with flagsaver.flagsaver(training_steps=2, data='synthetic',
                             reanalyze_fraction=0.5, preset='tictactoe'):
      with self.assertRaisesRegex(
          app.UsageError, '--reanalyze_fraction=0.5 is not available with '
          '--data=synthetic'):
        train.main(['train'])


if __name__ == '__main__':
  absltest.main()
