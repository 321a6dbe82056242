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
"""Tests of a whole run through the library: `experiment.run` and friends."""

import collections
import dataclasses
import glob
import os
import subprocess
import sys
from unittest import mock

from absl import flags
import numpy as np
import tensorflow as tf

from examples import corridor
from muzero_snt.run import checkpointing
from muzero_snt import config as config_lib
from muzero_snt.run import distribute
from muzero_snt.run import experiment
from muzero_snt import presets
from muzero_snt.run import resources
from muzero_snt.run import run_config
from muzero_snt.run import synthetic
from tests import testing


def _tiny_config(**changes) -> config_lib.MuZeroConfig:
  config = testing.tiny_mlp_config(
      21, batch_size=8, num_unroll_steps=3, training_steps=4,
      checkpoint_interval=2)
  return config.replace(**changes)


def _read_scalars(logdir: str):
  """{tag: [(step, value)]} of every scalar of the events files in logdir."""
  scalars = {}
  for path in glob.glob(os.path.join(logdir, 'events.out.tfevents*')):
    for event in tf.compat.v1.train.summary_iterator(path):
      for value in event.summary.value:
        scalars.setdefault(value.tag, []).append(
            (event.step, float(tf.make_ndarray(value.tensor))))
  return scalars


class SyntheticRunTest(testing.TestCase):

  def setUp(self):
    super().setUp()
    if not flags.FLAGS.is_parsed():
      flags.FLAGS.mark_as_parsed()  # create_tempdir reads --test_tmpdir.

  def test_run_advances_the_learner(self):
    learner = experiment.run_synthetic(_tiny_config(), jit_compile=False, log_every=2)
    self.assertEqual(learner.steps, 4)

  def test_resume_continues_from_the_checkpoint(self):
    directory = self.create_tempdir().full_path
    first = experiment.run_synthetic(_tiny_config(training_steps=2), jit_compile=False,
                      checkpoint_dir=directory)
    self.assertEqual(first.steps, 2)
    self.assertNotEmpty([f for f in os.listdir(directory) if 'ckpt-2' in f])
    resumed = experiment.run_synthetic(_tiny_config(training_steps=4), jit_compile=False,
                        checkpoint_dir=directory)
    self.assertEqual(resumed.steps, 4)

  def test_resumed_run_equals_an_uninterrupted_one(self):
    # N steps, stop, N more from the checkpoint == 2N steps in one go:
    # network variables and optimizer slots to 1e-6.
    config = _tiny_config(checkpoint_interval=3)
    directory = self.create_tempdir().full_path
    experiment.run_synthetic(config.replace(training_steps=3), jit_compile=False,
              checkpoint_dir=directory, seed=5)
    resumed = experiment.run_synthetic(config.replace(training_steps=6), jit_compile=False,
                        checkpoint_dir=directory, seed=5)
    uninterrupted = experiment.run_synthetic(config.replace(training_steps=6),
                              jit_compile=False, seed=5)
    self.assertEqual(resumed.steps, 6)
    self.assertEqual(uninterrupted.steps, 6)
    for a, b in zip(resumed.network.variables,
                    uninterrupted.network.variables):
      self.assertAllClose(a, b, atol=1e-6, rtol=0., msg=a.name)
    slots = [v for v in resumed.optimizer.variables if v.dtype.is_floating]
    self.assertNotEmpty(slots)
    for a, b in zip(resumed.optimizer.variables,
                    uninterrupted.optimizer.variables):
      self.assertAllClose(a, b, atol=1e-6, rtol=0., msg=a.name)
    # Not trivially equal: training moved the variables.
    fresh = experiment.run_synthetic(config.replace(training_steps=3), jit_compile=False,
                      seed=5)
    self.assertNotAllClose(fresh.network.trainable_variables[0],
                           resumed.network.trainable_variables[0])

  def test_export_dir_gets_a_saved_model_of_the_trained_network(self):
    export_dir = os.path.join(self.create_tempdir().full_path, 'model')
    learner = experiment.run_synthetic(_tiny_config(), jit_compile=False,
                        export_dir=export_dir)
    loaded = tf.saved_model.load(export_dir)
    observation = np.random.default_rng(0).uniform(
        size=(3, 4)).astype(np.float32)
    expected = learner.network.initial_inference(observation)
    actual = loaded.initial_inference(observation)
    self.assertAllClose(actual['value'], expected.value, atol=1e-5)
    self.assertAllClose(actual['policy_logits'], expected.policy_logits,
                        atol=1e-5)

  def test_bfloat16_run_keeps_float32_variables(self):
    learner = experiment.run_synthetic(_tiny_config(), jit_compile=False,
                        compute_dtype='bfloat16')
    self.assertEqual(learner.steps, 4)
    self.assertEqual({v.dtype for v in learner.network.trainable_variables},
                     {tf.float32})

  def test_logdir_gets_the_metrics_at_the_logged_steps(self):
    logdir = self.create_tempdir().full_path
    strategy = distribute.make_strategy('cpu')
    learner = experiment.run_synthetic(_tiny_config(), jit_compile=False, log_every=3,
                        strategy=strategy, logdir=logdir)
    self.assertIs(learner.strategy, strategy)
    self.assertLen(glob.glob(os.path.join(logdir, 'events.out.tfevents*')),
                   1)
    scalars = _read_scalars(logdir)
    # After the first round (one step), every 3 steps, and the last of 4.
    loss_steps = [step for step, _ in scalars['loss']]
    self.assertEqual(loss_steps, [1, 3, 4])
    self.assertTrue(all(np.isfinite(v) and v > 0 for _, v in scalars['loss']))
    k = 3
    expected = {'loss/value', 'loss/reward', 'loss/policy',
                'loss/regularization', 'learning_rate', 'gradient_norm',
                'steps_per_second', 'samples_per_second'}
    expected |= {f'loss/value_step_{i}' for i in range(k + 1)}
    expected |= {f'loss/policy_step_{i}' for i in range(k + 1)}
    expected |= {f'loss/reward_step_{i}' for i in range(1, k + 1)}
    self.assertContainsSubset(expected, set(scalars))
    self.assertNotIn('loss/reward_step_0', scalars)
    for tag in expected - {'steps_per_second', 'samples_per_second'}:
      self.assertEqual([step for step, _ in scalars[tag]], [1, 3, 4], tag)
    # Rates are measured from the end of the first step (after tracing),
    # so the first summary has none.
    for tag in ('steps_per_second', 'samples_per_second'):
      self.assertEqual([step for step, _ in scalars[tag]], [3, 4], tag)
    value_mean = scalars['loss/value'][-1][1]
    value_steps = [scalars[f'loss/value_step_{i}'][-1][1]
                   for i in range(k + 1)]
    self.assertAllClose(value_mean, np.mean(value_steps), rtol=1e-5)
    steps_per_second = scalars['steps_per_second'][-1][1]
    samples_per_second = scalars['samples_per_second'][-1][1]
    self.assertAllClose(samples_per_second, 8 * steps_per_second)

  def test_loss_falls_on_synthetic_batches(self):
    config = _tiny_config(training_steps=1, lr_init=0.05)
    learner = experiment.run_synthetic(config, jit_compile=False)
    batch = next(synthetic.SyntheticBatches(config, 32, seed=1))
    before = learner.step(batch)['loss']
    for _ in range(60):
      after = learner.step(batch)['loss']
    self.assertTrue(np.isfinite(after))
    self.assertLess(after, 0.8 * before)


  def test_a_changed_resume_is_refused_before_anything_is_written(self):
    directory = self.create_tempdir().full_path
    experiment.run_synthetic(_tiny_config(training_steps=2), jit_compile=False,
                             checkpoint_dir=directory, seed=5)
    before = {name: os.path.getmtime(os.path.join(directory, name))
              for name in os.listdir(directory)}
    with self.assertRaisesRegex(run_config.RunConfigError,
                                r'lr_init: saved 0\.02, now 0\.5; seed: '
                                r'saved 5, now 6'):
      experiment.run_synthetic(_tiny_config(training_steps=4, lr_init=0.5),
                               jit_compile=False, checkpoint_dir=directory,
                               seed=6)
    self.assertEqual(
        {name: os.path.getmtime(os.path.join(directory, name))
         for name in os.listdir(directory)}, before)
    # Asked for, the change is taken, and the run goes on from step 2.
    learner = experiment.run_synthetic(
        _tiny_config(training_steps=4, lr_init=0.5), jit_compile=False,
        checkpoint_dir=directory, seed=5, allow_config_changes=('lr_init',))
    self.assertEqual(learner.steps, 4)
    self.assertEqual(run_config.load(directory).config.lr_init, 0.5)

  def test_a_failed_resume_leaves_the_run_record_as_it_was(self):
    # The saved record changes only once the checkpoint is restored: a
    # network change the restore refuses keeps the old record, so the
    # original command still resumes.
    directory = self.create_tempdir().full_path
    config = _tiny_config(training_steps=2)
    experiment.run_synthetic(config, jit_compile=False,
                             checkpoint_dir=directory, seed=5)
    record = os.path.join(directory, run_config.RUN_CONFIG_FILE)
    with open(record, 'rb') as f:
      before = f.read()
    wider = config.replace(network=dataclasses.replace(config.network,
                                                       hidden_size=16))
    with self.assertRaisesRegex(checkpointing.CheckpointError,
                                'does not fit this run'):
      experiment.run_synthetic(
          wider.replace(training_steps=4), jit_compile=False,
          checkpoint_dir=directory, seed=5,
          allow_config_changes=('network.hidden_size',))
    with open(record, 'rb') as f:
      self.assertEqual(f.read(), before)
    self.assertEqual(run_config.load(directory).config.network.hidden_size, 8)
    learner = experiment.run_synthetic(config.replace(training_steps=4),
                                       jit_compile=False,
                                       checkpoint_dir=directory, seed=5)
    self.assertEqual(learner.steps, 4)

  def test_a_resume_of_damaged_checkpoints_keeps_the_record(self):
    directory = self.create_tempdir().full_path
    experiment.run_synthetic(_tiny_config(training_steps=2),
                             jit_compile=False, checkpoint_dir=directory,
                             seed=5)
    for name in os.listdir(directory):
      if name.startswith('ckpt-') and '.data-' in name:
        with open(os.path.join(directory, name), 'r+b') as f:
          f.truncate(3)
    record = os.path.join(directory, run_config.RUN_CONFIG_FILE)
    with open(record, 'rb') as f:
      before = f.read()
    with self.assertRaisesRegex(checkpointing.CheckpointError,
                                'No intact checkpoint'):
      experiment.run_synthetic(_tiny_config(training_steps=4),
                               jit_compile=False, checkpoint_dir=directory,
                               seed=1, allow_config_changes=('seed',))
    with open(record, 'rb') as f:
      self.assertEqual(f.read(), before)
    self.assertEqual(run_config.load(directory).seed, 5)

  def test_checkpoints_are_numbered_by_learner_step(self):
    directory = self.create_tempdir().full_path
    experiment.run_synthetic(_tiny_config(training_steps=5,
                                          checkpoint_interval=2),
                             jit_compile=False, checkpoint_dir=directory)
    self.assertEqual(tf.train.get_checkpoint_state(
        directory).all_model_checkpoint_paths,
                     [os.path.join(directory, f'ckpt-{n}') for n in (2, 4, 5)])


class ModeSwitchTest(testing.TestCase):
  """A checkpoint of one process is not resumed with Ray actors, and the
  other way round, and the refusal says so in one sentence."""

  def _checkpoint(self, directory, **counters):
    checkpointing.Checkpointer(
        directory, network=tf.Variable(1.),
        **checkpointing.counters(**counters)).save(3)

  def test_each_mode_refuses_the_other_modes_checkpoints(self):
    config = _tiny_config()
    one_process = self.create_tempdir().full_path
    self._checkpoint(one_process, rounds=2, games=5, env_steps=40)
    distributed = self.create_tempdir().full_path
    self._checkpoint(distributed, distributed_env_steps=40,
                     distributed_games=5)
    for directory, num_actors, message in (
        (one_process, 2, r'played in one process \(num_actors=0\); they '
         r'cannot be resumed with num_actors=2'),
        (distributed, 0, r'played with Ray actors \(num_actors > 0\); they '
         r'cannot be resumed in one process')):
      settings = run_config.RunConfig(
          preset='cartpole', checkpoint_dir=directory, num_actors=num_actors)
      with self.assertRaisesRegex(run_config.RunConfigError, message):
        experiment.check_run(settings.replace(config=config))
    # Each mode resumes its own.
    for directory, num_actors in ((one_process, 0), (distributed, 2)):
      experiment.check_mode_switch(directory, run_config.RunConfig(
          preset='cartpole', num_actors=num_actors))


class TrainRatioTest(testing.TestCase):

  def test_a_ratio_below_one_step_per_window_is_refused(self):
    # tic-tac-toe: 2,000 games of at most 9 moves = 18,000 positions, so
    # the smallest ratio that can give a learner step is 1 / 18,000.
    config = presets.get_preset('tictactoe')
    self.assertEqual(config.window_size * config.max_moves, 18_000)
    for ratio in (1e-300, 1 / 18_001):
      settings = run_config.RunConfig(preset='tictactoe',
                                        train_ratio=ratio)
      with self.assertRaisesRegex(
          ValueError, r'train_ratio=.* more than the replay window holds '
          r'\(window_size=2000 games of at most max_moves=9: 18000 '
          r'positions\).*expected train_ratio >= 5.56e-05'):
        experiment.check_train_ratio(settings.replace(config=config))
    experiment.check_train_ratio(run_config.RunConfig(
        config=config, preset='tictactoe', train_ratio=1 / 18_000))
    # Synthetic batches have no ratio to check.
    experiment.check_train_ratio(run_config.RunConfig(
        config=config, preset='tictactoe', data='synthetic'))


class CheckRunTest(testing.TestCase):

  def test_the_disk_check_counts_every_checkpoint_retention_holds(self):
    # Tic-tac-toe: three checkpoints kept and the next one written before
    # the oldest is deleted, 3,814,800 bytes each (a full replay window),
    # and 64 KiB of small files.
    directory = os.path.join(self.get_temp_dir(), 'disk_check')
    config = presets.make_tictactoe_config()
    settings = run_config.RunConfig(preset='tictactoe',
                                      checkpoint_dir=directory)
    usage = collections.namedtuple('usage', 'total used free')
    needed = 4 * 3_814_800 + 65_536
    for free in (needed, 10 * 2**20):  # A 10 MB disk is short.
      with mock.patch.object(resources.shutil, 'disk_usage',
                             return_value=usage(10**12, 0, free)):
        if free >= needed:
          experiment.check_run(settings.replace(config=config),
                               available_memory=10**12)
          continue
        with self.assertRaises(resources.ResourceError) as error:
          experiment.check_run(settings.replace(config=config),
                               available_memory=10**12)
    self.assertEqual(
        str(error.exception),
        f'checkpoint_dir={directory} has 10,485,760 bytes (0.01 GB) of '
        'disk free, less than the 15,324,736 bytes (0.02 GB) needed (3 '
        'checkpoints kept and the next one, written before the oldest is '
        'deleted, of up to 3,814,800 bytes each, counting those already '
        'there): free some space or choose a directory on another disk.')

  def test_a_run_of_an_own_environment_is_checked_and_described(self):
    run = run_config.RunConfig(
        environment=corridor.Corridor,
        checkpoint_dir=os.path.join(self.get_temp_dir(), 'own'))
    experiment.check_run(run, available_memory=10**12)
    self.assertTrue(experiment.describe_config(run).startswith(
        "environment='examples.corridor:Corridor' (as derived from its "
        "specs); data='selfplay', seed=0, environment="))
    changed = run.replace(config=run.resolved().config.replace(
        num_simulations=3))
    self.assertIn('(num_simulations=3)',
                  experiment.describe_config(changed))


class CheckReanalysisTest(testing.TestCase):

  def test_reanalyse_workers_need_a_fraction_to_reanalyse(self):
    config = presets.get_preset('tictactoe')
    settings = run_config.RunConfig(num_actors=2, num_reanalyze_workers=1)
    with self.assertRaisesRegex(ValueError, 'num_reanalyze_workers=1 needs '
                                r'reanalyze_fraction > 0'):
      experiment.check_reanalysis(settings.replace(config=config))
    # With a fraction, in the Ray mode, with or without workers: accepted.
    for workers in (0, 1):
      experiment.check_reanalysis(
          run_config.RunConfig(
                               config=config.replace(reanalyze_fraction=0.8),
                               num_actors=2,
                                 num_reanalyze_workers=workers))


_OUTSIDE_SCRIPT = """
import dataclasses
import sys
from muzero_snt import presets
from muzero_snt.run import experiment
config = presets.make_tictactoe_config()
config = config.replace(
    num_simulations=2, batch_size=8, num_unroll_steps=2, training_steps=2,
    network=dataclasses.replace(config.network, channels=4,
                                prediction_blocks=0))
loop = experiment.run_selfplay(config, 'tictactoe', num_envs=2,
                               train_ratio=1.0, jit_compile=False,
                               search='graph')
print(loop.learner.steps, loop.games > 0,
      sorted(m for m in sys.modules if m.split('.')[0] == 'launchers'))
"""


class OutsideTheRepositoryTest(testing.TestCase):

  def test_self_play_runs_without_the_launchers(self):
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    environment = dict(os.environ, PYTHONPATH=repo, TF_CPP_MIN_LOG_LEVEL='2',
                       CUDA_VISIBLE_DEVICES='')
    result = subprocess.run(
        [sys.executable, '-c', _OUTSIDE_SCRIPT], cwd=self.get_temp_dir(),
        env=environment, capture_output=True, text=True, timeout=600,
        check=False)
    self.assertEqual(result.returncode, 0, result.stderr[-3000:])
    self.assertEqual(result.stdout.strip().splitlines()[-1], '2 True []')


if __name__ == '__main__':
  tf.test.main()
