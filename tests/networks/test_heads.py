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
"""Tests for muzero_snt.networks.heads against a NumPy forward pass."""

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt.networks import heads
from tests import testing
from tests.networks import numpy_reference


class ValueHeadTest(testing.TestCase):

  @parameterized.named_parameters(
      ('one', 1),
      ('even', 4),
      ('negative', -3),
  )
  def test_rejects_bad_support_size(self, support_size):
    with self.assertRaisesRegex(ValueError,
                                rf'support_size .*got {support_size}\.'):
      heads.ValueHead((8,), support_size)

  @parameterized.named_parameters(
      ('scalar', 0, (8, 6)),
      ('three_atoms', 3, (4,)),
      ('five_atoms', 5, (8,)),
  )
  def test_matches_numpy(self, support_size, hidden_sizes):
    head = heads.ValueHead(hidden_sizes, support_size, name='value')
    x = np.random.default_rng(0).normal(size=(3, 5)).astype(np.float32)
    out = head(tf.constant(x)).numpy()
    params = numpy_reference.variables_of(head)
    expected = numpy_reference.mlp(x, params, 'mlp', len(hidden_sizes) + 1)
    if support_size:
      self.assertEqual(out.shape, (3, support_size))
      self.assertAllClose(out, expected, atol=1e-5)
    else:
      # A scalar head squeezes its one output unit: [B], not [B, 1].
      self.assertEqual(out.shape, (3,))
      self.assertAllClose(out, expected[:, 0], atol=1e-5)

  def test_no_hidden_layers_is_linear(self):
    head = heads.ValueHead((), 0, name='value')
    x = np.array([[1., 2.], [-1., 0.5]], np.float32)
    head(tf.constant(x))
    params = numpy_reference.variables_of(head)
    w = params['mlp/linear_0/w'][:, 0]
    b = params['mlp/linear_0/b'][0]
    self.assertAllClose(head(tf.constant(x)),
                        [w[0] + 2. * w[1] + b, -w[0] + .5 * w[1] + b],
                        atol=1e-6)


if __name__ == '__main__':
  tf.test.main()
