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
"""Board symmetries: checked against the games' own rules and by hand."""

import asyncio
import dataclasses
import itertools

import numpy as np
import pytest

from muzero_snt.run import builders
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import reanalysis
from muzero_snt import replay as replay_lib
from muzero_snt import search as search_lib
from muzero_snt import symmetries
from muzero_snt import trajectory as trajectory_lib
from muzero_snt.distributed import replay_service
from muzero_snt.environments import tictactoe


def _random_game(rng, moves=None):
  """A tic-tac-toe game of random legal moves: observations and actions."""
  env = tictactoe.TicTacToe()
  time_step = env.reset()
  observations, actions = [], []
  while not time_step.last() and (moves is None or len(actions) < moves):
    observations.append(time_step.observation)
    action = int(rng.choice(env.legal_actions()))
    actions.append(action)
    time_step = env.step(action)
  return np.stack(observations), actions


def _replay(actions):
  """The observations the environment shows along `actions`."""
  env = tictactoe.TicTacToe()
  time_step = env.reset()
  observations = []
  for action in actions:
    observations.append(time_step.observation)
    time_step = env.step(int(action))
  return np.stack(observations)


def test_rotation_and_mirror_by_hand():
  # Squares 0 1 2 / 3 4 5 / 6 7 8. A quarter turn counter-clockwise sends
  # the top-left corner to the bottom-left, the top-right to the top-left,
  # and keeps the centre; the transpose keeps the main diagonal.
  maps = symmetries.BoardSymmetries('dihedral', (3, 3, 3), 9)
  image = maps.action_image
  np.testing.assert_array_equal(image[0], np.arange(9))
  assert [image[1][a] for a in (0, 2, 8, 6, 4, 1)] == [6, 0, 2, 8, 4, 3]
  assert [image[4][a] for a in (0, 4, 8, 1, 2)] == [0, 4, 8, 3, 6]
  # Connect four's drops: column c <-> 6 - c.
  columns = symmetries.BoardSymmetries('left_right', (6, 7, 4), 7)
  np.testing.assert_array_equal(columns.action_image,
                                [np.arange(7), 6 - np.arange(7)])
  # Go's pass (action 81) stays where it is under every map.
  go = symmetries.BoardSymmetries('dihedral', (9, 9, 5), 82)
  assert go.size == 8
  np.testing.assert_array_equal(go.action_image[:, 81], 81)
  assert sorted(go.action_image[:, 0].tolist()) == [0, 0, 8, 8, 72, 72, 80,
                                                   80]


def test_the_eight_maps_are_the_symmetries_of_the_lines():
  # A permutation of the squares is a symmetry of tic-tac-toe exactly when
  # it sends the 8 winning lines onto themselves; there are 8 of them, and
  # the maps are those 8.
  lines = {frozenset(line) for line in
           ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7),
            (2, 5, 8), (0, 4, 8), (2, 4, 6))}
  keep_lines = {perm for perm in itertools.permutations(range(9))
                if {frozenset(perm[s] for s in line) for line in lines} ==
                lines}
  maps = symmetries.BoardSymmetries('dihedral', (3, 3, 3), 9)
  assert len(keep_lines) == 8
  assert {tuple(row) for row in maps.action_image.tolist()} == keep_lines


def test_moved_observations_are_the_moved_game():
  # Playing the mapped moves in the environment shows exactly the mapped
  # observations, for every map and several random games.
  rng = np.random.default_rng(0)
  maps = symmetries.BoardSymmetries('dihedral', (3, 3, 3), 9)
  for _ in range(5):
    observations, actions = _random_game(rng)
    for j in range(maps.size):
      moved = maps.transform_observations(
          observations, np.full(len(actions), j))
      played = _replay(maps.action_image[j][actions])
      np.testing.assert_array_equal(moved, played)


def test_mirrored_connect_four_is_the_mirrored_game():
  pyspiel = pytest.importorskip('pyspiel')
  del pyspiel
  config = presets.get_preset('connect4')
  make_environment = builders.make_environment_factory('connect4', config)
  maps = symmetries.BoardSymmetries('left_right', config.observation_shape,
                                    config.action_space_size)
  rng = np.random.default_rng(1)

  def play(actions):
    env = make_environment(0)
    time_step = env.reset()
    seen = []
    for action in actions:
      seen.append(time_step.observation)
      time_step = env.step(int(action))
    return np.stack(seen), time_step

  env = make_environment(0)
  time_step = env.reset()
  actions = []
  while not time_step.last() and len(actions) < 12:
    actions.append(int(rng.choice(env.legal_actions())))
    time_step = env.step(actions[-1])
  observations, _ = play(actions)
  mirrored, _ = play(maps.action_image[1][actions])
  np.testing.assert_array_equal(
      maps.transform_observations(observations, np.ones(len(actions), int)),
      mirrored)


def _game_record(rng, config):
  """A finished trajectory of a random game, with made-up search policies
  that put their mass on the legal squares."""
  observations, actions = _random_game(rng)
  env = tictactoe.TicTacToe()
  env.reset()
  trajectory = trajectory_lib.Trajectory(9, num_players=2)
  for t, action in enumerate(actions):
    policy = np.zeros(9, np.float32)
    legal = env.legal_actions()
    policy[legal] = rng.dirichlet(np.ones(len(legal)))
    time_step = env.step(action)
    trajectory.append(observations[t], t % 2, action,
                      float(time_step.reward), policy, rng.uniform(-1, 1))
  trajectory.finish(terminal=True)
  return trajectory


def _map_moving(plain, moved, i, atol=0.):
  """The first dihedral map that moves row i of batch `plain` onto row i of
  `moved` (observation, actions and policy targets together), or None."""
  maps = symmetries.BoardSymmetries('dihedral', (3, 3, 3), 9)
  image = maps.action_image
  for j in range(maps.size):
    observation = maps.transform_observations(plain.observation[i:i + 1],
                                              np.array([j]))[0]
    # A policy moves with its actions: mass on action a goes to image[a].
    policy = np.zeros_like(plain.target_policy[i])
    policy[:, image[j]] = plain.target_policy[i]
    if (np.array_equal(observation, moved.observation[i]) and
        np.array_equal(image[j][plain.action[i]], moved.action[i]) and
        np.allclose(policy, moved.target_policy[i], rtol=0., atol=atol)):
      return j
  return None


def test_replay_batches_are_moved_whole_windows():
  # The same games in two buffers of the same seed, one augmenting: the
  # positions drawn are the same, and each augmented window is the plain
  # one moved by one map (observation, actions and policy targets together);
  # values, rewards and masks are untouched; all 8 maps occur.
  config = presets.get_preset('tictactoe').replace(
      batch_size=256, board_symmetries='none')
  plain = replay_lib.ReplayBuffer(config, seed=3)
  moved = replay_lib.ReplayBuffer(
      config.replace(board_symmetries='dihedral'), seed=3)
  rng = np.random.default_rng(2)
  for _ in range(20):
    game = _game_record(rng, config)
    plain.save_game(game)
    moved.save_game(game)
  batch, keys = plain.sample_batch()
  augmented, moved_keys = moved.sample_batch()
  np.testing.assert_array_equal(keys, moved_keys)
  for name in ('target_value', 'target_reward', 'policy_mask', 'weight'):
    np.testing.assert_array_equal(getattr(batch, name),
                                  getattr(augmented, name))
  used = []
  for i in range(config.batch_size):
    j = _map_moving(batch, augmented, i)
    assert j is not None, f'row {i} is not a moved copy of the plain row'
    used.append(j)
    # The moved policy at step 0 covers exactly the moved position's empty
    # squares (planes 0 and 1 hold the stones).
    empty = augmented.observation[i, :, :, :2].sum(-1).ravel() == 0
    assert np.all(augmented.target_policy[i, 0][~empty] == 0)
    assert np.all(augmented.target_policy[i, 0][empty] > 0)
  assert set(used) == set(range(8))


def _reanalysis_setup():
  """A tiny tic-tac-toe config reanalysing every row, its network and
  search, and six random games."""
  base = presets.get_preset('tictactoe')
  config = base.replace(
      num_simulations=3, batch_size=32, reanalyze_fraction=1.0,
      network=dataclasses.replace(base.network, channels=4,
                                  prediction_blocks=0),
      board_symmetries='none')
  network = networks.make_network(config)
  network.create_variables()
  search = search_lib.make_search(config, network, 'graph')
  rng = np.random.default_rng(6)
  games = [_game_record(rng, config) for _ in range(6)]
  return config, network, search, games


def _check_moved_after_reanalysis(config, plain, moved, games):
  """Every row of `moved` is the same row of `plain` moved by one map."""
  stored = replay_lib.ReplayBuffer(config, seed=2)
  for game in games:
    stored.save_game(game)
  # The search changed the targets (else the test would not see the order).
  assert not np.allclose(stored.sample_batch()[0].target_policy,
                         plain.target_policy)
  used = set()
  for i in range(config.batch_size):
    j = _map_moving(plain, moved, i, atol=1e-6)
    assert j is not None, f'row {i} is not the reanalysed row moved'
    used.add(j)
  np.testing.assert_allclose(plain.target_value, moved.target_value)
  assert len(used) > 1


def test_reanalysed_windows_are_moved_after_their_new_targets():
  # In one process, reanalysis searches the stored positions and the
  # windows are moved afterwards: each augmented row is the plainly
  # reanalysed row moved by one map, its fresh policy targets included.
  config, network, search, games = _reanalysis_setup()
  batches = []
  for kind in ('none', 'dihedral'):
    kind_config = config.replace(board_symmetries=kind)
    buffer = replay_lib.ReplayBuffer(kind_config, seed=2)
    for game in games:
      buffer.save_game(game)
    reanalyser = reanalysis.Reanalyser(kind_config, network, search,
                                       lambda: 0, seed=7)
    batches.append(reanalysis.sample(kind_config, buffer, reanalyser)[0])
  _check_moved_after_reanalysis(config, *batches, games)


def test_the_replay_service_moves_windows_after_their_reanalysis():
  # The distributed mode: the service hands out the windows as stored with
  # one map per row, and the reanalysing process (the learner or a worker)
  # moves each row once its targets are new.
  config, network, search, games = _reanalysis_setup()
  batches = []
  for kind in ('none', 'dihedral'):
    kind_config = config.replace(board_symmetries=kind)
    service = replay_service.ReplayService(kind_config, 1., seed=2)

    async def take(service=service):
      await service.insert(0, [replay_service.Game(game, 0.)
                               for game in games])
      return await service.sample_with_inputs(timeout=1.)

    sampled = asyncio.new_event_loop().run_until_complete(take())
    assert (kind == 'none') == (not sampled.maps.any())
    reanalyser = reanalysis.Reanalyser(kind_config, network, search,
                                       lambda: 0, seed=7)
    batches.append(reanalyser.reanalyse_gathered(
        sampled.batch, sampled.inputs, sampled.maps))
  _check_moved_after_reanalysis(config, *batches, games)


def test_none_draws_nothing():
  # With 'none', `augment` returns the batch untouched and draws nothing:
  # the next batches are those of a twin buffer that never called it.
  config = presets.get_preset('tictactoe').replace(board_symmetries='none')
  a = replay_lib.ReplayBuffer(config, seed=5)
  b = replay_lib.ReplayBuffer(config, seed=5)
  rng = np.random.default_rng(4)
  for _ in range(5):
    game = _game_record(rng, config)
    a.save_game(game)
    b.save_game(game)
  for _ in range(3):
    batch_a, _ = a.sample_batch()
    assert a.augment(batch_a) is batch_a
    batch_b, _ = b.sample_batch()
    for x, y in zip(batch_a, batch_b):
      np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize('change, message', [
    (dict(board_symmetries='rotate'), "expected one of ('none', 'dihedral'"),
    (dict(board_symmetries='dihedral', observation_shape=(3, 4, 3)),
     'needs a square board, got 3x4'),
    (dict(board_symmetries='dihedral', action_space_size=11),
     'needs action_space_size in (9, 10)'),
])
def test_bad_settings_are_named(change, message):
  with pytest.raises(ValueError) as error:
    presets.get_preset('tictactoe').replace(**change)
  assert message in str(error.value)


def test_flat_observations_are_refused():
  problem = symmetries.check('left_right', (4,), 2)
  assert 'needs observations [height, width, planes], got ' \
         'observation_shape [4]' in problem
