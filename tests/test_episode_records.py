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
"""Tests for `benchmarks/episode_records.py` on scripted episodes."""

from absl.testing import absltest
import dm_env
import numpy as np

from benchmarks import episode_records
from muzero_snt import evaluation
from muzero_snt import search as search_lib
from muzero_snt import types

LIMIT = episode_records.CARTPOLE_ANGLE_LIMIT


class _Scripted:
  """A one-player game of 2 actions whose observation is [x, v, theta, 0].

  Each move adds (action - 0.5) to x and sets v = the move number. The
  episode seeded s ends after s + 2 moves: seed 0 with the pole past its
  angle, seed 1 with the cart past 2.4, seed 2 by the time limit.
  """

  num_players = 1

  def __init__(self, seed):
    self._seed = seed
    self._x = 0.
    self._moves = 0

  def _observation(self, theta=0.):
    return np.array([self._x, self._moves, theta, 0.], np.float32)

  def reset(self):
    self._x, self._moves = 0., 0
    return dm_env.restart(self._observation())

  def step(self, action):
    self._moves += 1
    self._x += action - 0.5
    if self._moves < self._seed + 2:
      return dm_env.transition(1., self._observation())
    if self._seed == 0:
      return dm_env.termination(1., self._observation(theta=-LIMIT - 0.01))
    if self._seed == 1:
      self._x = 2.5
      return dm_env.termination(1., self._observation())
    return dm_env.truncation(1., self._observation(), discount=1.)

  def legal_actions(self):
    return np.array([0, 1], np.int32)

  def to_play(self):
    return 0

  def close(self):
    pass


class _Search:
  """Visits action 1 where x <= 0, else action 0; its root value is 10 v.
  Records the batch size of every call."""

  def __init__(self):
    self.batches = []

  def __call__(self, observations, to_play, legal_actions, rng,
               add_noise=True):
    assert not add_noise
    self.batches.append(len(observations))
    right = observations[:, 0] <= 0
    counts = np.stack([np.where(right, 1, 4), np.where(right, 4, 1)], -1)
    return search_lib.SearchOutput(
        visit_counts=counts.astype(np.int32),
        policy=(counts / 5).astype(np.float32),
        root_value=(10 * observations[:, 1]).astype(np.float32))


class PlayEpisodesTest(absltest.TestCase):

  def test_lockstep_episodes_record_moves_values_and_ends(self):
    search = _Search()
    episodes = evaluation.play_episodes(search, _Scripted, 3, seed=0,
                                        record_observations=True)
    # Lengths 2, 3, 4: the calls search 3, 3, 2 and 1 positions.
    self.assertEqual(search.batches, [3, 3, 2, 1])
    self.assertEqual([len(e.actions) for e in episodes], [2, 3, 4])
    # x: 0 -> +0.5 (action 1) -> 0 (action 0) -> +0.5 -> 0.
    np.testing.assert_array_equal(episodes[2].actions, [1, 0, 1, 0])
    np.testing.assert_array_equal(episodes[2].observations[:, 0],
                                  [0, 0.5, 0, 0.5, 0])
    # The root value before move t is 10 t.
    np.testing.assert_array_equal(episodes[2].root_values, [0, 10, 20, 30])
    self.assertEqual([e.terminal for e in episodes], [True, True, False])
    self.assertEqual([e.episode_return for e in episodes], [2., 3., 4.])

  def test_observations_are_kept_only_when_asked(self):
    episodes = evaluation.play_episodes(_Search(), _Scripted, 3, seed=0)
    self.assertEqual([e.observations for e in episodes], [None] * 3)
    np.testing.assert_array_equal(episodes[2].actions, [1, 0, 1, 0])

  def test_a_non_positive_number_of_episodes_is_refused(self):
    with self.assertRaisesRegex(ValueError, 'num_episodes must be positive, '
                                'got 0'):
      evaluation.play_episodes(_Search(), _Scripted, 0)


class _Model:
  """Root hidden state = the observation's first entry h; after action a
  the reward is h + a and the value 10 a."""

  def initial_inference(self, observation):
    h = observation[:, :1].astype(np.float64)
    return types.NetworkOutput(value=None, reward=None, policy_logits=None,
                               hidden_state=h)

  def recurrent_inference(self, hidden_state, action):
    return types.NetworkOutput(
        value=10. * action, reward=hidden_state[:, 0] + action,
        policy_logits=None, hidden_state=hidden_state)


class OneStepValuesTest(absltest.TestCase):

  def test_reward_plus_discounted_value_of_each_action(self):
    observations = np.array([[1., 9.], [-2., 9.]])
    values = episode_records.one_step_values(_Model(), observations, 3, 0.5)
    # h + a + 0.5 * 10 a = h + 6 a.
    np.testing.assert_allclose(values, [[1., 7., 13.], [-2., 4., 10.]])


class CartpoleEndTest(absltest.TestCase):

  def _episode(self, last, terminal=True):
    return evaluation.EpisodeRecord(
        observations=np.array([[0, 0, 0, 0], last], np.float32),
        actions=np.array([0]), rewards=np.array([1.]),
        root_values=np.array([5.]), terminal=terminal)

  def test_the_limit_crossed_names_the_end(self):
    self.assertEqual(episode_records.cartpole_end(
        self._episode([0.1, 0, LIMIT + 1e-3, 0])), 'angle')
    self.assertEqual(episode_records.cartpole_end(
        self._episode([-2.41, 0, 0.1, 0])), 'position')
    self.assertEqual(episode_records.cartpole_end(
        self._episode([2.5, 0, -0.3, 0])), 'angle and position')
    # 12 degrees is 0.2094 rad; 0.2 is inside both limits.
    self.assertEqual(episode_records.cartpole_end(
        self._episode([2.39, 0, 0.2, 0])), 'terminal')
    self.assertEqual(episode_records.cartpole_end(
        self._episode([3., 0, 1., 0], terminal=False)), 'time limit')


class SummarizeTest(absltest.TestCase):

  def test_counts_and_early_values_by_hand(self):
    episodes = evaluation.play_episodes(_Search(), _Scripted, 3, seed=0,
                                        record_observations=True)
    summary = episode_records.summarize('cartpole', episodes, value_every=2,
                                     early_moves=2)
    self.assertEqual(summary['ends'],
                     {'angle': 1, 'position': 1, 'time limit': 1})
    self.assertEqual([r['end'] for r in summary['episodes']],
                     ['angle', 'position', 'time limit'])
    self.assertAlmostEqual(summary['mean_return'], 3.)
    # Moves 0 and 1 of every episode have root values 0 and 10.
    self.assertEqual(summary['early_root_value'],
                     {'time limit': 5., 'ended': 5.})
    self.assertEqual(summary['episodes'][2]['root_values'],
                     {'0': 0., '2': 20.})
    self.assertEqual(summary['episodes'][1]['last_observation'],
                     '2.500 3.000 0.000 0.000')

  def test_no_episode_of_a_kind_leaves_its_mean_undefined(self):
    episodes = evaluation.play_episodes(_Search(), _Scripted, 2, seed=0,
                                        record_observations=True)
    summary = episode_records.summarize('cartpole', episodes, 10, 50)
    self.assertIsNone(summary['early_root_value']['time limit'])
    # Root values 0, 10 and 0, 10, 20 over both episodes.
    self.assertAlmostEqual(summary['early_root_value']['ended'], 8.)


if __name__ == '__main__':
  absltest.main()
