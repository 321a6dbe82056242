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
"""Tests of the searches' input checks: both forms, refused misuse."""

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt.search import compiled_search
from muzero_snt.search import inputs
from muzero_snt.search import model as model_lib
from muzero_snt.search import reference_search
from tests import testing
from tests.search import batched_fixtures as fixtures

parameterized = testing.parameterized

AMBIGUOUS = (r'legal_actions\[0\] is \[0, 1, 1, 0, 0\]: 5 zeros and ones, '
             r'which read as action indices are the actions \[0, 1\] and '
             r'read as a mask are the actions \[1, 2\]\. Pass masks as a '
             r'\[B, 5\] np\.ndarray of dtype bool')


class LegalMaskTest(testing.TestCase):

  def test_a_bool_array_is_a_mask(self):
    mask = np.array([[True, False, True], [False, False, True]])
    self.assertAllEqual(inputs.legal_mask(mask, 3), mask)

  def test_a_zero_one_integer_array_of_a_columns_is_a_mask(self):
    # OpenSpiel's legal_actions_mask() rows, stacked by np.array.
    mask = inputs.legal_mask(np.array([[0, 1, 1, 0], [1, 0, 0, 0]]), 4)
    self.assertAllEqual(mask, [[False, True, True, False],
                               [True, False, False, False]])

  def test_rows_of_indices(self):
    expected = [[False, True, True, False], [True, False, False, True]]
    for legal in ([[2, 1], [3, 0]], [np.array([1, 2], np.int32), (0, 3)],
                  np.array([[1, 2], [0, 3]]), [[np.int64(1), 2], [0, 3]]):
      self.assertAllEqual(inputs.legal_mask(legal, 4), expected)
    # An integer [B, A] array that is not all zeros and ones: indices.
    self.assertAllEqual(inputs.legal_mask(np.array([[2, 0, 1]]), 3),
                        [[True, True, True]])

  def test_integer_array_rows_are_indices_even_for_two_actions(self):
    # CartPole's legal_actions() is np.arange(2): both actions, not action 1.
    self.assertAllEqual(inputs.legal_mask([np.arange(2)], 2), [[True, True]])

  def test_a_row_that_reads_both_ways_is_refused(self):
    with self.assertRaisesRegex(ValueError, AMBIGUOUS):
      inputs.legal_mask([[0, 1, 1, 0, 0]], 5)
    # With two actions a list [0, 1] is every action or action 1 alone.
    with self.assertRaisesRegex(
        ValueError, r'is \[0, 1\]: 2 zeros and ones, which read as action '
        r'indices are the actions \[0, 1\] and read as a mask are the '
        r'actions \[1\]'):
      inputs.legal_mask([[0, 1]], 2)
    # So is an integer [B, 2] array whose row is also valid as indices.
    with self.assertRaisesRegex(ValueError, r'legal_actions\[1\] is \[1, 0\]'
                                r'.*as a mask are the actions \[0\]'):
      inputs.legal_mask(np.array([[1, 1], [1, 0]]), 2)

  def test_an_integer_array_row_of_zeros_and_ones_repeats_an_action(self):
    with self.assertRaisesRegex(
        ValueError, r'legal_actions\[0\] repeats an action: \[0, 1, 1, 0\]\. '
        r'Read as a mask it would be the actions \[1, 2\]'):
      inputs.legal_mask([np.array([0, 1, 1, 0])], 4)

  @parameterized.named_parameters(
      ('list', [[0.0, 2.5]], r'legal_actions\[0\] holds 0\.0, a float'),
      ('integral', [[0, 2.0]], r'legal_actions\[0\] holds 2\.0, a float'),
      ('array_row', [np.array([0., 2.], np.float32)],
       r'legal_actions\[0\] is \[0\.0, 2\.0\] of dtype float32'),
      ('array', np.array([[0., 2.]], np.float32),
       r'legal_actions has dtype float32 \(\[\[0\.0, 2\.0\]\] first\)'),
      ('bools', [[True, False, True, False]],
       r'legal_actions\[0\] holds booleans \[True, False, True, False\]; '
       r'a mask must be one \[B, 4\] bool np\.ndarray'),
      ('bool_in_indices', [[1, True]], r'holds True, a bool'),
      ('bool_array_row', [np.array([True, False, True, True])],
       r'holds booleans'),
      ('string', [['1']], r"holds '1', of type str"),
      ('scalar_rows', np.array([0, 1]), r'legal_actions\[0\] is np\.int64\(0'
       r'\), of type int64; expected a sequence'))
  def test_non_integer_indices_are_refused(self, legal, message):
    with self.assertRaisesRegex(TypeError, message):
      inputs.legal_mask(legal, 4)

  @parameterized.named_parameters(
      ('empty', [[2], []], r'legal_actions\[1\] is empty'),
      ('too_large', [[0, 4], [1]], r'legal_actions\[0\] holds action 4, '
       r'outside the action space \[0, 4\)'),
      ('negative', [[0], [-1]], r'holds action -1'),
      ('repeated', [[2], [3, 3]], r'legal_actions\[1\] repeats an action: '
       r'\[3, 3\]\.$'),
      ('no_legal', np.array([[True] * 4, [False] * 4]),
       r'legal_actions\[1\] has no legal action'),
      ('zeros', np.zeros((1, 4), np.int32),
       r'legal_actions\[0\] has no legal action'),
      ('width', np.ones((2, 3), bool),
       r'as a bool mask must be \[B, 4\], got \[2, 3\]'))
  def test_bad_values_are_refused(self, legal, message):
    with self.assertRaisesRegex(ValueError, message):
      inputs.legal_mask(legal, 4)


class PlayersTest(testing.TestCase):

  def test_integers(self):
    for to_play in ([0, 1, np.int64(1)], np.array([0, 1, 1], np.int8)):
      players = inputs.check_players(to_play, 3, 2)
      self.assertEqual(players.dtype, np.int32)
      self.assertAllEqual(players, [0, 1, 1])

  @parameterized.named_parameters(
      ('float', [0, 1.0], r'to_play\[1\] is 1\.0, a float; players are '
       r'integers in \[0, 2\)'),
      ('float_array', np.array([0., 1.], np.float32),
       r'to_play\[0\] is np\.float32\(0\.0\), a float'),
      ('bool', [True, 0], r'to_play\[0\] is True, a bool'),
      ('bool_array', np.array([False, True]), r'to_play\[0\] is np\.False_, '
       r'a bool'))
  def test_non_integers_are_refused(self, to_play, message):
    with self.assertRaisesRegex(TypeError, message):
      inputs.check_players(to_play, 2, 2)

  def test_bad_values_are_refused(self):
    with self.assertRaisesRegex(ValueError, r'to_play\[1\] must be a player '
                                r'in \[0, 2\), got -1'):
      inputs.check_players([0, -1], 2, 2)
    with self.assertRaisesRegex(ValueError, r'shape \[1, 2\]'):
      inputs.check_players(np.zeros((1, 2), int), 2, 2)

  def test_a_long_batch_names_its_first_faulty_player(self):
    # 300 players alternating 0, 1; the checks of whole arrays and lists
    # must still name the first faulty one.
    players = [i % 2 for i in range(300)]
    self.assertAllEqual(inputs.check_players(players, 300, 2), players)
    self.assertAllEqual(
        inputs.check_players(np.array(players, np.uint8), 300, 2), players)
    wrong = np.array(players)
    wrong[[7, 200]] = [2, -3]
    for given in (wrong, wrong.tolist()):
      with self.assertRaisesRegex(ValueError, r'to_play\[7\] must be a player'
                                  r' in \[0, 2\), got 2\.'):
        inputs.check_players(given, 300, 2)
    with self.assertRaisesRegex(TypeError, r'to_play\[299\] is True, a bool'):
      inputs.check_players(players[:299] + [True], 300, 2)
    with self.assertRaisesRegex(ValueError, r'one player per observation: '
                                r'301, got 300'):
      inputs.check_players(np.array(players), 301, 2)


class ObservationsTest(testing.TestCase):

  def test_floating_observations_are_cast_to_float32(self):
    for dtype in (np.float16, np.float32, np.float64):
      observation = inputs.check_observations(
          np.array([[0.5, -1.25]], dtype), (2,))
      self.assertEqual(observation.dtype, np.float32)
      self.assertAllEqual(observation, [[0.5, -1.25]])

  @parameterized.parameters(np.uint8, np.int64, bool)
  def test_other_dtypes_are_refused(self, dtype):
    with self.assertRaisesRegex(
        TypeError, rf'observations must be float32 .* got dtype '
        rf'{np.dtype(dtype).name}; .*np\.asarray\(x, np\.float32\)'):
      inputs.check_observations(np.zeros((1, 2), dtype), (2,))

  @parameterized.named_parameters(
      ('nan', np.nan, r'observations\[2\] is not finite: nan at index '
       r'\[1, 0\]'),
      ('inf', -np.inf, r'observations\[2\] is not finite: -inf at index '
       r'\[1, 0\]'),
      ('overflow', 1e300, r'observations\[2\] holds 1e\+300 at index '
       r'\[1, 0\], beyond the float32 range'))
  def test_non_finite_observations_name_the_row(self, value, message):
    observations = np.zeros((3, 2, 2))
    observations[2, 1, 0] = value
    observations[2, 1, 1] = np.nan  # Later in the row: not the one named.
    with self.assertRaisesRegex(ValueError, message):
      inputs.check_observations(observations, (2, 2))


def _searches(config, network):
  """Both searches over one network, float64 statistics, few simulations."""
  return {
      'reference': reference_search.ReferenceSearch(
          config, model_lib.NetworkModel(network), num_simulations=8),
      'compiled': compiled_search.CompiledSearch(
          config, network, jit_compile=False, dtype=tf.float64,
          num_simulations=8),
  }


class BothSearchesTest(testing.TestCase):
  """The reference and the compiled search read inputs by the same rules."""

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    setup = fixtures.setup('two_players_scalar')  # 5 actions, 2 players.
    cls.observation = setup.observation[:2]
    cls.searches = _searches(setup.config, setup.network)

  def _search(self, kind, observation=None, to_play=(0, 1),
              legal=((1, 2), (0, 4))):
    observation = self.observation if observation is None else observation
    return self.searches[kind](observation, list(to_play), legal,
                               np.random.default_rng(0), add_noise=False)

  @parameterized.parameters('reference', 'compiled')
  def test_masks_and_indices_search_the_same_actions(self, kind):
    indices = self._search(kind, legal=[[1, 2], [0, 4]])
    # All 8 simulations go to each row's legal actions.
    self.assertAllEqual(indices.visit_counts[:, [1, 2]].sum(axis=1), [8, 0])
    self.assertAllEqual(indices.visit_counts[:, [0, 4]].sum(axis=1), [0, 8])
    for legal in (np.array([[0, 1, 1, 0, 0], [1, 0, 0, 0, 1]]),
                  np.array([[0, 1, 1, 0, 0], [1, 0, 0, 0, 1]], bool)):
      self.assertAllEqual(self._search(kind, legal=legal).visit_counts,
                          indices.visit_counts)

  def test_the_searches_agree(self):
    legal = np.array([[0, 1, 1, 0, 0], [1, 1, 0, 1, 1]])
    self.assertAllEqual(self._search('reference', legal=legal).visit_counts,
                        self._search('compiled', legal=legal).visit_counts)

  @parameterized.product(
      kind=('reference', 'compiled'),
      case=(
          # OpenSpiel's legal_actions_mask() rows, as lists.
          dict(legal=[[0, 1, 1, 0, 0], [1, 0, 0, 0, 1]], error=ValueError,
               message=AMBIGUOUS),
          dict(legal=[[0.0, 2.0], [1]], error=TypeError,
               message=r'legal_actions\[0\] holds 0\.0, a float'),
          dict(legal=[np.array([0, 2.5], np.float32), [1]], error=TypeError,
               message=r'legal_actions\[0\] is \[0\.0, 2\.5\] of dtype '
               r'float32'),
          dict(to_play=(0, 1.0), error=TypeError,
               message=r'to_play\[1\] is 1\.0, a float'),
          dict(to_play=(True, 0), error=TypeError,
               message=r'to_play\[0\] is True, a bool'),
          dict(observation=np.zeros((2, 6), np.uint8), error=TypeError,
               message=r'observations must be float32 .*got dtype uint8; '
               r'.*np\.asarray\(x, np\.float32\)'),
          dict(observation=np.array([[0.] * 6, [0.] * 5 + [np.nan]]),
               error=ValueError,
               message=r'observations\[1\] is not finite: nan at index '
               r'\[5\]'),
      ))
  def test_misuse_is_refused(self, kind, case):
    case = dict(case)
    error, message = case.pop('error'), case.pop('message')
    with self.assertRaisesRegex(error, message):
      self._search(kind, **case)


if __name__ == '__main__':
  absltest.main()
