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
"""Tests of flat_call: a traced function called on a flat list of tensors."""

import collections

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt import flat_call


class FlatCallTest(absltest.TestCase):

  def setUp(self):
    super().setUp()
    self.weight = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])

    def affine(x, shift):
      product = tf.matmul(x, self.weight)
      return product + tf.cast(shift, tf.float32), tf.reduce_sum(product, 1)

    self.function = tf.function(affine, jit_compile=True, autograph=False)
    self.concrete = self.function.get_concrete_function(
        tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([], tf.int32))

  def test_outputs_are_the_numpy_computation(self):
    x = np.array([[1., 0., -1.], [0.5, 2., 0.]], np.float32)
    call = flat_call.flat_caller(self.concrete)
    shifted, total = call(tf.constant(x), tf.constant(3))
    # x @ W by hand: [1 - 5, 2 - 6] and [0.5 + 6, 1 + 8].
    np.testing.assert_allclose(shifted.numpy(), [[-1., -1.], [9.5, 12.]])
    np.testing.assert_allclose(total.numpy(), [-8., 15.5])

  def test_a_variable_assigned_later_is_read(self):
    call = flat_call.flat_caller(self.concrete)
    x = tf.constant([[1., 1., 1.]])
    np.testing.assert_allclose(call(x, tf.constant(0))[0].numpy(), [[9., 12.]])
    self.weight.assign(tf.ones([3, 2]))
    np.testing.assert_allclose(call(x, tf.constant(0))[0].numpy(), [[3., 3.]])

  def test_batch_sizes_of_a_dynamic_signature(self):
    call = flat_call.flat_caller(self.concrete)
    for rows in (1, 4, 7):
      x = np.arange(3 * rows, dtype=np.float32).reshape(rows, 3)
      shifted, total = call(tf.constant(x), tf.constant(-1))
      expected = x @ self.weight.numpy()
      np.testing.assert_allclose(shifted.numpy(), expected - 1.)
      np.testing.assert_allclose(total.numpy(), expected.sum(1))

  def test_without_the_flat_entry_point_the_public_call_is_used(self):

    class PublicOnly:

      def __init__(self, concrete):
        self._concrete = concrete

      def __call__(self, *args):
        return self._concrete(*args)

    public = PublicOnly(self.concrete)
    self.assertIs(flat_call.flat_caller(public), public)
    shifted, _ = flat_call.flat_caller(public)(tf.constant([[0., 1., 0.]]),
                                               tf.constant(1))
    np.testing.assert_allclose(shifted.numpy(), [[4., 5.]])

  def test_a_function_on_a_structure_with_absent_fields(self):
    pair = collections.namedtuple('Pair', ['x', 'absent', 'shift'])

    def shifted(p):
      return tf.matmul(p.x, self.weight) + p.shift

    function = flat_call.FlatFunction(tf.function(shifted))
    # The flat tensors are x and shift, the absent field left out.
    result = function(pair(tf.constant([[0., 0., 1.]]), None,
                           tf.constant(-5.)))
    np.testing.assert_allclose(result.numpy(), [[0., 1.]])
    # Another shape is another signature; NumPy goes through the
    # tf.function's own call and adds none.
    result = function(pair(tf.constant([[1., 0., 0.], [0., 1., 0.]]), None,
                           tf.constant(1.)))
    np.testing.assert_allclose(result.numpy(), [[2., 3.], [4., 5.]])
    result = function(pair(np.array([[0., 0., 1.]], np.float32), None,
                           np.float32(-5.)))
    np.testing.assert_allclose(result.numpy(), [[0., 1.]])
    self.assertEqual(function.num_signatures, 2)

  def test_without_the_flat_entry_point_a_function_uses_its_own_call(self):

    class PublicOnly:
      """A tf.function whose concrete functions lack `_call_flat`."""

      def __init__(self, function):
        self.function = function
        self.calls = 0

      def get_concrete_function(self, *args):
        return lambda *tensors: None

      def __call__(self, *args):
        self.calls += 1
        return self.function(*args)

    public = PublicOnly(self.function)
    function = flat_call.FlatFunction(public)
    shifted, _ = function(tf.constant([[0., 1., 0.]]), tf.constant(1))
    np.testing.assert_allclose(shifted.numpy(), [[4., 5.]])
    self.assertEqual(public.calls, 1)

if __name__ == '__main__':
  absltest.main()
