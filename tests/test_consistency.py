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
"""EfficientZero's consistency loss: the loss, its batch and its learner.

The expected numbers come from another route: the network unrolled one
step at a time through its public inference functions, and cosine
similarities in NumPy.
"""

import numpy as np
import pytest
import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt.run import data_sources
from muzero_snt import learning
from muzero_snt import losses
from muzero_snt import presets
from muzero_snt import replay
from muzero_snt import symmetries
from muzero_snt import trajectory as trajectory_lib
from muzero_snt.networks import make_network
from tests import frame_games
from tests import testing

WEIGHT = 2.0


def _config(**changes):
  network = config_lib.NetworkConfig(
      kind='mlp', hidden_size=8, mlp_layers=(16,), head_layers=(8,),
      value_support_size=5, reward_support_size=5, projection_hidden=12,
      projection_size=6, projection_head_hidden=4)
  fields = dict(network=network, consistency_loss_weight=WEIGHT,
                num_unroll_steps=3)
  fields.update(changes)
  return presets.make_cartpole_config().replace(**fields)


def _batch(config, batch_size=6, seed=0):
  batch = testing.random_batch(config, batch_size, seed=seed)
  rng = np.random.default_rng(seed + 1)
  next_observation = rng.uniform(
      0., 1., (batch_size, config.num_unroll_steps) +
      config.observation_shape).astype(np.float32)
  # Past the end of a game the observation is zero, as replay leaves it.
  mask = batch.policy_mask[:, 1:]
  next_observation *= mask.reshape(mask.shape + (1,) *
                                   len(config.observation_shape))
  return batch._replace(next_observation=next_observation)


def _cosines_by_steps(network, batch):
  """`[B, K]` cosine similarities, unrolled one step at a time, in NumPy."""
  k = batch.action.shape[1]
  hidden = network.initial_inference(batch.observation).hidden_state
  cosines = []
  for step in range(k):
    hidden = network.recurrent_inference(
        hidden, tf.constant(batch.action[:, step])).hidden_state
    online = network.project(hidden, with_head=True).numpy()
    target = network.project(
        network.initial_inference(
            batch.next_observation[:, step]).hidden_state).numpy()
    cosines.append(
        np.sum(online * target, -1) /
        (np.linalg.norm(online, axis=-1) * np.linalg.norm(target, axis=-1)))
  return np.stack(cosines, axis=1)


def test_consistency_loss_is_the_masked_negative_cosine():
  rng = np.random.default_rng(0)
  prediction = rng.normal(size=(4, 3, 5)).astype(np.float32)
  target = rng.normal(size=(4, 3, 5)).astype(np.float32)
  mask = np.array([[1, 1, 0]] * 4, np.float32)
  expected = -np.sum(prediction * target, -1) / (
      np.linalg.norm(prediction, axis=-1) * np.linalg.norm(target, axis=-1))
  got = losses.consistency_loss(prediction, target, mask).numpy()
  np.testing.assert_allclose(got, expected * mask, rtol=1e-5, atol=1e-6)
  # Same direction: -1 whatever the lengths.
  np.testing.assert_allclose(
      losses.consistency_loss(prediction, 3. * prediction,
                              np.ones((4, 3))).numpy(), -np.ones((4, 3)),
      rtol=1e-6)


def test_the_target_gets_no_gradient():
  prediction = tf.Variable(tf.random.normal([4, 5]))
  target = tf.Variable(tf.random.normal([4, 5]))
  with tf.GradientTape() as tape:
    loss = tf.reduce_sum(losses.consistency_loss(prediction, target,
                                                 tf.ones([4])))
  grad_prediction, grad_target = tape.gradient(loss, [prediction, target])
  assert grad_target is None
  assert np.any(grad_prediction.numpy() != 0)


def test_unrolled_loss_adds_the_weighted_consistency_of_each_step():
  config = _config()
  network = make_network(config)
  network.create_variables()
  batch = _batch(config)
  plain = losses.unrolled_loss(network, batch, config.weight_decay,
                               is_training=False)
  with_consistency = losses.unrolled_loss(
      network, batch, config.weight_decay, is_training=False,
      consistency_loss_weight=WEIGHT)
  assert plain.extra.consistency_loss is None
  mask = batch.policy_mask[:, 1:]
  # (Past the end, the zero observation may project to a zero vector, whose
  # cosine NumPy leaves undefined; the loss masks it.)
  with np.errstate(invalid='ignore'):
    step_losses = np.where(mask > 0, -_cosines_by_steps(network, batch),
                           0.)  # [B, K]
  np.testing.assert_allclose(with_consistency.extra.consistency_loss,
                             step_losses.mean(0), rtol=1e-5, atol=1e-6)
  # Forward, the 1/K gradient scales are the identity: the loss grows by
  # the weighted per-example sum, times the importance weights.
  added = WEIGHT * np.mean(batch.weight * step_losses.sum(1))
  np.testing.assert_allclose(
      with_consistency.loss.numpy() - plain.loss.numpy(), added, rtol=1e-4,
      atol=1e-6)


def test_the_projection_learns_at_one_over_k_through_the_step_scale():
  # Only the consistency loss reaches the projection's variables; each
  # step's term is inside the step's 1/K gradient scale.
  config = _config()
  network = make_network(config)
  network.create_variables()
  batch = _batch(config, seed=3)
  variables = network.projection.trainable_variables
  k = config.num_unroll_steps
  with tf.GradientTape() as tape:
    loss = losses.unrolled_loss(
        network, batch, config.weight_decay, is_training=False,
        consistency_loss_weight=WEIGHT).extra.per_example
    loss = tf.reduce_mean(loss)
  got = tape.gradient(loss, variables)
  # The other route: the steps one at a time, the weight and 1/K by hand.
  with tf.GradientTape() as tape:
    hidden = network.initial_inference(batch.observation).hidden_state
    total = 0.
    for step in range(k):
      hidden = network.recurrent_inference(
          hidden, tf.constant(batch.action[:, step])).hidden_state
      online = tf.math.l2_normalize(network.project(hidden, with_head=True),
                                    -1)
      target = tf.math.l2_normalize(
          tf.stop_gradient(network.project(network.initial_inference(
              batch.next_observation[:, step]).hidden_state)), -1)
      cosine = tf.reduce_sum(online * target, -1)
      total += WEIGHT / k * -cosine * batch.policy_mask[:, step + 1]
    expected_loss = tf.reduce_mean(total * batch.weight)
  expected = tape.gradient(expected_loss, variables)
  for variable, g, e in zip(variables, got, expected):
    np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-4, atol=1e-7,
                               err_msg=variable.name)
  assert any(np.any(g.numpy() != 0) for g in got)


def test_no_gradient_reaches_the_next_observations():
  config = _config()
  network = make_network(config)
  network.create_variables()
  batch = _batch(config)
  observation = tf.constant(batch.observation)
  next_observation = tf.constant(batch.next_observation)
  with tf.GradientTape(persistent=True) as tape:
    tape.watch([observation, next_observation])
    loss = losses.unrolled_loss(
        network, batch._replace(observation=observation,
                                next_observation=next_observation),
        config.weight_decay, consistency_loss_weight=WEIGHT).loss
  assert tape.gradient(loss, next_observation) is None
  assert np.any(tape.gradient(loss, observation).numpy() != 0)


def test_bad_requests_are_refused():
  with pytest.raises(ValueError, match='consistency_loss_weight.*-1'):
    _config(consistency_loss_weight=-1.)
  with pytest.raises(ValueError, match='projection_size'):
    config_lib.NetworkConfig(projection_size=0)
  config = _config()
  network = make_network(config)
  network.create_variables()
  batch = _batch(config)
  with pytest.raises(ValueError, match='needs Batch.next_observation'):
    losses.unrolled_loss(network, batch._replace(next_observation=None),
                         config.weight_decay, consistency_loss_weight=WEIGHT)
  with pytest.raises(ValueError, match=r'next_observation must have shape '
                     r'\[6, 3, 4\]'):
    losses.unrolled_loss(
        network, batch._replace(next_observation=batch.next_observation[:,
                                                                        :2]),
        config.weight_decay, consistency_loss_weight=WEIGHT)
  paper = make_network(_config(consistency_loss_weight=0.))
  paper.create_variables()
  assert paper.projection is None
  with pytest.raises(ValueError, match='no projection'):
    paper.project(tf.zeros([1, 8]))


def _cartpole_game(length, seed):
  rng = np.random.default_rng(seed)
  game = trajectory_lib.Trajectory(2, discount=0.997)
  observations = rng.normal(size=(length, 4)).astype(np.float32)
  for t in range(length):
    game.append(observations[t], 0, int(rng.integers(2)), 1.,
                rng.dirichlet(np.ones(2)), float(rng.normal()))
  game.finish(terminal=True)
  return game, observations


def test_replay_samples_the_next_observations_of_each_window():
  config = _config(batch_size=200, window_size=100)
  buffer = replay.ReplayBuffer(config, seed=1)
  stored = {}
  for seed, length in enumerate([2, 5, 9]):
    game, observations = _cartpole_game(length, seed)
    stored[buffer.save_game(game)] = observations
  batch, keys = buffer.sample_batch()
  k = config.num_unroll_steps
  assert batch.next_observation.shape == (200, k, 4)
  for row, (game_id, t) in enumerate(keys.tolist()):
    observations = stored[game_id]
    for step in range(1, k + 1):
      if t + step < len(observations):
        np.testing.assert_array_equal(batch.next_observation[row, step - 1],
                                      observations[t + step])
        assert batch.policy_mask[row, step] == 1
      else:
        np.testing.assert_array_equal(batch.next_observation[row, step - 1],
                                      np.zeros(4))
        assert batch.policy_mask[row, step] == 0
  # The paper's batch has none.
  paper = replay.ReplayBuffer(_config(consistency_loss_weight=0.), seed=1)
  paper.save_game(_cartpole_game(5, 0)[0])
  assert paper.sample_batch()[0].next_observation is None


def test_frame_stacked_games_sample_the_stacked_next_observations():
  config = _config(observation_shape=(2, 3, 8), action_space_size=18,
                   discount=0.9, window_size=20, batch_size=64)
  buffer = replay.ReplayBuffer(config, seed=3)
  stored = {}
  for seed, length in enumerate([4, 7, 1]):
    game, observations = frame_games.random_game(length, seed=seed)
    stored[buffer.save_game(game)] = observations
  batch, keys = buffer.sample_batch()
  for row, (game_id, t) in enumerate(keys.tolist()):
    observations = stored[game_id]
    for step in range(1, config.num_unroll_steps + 1):
      if t + step < len(observations):
        np.testing.assert_array_equal(batch.next_observation[row, step - 1],
                                      observations[t + step])


def test_symmetries_move_the_next_observations_with_the_window():
  config = presets.get_preset('tictactoe').replace(
      consistency_loss_weight=1., batch_size=8)
  maps = symmetries.BoardSymmetries('dihedral', config.observation_shape,
                                    config.action_space_size)
  batch = _batch(config, batch_size=8)
  chosen = np.arange(8)
  moved = maps.apply(batch, chosen)
  for row in range(8):
    for step in range(config.num_unroll_steps):
      np.testing.assert_array_equal(
          moved.next_observation[row, step],
          maps.transform_observations(
              batch.next_observation[row:row + 1, step],
              chosen[row:row + 1])[0])
  # The identity leaves them; another map moves a non-symmetric one.
  np.testing.assert_array_equal(moved.next_observation[0],
                                batch.next_observation[0])
  assert np.any(moved.next_observation[1] != batch.next_observation[1])


def test_learner_trains_the_consistency_from_a_dataset():
  config = _config(batch_size=16, lr_init=0.05)
  network = make_network(config)
  learner = learning.Learner(network, config)
  batch = _batch(config, batch_size=16, seed=5)
  dataset = data_sources.from_batches(lambda: iter([batch] * 60), config, 16)
  first = last = None
  for element in dataset:
    metrics = learner.step(element)
    assert metrics['consistency_loss'].shape == (config.num_unroll_steps,)
    if first is None:
      first = metrics['consistency_loss'].mean()
    last = metrics['consistency_loss'].mean()
  # The hidden states of one fixed batch are drawn towards their targets.
  assert last < first - 0.1, (first, last)
  # The paper's config keeps a batch without next observations.
  paper = _config(consistency_loss_weight=0., batch_size=4)
  dataset = data_sources.from_batches(
      lambda: iter([testing.random_batch(paper, 4)]), paper, 4)
  element = next(iter(dataset))
  assert element.next_observation is None
  metrics = learning.Learner(make_network(paper), paper).step(element)
  assert 'consistency_loss' not in metrics
