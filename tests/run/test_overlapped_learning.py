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
"""Tests for learner steps beside self-play (`overlapped_learning.py`)."""

import dataclasses
import fractions
import os
import tempfile
import threading
from unittest import mock

from absl.testing import absltest
import numpy as np
import tensorflow as tf

from muzero_snt import acting
from muzero_snt import config as config_lib
from muzero_snt.run import data_sources
from muzero_snt.run import experiment
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt.run import overlapped_learning
from muzero_snt import presets
from muzero_snt.run import run_config
from muzero_snt import search
from muzero_snt.run import training_loop
from muzero_snt.environments import checks
from muzero_snt.environments import tictactoe

_MLP = config_lib.NetworkConfig(
    kind='mlp', hidden_size=8, mlp_layers=(16,), head_layers=(8,),
    value_support_size=21, reward_support_size=21)


def _config(**changes) -> config_lib.MuZeroConfig:
  config = presets.make_tictactoe_config().replace(
      num_simulations=4, batch_size=8, num_unroll_steps=2, td_steps=9,
      training_steps=12, checkpoint_interval=4, window_size=50)
  network = dataclasses.replace(config.network, channels=4,
                                prediction_blocks=0)
  return config.replace(network=network, **changes)


def _make_loop(config, train_ratio=0.5, checkpoint_dir=None, init_seed=0,
               num_envs=3, actor_wrapper=None):
  """A learner, an actor on a network of its own, and an overlapping loop.

  The residual network has batch-norm statistics, which the copy carries.
  """
  tf.random.set_seed(init_seed)
  network = networks.make_network(config)
  learner = learning.Learner(network, config, jit_compile=False)
  actor_network = networks.make_network(config)
  actor_network.create_variables()
  weights = overlapped_learning.WeightCopy(network, actor_network)
  model = search.NetworkModel(actor_network)
  actor = acting.Actor(
      config, search.ReferenceSearch(config, model), model,
      lambda s: checks.CheckedEnvironment.from_config(
          tictactoe.TicTacToe(s), config),
      seed=3, num_envs=num_envs)
  if actor_wrapper is not None:
    actor = actor_wrapper(actor, actor_network)
  source = data_sources.SelfPlay(config, actor, train_ratio=train_ratio,
                                 seed=3, actor_weights=weights)
  loop = training_loop.TrainingLoop(
      config, learner, source, checkpoint_dir=checkpoint_dir,
      compile_first=False, overlap_learning=True)
  return learner, actor_network, loop


def _first_weight(network):
  return network.trainable_variables[0].numpy().copy()


class WeightCopyTest(tf.test.TestCase):

  def test_copies_weights_and_batch_norm_statistics(self):
    config = _config()
    tf.random.set_seed(0)
    source = networks.make_network(config)
    source.create_variables()
    target = networks.make_network(config)
    target.create_variables()
    # Batch-norm statistics that differ from their initial values.
    statistics = [v for v in source.variables if not v.trainable]
    self.assertNotEmpty(statistics)
    for variable in statistics:
      if variable.dtype.is_floating:
        variable.assign(tf.random.normal(variable.shape) + 3.)
      else:  # The moving averages' update counters.
        variable.assign(tf.fill(variable.shape, tf.cast(7, variable.dtype)))
    overlapped_learning.WeightCopy(source, target)()
    for s, t in zip(source.variables, target.variables):
      self.assertEqual(s.name, t.name)
      self.assertAllEqual(s, t, msg=s.name)
    # The copy is a copy: changing the source leaves the target alone.
    before = target.variables[0].numpy().copy()
    source.variables[0].assign_add(tf.ones_like(source.variables[0]))
    self.assertAllEqual(target.variables[0], before)

  def test_read_values_survive_later_learner_steps(self):
    # The learner's thread reads the weights after its steps; the XLA step
    # that follows must not write into the tensors read.
    config = _config()
    tf.random.set_seed(0)
    network = networks.make_network(config)
    learner = learning.Learner(network, config, jit_compile=True)
    target = networks.make_network(config)
    target.create_variables()
    copy = overlapped_learning.WeightCopy(network, target)
    batch = learning.zero_batch(config, config.batch_size)
    batch = batch._replace(target_value=np.full_like(batch.target_value, .5))
    learner.step(batch)
    expected = [v.numpy().copy() for v in network.variables]
    values = copy.read()
    learner.step(batch)
    changed = [not np.array_equal(v.numpy(), e)
               for v, e in zip(network.variables, expected)]
    self.assertGreater(sum(changed), len(changed) // 2)
    copy.write(values)
    for t, e in zip(target.variables, expected):
      self.assertAllEqual(t, e, msg=t.name)

  def test_other_builds_are_named(self):
    config = _config()
    source = networks.make_network(config)
    source.create_variables()
    unbuilt = networks.make_network(config)
    with self.assertRaisesRegex(
        ValueError, f'The networks have {len(source.variables)} and '
        f'{len(unbuilt.variables)} variables; expected the same build'):
      overlapped_learning.WeightCopy(source, unbuilt)
    wider = networks.make_network(config.replace(
        network=dataclasses.replace(config.network, channels=5)))
    wider.create_variables()
    with self.assertRaisesRegex(ValueError, r'Variable .* meets .*expected '
                                'the same build'):
      overlapped_learning.WeightCopy(source, wider)
    mlp = networks.make_network(config.replace(network=_MLP))
    mlp.create_variables()
    with self.assertRaisesRegex(ValueError, 'variables; expected the same'):
      overlapped_learning.WeightCopy(source, mlp)


class LearnerThreadTest(absltest.TestCase):

  def test_steps_run_in_order_in_one_other_thread(self):
    seen = []

    def step(batch):
      seen.append((batch, threading.current_thread().name))
      return {'batch': batch}

    thread = overlapped_learning.LearnerThread(step, lambda: ['weights'])
    self.assertFalse(thread.running)
    self.assertEqual(thread.wait(), overlapped_learning.Finished([], None))
    thread.start([1, 2, 3])
    self.assertTrue(thread.running)
    with self.assertRaisesRegex(RuntimeError, 'before wait'):
      thread.start([4])
    finished = thread.wait()
    self.assertEqual(finished.metrics, [{'batch': 1}, {'batch': 2},
                                        {'batch': 3}])
    self.assertEqual(finished.weights, ['weights'])
    thread.start([4])
    self.assertEqual(thread.wait().metrics, [{'batch': 4}])
    thread.close()
    self.assertEqual([b for b, _ in seen], [1, 2, 3, 4])
    names = {name for _, name in seen}
    self.assertLen(names, 1)
    self.assertNotEqual(names.pop(), threading.current_thread().name)

  def test_an_error_stops_the_list_and_keeps_the_steps_before(self):
    seen = []

    def step(batch):
      seen.append(batch)
      if batch == 2:
        raise FloatingPointError('Non-finite loss nan')
      return {'batch': batch}

    read = mock.Mock(return_value=['weights'])
    thread = overlapped_learning.LearnerThread(step, read)
    thread.start([1, 2, 3])
    with self.assertRaisesRegex(FloatingPointError, 'Non-finite') as caught:
      thread.wait()
    self.assertEqual(caught.exception.completed_metrics, [{'batch': 1}])
    self.assertEqual(seen, [1, 2])
    read.assert_not_called()  # No weights after a failed list.
    self.assertFalse(thread.running)
    thread.close()


class ScheduleRecorder:
  """Passes rounds to an actor; records what each move's search saw.

  Before each move's learner steps are asked for, it records the learner
  steps the actor's weights have (the temperature schedule's count) and
  the actor's first weight; it counts the steps owed after each move from
  the games alone, as `SelfPlay` owes them.
  """

  def __init__(self, actor, actor_network, ratio, batch_size, total):
    self._actor = actor
    self.network = actor_network
    self._ratio = ratio
    self._batch_size = batch_size
    self._total = total
    self.positions = 0
    self.counted = 0
    self.rounds = []  # Per round: [(actor steps, weight, owed after)].

  @property
  def num_envs(self):
    return self._actor.num_envs

  def play_round(self, round_index, training_steps, on_move,
                 should_stop=None):
    moves = []

    def recording_on_move(num_env_steps):
      seen = (training_steps(), _first_weight(self.network))
      if self.positions >= self._batch_size:
        self.counted += num_env_steps
      on_move(num_env_steps)
      owed = min(self._total, int(self._ratio * self.counted))
      moves.append(seen + (owed,))

    results = self._actor.play_round(round_index, training_steps,
                                     recording_on_move, should_stop)
    self.positions += sum(r.length for r in results)
    self.rounds.append(moves)
    return results


class OverlappedLoopTest(tf.test.TestCase):

  def _new_directory(self):
    return tempfile.mkdtemp(dir=self.get_temp_dir())

  def test_each_move_searches_with_the_weights_two_moves_back(self):
    # Move j of a round searches with the learner's weights after the steps
    # owed by move j - 2 (the steps of move j - 1 still running), the
    # round's first two moves with those at the round's start.
    ratio = fractions.Fraction(1, 2)
    config = _config(training_steps=14)
    recorders = []

    def wrap(actor, actor_network):
      recorders.append(ScheduleRecorder(actor, actor_network, ratio,
                                        config.batch_size,
                                        config.training_steps))
      return recorders[-1]

    learner, _, loop = _make_loop(config, train_ratio=float(ratio),
                                  actor_wrapper=wrap)
    recorder, = recorders
    after_step = {0: _first_weight(learner.network)}
    real_step = learner.step_prepared

    def recording_step(batch):
      metrics = real_step(batch)
      after_step[int(learner.steps)] = _first_weight(learner.network)
      return metrics

    with mock.patch.object(learner, 'step_prepared', recording_step):
      loop.run()
    self.assertEqual(learner.steps, 14)
    self.assertEqual(sorted(after_step), list(range(15)))
    checked = 0
    start = 0
    for moves in recorder.rounds:
      owed = [start, start] + [owed for _, _, owed in moves]
      for j, (actor_steps, weight, _) in enumerate(moves):
        self.assertEqual(actor_steps, owed[j], (j, moves))
        np.testing.assert_array_equal(weight, after_step[owed[j]])
        checked += owed[j] > 0
      start = moves[-1][2]
    self.assertGreater(checked, 10)
    # After the run the actor's weights are the learner's.
    for a, b in zip(learner.network.variables, recorder.network.variables):
      self.assertAllEqual(a, b)

  def test_runs_repeat_and_resume_exactly(self):
    # Ratio 0.3: about 7 learner steps a round of 3 games.
    config = _config(training_steps=20)
    uninterrupted = _make_loop(config, train_ratio=0.3)
    ends = []
    uninterrupted[2].run(on_round=lambda l: ends.append(l.learner.steps))
    again = _make_loop(config, train_ratio=0.3)
    again[2].run()
    self._assert_same(uninterrupted, again)

    # Stopped at a round's end with a checkpoint, resumed in a new loop
    # with other initial weights: the same run.
    n = [steps for steps in ends if 0 < steps < 20][0]
    directory = self._new_directory()
    first = _make_loop(config.replace(training_steps=n), train_ratio=0.3,
                       checkpoint_dir=directory)
    first[2].run()
    self.assertEqual(first[0].steps, n)
    resumed = _make_loop(config, train_ratio=0.3, checkpoint_dir=directory,
                         init_seed=1)
    self.assertEqual(resumed[0].steps, n)
    resumed[2].run()
    self._assert_same(uninterrupted, resumed)

  def _assert_same(self, a, b):
    learner_a, _, loop_a = a
    learner_b, _, loop_b = b
    self.assertEqual(learner_a.steps, learner_b.steps)
    self.assertEqual((loop_a.games, loop_a.env_steps),
                     (loop_b.games, loop_b.env_steps))
    for x, y in zip(learner_a.network.variables + learner_a.optimizer.variables,
                    learner_b.network.variables + learner_b.optimizer.variables):
      self.assertAllClose(x, y, atol=1e-6, rtol=0., msg=x.name)
    for game_id in loop_a.replay.game_ids:
      np.testing.assert_array_equal(loop_a.replay.game(game_id).actions,
                                    loop_b.replay.game(game_id).actions)

  def test_a_failed_step_stops_the_run_before_any_later_step(self):
    directory = self._new_directory()
    config = _config(training_steps=100, checkpoint_interval=1)
    learner, _, loop = _make_loop(config, train_ratio=1.,
                                  checkpoint_dir=directory)
    state = {'calls': 0}
    real_step = learner.step_prepared

    def failing_step(batch):
      state['calls'] += 1
      if state['calls'] == 5:
        raise FloatingPointError('Non-finite loss nan (simulated)')
      return real_step(batch)

    with mock.patch.object(learner, 'step_prepared', failing_step):
      with self.assertRaisesRegex(FloatingPointError, 'Non-finite loss'):
        loop.run()
    # Train ratio 1 with 3 games: each move owes 3 steps, so the fifth
    # step's list held a sixth that never ran.
    self.assertEqual(state['calls'], 5)
    self.assertEqual(learner.steps, 4)
    latest = tf.train.latest_checkpoint(directory)
    self.assertTrue(latest is None or int(latest.rsplit('-', 1)[1]) <= 4)

  def test_a_source_without_an_actor_network_is_refused(self):
    config = _config()
    source = data_sources.SelfPlay(config, None, train_ratio=0.5)
    with self.assertRaisesRegex(ValueError, 'overlap_learning=True needs a '
                                'self-play source .* got SelfPlay'):
      training_loop.TrainingLoop(config, None, source, overlap_learning=True)
    with self.assertRaisesRegex(ValueError, 'Reanalysis with an actor'):
      data_sources.SelfPlay(config, None, train_ratio=0.5,
                            reanalyser=object(), actor_weights=object())


class SettingsTest(absltest.TestCase):

  def test_settings_name_where_overlap_applies(self):
    self.assertFalse(run_config.RunConfig(
        preset='connect4').resolved().overlap_learning)
    self.assertTrue(run_config.RunConfig(
        preset='connect4', overlap_learning=True).resolved().overlap_learning)
    # CartPole's and tic-tac-toe's presets overlap, in one process and with
    # self-play only.
    for preset in ('cartpole', 'tictactoe'):
      self.assertTrue(run_config.RunConfig(
          preset=preset).resolved().overlap_learning, preset)
      for changes in (dict(num_actors=2), dict(data='synthetic'),
                      dict(overlap_learning=False)):
        self.assertFalse(run_config.RunConfig(
            preset=preset, **changes).resolved().overlap_learning, changes)
    with self.assertRaisesRegex(ValueError, 'overlap_learning must be None, '
                                "True or False, got 1"):
      run_config.RunConfig(overlap_learning=1)
    for changes in (dict(data='synthetic'), dict(num_actors=2)):
      with self.assertRaisesRegex(ValueError, "overlap_learning must be False "
                                  "unless data='selfplay' in one process"):
        run_config.RunConfig(overlap_learning=True, **changes)
    config = presets.make_tictactoe_config()
    self.assertTrue(run_config.RunConfig(
        overlap_learning=True).replace(
            config=config).flat()['overlap_learning'])
    self.assertNotIn('overlap_learning', run_config.RunConfig(
        overlap_learning=False).replace(config=config).flat())
    # A preset's default gives way to reanalysis; an explicit True does not.
    cartpole = presets.make_cartpole_config()
    reanalysed = cartpole.replace(reanalyze_fraction=0.5)
    default = run_config.RunConfig(preset='cartpole')
    self.assertTrue(
        default.replace(config=cartpole).resolved().overlap_learning)
    self.assertFalse(
        default.replace(config=reanalysed).resolved().overlap_learning)
    self.assertNotIn('overlap_learning',
                     default.replace(config=reanalysed).flat())
    experiment.check_reanalysis(default.replace(config=reanalysed))
    asked = run_config.RunConfig(preset='cartpole', overlap_learning=True)
    self.assertTrue(
        asked.replace(config=reanalysed).resolved().overlap_learning)
    with self.assertRaisesRegex(ValueError, 'reanalyze_fraction=0.5 is not '
                                'available with overlap_learning'):
      experiment.check_reanalysis(asked.replace(config=reanalysed))


if __name__ == '__main__':
  absltest.main()
