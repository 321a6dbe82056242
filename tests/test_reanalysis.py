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
"""Tests for muzero_snt.reanalysis: fresh policy and value targets."""

import dataclasses
import pickle

import numpy as np
import tensorflow as tf

from muzero_snt.run import builders
from muzero_snt.run import experiment
from muzero_snt.run import run_config
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import search as search_lib
from muzero_snt import trajectory as trajectory_lib
from tests import frame_games
from tests import testing

A = 3  # Actions of the test games.


def _config(**changes):
  """Two players, 3 actions, K 2, n 2, discount 0.9, a tiny MLP."""
  fields = dict(action_space_size=A, num_players=2, num_unroll_steps=2,
                td_steps=2, discount=0.9, num_simulations=6, batch_size=6,
                max_moves=50, window_size=10, reanalyze_fraction=1.0,
                target_update_interval=3)
  fields.update(changes)
  return testing.tiny_mlp_config(**fields)


def _game(length, seed, num_players=2):
  """A random finished game; move t's legal mask excludes action (t % 3)
  unless it is the one taken."""
  rng = np.random.default_rng(seed)
  game = trajectory_lib.Trajectory(A, num_players, 0.9)
  for t in range(length):
    action = int(rng.integers(A))
    legal = np.ones(A, bool)
    if t % A != action:
      legal[t % A] = False
    policy = rng.dirichlet(np.ones(A)) * legal
    game.append(rng.normal(size=4).astype(np.float32), t % num_players,
                action, float(rng.normal()), policy / policy.sum(),
                float(rng.normal()), legal)
  game.finish(terminal=True)
  return game


class ReanalyserTestCase(testing.TestCase):

  def _setup(self, config, games=(5, 3, 7), steps=None):
    network = networks.make_network(config)
    network.create_variables()
    buffer = replay_lib.ReplayBuffer(config, seed=1)
    for i, length in enumerate(games):
      buffer.save_game(_game(length, seed=i, num_players=config.num_players))
    search = search_lib.make_search(config, network, 'graph')
    self.steps = [0] if steps is None else steps
    reanalyser = reanalysis.Reanalyser(config, network, search,
                                       lambda: self.steps[0], seed=4)
    return network, buffer, search, reanalyser


class PolicyTargetTest(ReanalyserTestCase):

  def test_policy_targets_equal_a_search_of_each_position_alone(self):
    config = _config()
    network, buffer, _, reanalyser = self._setup(config)
    # The independent route: the pseudocode's NumPy trees, one position at
    # a time (the reanalyser runs the compiled search on all at once).
    reference = search_lib.make_search(config, network, 'reference')
    batch, keys = buffer.sample_batch()
    new = reanalyser.reanalyse(batch, keys, buffer)
    searched = 0
    for row, (game_id, t) in enumerate(keys.tolist()):
      game = buffer.game(game_id)
      for step in range(config.num_unroll_steps + 1):
        if t + step >= game.length:  # Past the end: absorbing, unchanged.
          self.assertAllEqual(new.target_policy[row, step], np.zeros(A))
          continue
        j = t + step
        alone = reference(
            game.observations[j][None], [int(game.to_play[j])],
            game.legal_actions[j][None], np.random.default_rng(0),
            add_noise=False)
        self.assertAllEqual(new.target_policy[row, step], alone.policy[0])
        # Illegal actions get no visits.
        self.assertTrue(np.all(new.target_policy[row, step][
            ~game.legal_actions[j]] == 0.))
        searched += 1
    self.assertEqual(reanalyser.take_stats()[:2], (len(keys), searched))
    for field in ('observation', 'action', 'target_reward', 'policy_mask',
                  'weight'):
      self.assertAllEqual(getattr(new, field), getattr(batch, field))

  def test_a_visit_distribution_of_6_simulations(self):
    # Every simulation visits one root child: the targets are counts / 6.
    config = _config()
    _, buffer, _, reanalyser = self._setup(config)
    batch, keys = buffer.sample_batch()
    new = reanalyser.reanalyse(batch, keys, buffer)
    inside = new.policy_mask > 0
    counts = new.target_policy[inside] * 6
    self.assertAllClose(counts, np.round(counts), atol=1e-5)
    self.assertAllClose(counts.sum(-1), np.full(inside.sum(), 6.))


class ValueTargetTest(ReanalyserTestCase):

  def _assert_bootstraps_by_hand(self, network, buffer, batch, keys, new):
    g, changed = 0.9, 0
    for row, (game_id, t) in enumerate(keys.tolist()):
      game = buffer.game(game_id)
      for step in range(min(3, game.length - t)):
        j = t + step
        if j + 2 >= game.length:  # Monte Carlo: the stored target stays.
          self.assertEqual(new.target_value[row, step],
                           batch.target_value[row, step])
          continue
        # z_j = r_j - g r_{j+1} + g^2 v(o_{j+2}): players alternate, so the
        # opponent's reward at j+1 counts against the player at j, and the
        # player at j moves again at j+2. The target network is the network
        # itself until the first refresh.
        value = float(network.initial_inference(
            tf.constant(game.observations[j + 2][None])).value[0])
        expected = (game.rewards[j] - g * game.rewards[j + 1] +
                    g**2 * value)
        self.assertAllClose(new.target_value[row, step], expected,
                            atol=1e-5)
        changed += 1
    self.assertGreater(changed, 0)

  def test_bootstrap_from_the_target_network_by_hand(self):
    config = _config()
    network, buffer, _, reanalyser = self._setup(config)
    batch, keys = buffer.sample_batch()
    new = reanalyser.reanalyse(batch, keys, buffer)
    self._assert_bootstraps_by_hand(network, buffer, batch, keys, new)

  def test_value_only_keeps_the_stored_policies_and_searches_nothing(self):
    config = _config(reanalyze_policy=False)
    network, buffer, _, reanalyser = self._setup(config)
    batch, keys = buffer.sample_batch()
    new = reanalyser.reanalyse(batch, keys, buffer)
    self._assert_bootstraps_by_hand(network, buffer, batch, keys, new)
    self.assertAllEqual(new.target_policy, batch.target_policy)
    rows, searched, _ = reanalyser.take_stats()
    self.assertEqual((rows, searched), (len(keys), 0))

  def test_monte_carlo_targets_change_only_the_policy(self):
    config = _config(td_steps=50)  # >= max_moves: no bootstrap.
    _, buffer, _, reanalyser = self._setup(config)
    self.assertIsNone(reanalyser.target_network)
    self.assertNotIn('reanalyse_target_network', reanalyser.state)
    batch, keys = buffer.sample_batch()
    new = reanalyser.reanalyse(batch, keys, buffer)
    self.assertAllEqual(new.target_value, batch.target_value)
    self.assertNotAllEqual(new.target_policy, batch.target_policy)


class TargetNetworkTest(ReanalyserTestCase):

  def test_target_network_changes_only_at_its_interval(self):
    config = _config(target_update_interval=3)
    network, buffer, _, reanalyser = self._setup(config, steps=[0])
    target = reanalyser.target_network
    copied_at = []
    for step in range(8):
      self.steps[0] = step
      for v in network.trainable_variables:  # A learner step.
        v.assign_add(tf.ones_like(v))
      before = [v.numpy() for v in target.variables]
      reanalyser.reanalyse(*buffer.sample_batch(), buffer)
      after = [v.numpy() for v in target.variables]
      if any(not np.array_equal(a, b) for a, b in zip(before, after)):
        copied_at.append(step)
        for t, v in zip(target.variables, network.variables):
          self.assertAllEqual(t, v)
      self.assertEqual(reanalyser.target_network_step, copied_at[-1])
    self.assertEqual(copied_at, [0, 3, 6])


class FractionTest(ReanalyserTestCase):

  def test_whole_counts_are_exact(self):
    rng = np.random.default_rng(0)
    for fraction, batch_size, expected in ((0.8, 10, 8), (0.5, 4, 2),
                                           (0., 7, 0), (1., 7, 7)):
      self.assertEqual(
          reanalysis.num_rows(fraction, batch_size, rng), expected)

  def test_fractional_counts_average_to_the_fraction(self):
    # 0.25 * 10 = 2.5 rows: 2 or 3, each with probability 1/2; over 2000
    # draws the number of 3s is Binomial(2000, 0.5): mean 1000, sd 22.4.
    rng = np.random.default_rng(0)
    counts = [reanalysis.num_rows(0.25, 10, rng) for _ in range(2000)]
    self.assertEqual(set(counts), {2, 3})
    self.assertLess(abs(counts.count(3) - 1000), 4 * 22.4)

  def test_rows_reanalysed_per_batch_follow_the_fraction(self):
    config = _config(reanalyze_fraction=0.5, batch_size=6,
                     td_steps=50)  # 3 rows of 6 in every batch.
    _, buffer, _, reanalyser = self._setup(config)
    for _ in range(4):
      batch, keys = buffer.sample_batch()
      new = reanalyser.reanalyse(batch, keys, buffer)
      changed = [row for row in range(6) if not np.array_equal(
          new.target_policy[row], batch.target_policy[row])]
      self.assertLessEqual(len(changed), 3)
      self.assertEqual(reanalyser.take_stats()[0], 3)

  def test_same_seed_and_call_number_choose_the_same_rows(self):
    config = _config(reanalyze_fraction=0.5, td_steps=50)
    network, buffer, search, first = self._setup(config)
    batch, keys = buffer.sample_batch()
    a = first.reanalyse(batch, keys, buffer)
    second = reanalysis.Reanalyser(config, network, search,
                                   lambda: 0, seed=4)
    b = second.reanalyse(batch, keys, buffer)
    self.assertAllEqual(a.target_policy, b.target_policy)
    # The next call draws from (seed, 1): other rows, as a resumed run would.
    c = second.reanalyse(batch, keys, buffer)
    self.assertNotAllEqual(b.target_policy, c.target_policy)


class FractionZeroTest(ReanalyserTestCase):

  def test_fraction_zero_is_todays_run(self):
    config = presets.make_tictactoe_config().replace(
        num_simulations=2, batch_size=8, num_unroll_steps=2,
        network=dataclasses.replace(
            presets.make_tictactoe_config().network, channels=4,
            prediction_blocks=0))
    self.assertEqual(config.reanalyze_fraction, 0.)  # The default.
    settings = run_config.RunConfig(preset='tictactoe', num_envs=2,
                                      train_ratio=1., search='graph')
    learner = builders.make_learner(config, jit_compile=False)
    self.assertIsNone(builders.make_reanalyser(
        settings.replace(config=config).resolved(), learner))
    source = builders.make_source(
        settings.replace(config=config).resolved(), learner)
    # The checkpoint holds what it held before reanalysis existed.
    self.assertEqual(sorted(source.counters()), [
        'counted_env_steps', 'env_steps', 'games', 'paid_steps', 'rounds'])
    # Batches are the replay buffer's, bit for bit: a buffer of the same
    # seed and games draws the same ones.
    source.run_round(lambda: True, lambda: 0)
    twin = replay_lib.ReplayBuffer(config, seed=settings.seed)
    for game_id in source.replay.game_ids:
      twin.save_game(source.replay.game(game_id))
    for _ in range(3):
      batch, _ = source.sample()
      expected, _ = twin.sample_batch()
      for field, value in expected._asdict().items():
        self.assertAllEqual(getattr(batch, field), value)

  def test_a_reanalyser_at_fraction_zero_changes_nothing(self):
    config = _config(reanalyze_fraction=0.)
    _, buffer, _, reanalyser = self._setup(config)
    batch, keys = buffer.sample_batch()
    self.assertIs(reanalyser.reanalyse(batch, keys, buffer), batch)


if __name__ == '__main__':
  tf.test.main()


class GatheredInputsTest(ReanalyserTestCase):

  def test_gathered_rows_only_get_a_search_of_each_position(self):
    # The distributed mode's route: the replay's process picks the rows and
    # reads their inputs; the reanalysing process has no replay at all.
    config = _config()
    network, buffer, _, reanalyser = self._setup(config)
    reference = search_lib.make_search(config, network, 'reference')
    batch, keys = buffer.sample_batch()
    rows = np.array([1, 4])
    inputs = pickle.loads(pickle.dumps(
        reanalysis.gather_inputs(config, keys, rows, buffer)))
    new = reanalyser.reanalyse_gathered(batch, inputs)
    for row, (game_id, t) in enumerate(keys.tolist()):
      if row not in rows:
        self.assertAllEqual(new.target_policy[row], batch.target_policy[row])
        self.assertAllEqual(new.target_value[row], batch.target_value[row])
        continue
      game = buffer.game(game_id)
      for step in range(min(3, game.length - t)):
        j = t + step
        alone = reference(
            game.observations[j][None], [int(game.to_play[j])],
            game.legal_actions[j][None], np.random.default_rng(0),
            add_noise=False)
        self.assertAllEqual(new.target_policy[row, step], alone.policy[0])
    self.assertEqual(reanalyser.take_stats()[0], 2)
    # Nothing chosen: the batch itself.
    none = reanalysis.gather_inputs(config, keys, np.zeros(0, int), buffer)
    self.assertIs(reanalyser.reanalyse_gathered(batch, none), batch)

  def test_frame_stacked_games_give_their_stacked_observations(self):
    # Games storing each frame once: the searched and bootstrap positions'
    # observations are those the games were handed.
    config = _config(action_space_size=18, num_players=1,
                     observation_shape=(2, 3, 8))
    buffer = replay_lib.ReplayBuffer(config, seed=1)
    observations = {}
    for i, length in enumerate([6, 3]):
      game, game_observations = frame_games.random_game(length, seed=i)
      observations[buffer.save_game(game)] = game_observations
    _, keys = buffer.sample_batch()
    inputs = reanalysis.gather_inputs(config, keys, np.arange(len(keys)),
                                      buffer)
    self.assertNotEmpty(inputs.bootstraps)
    for pairs, gathered, offset in (
        (inputs.searched, inputs.observations, 0),
        (inputs.bootstraps, inputs.bootstrap_observations, 2)):
      for (row, step), observation in zip(pairs.tolist(), gathered):
        game_id, t = keys[row].tolist()
        self.assertAllEqual(observation,
                            observations[game_id][t + step + offset])
