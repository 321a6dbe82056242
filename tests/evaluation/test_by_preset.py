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
"""Tests of a search evaluated the way its preset is."""

import importlib.util

from absl.testing import absltest
import numpy as np

from muzero_snt.run import builders
from muzero_snt.evaluation import matches as evaluation
from muzero_snt.evaluation import by_preset as preset_evaluation
from muzero_snt import presets
from muzero_snt import search
from muzero_snt.environments import tictactoe
from tests import testing
from tests.evaluation.test_matches import FixedModel

HAS_GYMNASIUM = importlib.util.find_spec('gymnasium') is not None
HAS_OPENSPIEL = importlib.util.find_spec('pyspiel') is not None


class PresetEvaluationTest(testing.TestCase):

  def test_tictactoe_plays_the_perfect_and_the_random_player(self):
    # Logits falling by 3 per square and 2 simulations fill the squares in
    # order; moving first that loses every game to the perfect player by
    # hand: X0, O4 (the only drawing reply), X1, O2 (forced), X3, O6 wins.
    config = presets.make_tictactoe_config()
    model = FixedModel(-3. * np.arange(9))
    opponents = preset_evaluation.make_opponents(
        'tictactoe', lambda seed: tictactoe.TicTacToe())
    self.assertEqual(list(opponents), ['perfect', 'random'])
    results = preset_evaluation.evaluate(
        search.ReferenceSearch(config.replace(num_simulations=2), model),
        lambda seed: tictactoe.TicTacToe(), opponents, num_games=5)
    self.assertEqual(results[0], evaluation.MatchResult(
        'perfect', 'first', wins=0, draws=0, losses=5, max_moves=9))
    self.assertEqual([(r.opponent, r.side) for r in results],
                     [('perfect', 'first'), ('perfect', 'second'),
                      ('random', 'first'), ('random', 'second')])
    self.assertEqual(results[1].wins, 0)  # Nobody beats the perfect player.

  @absltest.skipUnless(HAS_OPENSPIEL, 'needs open-spiel')
  def test_connect4_names_its_mcts_opponent_by_simulations(self):
    config = presets.make_connect4_config()
    make_environment = builders.make_environment_factory('connect4', config)
    opponents = preset_evaluation.make_opponents(
        'connect4', make_environment, num_simulations=10)
    self.assertEqual(list(opponents), ['mcts10', 'random'])
    alone = preset_evaluation.make_opponents(
        'connect4', make_environment, names=['random'])
    self.assertEqual(list(alone), ['random'])

  @absltest.skipUnless(HAS_GYMNASIUM, 'needs gymnasium')
  def test_one_player_presets_play_episodes(self):
    # Pushing left always (logits favour action 0): each episode lasts as
    # long as gymnasium's own CartPole-v1 does from the same seed.
    import gymnasium  # pylint: disable=g-import-not-at-top
    config = presets.make_cartpole_config()
    make_environment = builders.make_environment_factory('cartpole', config)
    self.assertIsNone(
        preset_evaluation.make_opponents('cartpole', make_environment))
    stats = preset_evaluation.evaluate(
        search.ReferenceSearch(config.replace(num_simulations=2),
                               FixedModel(np.array([8., 0.]))),
        make_environment, None, num_games=3, seed=7)
    expected = []
    for seed in (7, 8, 9):
      env = gymnasium.make('CartPole-v1')
      env.reset(seed=seed)
      steps, done = 0, False
      while not done:
        _, _, terminated, truncated, _ = env.step(0)
        steps, done = steps + 1, terminated or truncated
      expected.append(steps)
    self.assertAllEqual(stats.returns, expected)


if __name__ == '__main__':
  absltest.main()
