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
"""Tests of `RunSettings`: its checks and the self-play settings it gives."""

import tensorflow as tf

from muzero_snt import presets
from muzero_snt.run import run_settings
from tests import testing


class RunSettingsTest(testing.TestCase):

  def test_distributed_settings_are_checked(self):
    for changes, message in (
        (dict(num_actors=-1), 'num_actors must be a non-negative integer'),
        (dict(num_actors=True), 'num_actors must be a non-negative integer'),
        (dict(num_actors=2, data='synthetic'), "num_actors must be 0 with "
         "data='synthetic', got 2"),
        (dict(ray_address='10.0.0.5:6379'), 'ray_address must be None '
         'unless num_actors > 0'),
        (dict(num_actors=1, publish_interval=0), 'publish_interval must be '
         'a positive integer, got 0'),
        (dict(eval_interval=10), 'eval_interval must be 0 unless '
         'num_actors > 0, got 10'),
        (dict(num_actors=1, eval_interval=-1), 'eval_interval must be a '
         'non-negative integer'),
        (dict(num_actors=1, eval_interval=5, eval_games=0), 'eval_games must '
         'be a positive integer, got 0'),
        (dict(num_actors=1, num_reanalyze_workers=-1), 'num_reanalyze_workers '
         'must be a non-negative integer, got -1'),
        (dict(num_reanalyze_workers=2), r'num_reanalyze_workers must be 0 '
         r'unless num_actors > 0 \(reanalyse workers are Ray processes')):
      with self.assertRaisesRegex(ValueError, message):
        run_settings.RunSettings(**changes)
    settings = run_settings.RunSettings(num_actors=2, ray_address='h:1',
                                        publish_interval=3)
    self.assertEqual(settings.num_actors, 2)

  def test_actors_share_the_presets_games_unless_told(self):
    games = presets.get_self_play('tictactoe').num_envs
    # 32 games: 1 actor plays all, 2 actors 16 each, 3 actors 11 each
    # (33 in flight: rounded up), 64 actors 1 each.
    for actors, each in ((0, games), (1, games), (2, games // 2),
                         (3, 11), (64, 1)):
      self.assertEqual(run_settings.RunSettings(
          num_actors=actors).self_play.num_envs, each, actors)
    # --num_envs is per actor when given.
    self.assertEqual(run_settings.RunSettings(
        num_actors=2, num_envs=32).self_play.num_envs, 32)

  def test_continuous_self_play_is_the_presets_unless_told(self):
    def continuous(**changes):
      return run_settings.RunSettings(**changes).self_play.continuous

    self.assertTrue(presets.get_self_play('cartpole').continuous)
    self.assertFalse(presets.get_self_play('tictactoe').continuous)
    self.assertTrue(continuous(preset='cartpole'))
    self.assertFalse(continuous(preset='tictactoe'))
    self.assertTrue(continuous(preset='tictactoe', continuous_selfplay=True))
    self.assertFalse(continuous(preset='cartpole', continuous_selfplay=False))
    # Actors play as the process would; only self-play plays at all: the
    # preset's default gives way there (an explicit True is refused).
    self.assertTrue(continuous(preset='cartpole', num_actors=2))
    self.assertFalse(continuous(preset='cartpole', num_actors=2,
                                continuous_selfplay=False))
    self.assertFalse(continuous(preset='cartpole', data='synthetic'))
    with self.assertRaisesRegex(ValueError, 'continuous_selfplay must be '
                                "False unless data='selfplay'"):
      run_settings.RunSettings(preset='cartpole', data='synthetic',
                               continuous_selfplay=True)
    # The run's record (beside its checkpoints) says how it played.
    config = presets.get_preset('cartpole')
    self.assertTrue(run_settings.RunSettings(preset='cartpole').run_config(
        config).flat()['continuous_selfplay'])
    self.assertNotIn('continuous_selfplay', run_settings.RunSettings(
        preset='cartpole', continuous_selfplay=False).run_config(
            config).flat())

  def test_pad_rounds_is_the_presets_where_rounds_are_searched(self):
    def pad_rounds(**changes):
      return run_settings.RunSettings(**changes).self_play.pad_rounds

    self.assertFalse(presets.get_self_play('connect4').pad_rounds)
    self.assertFalse(pad_rounds(preset='connect4'))
    # Tic-tac-toe's preset pads its rounds; the default gives way where
    # there are no rounds of a batched search (an explicit True is refused).
    self.assertTrue(pad_rounds(preset='tictactoe'))
    self.assertTrue(pad_rounds(preset='tictactoe', num_actors=2))
    for changes in (dict(pad_rounds=False), dict(data='synthetic'),
                    dict(continuous_selfplay=True), dict(search='reference'),
                    dict(search='graph')):
      self.assertFalse(pad_rounds(preset='tictactoe', **changes), changes)
    self.assertTrue(pad_rounds(preset='connect4', pad_rounds=True))
    self.assertTrue(pad_rounds(preset='connect4', pad_rounds=True,
                               num_actors=2))
    for changes, message in (
        (dict(pad_rounds=1), 'pad_rounds must be None, True or False, got 1'),
        (dict(pad_rounds=True, data='synthetic'), "pad_rounds must be False "
         "unless data='selfplay' plays rounds"),
        (dict(pad_rounds=True, continuous_selfplay=True), 'pad_rounds must '
         'be False unless .* plays rounds \\(continuous_selfplay off\\)'),
        (dict(pad_rounds=True, search='reference'), 'pad_rounds must be '
         'False unless .* with a batched search \\(xla or graph\\)')):
      with self.subTest(changes), self.assertRaisesRegex(ValueError, message):
        run_settings.RunSettings(**changes)
    # The run's record (beside its checkpoints) says how it searched.
    config = presets.get_preset('connect4')
    self.assertTrue(run_settings.RunSettings(
        preset='connect4', pad_rounds=True).run_config(
            config).flat()['pad_rounds'])
    self.assertNotIn('pad_rounds', run_settings.RunSettings(
        preset='connect4').run_config(config).flat())


if __name__ == '__main__':
  tf.test.main()
