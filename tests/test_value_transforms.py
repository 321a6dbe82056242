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
"""Tests for muzero_snt.value_transforms with hand-computed numbers."""

import re

import numpy as np
import tensorflow as tf
from absl.testing import parameterized

from muzero_snt import value_transforms
from tests import testing

EPS = 1e-3


def _largest_representable(n: float) -> float:
  """h^-1(n) in float64: solves sqrt(u + 1) - 1 + EPS u = n for u >= 0.

  With s = sqrt(u + 1) the equation is EPS s^2 + s - (n + 1 + EPS) = 0.
  For n = 300 this is u ~= 58705.58, not ~9e4: h(9e4) = 299 + 90 = 389.
  """
  s = (-1. + np.sqrt(1. + 4. * EPS * (n + 1. + EPS))) / (2. * EPS)
  return s * s - 1.


def _wide_range(top: float, num: int = 300) -> np.ndarray:
  """0, tiny and large magnitudes of both signs up to `top`, float64."""
  magnitudes = np.logspace(-7., np.log10(top), num)
  return np.concatenate([-magnitudes[::-1], [0.], magnitudes])


class SignedHyperbolicTest(testing.TestCase):

  @parameterized.named_parameters(
      # h(x) = sign(x) (sqrt(|x| + 1) - 1) + 0.001 x.
      ('zero', 0., 0.),
      ('three', 3., 2. - 1. + 0.003),
      ('minus_three', -3., -(2. - 1. + 0.003)),
      ('eight', 8., 3. - 1. + 0.008),
      ('ninety_nine', 99., 10. - 1. + 0.099),
      ('minus_ninety_nine', -99., -(10. - 1. + 0.099)),
  )
  def test_hand_computed_points(self, x, expected):
    for dtype in (np.float32, np.float64):
      with self.subTest(dtype=dtype.__name__):
        h = value_transforms.signed_hyperbolic(np.array(x, dtype))
        self.assertAllClose(h, expected, atol=1e-6, rtol=1e-6)

  def test_parabolic_inverts_hand_computed_points(self):
    y = np.array([0., 1.003, -1.003, 2.008, 9.099, -9.099])
    x = value_transforms.signed_parabolic(y)
    self.assertAllClose(x, [0., 3., -3., 8., 99., -99.], atol=1e-5, rtol=0.)

  def test_parabolic_of_hyperbolic_is_identity_float64(self):
    x = _wide_range(1e5)
    y = value_transforms.signed_parabolic(value_transforms.signed_hyperbolic(x))
    self.assertAllClose(y, x, atol=1e-9, rtol=1e-8)

  def test_parabolic_of_hyperbolic_is_identity_float32(self):
    x = _wide_range(1e5).astype(np.float32)
    y = value_transforms.signed_parabolic(value_transforms.signed_hyperbolic(x))
    self.assertEqual(y.dtype, tf.float32)
    self.assertAllClose(y, x, atol=1e-4, rtol=1e-4)

  def test_parabolic_float32_is_accurate_near_zero(self):
    # h(x) for x in [-10, 10] computed in float64 by NumPy, inverted in
    # float32: the error stays within a few float32 ulps of |x| + 1 (the
    # form (sqrt(1 + 4 eps w) - 1) / (2 eps) lost about 1e-3 here).
    x = np.linspace(-10., 10., 2001)
    h = np.sign(x) * (np.sqrt(np.abs(x) + 1.) - 1.) + 1e-3 * x
    y = value_transforms.signed_parabolic(h.astype(np.float32))
    np.testing.assert_allclose(y.numpy(), x, atol=2e-5, rtol=0.)

  def test_hyperbolic_of_parabolic_is_identity(self):
    y = _wide_range(400.)
    h = value_transforms.signed_hyperbolic(value_transforms.signed_parabolic(y))
    self.assertAllClose(h, y, atol=1e-9, rtol=1e-8)

  def test_hyperbolic_is_odd_and_increasing(self):
    x = _wide_range(1e5)
    h = value_transforms.signed_hyperbolic(x).numpy()
    self.assertAllClose(h, -value_transforms.signed_hyperbolic(-x).numpy())
    self.assertTrue(np.all(np.diff(h) > 0.))

  def test_custom_eps(self):
    # eps = 0.1: h(3) = 2 - 1 + 0.3.
    self.assertAllClose(
        value_transforms.signed_hyperbolic(np.float64(3.), eps=0.1), 1.3)
    self.assertAllClose(
        value_transforms.signed_parabolic(np.float64(1.3), eps=0.1), 3.)


class TwoHotTest(testing.TestCase):

  def _atom(self, value, n=10):
    """Index of the atom for integer `value` on -n..n: value + n."""
    return value + n

  def test_positive_fraction(self):
    probs = value_transforms.scalar_to_two_hot(np.float32(3.7), 21).numpy()
    self.assertEqual(probs.shape, (21,))
    expected = np.zeros(21)
    expected[self._atom(3)] = 0.3
    expected[self._atom(4)] = 0.7
    self.assertEqual(self._atom(3), 13)
    self.assertAllClose(probs, expected, atol=1e-6)

  def test_negative_fraction(self):
    probs = value_transforms.scalar_to_two_hot(np.float32(-3.7), 21).numpy()
    expected = np.zeros(21)
    expected[self._atom(-4)] = 0.7  # Index 6.
    expected[self._atom(-3)] = 0.3  # Index 7.
    self.assertEqual(self._atom(-4), 6)
    self.assertAllClose(probs, expected, atol=1e-6)

  @parameterized.named_parameters(
      ('integer', 2., 2),
      ('zero', 0., 0),
      ('negative_integer', -5., -5),
      ('beyond_top', 12.5, 10),
      ('far_below', -1e6, -10),
      ('top_edge', 10., 10),
      ('bottom_edge', -10., -10),
  )
  def test_one_hot_cases(self, x, atom):
    probs = value_transforms.scalar_to_two_hot(np.float32(x), 21).numpy()
    expected = np.zeros(21)
    expected[self._atom(atom)] = 1.
    self.assertAllClose(probs, expected, atol=0.)

  def test_small_support(self):
    # Support of 3 atoms: -1, 0, 1; 0.25 puts 0.75 on 0 and 0.25 on 1.
    probs = value_transforms.scalar_to_two_hot(np.float32(0.25), 3)
    self.assertAllClose(probs, [0., 0.75, 0.25])

  def test_batched_rows_are_two_hot_distributions(self):
    rng = np.random.default_rng(0)
    x = rng.uniform(-14., 14., (4, 6)).astype(np.float32)  # [B, K]
    x[0, :3] = [-10., 10., 0.]
    probs = value_transforms.scalar_to_two_hot(x, 21).numpy()
    self.assertEqual(probs.shape, (4, 6, 21))
    self.assertTrue(np.all(probs >= 0.))
    self.assertAllClose(probs.sum(-1), np.ones((4, 6)), atol=1e-6)
    # The expectation over -10..10 is the clipped scalar.
    atoms = np.arange(-10., 11.)
    self.assertAllClose(probs @ atoms, np.clip(x, -10., 10.), atol=1e-5)
    # Mass only on the atoms floor(x) and floor(x) + 1 of the clipped x.
    low = np.floor(np.clip(x, -10., 10.)).astype(int) + 10
    mask = np.zeros_like(probs, dtype=bool)
    for index in np.ndindex(x.shape):
      mask[index + (low[index],)] = True
      mask[index + (min(low[index] + 1, 20),)] = True
    self.assertAllEqual(probs[~mask], np.zeros(np.sum(~mask)))

  def test_expectation_by_hand(self):
    probs = np.zeros((2, 5), np.float32)
    probs[0] = [0., 0., 0.5, 0.5, 0.]  # 0.5 * 0 + 0.5 * 1.
    probs[1] = [0.1, 0.2, 0.3, 0.2, 0.2]  # -0.2 - 0.2 + 0.2 + 0.4.
    self.assertAllClose(value_transforms.two_hot_to_scalar(probs), [0.5, 0.2])

  def test_scalar_to_support_is_two_hot_of_h(self):
    # h(3) = 1.003: 0.997 on atom 1 and 0.003 on atom 2 of -300..300.
    probs = value_transforms.scalar_to_support(np.float64(3.), 601).numpy()
    self.assertAllClose(probs[301], 0.997, atol=1e-9)
    self.assertAllClose(probs[302], 0.003, atol=1e-9)
    self.assertAllClose(probs.sum(), 1.)

  @parameterized.parameters(0, 1, 2, 4, 20, -3)
  def test_bad_support_size_raises(self, size):
    pattern = 'support_size.*' + re.escape(str(size))
    with self.assertRaisesRegex(ValueError, pattern):
      value_transforms.scalar_to_two_hot(np.float32(0.), size)
    with self.assertRaisesRegex(ValueError, pattern):
      value_transforms.scalar_to_support(np.float32(0.), size)
    if size > 0:
      with self.assertRaisesRegex(ValueError, pattern):
        value_transforms.two_hot_to_scalar(np.ones([2, size], np.float32))
      with self.assertRaisesRegex(ValueError, pattern):
        value_transforms.support_to_scalar(np.zeros([2, size], np.float32))


class SupportRoundTripTest(testing.TestCase):

  def test_largest_representable_value(self):
    x_max = _largest_representable(300.)
    self.assertAllClose(x_max, 58705.584, atol=1e-3)
    self.assertAllClose(value_transforms.signed_hyperbolic(x_max), 300.)

  @parameterized.named_parameters(
      ('float32', np.float32, 1e-4, 1e-4),
      ('float64', np.float64, 1e-9, 1e-8),
  )
  def test_round_trip_601(self, dtype, atol, rtol):
    x = _wide_range(0.999 * _largest_representable(300.)).astype(dtype)
    probs = value_transforms.scalar_to_support(x, 601)
    recovered = value_transforms.signed_parabolic(
        value_transforms.two_hot_to_scalar(probs))
    self.assertAllClose(recovered, x, atol=atol, rtol=rtol)

  @parameterized.named_parameters(
      ('float32', np.float32, 1e-4, 1e-4),
      ('float64', np.float64, 1e-9, 1e-8),
  )
  def test_support_to_scalar_of_log_two_hot(self, dtype, atol, rtol):
    x = _wide_range(0.999 * _largest_representable(300.)).astype(dtype)
    probs = value_transforms.scalar_to_support(x, 601).numpy()
    # softmax(log p) = p; zero atoms get a floor of 1e-30 (logit ~ -69).
    logits = np.log(np.maximum(probs, 1e-30)).astype(dtype)
    recovered = value_transforms.support_to_scalar(logits)
    self.assertAllClose(recovered, x, atol=atol, rtol=rtol)

  def test_beyond_support_clips_to_largest_value(self):
    x_max = _largest_representable(300.)
    x = np.array([9e4, -9e4, 1e7, -1e7])
    recovered = value_transforms.signed_parabolic(
        value_transforms.two_hot_to_scalar(
            value_transforms.scalar_to_support(x, 601)))
    self.assertAllClose(recovered, np.sign(x) * x_max, rtol=1e-9)

  def test_uniform_logits_predict_zero(self):
    logits = np.zeros([3, 601], np.float32)
    self.assertAllClose(value_transforms.support_to_scalar(logits),
                        np.zeros(3), atol=1e-3)

  def test_gradient_matches_closed_form(self):
    # d h^-1(E) / d logit_i = p_i (a_i - E) / h'(h^-1(E)), where
    # h'(u) = 1 / (2 sqrt(u + 1)) + eps for u >= 0 (and h' is even).
    rng = np.random.default_rng(1)
    logits = rng.normal(0., 3., (4, 21))
    logits[3] = -50.
    logits[3, 0] = 50.  # Nearly all mass on the bottom atom.
    logits = tf.constant(logits)
    with tf.GradientTape() as tape:
      tape.watch(logits)
      value = value_transforms.support_to_scalar(logits)
    grad = tape.gradient(value, logits).numpy()
    self.assertTrue(np.all(np.isfinite(grad)))

    atoms = np.arange(-10., 11.)
    p = np.exp(logits.numpy() - logits.numpy().max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    mean = p @ atoms
    u = np.abs(value.numpy())
    h_prime = 1. / (2. * np.sqrt(u + 1.)) + EPS
    expected = p * (atoms - mean[:, None]) / h_prime[:, None]
    self.assertAllClose(grad, expected, atol=1e-8, rtol=1e-6)

  def test_gradient_is_finite_at_zero_and_edges(self):
    for dtype in (tf.float32, tf.float64):
      with self.subTest(dtype=dtype.name):
        logits = np.full((3, 601), -1e4)
        logits[0, 300] = 0.  # Exactly one-hot on 0.
        logits[1, 600] = 0.  # One-hot on the top atom.
        logits[2] = 0.  # Uniform: expectation 0.
        logits = tf.constant(logits, dtype)
        with tf.GradientTape() as tape:
          tape.watch(logits)
          value = value_transforms.support_to_scalar(logits)
        grad = tape.gradient(value, logits)
        self.assertTrue(np.all(np.isfinite(grad.numpy())))


if __name__ == '__main__':
  tf.test.main()
