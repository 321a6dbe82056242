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
"""Atari games stored one frame per move give back the environment's
observations exactly (the stacks the environment built itself)."""

import dataclasses

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np

from muzero_snt import presets
from muzero_snt import replay as replay_lib
from muzero_snt import trajectory as trajectory_lib
from muzero_snt.environments import atari
from tests.environments import test_atari


class NoisyALE(test_atari.FakeALE):
  """The scripted emulator with 4x6 screens of seeded random bytes."""

  def getScreenRGB(self):  # pylint: disable=invalid-name
    rng = np.random.default_rng(self.frame)
    return rng.integers(0, 256, (4, 6, 3)).astype(np.uint8)


def play(env, num_moves, seed):
  """Plays random actions into a `Trajectory` of `env.frame_stack()`.

  Returns:
    The finished trajectory and the `[T]` observations the environment
    returned at its positions.
  """
  rng = np.random.default_rng(seed)
  game = trajectory_lib.Trajectory(18, discount=0.997,
                                   frame_stack=env.frame_stack())
  observations = []
  time_step = env.reset()
  for _ in range(num_moves):
    observations.append(time_step.observation)
    action = int(rng.integers(18))
    game.append(time_step.observation, 0, action, 0., np.full(18, 1. / 18.),
                0.)
    time_step = env.step(action)
  game.finish(terminal=False, bootstrap_value=0.)
  return game, observations


@test_atari.needs_ale
class StoredFramesTest(parameterized.TestCase):

  @parameterized.parameters(1, 3, 4)
  def test_replay_batches_hold_the_environments_observations(self, n):
    # 4x6 screens averaged to 2x3 and rounded: the frames are bytes.
    env = atari.AtariEnvironment(
        'Pong', ale_factory=NoisyALE, num_stacked_frames=n, resolution=(2, 3),
        noop_max=0)
    game, observations = play(env, 9, seed=n)
    self.assertEqual(game.frames.dtype, np.uint8)
    self.assertEqual(game.frames.nbytes, 9 * 2 * 3 * 3)
    config = dataclasses.replace(
        presets.get_preset('atari_small'), observation_shape=(2, 3, 4 * n),
        window_size=2, batch_size=40)
    replay = replay_lib.ReplayBuffer(config, seed=0)
    game_id = replay.save_game(game)
    batch, keys = replay.sample_batch()
    for row, (_, t) in enumerate(keys.tolist()):
      np.testing.assert_array_equal(batch.observation[row], observations[t])
    self.assertEqual(set(keys[:, 0].tolist()), {game_id})
    self.assertLen(set(keys[:, 1].tolist()), 9)

  def test_paper_pong_stores_one_byte_frame_per_move(self):
    env = atari.AtariEnvironment('Pong', seed=1)
    self.assertEqual(env.frame_stack().observation_shape, (96, 96, 128))
    game, observations = play(env, 40, seed=0)
    # One 96x96 RGB byte frame per move, instead of 128 float32 planes.
    self.assertEqual(game.frames.nbytes // 40, 96 * 96 * 3)
    for t in (0, 1, 31, 32, 39):
      np.testing.assert_array_equal(game.observation(t), observations[t])
    self.assertTrue(np.any(observations[39][..., :93]))


if __name__ == '__main__':
  absltest.main()
