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
"""Trains the corridor example and walks its greedy policy."""

from absl.testing import absltest
import numpy as np

from examples import corridor
import muzero_snt


def greedy_walk(config, network):
  """The cells the noise-free search's most visited actions lead through."""
  search = muzero_snt.make_search(config, network, 'graph')
  env = corridor.Corridor()
  step, cells = env.reset(), [0]
  while not step.last():
    output = search(step.observation[None], np.zeros(1, np.int32),
                    np.ones((1, 2), bool), np.random.default_rng(0),
                    add_noise=False)
    step = env.step(int(np.argmax(output.visit_counts[0])))
    cells.append(int(np.argmax(step.observation)) if step.observation.any()
                 else -1)
  return cells, step.reward


class CorridorTest(absltest.TestCase):

  def test_the_greedy_policy_walks_straight_to_the_end(self):
    loop = corridor.train(seed=0, jit_compile=False, search='graph',
                          log_every=1_000)
    self.assertEqual(loop.learner.steps, 400)
    cells, reward = greedy_walk(loop.replay.config, loop.learner.network)
    # The optimum: right at every cell, LENGTH - 1 moves, reward 1 at the
    # end (the pit, cell -1, costs 1).
    self.assertEqual(cells, list(range(corridor.LENGTH)))
    self.assertEqual(reward, 1.)


if __name__ == '__main__':
  absltest.main()
