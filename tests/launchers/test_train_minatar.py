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
"""The training launcher on --preset=minatar: a smoke run and its errors."""

import glob
import importlib.util
import os
import sys
from unittest import mock

from absl import app
from absl import flags
from absl.testing import absltest
from absl.testing import flagsaver
import numpy as np
import tensorflow as tf

from launchers import train
from muzero_snt.run import experiment

FLAGS = flags.FLAGS
_HAS_MINATAR = importlib.util.find_spec('minatar') is not None

# A tiny MinAtar run: a 4-plane tower, 2 simulations, 2 games at once, a
# replay of 10 games (so that the memory check passes on a busy machine).
_TINY_FLAGS = dict(
    preset='minatar', data='selfplay', batch_size=8, num_unroll_steps=2,
    channels=4, num_blocks=1, num_simulations=2, jit_compile=False,
    num_envs=2, train_ratio=0.5, log_every=1, window_size=10)


def _losses(logdir):
  """[(step, loss)] of the 'loss' scalars in logdir's events files."""
  losses = []
  for path in glob.glob(os.path.join(logdir, 'events.out.tfevents*')):
    for event in tf.compat.v1.train.summary_iterator(path):
      losses.extend((event.step, float(tf.make_ndarray(value.tensor)))
                    for value in event.summary.value if value.tag == 'loss')
  return losses


class TrainMinAtarTest(absltest.TestCase):

  def setUp(self):
    super().setUp()
    if not FLAGS.is_parsed():
      FLAGS.mark_as_parsed()

  @absltest.skipIf(not _HAS_MINATAR, 'minatar is not installed.')
  def test_breakout_trains_from_the_launcher(self):
    loops = []
    run = experiment.run

    def capture(*args, **kwargs):
      loops.append(run(*args, **kwargs))
      return loops[-1]

    logdir = self.create_tempdir().full_path
    with mock.patch.object(experiment, 'run', capture):
      with flagsaver.flagsaver(env='breakout', training_steps=3,
                               logdir=logdir, **_TINY_FLAGS):
        train.main(['train'])
    loop, = loops
    self.assertEqual(loop.learner.steps, 3)
    self.assertGreater(loop.games, 0)
    # train_ratio 0.5: at least 2 environment steps per learner step.
    self.assertGreaterEqual(loop.env_steps, 6)
    losses = _losses(logdir)
    self.assertEqual(losses[-1][0], 3)
    self.assertTrue(np.all(np.isfinite([loss for _, loss in losses])))

  @absltest.skipIf(not _HAS_MINATAR, 'minatar is not installed.')
  def test_an_unknown_game_is_a_usage_error_listing_the_games(self):
    with flagsaver.flagsaver(env='pong', training_steps=1, **_TINY_FLAGS):
      with self.assertRaisesRegex(
          app.UsageError, r"preset 'minatar' with title 'pong': Unknown "
          r"MinAtar game 'pong'; expected one of \['asterix', 'breakout', "
          r"'freeway', 'seaquest', 'space_invaders'\]"):
        train.main(['train'])

  def test_a_missing_minatar_is_a_usage_error_naming_the_extra(self):
    # A None entry in sys.modules makes `import minatar` raise ImportError.
    with mock.patch.dict(sys.modules, {'minatar': None}):
      with flagsaver.flagsaver(training_steps=1, **_TINY_FLAGS):
        with self.assertRaisesRegex(
            app.UsageError, r"preset 'minatar': MinAtarEnvironment needs the "
            r"optional minatar package: pip install -e '\.\[minatar\]'"):
          train.main(['train'])


if __name__ == '__main__':
  absltest.main()
