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
"""Tests for search.base: the searches' one input form, the lists-to-mask
helper and its checks."""

import dataclasses

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt.search import compiled_search
from muzero_snt.search import base
from muzero_snt.search import model as model_lib
from muzero_snt.search import reference_search
from tests import testing
from tests.search import batched_fixtures as fixtures

parameterized = testing.parameterized

# What a search says to lists of legal action ids, or to a 0/1 integer mask.
NOT_A_MASK = (r'legal_actions_mask must be a \[B, 5\] bool array, got dtype '
              r'int64; convert lists of legal action ids with '
              r'search\.legal_actions_to_mask\(legal_actions, 5\), a 0/1 '
              r'mask with \.astype\(bool\)\.$')


class LegalActionsToMaskTest(testing.TestCase):

  def test_rows_of_ids(self):
    expected = [[False, True, True, False], [True, False, False, True]]
    for legal in ([[2, 1], [3, 0]], [np.array([1, 2], np.int32), (0, 3)],
                  np.array([[1, 2], [0, 3]]), [[np.int64(1), 2], [0, 3]],
                  [np.array([2, 1], np.uint8), [3, 0]]):
      mask = base.legal_actions_to_mask(legal, 4)
      self.assertEqual(mask.dtype, bool)
      self.assertAllEqual(mask, expected)

  def test_every_action_of_two(self):
    # CartPole's legal_actions() is np.arange(2): both actions.
    self.assertAllEqual(base.legal_actions_to_mask([np.arange(2)], 2),
                        [[True, True]])
    self.assertAllEqual(base.legal_actions_to_mask([[0, 1], [1]], 2),
                        [[True, True], [False, True]])

  @parameterized.named_parameters(
      ('list', [[0.0, 2.5]], r'legal_actions\[0\] must be a 1-D sequence of '
       r'integer action ids, got \[0\.0, 2\.5\] of dtype float64'),
      ('integral', [[1], [0, 2.0]], r'legal_actions\[1\] .*got \[0\.0, '
       r'2\.0\] of dtype float64'),
      ('array_row', [np.array([0., 2.], np.float32)],
       r'got \[0\.0, 2\.0\] of dtype float32'),
      ('array', np.array([[0., 2.]], np.float32), r'of dtype float32'),
      ('bools', [[True, False, True, False]],
       r'got \[True, False, True, False\] of dtype bool'),
      ('bool_array_row', [np.array([True, False, True, True])],
       r'of dtype bool'),
      ('string', [['1']], r"got \['1'\] of dtype str"),
      ('scalar_rows', np.array([0, 1]), r'legal_actions\[0\] must be a 1-D '
       r'sequence .*got 0 of dtype int64'))
  def test_non_integer_ids_are_refused(self, legal, message):
    with self.assertRaisesRegex(TypeError, message):
      base.legal_actions_to_mask(legal, 4)

  @parameterized.named_parameters(
      ('empty', [[2], []], r'legal_actions\[1\] is empty'),
      ('too_large', [[0, 4], [1]], r'legal_actions\[0\] holds action 4, '
       r'outside the action space \[0, 4\)'),
      ('negative', [[0], [-1]], r'legal_actions\[1\] holds action -1'),
      ('repeated', [[2], [3, 3]], r'legal_actions\[1\] repeats an action: '
       r'\[3, 3\]\.$'))
  def test_bad_values_are_refused(self, legal, message):
    with self.assertRaisesRegex(ValueError, message):
      base.legal_actions_to_mask(legal, 4)

  def test_a_long_batch_names_its_first_faulty_row(self):
    rows = [np.arange(i % 4 + 1) for i in range(300)]
    mask = base.legal_actions_to_mask(rows, 4)
    self.assertAllEqual(mask.sum(axis=1), [i % 4 + 1 for i in range(300)])
    rows[7], rows[200] = np.array([1, 1]), np.array([9])
    with self.assertRaisesRegex(ValueError, r'legal_actions\[7\] repeats'):
      base.legal_actions_to_mask(rows, 4)


class CheckInputsTest(testing.TestCase):

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    cls.config = testing.tiny_mlp_config(action_space_size=3,
                                         observation_shape=(2,),
                                         num_players=2)

  def _check(self, observations=None, to_play=(0, 1), legal=None):
    observations = (np.zeros((2, 2), np.float32) if observations is None
                    else observations)
    legal = np.ones((2, 3), bool) if legal is None else legal
    return base.check_inputs(self.config, observations, to_play, legal)

  def test_the_input_form(self):
    mask = np.array([[True, False, True], [False, False, True]])
    for to_play in ([0, 1], np.array([0, 1], np.int8), (np.int64(0), 1)):
      checked = self._check(np.array([[0.5, -1.25], [0., 1.]]), to_play, mask)
      self.assertEqual(checked.observation.dtype, np.float32)
      self.assertAllEqual(checked.observation, [[0.5, -1.25], [0., 1.]])
      self.assertEqual(checked.to_play.dtype, np.int32)
      self.assertAllEqual(checked.to_play, [0, 1])
      self.assertAllEqual(checked.legal, mask)

  def test_floating_observations_are_cast_to_float32(self):
    for dtype in (np.float16, np.float32, np.float64):
      observation = self._check(np.array([[0.5, -1.25]] * 2, dtype))[0]
      self.assertEqual(observation.dtype, np.float32)
      self.assertAllEqual(observation, [[0.5, -1.25]] * 2)

  @parameterized.parameters(np.uint8, np.int64, bool)
  def test_other_observation_dtypes_are_refused(self, dtype):
    with self.assertRaisesRegex(
        TypeError, rf'observations must be float32 .* got dtype '
        rf'{np.dtype(dtype).name}; .*np\.asarray\(x, np\.float32\)'):
      self._check(np.zeros((2, 2), dtype))

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
    config = self.config.replace(observation_shape=(2, 2))
    with self.assertRaisesRegex(ValueError, message):
      base.check_inputs(config, observations, [0, 0, 0],
                          np.ones((3, 3), bool))

  def test_observation_shape(self):
    with self.assertRaisesRegex(ValueError, r'observations must have shape '
                                r'\[B, 2\] with B > 0, got \[2, 3\]'):
      self._check(np.zeros((2, 3)))
    with self.assertRaisesRegex(ValueError, r'got \[0, 2\]'):
      base.check_inputs(self.config, np.zeros((0, 2)), [],
                          np.ones((0, 3), bool))

  @parameterized.named_parameters(
      ('float', [0, 1.0], r'to_play must be a \[B\] integer array, got '
       r'dtype float64: \[0\.0, 1\.0\]'),
      ('float_array', np.array([0., 1.], np.float32), r'dtype float32'),
      ('bool_array', np.array([False, True]), r'got dtype bool: '
       r'\[False, True\]'))
  def test_non_integer_players_are_refused(self, to_play, message):
    with self.assertRaisesRegex(TypeError, message):
      self._check(to_play=to_play)

  def test_players_out_of_range_are_named(self):
    with self.assertRaisesRegex(ValueError, r'to_play\[1\] must be a player '
                                r'in \[0, 2\), got -1'):
      self._check(to_play=[0, -1])
    with self.assertRaisesRegex(ValueError, r'to_play must be a \[B\] '
                                r'integer array, got shape \[2, 1\]'):
      self._check(to_play=np.zeros((2, 1), int))
    # 300 players alternating 0, 1: the first faulty one is named.
    players = np.array([i % 2 for i in range(300)])
    players[[7, 200]] = [2, -3]
    with self.assertRaisesRegex(ValueError, r'to_play\[7\] must be a player'
                                r' in \[0, 2\), got 2\.'):
      base.check_inputs(self.config, np.zeros((300, 2)), players,
                          np.ones((300, 3), bool))

  def test_long_values_are_abbreviated_in_one_line(self):
    rows = [[0, 1]] * 299 + [[2]]  # Ragged: 300 rows of ids, not a mask.
    for kwargs in (dict(to_play=np.zeros(300)), dict(legal=rows)):
      with self.assertRaises((TypeError, ValueError)) as raised:
        base.check_inputs(self.config, np.zeros((300, 2)),
                            kwargs.get('to_play', np.zeros(300, int)),
                            kwargs.get('legal', np.ones((300, 3), bool)))
      message = str(raised.exception)
      self.assertIn('...', message)
      self.assertLess(len(message), 200)
      self.assertNotIn('\n', message)

  def test_the_batch_sizes_must_agree(self):
    with self.assertRaisesRegex(
        ValueError, r'observations, to_play and legal_actions_mask must have '
        r'the same batch size, got 2, 3 and 2'):
      self._check(to_play=[0, 1, 0])
    with self.assertRaisesRegex(ValueError, r'got 2, 2 and 1'):
      self._check(legal=np.ones((1, 3), bool))

  @parameterized.named_parameters(
      ('ids', [[0, 2], [1, 2]], TypeError, r'legal_actions_mask must be a '
       r'\[B, 3\] bool array, got dtype int64; .*'
       r'search\.legal_actions_to_mask\(legal_actions, 3\)'),
      ('ragged_ids', [[0, 2], [1]], ValueError, r'legal_actions_mask must be '
       r'a \[B, 3\] bool array, got the ragged \[\[0, 2\], \[1\]\]'),
      ('zeros_and_ones', np.array([[0, 1, 1], [1, 0, 0]]), TypeError,
       r'got dtype int64'),
      ('width', np.ones((2, 4), bool), ValueError,
       r'legal_actions_mask must have shape \[B, 3\], got \[2, 4\]'),
      ('no_legal', np.array([[True] * 3, [False] * 3]), ValueError,
       r'legal_actions_mask\[1\] has no legal action'))
  def test_masks_in_another_form_are_refused(self, legal, error, message):
    with self.assertRaisesRegex(error, message):
      self._check(legal=legal)


def _searches(config, network):
  """Both searches over one network, float64 statistics, few simulations."""
  config = dataclasses.replace(config, num_simulations=8)
  return {
      'reference': reference_search.ReferenceSearch(
          config, model_lib.NetworkModel(network)),
      'compiled': compiled_search.CompiledSearch(
          config, network, jit_compile=False, dtype=tf.float64),
  }


class BothSearchesTest(testing.TestCase):
  """The reference and the compiled search check inputs by the same rules."""

  @classmethod
  def setUpClass(cls):
    super().setUpClass()
    setup = fixtures.setup('two_players_scalar')  # 5 actions, 2 players.
    cls.observation = setup.observation[:2]
    cls.searches = _searches(setup.config, setup.network)

  def _search(self, kind, observation=None, to_play=(0, 1), legal=None):
    observation = self.observation if observation is None else observation
    if legal is None:
      legal = base.legal_actions_to_mask(((1, 2), (0, 4)), 5)
    return self.searches[kind](observation, to_play, legal,
                               np.random.default_rng(0), add_noise=False)

  @parameterized.parameters('reference', 'compiled')
  def test_masks_from_ids_search_the_legal_actions(self, kind):
    output = self._search(kind, legal=base.legal_actions_to_mask(
        [[1, 2], [0, 4]], 5))
    # All 8 simulations go to each row's legal actions.
    self.assertAllEqual(output.visit_counts[:, [1, 2]].sum(axis=1), [8, 0])
    self.assertAllEqual(output.visit_counts[:, [0, 4]].sum(axis=1), [0, 8])
    mask = np.array([[0, 1, 1, 0, 0], [1, 0, 0, 0, 1]], bool)
    self.assertAllEqual(self._search(kind, legal=mask).visit_counts,
                        output.visit_counts)

  def test_the_searches_agree(self):
    legal = np.array([[0, 1, 1, 0, 0], [1, 1, 0, 1, 1]], bool)
    self.assertAllEqual(self._search('reference', legal=legal).visit_counts,
                        self._search('compiled', legal=legal).visit_counts)

  @parameterized.product(
      kind=('reference', 'compiled'),
      case=(
          # OpenSpiel's legal_actions_mask() rows, as lists of ints.
          dict(legal=[[0, 1, 1, 0, 0], [1, 0, 0, 0, 1]], error=TypeError,
               message=NOT_A_MASK),
          # The pseudocode's lists of legal action ids.
          dict(legal=[[1, 2, 3], [0, 4, 2]], error=TypeError,
               message=NOT_A_MASK),
          dict(legal=[[0, 2], [1]], error=ValueError,
               message=r'legal_actions_mask must be a \[B, 5\] bool array, '
               r'got the ragged'),
          dict(to_play=(0, 1.0), error=TypeError,
               message=r'to_play must be a \[B\] integer array, got dtype '
               r'float64'),
          dict(to_play=np.array([True, False]), error=TypeError,
               message=r'to_play must be .*got dtype bool'),
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
