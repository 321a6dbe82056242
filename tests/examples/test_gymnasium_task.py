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
"""Starts the gymnasium example on a task without a preset."""

import importlib.util

from absl.testing import absltest

from examples import gymnasium_task
import muzero_snt


@absltest.skipIf(importlib.util.find_spec('gymnasium') is None,
                 'gymnasium is not installed.')
class GymnasiumTaskTest(absltest.TestCase):

  def test_acrobot_trains_a_few_learner_steps(self):
    # Acrobot-v1: 6 numbers observed, 3 actions, episodes cut here at 10
    # moves (its own limit is 500).
    config = muzero_snt.get_preset('gymnasium', 'Acrobot-v1').replace(
        training_steps=3, num_simulations=2, batch_size=8, max_moves=10,
        td_steps=5)
    loop = gymnasium_task.train('Acrobot-v1', config=config, num_envs=2,
                                train_ratio=1., jit_compile=False,
                                search='graph')
    self.assertEqual(loop.learner.steps, 3)
    self.assertEqual(loop.replay.config.observation_shape, (6,))
    self.assertEqual(loop.replay.config.action_space_size, 3)
    self.assertGreaterEqual(loop.games, 2)


if __name__ == '__main__':
  absltest.main()
