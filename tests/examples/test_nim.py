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
"""Trains the Nim example and asks it for the winning moves."""

from absl.testing import absltest
import numpy as np

from examples import nim
import muzero_snt


class NimTest(absltest.TestCase):

  def test_the_network_takes_the_winning_number_of_stones(self):
    loop = nim.train(seed=0, jit_compile=False, search='graph',
                     log_every=1_000)
    self.assertEqual(loop.learner.steps, 400)
    config, network = loop.replay.config, loop.learner.network
    search = muzero_snt.make_search(config, network, 'graph')
    # With a pile that is not a multiple of 4, the mover wins by taking
    # pile % 4 stones (action pile % 4 - 1), leaving a multiple of 4.
    piles = np.array([1, 2, 3, 5, 6, 7])
    observations = np.eye(nim.STONES + 1, dtype=np.float32)[piles]
    legal = np.arange(3)[None] < np.minimum(piles, 3)[:, None]
    output = search(observations, np.zeros(len(piles), np.int32), legal,
                    np.random.default_rng(0), add_noise=False)
    np.testing.assert_array_equal(np.argmax(output.visit_counts, axis=1),
                                  piles % 4 - 1)
    # A pile of 4 loses whatever the mover takes; 1 to 3 win at once.
    values = np.asarray(network.initial_inference(
        np.eye(nim.STONES + 1, dtype=np.float32)[[1, 2, 3, 4]]).value)
    self.assertTrue(np.all(values[:3] > 0) and values[3] < 0, values)


if __name__ == '__main__':
  absltest.main()
