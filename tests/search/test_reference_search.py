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
"""Tests for search.reference_search: the search finds the right moves, and
its batch noise is the pseudocode's draws."""

import dataclasses

import numpy as np
from absl.testing import absltest
from absl.testing import parameterized

from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import types
from muzero_snt.search import base
from muzero_snt.search import mcts
from muzero_snt.search import model as model_lib
from muzero_snt.search import reference_search
from tests import testing
from tests.search import oracle

TICTACTOE = presets.make_tictactoe_config()  # 25 simulations.


def _simulations(n, config=TICTACTOE):
  """`config` with `n` simulations, as a caller changes the count."""
  return dataclasses.replace(config, num_simulations=n)

# (position, best move). X moves first; the player to move follows from the
# stone counts. Each best move is the only one of the highest minimax value.
WINS = (
    ('XX.OO....', 2),  # X completes the top row (O threatens 5).
    ('.OOXX...X', 0),  # O completes the top row.
    ('XX.OO.X..', 5),  # O completes the middle row (X threatens 2).
    ('O...O.XX.', 8),  # X completes the bottom row (O threatens 8 too).
    ('.XO.XOX..', 8),  # O completes the right column (X threatens 7).
)
BLOCKS = (
    ('OO.X....X', 2),  # X blocks the top row.
    ('XX..O....', 2),  # O blocks the top row.
    ('OX.XO....', 8),  # X blocks the diagonal.
    ('X.OO..XX.', 8),  # O blocks the bottom row.
)


def _mask(legal, num_actions=9):
  """The search's mask of the pseudocode's lists, as its callers make it."""
  return base.legal_actions_to_mask(legal, num_actions)


def _batch(positions):
  observations, to_play, legal = zip(
      *(oracle.observation(p) for p in positions))
  return np.stack(observations), list(to_play), _mask(legal)


def _occupied(position):
  return [i for i, c in enumerate(position) if c != '.']


class TicTacToeSearchTest(parameterized.TestCase):

  # The oracle gives no prior: inside the tree the opponent's replies
  # include the occupied squares (an illegal move loses at once), which make
  # a losing move look better until the opponent's winning reply has been
  # tried. 25 simulations are not always enough for that ('OX.XO....' needs
  # 100); from 100 on every position is solved.
  @parameterized.parameters(100, 200, 400)
  def test_wins_and_blocks(self, num_simulations):
    positions, best = zip(*(WINS + BLOCKS))
    observations, to_play, legal = _batch(positions)
    self.assertEqual(to_play, [0, 1, 1, 0, 1, 0, 1, 0, 1])
    output = reference_search.search(
        _simulations(num_simulations), oracle.TicTacToeOracle(),
        observations, to_play, legal, np.random.default_rng(0),
        add_noise=False)
    for i, position in enumerate(positions):
      visits = output.visit_counts[i]
      self.assertEqual(int(np.argmax(visits)), best[i],
                       f'{position}: visits {visits.tolist()}')
      np.testing.assert_array_equal(visits[_occupied(position)], 0)
      self.assertEqual(visits.sum(), num_simulations)
    np.testing.assert_allclose(output.policy,
                               output.visit_counts / num_simulations,
                               rtol=1e-6)
    self.assertEqual(output.policy.dtype, np.float32)
    self.assertEqual(output.visit_counts.dtype, np.int32)

  @parameterized.parameters(25, 100, 400)
  def test_corners_lose_after_opposite_corners(self, num_simulations):
    # X on two opposite corners, O in the centre: a corner loses to a fork,
    # an edge draws (two plies deeper than a block).
    output = reference_search.search(
        _simulations(num_simulations), oracle.TicTacToeOracle(),
        *_batch(['X...O...X']), np.random.default_rng(0), add_noise=False)
    self.assertIn(int(np.argmax(output.visit_counts[0])), (1, 3, 5, 7))

  def test_only_the_given_actions_are_searched(self):
    # The winning square 2 is left out: the best remaining move blocks 5.
    observations, to_play, _ = _batch(['XX.OO....'])
    roots = reference_search.search_trees(
        TICTACTOE, oracle.TicTacToeOracle(), observations, to_play,
        _mask([np.array([8, 5, 6, 7])]), np.random.default_rng(0),
        add_noise=False)
    output = reference_search.root_statistics(roots, 9)
    visits = output.visit_counts[0]
    np.testing.assert_array_equal(visits[[0, 1, 2, 3, 4]], 0)
    self.assertEqual(int(np.argmax(visits)), 5)
    self.assertEqual(list(roots[0].children), [5, 6, 7, 8])
    for action in roots[0].children:
      self.assertIs(type(action), int)  # Not np.int64.
    for child in roots[0].children.values():
      self.assertAlmostEqual(child.prior, 0.25)  # Uniform over 4 actions.

  @parameterized.named_parameters(
      # One simulation visits the lowest legal action only; the root value
      # is then that action's Q for the player to move.
      # X completes a line at 2: reward 1, terminal value 0.
      ('x_wins', 'XX.OO....', None, 2, 1.),
      # O completes a line at 0: reward 1 for O, the player to move.
      ('o_wins', '.OOXX...X', None, 0, 1.),
      # O plays 7; X then wins (value +1 for X): 0 + 1 * -1 = -1 for O.
      ('o_loses', 'XX.OO.X..', [7], 7, -1.))
  def test_root_value_is_for_the_player_to_move(self, position, legal,
                                                action, expected):
    observations, to_play, all_legal = _batch([position])
    roots = reference_search.search_trees(
        _simulations(1), oracle.TicTacToeOracle(), observations, to_play,
        _mask([legal]) if legal else all_legal, np.random.default_rng(0),
        add_noise=False)
    output = reference_search.root_statistics(roots, 9)
    expected_visits = np.zeros(9, np.int32)
    expected_visits[action] = 1
    np.testing.assert_array_equal(output.visit_counts[0], expected_visits)
    self.assertEqual(output.root_value.dtype, np.float32)
    self.assertEqual(output.root_value[0], expected)
    self.assertEqual(output.root_value[0], roots[0].value())


class NoiseTest(absltest.TestCase):

  def test_one_dirichlet_draw_per_root_in_batch_order(self):
    positions = ['XX.OO....', '.........']
    observations, to_play, legal = _batch(positions)
    rng = np.random.default_rng(5)
    roots = reference_search.search_trees(
        _simulations(2), oracle.TicTacToeOracle(), observations, to_play,
        legal, rng)
    # An independent replay of the draws: 5 then 9 components, mixed into
    # uniform priors with fraction 0.25.
    replay = np.random.default_rng(5)
    for root, row in zip(roots, legal):
      actions = np.flatnonzero(row).tolist()
      noise = replay.dirichlet([TICTACTOE.root_dirichlet_alpha] *
                               len(actions))
      np.testing.assert_allclose(
          [root.children[a].prior for a in actions],
          0.75 / len(actions) + 0.25 * noise, rtol=1e-12)
    # Nothing else was drawn.
    self.assertEqual(rng.random(), replay.random())

  def test_same_seed_same_search(self):
    observations, to_play, legal = _batch(['.........', 'X...O...X'])

    def run(seed):
      return reference_search.search(
          TICTACTOE, oracle.TicTacToeOracle(), observations, to_play, legal,
          np.random.default_rng(seed))

    np.testing.assert_array_equal(run(3).visit_counts, run(3).visit_counts)


class _ChainModel:
  """One player, three arms; the best arm pays the largest discounted sum.

  Hidden state `[B, 2]` (kind, arm). From the root (kind 0) arm a pays
  REWARD[a] and leads to state (1, a) of value VALUE[a]; from there any
  action pays VALUE[a] (so the value is exact) and ends the episode
  (kind 2: reward 0, value 0 for ever).
  """
  REWARD = (2., 0., 0.)
  VALUE = (0., 1., 3.)

  def initial_inference(self, observation):
    batch_size = len(observation)
    return types.NetworkOutput(
        value=np.zeros(batch_size), reward=np.zeros(batch_size),
        policy_logits=np.zeros((batch_size, 3)),
        hidden_state=np.zeros((batch_size, 2)))

  def recurrent_inference(self, hidden_state, action):
    state, reward, value = [], [], []
    for (kind, arm), a in zip(hidden_state.tolist(), action.tolist()):
      if kind == 0:
        state.append((1, a))
        reward.append(self.REWARD[a])
        value.append(self.VALUE[a])
      else:
        state.append((2, 0))
        reward.append(self.VALUE[int(arm)] if kind == 1 else 0.)
        value.append(0.)
    return types.NetworkOutput(
        value=np.array(value), reward=np.array(reward),
        policy_logits=np.zeros((len(state), 3)),
        hidden_state=np.array(state, np.float64))


class OnePlayerSearchTest(absltest.TestCase):

  def test_most_visits_go_to_the_best_discounted_return(self):
    config = testing.tiny_mlp_config(action_space_size=3, discount=0.5,
                                     num_simulations=50)
    roots = reference_search.search_trees(
        config, _ChainModel(), np.zeros((1, 4)), [0],
        _mask([[0, 1, 2]], 3), np.random.default_rng(0), add_noise=False)
    output = reference_search.root_statistics(roots, 3)
    # Q = reward + 0.5 * value: arm 0: 2 + 0 = 2, arm 1: 0 + 0.5 = 0.5,
    # arm 2: 0 + 1.5 = 1.5. The pseudocode's child.value() alone (0, 1, 3)
    # or an undiscounted Q (2, 1, 3) would prefer arm 2.
    visits = output.visit_counts[0]
    self.assertEqual(int(np.argmax(visits)), 0, visits)
    self.assertGreater(visits[2], visits[1])
    # Every backed-up return is exact, so each visited arm's Q is too.
    root = roots[0]
    for arm, expected in enumerate((2., 0.5, 1.5)):
      self.assertAlmostEqual(mcts.q_value(root, root.children[arm], 0.5),
                             expected)
    # The root value is the visit-weighted mean of the arms' Q.
    self.assertAlmostEqual(
        output.root_value[0], (visits * [2., 0.5, 1.5]).sum() / 50,
        places=6)


class NetworkModelSearchTest(absltest.TestCase):

  def test_search_with_a_network(self):
    network = networks.make_network(TICTACTOE)
    model = model_lib.NetworkModel(network)
    positions = ['XX.OO....', '.........', 'X...O...X']
    roots = reference_search.search_trees(
        _simulations(10), model, *_batch(positions),
        np.random.default_rng(0))
    output = reference_search.root_statistics(roots, 9)
    for i, position in enumerate(positions):
      self.assertEqual(output.visit_counts[i].sum(), 10)
      np.testing.assert_array_equal(
          output.visit_counts[i][_occupied(position)], 0)
      self.assertEqual(roots[i].visit_count, 10)
    self.assertEqual(model.tracing_counts, (1, 1))


class _NonFiniteModel:
  """Finite at the root; a NaN prior logit after `bad_after` recurrent calls."""

  def __init__(self, bad_after: int):
    self._calls = 0
    self._bad_after = bad_after

  def _output(self, batch: int, bad: bool) -> types.NetworkOutput:
    logits = np.zeros((batch, 9), np.float32)
    if bad:
      logits[0, 3] = np.nan
    return types.NetworkOutput(
        value=np.zeros(batch, np.float32), reward=np.zeros(batch, np.float32),
        policy_logits=logits, hidden_state=np.zeros((batch, 1), np.float32))

  def initial_inference(self, observation):
    return self._output(len(observation), self._bad_after < 0)

  def recurrent_inference(self, hidden_state, action):
    self._calls += 1
    return self._output(len(hidden_state), self._calls > self._bad_after)


class NonFiniteModelTest(parameterized.TestCase):

  @parameterized.parameters((-1, 'initial_inference'),
                            (2, 'recurrent_inference'))
  def test_diverged_model_raises_floating_point_error(self, bad_after, call):
    config = presets.make_tictactoe_config().replace(num_simulations=5)
    observation = np.zeros((1, 3, 3, 3), np.float32)
    with self.assertRaisesRegex(
        FloatingPointError,
        rf"{call} returned a non-finite policy_logits \(nan at index "
        r"\[0, 3\]\)"):
      reference_search.search(
          config, _NonFiniteModel(bad_after), observation, [0],
          np.ones((1, 9), bool), np.random.default_rng(0), add_noise=False)


class BadInputTest(parameterized.TestCase):

  # The lists are the caller's, converted as the search's callers do.
  @parameterized.named_parameters(
      ('short_to_play', [0], [[2, 5]] * 2,
       r'same batch size, got 2, 1 and 2'),
      ('long_legal', [0, 0], [[2]] * 3, r'same batch size, got 2, 2 and 3'),
      ('empty', [0, 0], [[2], []], r'legal_actions\[1\] is empty'),
      ('too_large', [0, 0], [[2, 9], [1]],
       r'legal_actions\[0\] holds action 9, outside the action space '
       r'\[0, 9\)'),
      ('negative', [0, 0], [[2], [-1]], r'holds action -1'),
      ('repeated', [0, 0], [[2], [3, 3]],
       r'legal_actions\[1\] repeats an action: \[3, 3\]'),
      ('player', [0, 2], [[2], [3]],
       r'to_play\[1\] must be a player in \[0, 2\), got 2'))
  def test_raises(self, to_play, legal, message):
    observations = np.zeros((2, 3, 3, 3), np.float32)
    with self.assertRaisesRegex(ValueError, message):
      reference_search.search(TICTACTOE, oracle.TicTacToeOracle(),
                              observations, to_play, _mask(legal),
                              np.random.default_rng(0))

  def test_one_player_games_have_player_zero_only(self):
    config = testing.tiny_mlp_config(action_space_size=3)
    with self.assertRaisesRegex(ValueError, r'\[0, 1\), got 1'):
      reference_search.search(config, _ChainModel(), np.zeros((1, 4)), [1],
                              _mask([[0]], 3), np.random.default_rng(0))


class ReferenceSearchTest(absltest.TestCase):

  def test_searches_with_its_simulations(self):
    positions = ['XX.OO....', 'XX..O....']  # X wins at 2; O blocks at 2.
    search = reference_search.ReferenceSearch(_simulations(100),
                                              oracle.TicTacToeOracle())
    output = search(*_batch(positions), np.random.default_rng(0),
                    add_noise=False)
    self.assertEqual(np.argmax(output.visit_counts, axis=1).tolist(), [2, 2])
    self.assertEqual(output.visit_counts.sum(axis=1).tolist(), [100, 100])

  def test_draws_the_noise_from_the_callers_generator(self):
    observations, to_play, legal = _batch(['XX.OO....', '.........'])
    search = reference_search.ReferenceSearch(_simulations(2),
                                              oracle.TicTacToeOracle())
    rng = np.random.default_rng(5)
    search(observations, to_play, legal, rng, add_noise=False)
    self.assertEqual(rng.random(), np.random.default_rng(5).random())
    rng = np.random.default_rng(5)
    search(observations, to_play, legal, rng, add_noise=True)
    # One Dirichlet draw per root (5 then 9 components), nothing else.
    replay = np.random.default_rng(5)
    for row in legal:
      replay.dirichlet([TICTACTOE.root_dirichlet_alpha] * row.sum())
    self.assertEqual(rng.random(), replay.random())

  def test_bad_arguments(self):
    with self.assertRaisesRegex(TypeError, 'search.Model.*got str'):
      reference_search.ReferenceSearch(TICTACTOE, 'network')
    # The count of simulations is the config's, checked there.
    with self.assertRaisesRegex(ValueError,
                                'num_simulations must be a positive '
                                'integer, got 0'):
      reference_search.ReferenceSearch(_simulations(0),
                                       oracle.TicTacToeOracle())
    search = reference_search.ReferenceSearch(TICTACTOE,
                                              oracle.TicTacToeOracle())
    with self.assertRaisesRegex(TypeError, 'rng must be a np.random.Generator'
                                r' \(e.g. .*\), got list'):
      search(*_batch(['.........']), [0, 1])


class DirichletNoiseTest(parameterized.TestCase):

  # 0.03 and 0.05: below 0.1 NumPy draws Dirichlet by stick breaking; the
  # batch is drawn row by row then.
  @parameterized.parameters(0.3, 0.25, 0.1, 1.5, 0.05, 0.03)
  def test_equals_the_pseudocode_draws_root_by_root(self, alpha):
    # mcts.add_exploration_noise with fraction 1 on roots with zero priors
    # leaves each child's prior equal to its noise component.
    config = presets.make_tictactoe_config().replace(
        root_dirichlet_alpha=alpha, root_exploration_fraction=1.)
    legal = np.array([[True, False, True, True, False, True],
                      [False, False, False, True, False, False],
                      [True] * 6,
                      [False, True, False, False, True, False]] * 50)
    rng = np.random.default_rng(11)
    expected = np.zeros(legal.shape)
    for row, mask in enumerate(legal):
      root = mcts.Node(0.)
      for action in np.flatnonzero(mask):
        root.children[int(action)] = mcts.Node(0.)
      mcts.add_exploration_noise(config, root, rng)
      for action, child in root.children.items():
        expected[row, action] = child.prior
    after_reference = rng.random()

    rng = np.random.default_rng(11)
    noise = reference_search.dirichlet_noise(alpha, legal, rng)
    np.testing.assert_array_equal(noise, expected)
    # The same draws and no others: the generators are in the same state.
    self.assertEqual(rng.random(), after_reference)
    self.assertTrue(np.all(noise[~legal] == 0.))
    np.testing.assert_allclose(noise.sum(axis=1), 1., rtol=0., atol=1e-12)
    # A single legal action takes all of the noise.
    self.assertAlmostEqual(noise[1, 3], 1., delta=1e-15)

  def test_moments_at_the_tictactoe_concentration(self):
    # Each legal component of Dirichlet(alpha) over k actions is Beta(alpha,
    # (k - 1) alpha): mean 1/k, variance (1/k)(1 - 1/k) / (k alpha + 1);
    # k = 5, alpha = 0.3: 0.2 and 0.064. n = 20,000 rows: standard errors
    # sqrt(0.064 / n) = 0.0018 for the mean; allow 5 of them.
    n, alpha = 20_000, 0.3
    mask = np.array([True, False, True, True, False, True, False, False,
                     True])
    noise = reference_search.dirichlet_noise(alpha, np.tile(mask, (n, 1)),
                                       np.random.default_rng(3))
    legal_noise = noise[:, mask]
    np.testing.assert_allclose(legal_noise.mean(axis=0), 0.2, rtol=0.,
                               atol=5 * np.sqrt(0.064 / n))
    # The sample variance's standard error is below 0.0008 here (the
    # fourth central moment of Beta(0.3, 1.2) is 0.0156).
    np.testing.assert_allclose(legal_noise.var(axis=0), 0.064, rtol=0.,
                               atol=0.004)

  def test_bad_masks(self):
    rng = np.random.default_rng(0)
    with self.assertRaisesRegex(ValueError, r'Row 1 of legal has no legal '
                                r'action'):
      reference_search.dirichlet_noise(0.3, np.array([[True, False],
                                                [False, False]]), rng)
    with self.assertRaisesRegex(ValueError, r'legal must be a \[B, A\] bool '
                                r'mask, got dtype int64 and shape \[2, 2\]'):
      reference_search.dirichlet_noise(0.3, np.ones((2, 2), np.int64), rng)
    with self.assertRaisesRegex(ValueError, r'shape \[3\]'):
      reference_search.dirichlet_noise(0.3, np.ones(3, bool), rng)


if __name__ == '__main__':
  absltest.main()
