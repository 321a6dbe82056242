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
"""Tests of curves: TensorBoard scalars read back, and their PNG plot."""

import importlib.util
import os
import struct
import sys
import tempfile
from unittest import mock

from absl.testing import absltest
import tensorflow as tf

from muzero_snt.evaluation import curves
from tests import testing

HAS_MATPLOTLIB = importlib.util.find_spec('matplotlib') is not None
PNG_MAGIC = b'\x89PNG\r\n\x1a\n'


def _new_dir(test: tf.test.TestCase) -> str:
  """A new empty directory under the test's temporary directory."""
  return tempfile.mkdtemp(dir=test.get_temp_dir())


def _png_size(path):
  """(width, height) from a PNG's IHDR chunk."""
  with open(path, 'rb') as f:
    header = f.read(24)
  return struct.unpack('>II', header[16:24])


class LearningCurveTest(testing.TestCase):

  def _logdir(self):
    logdir = _new_dir(self)
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
      for step, value in ((10, 2.5), (20, 1.5), (30, 0.75)):
        tf.summary.scalar('loss', value, step=step)
        tf.summary.scalar('selfplay/episode_return', step / 10., step=step)
      tf.summary.histogram('weights', [1., 2., 3.], step=10)
      tf.summary.text('note', 'not a scalar', step=10)
    writer.close()
    return logdir

  def test_read_scalars(self):
    logdir = self._logdir()
    # A resumed run writes step 20 again, in a second events file.
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
      tf.summary.scalar('loss', 9., step=20)
    writer.close()
    scalars = curves.read_scalars(logdir)
    self.assertEqual(sorted(scalars), ['loss', 'selfplay/episode_return'])
    steps, values = scalars['loss']
    self.assertEqual(steps.tolist(), [10, 20, 30])
    self.assertEqual(values.tolist(), [2.5, 9., 0.75])
    self.assertEqual(scalars['selfplay/episode_return'][1].tolist(),
                     [1., 2., 3.])

  @absltest.skipUnless(HAS_MATPLOTLIB, 'needs matplotlib')
  def test_writes_a_png_with_a_panel_per_tag(self):
    logdir = self._logdir()
    path = os.path.join(_new_dir(self), 'plots', 'c.png')
    returned = curves.learning_curve_png(
        logdir, ['selfplay/episode_return', 'loss'], path)
    self.assertEqual(returned, path)
    with open(path, 'rb') as f:
      self.assertEqual(f.read(8), PNG_MAGIC)
    self.assertGreater(os.path.getsize(path), 5000)
    # 7 inches wide, 2.4 per panel, 100 dpi.
    self.assertEqual(_png_size(path), (700, 480))

  def test_missing_tag_lists_the_available_ones(self):
    with self.assertRaisesRegex(
        ValueError,
        r"'eval/score'.*\['loss', 'selfplay/episode_return'\]"):
      curves.learning_curve_png(self._logdir(), ['loss', 'eval/score'],
                                    '/unused.png')

  def test_bad_logdir_and_tags(self):
    empty = _new_dir(self)
    with self.assertRaisesRegex(FileNotFoundError, 'No TensorBoard event'):
      curves.learning_curve_png(empty, ['loss'], '/unused.png')
    with self.assertRaisesRegex(ValueError, 'non-empty.*loss'):
      curves.learning_curve_png(empty, 'loss', '/unused.png')

  def test_missing_matplotlib_says_how_to_install_it(self):
    hidden = dict.fromkeys(
        [m for m in sys.modules if m.startswith('matplotlib')] +
        ['matplotlib'])
    with mock.patch.dict(sys.modules, hidden):
      with self.assertRaisesRegex(ImportError, r"pip install -e '\.\[plots"):
        curves.learning_curve_png(self._logdir(), ['loss'],
                                      '/unused.png')


if __name__ == '__main__':
  absltest.main()
