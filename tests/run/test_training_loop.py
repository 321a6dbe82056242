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
"""Tests of the TrainingLoop: the learner-step debt, failures and resume."""

import dataclasses
import fractions
import os
import tempfile
from typing import NamedTuple
from unittest import mock

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np
import tensorflow as tf

from muzero_snt import acting
from muzero_snt import config as config_lib
from muzero_snt.run import data_sources
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import reanalysis
from muzero_snt.run import progress
from muzero_snt import search
from muzero_snt.run import training_loop
from muzero_snt.environments import checks
from muzero_snt.environments import tictactoe

_ARRAYS = ('observations', 'to_play', 'actions', 'rewards', 'policies',
           'root_values')

# A small MLP where the network does not matter (its step traces faster).
_MLP = config_lib.NetworkConfig(
    kind='mlp', hidden_size=8, mlp_layers=(16,), head_layers=(8,),
    value_support_size=21, reward_support_size=21)


def _config(mlp: bool = False, **changes) -> config_lib.MuZeroConfig:
  config = presets.make_tictactoe_config().replace(
      num_simulations=4, batch_size=8, num_unroll_steps=2, td_steps=9,
      training_steps=6, checkpoint_interval=2, window_size=50)
  network = _MLP if mlp else dataclasses.replace(
      config.network, channels=4, prediction_blocks=0)
  return config.replace(network=network, **changes)


class Run(NamedTuple):
  learner: learning.Learner
  actor: acting.Actor
  loop: training_loop.TrainingLoop


def _make_run(config, train_ratio=0.5, seed=3, checkpoint_dir=None,
              init_seed=0, num_envs=2, compiled=False,
              compile_first=True, continuous=False) -> Run:
  """A learner, an actor on its network and a loop (restored if any).

  `compiled`: the actor searches with `CompiledSearch` (XLA), the learner's
  step is XLA-compiled; otherwise the reference search and a graph step.
  """
  tf.random.set_seed(init_seed)
  network = networks.make_network(config)
  learner = learning.Learner(network, config, jit_compile=compiled)
  model = search.NetworkModel(network)
  searcher = (search.CompiledSearch(config, network) if compiled else
              search.ReferenceSearch(config, model))
  actor = acting.Actor(
      config, searcher, model,
      lambda s: checks.CheckedEnvironment.from_config(
          tictactoe.TicTacToe(s), config),
      seed=seed, num_envs=num_envs)
  reanalyser = None
  if config.reanalyze_fraction:
    reanalyser = reanalysis.Reanalyser(config, network, searcher,
                                       lambda: learner.steps, seed=seed)
  loop = training_loop.TrainingLoop(
      config, learner,
      data_sources.SelfPlay(config, actor, train_ratio=train_ratio, seed=seed,
                            reanalyser=reanalyser, continuous=continuous),
      checkpoint_dir=checkpoint_dir, compile_first=compile_first,
      logger=progress.log_progress)
  return Run(learner, actor, loop)


def _snapshot(learner):
  return ([v.numpy() for v in learner.network.variables],
          [v.numpy() for v in learner.optimizer.variables])


def _latest_number(directory):
  latest = tf.train.latest_checkpoint(directory)
  return None if latest is None else int(latest.rsplit('-', 1)[1])


class CountingActor:
  """Passes rounds to an actor and checks the learner after every move.

  It counts the environment steps the loop owes learner steps for from the
  games alone: the steps of the moves made while the games of earlier rounds
  held at least `batch_size` positions.
  """

  def __init__(self, actor, learner, batch_size):
    self._actor = actor
    self._learner = learner
    self._batch_size = batch_size
    self.positions = 0
    self.counted = 0
    self.after_moves = []  # (counted env steps, learner steps) per move.
    self.after_rounds = []  # Counted env steps at the end of each round.
    self.temperature_steps = []  # (training_steps(), learner steps).

  @property
  def num_envs(self):
    return self._actor.num_envs

  def play_round(self, round_index, training_steps, on_move,
                 should_stop=None):

    def counting_on_move(num_env_steps):
      self.temperature_steps.append((training_steps(), self._learner.steps))
      if self.positions >= self._batch_size:
        self.counted += num_env_steps
      on_move(num_env_steps)
      self.after_moves.append((self.counted, self._learner.steps))

    results = self._actor.play_round(round_index, training_steps,
                                     counting_on_move, should_stop)
    self.positions += sum(r.length for r in results)
    self.after_rounds.append(self.counted)
    return results


class TrainingLoopTest(parameterized.TestCase, tf.test.TestCase):

  def _new_directory(self):
    return tempfile.mkdtemp(dir=self.get_temp_dir())

  def test_bad_train_ratio_and_log_every_are_named(self):
    config = _config()
    for ratio in (0, -0.5, float('nan'), float('inf')):
      with self.assertRaisesRegex(
          ValueError,
          f'train_ratio must be a positive finite number, got {ratio!r}'):
        data_sources.SelfPlay(config, None, train_ratio=ratio)
    with self.assertRaisesRegex(ValueError,
                                'log_every must be a positive integer, got 0'):
      training_loop.TrainingLoop(config, None, None, log_every=0)

  def test_learner_steps_follow_the_train_ratio_and_stop_at_the_end(self):
    ratio = fractions.Fraction(3, 10)
    config = _config(mlp=True, training_steps=10)
    run = _make_run(config, train_ratio=float(ratio), seed=1)
    counting = CountingActor(run.actor, run.learner, config.batch_size)
    loop = training_loop.TrainingLoop(
        config, run.learner,
        data_sources.SelfPlay(config, counting, float(ratio), seed=1))
    rounds = []
    loop.run(on_round=lambda l: rounds.append(
        (l.rounds, run.learner.steps, l.games, l.env_steps)))

    self.assertEqual(run.learner.steps, 10)
    for counted, steps in counting.after_moves:
      self.assertEqual(steps, min(10, int(ratio * counted)),
                       (counted, steps))
    # The round in which the tenth step was owed is the last one.
    self.assertLess(int(ratio * counting.after_rounds[-2]), 10)
    self.assertGreaterEqual(int(ratio * counting.after_rounds[-1]), 10)
    # Nothing is owed while the first round's games are not stored.
    self.assertEqual(rounds[0][1], 0)
    self.assertGreaterEqual(len(rounds), 3)  # Steps in at least two rounds.
    # The temperature schedule sees the learner's current steps.
    for seen, steps in counting.temperature_steps:
      self.assertEqual(seen, steps)

    # Counters against the games in the replay buffer (nothing evicted).
    replay = loop.replay
    lengths = [replay.game(g).length for g in replay.game_ids]
    self.assertEqual(replay.game_ids, list(range(2 * len(rounds))))
    self.assertEqual(loop.rounds, len(rounds))
    self.assertEqual(loop.games, 2 * len(rounds))
    self.assertEqual(loop.env_steps, sum(lengths))
    self.assertEqual(loop.env_steps, replay.num_positions)
    for r, (rounds_, _, games, env_steps) in enumerate(rounds):
      self.assertEqual(rounds_, r + 1)
      self.assertEqual(games, 2 * (r + 1))
      self.assertEqual(env_steps, sum(lengths[:2 * (r + 1)]))

  def test_checkpoints_follow_the_interval_and_the_end(self):
    directory = self._new_directory()
    config = _config(mlp=True, training_steps=10, checkpoint_interval=3)
    run = _make_run(config, train_ratio=0.2, checkpoint_dir=directory)
    saved = []

    def on_round(loop):
      saved.append((loop.rounds, run.learner.steps, _latest_number(directory)))

    run.loop.run(on_round=on_round)
    last = 0
    gaps = []
    for rounds, steps, latest in saved:
      if steps - last >= 3 or steps == 10:
        self.assertEqual(latest, steps, saved)  # Numbered by learner step.
        gaps.append(steps - last)
        last = steps
      else:
        self.assertEqual(latest, None if last == 0 else last, saved)
    self.assertIn(3, gaps)  # A checkpoint exactly at the interval.
    self.assertLess(len(gaps), len(saved))  # And rounds without one.
    self.assertEqual(saved[-1][1], 10)
    self.assertTrue(os.path.exists(
        os.path.join(directory, f'replay-{saved[-1][1]}.npz')))

  def test_learner_error_propagates_and_keeps_the_last_checkpoint(self):
    directory = self._new_directory()
    config = _config(mlp=True, training_steps=100, checkpoint_interval=1)
    run = _make_run(config, checkpoint_dir=directory)
    state = {'armed': False, 'calls': 0}
    real_step = run.learner.step

    def on_round(loop):
      # After the first checkpoint with trained variables, remember it and
      # make the second learner step after it fail.
      if not state['armed'] and run.learner.steps > 0:
        self.assertEqual(_latest_number(directory), run.learner.steps)
        state.update(armed=True, rounds=loop.rounds, steps=run.learner.steps,
                     variables=_snapshot(run.learner),
                     files=sorted(os.listdir(directory)))

    def failing_step(batch):
      if state['armed']:
        state['calls'] += 1
        if state['calls'] == 2:
          raise FloatingPointError('Non-finite loss nan (simulated)')
      return real_step(batch)

    with mock.patch.object(run.learner, 'step', failing_step):
      with self.assertRaisesRegex(FloatingPointError, 'Non-finite loss'):
        run.loop.run(on_round=on_round)
    self.assertEqual(state['calls'], 2)
    self.assertEqual(run.learner.steps, state['steps'] + 1)
    self.assertEqual(_latest_number(directory), state['steps'])
    self.assertEqual(sorted(os.listdir(directory)), state['files'])

    # A restart on the directory comes back to the remembered checkpoint.
    restarted = training_loop.TrainingLoop(
        config, run.learner,
        data_sources.SelfPlay(config, run.actor, train_ratio=0.5, seed=3),
        checkpoint_dir=directory)
    self.assertEqual(restarted.rounds, state['rounds'])
    self.assertEqual(run.learner.steps, state['steps'])
    network, optimizer = _snapshot(run.learner)
    for a, b in zip(network + optimizer,
                    state['variables'][0] + state['variables'][1]):
      np.testing.assert_array_equal(a, b)

  def assertSameRun(self, a: Run, b: Run):
    self.assertEqual(a.learner.steps, b.learner.steps)
    for x, y in zip(a.learner.network.variables,
                    b.learner.network.variables):
      self.assertEqual(x.name, y.name)
      self.assertAllClose(x, y, atol=1e-6, rtol=0., msg=x.name)
    slots = [v for v in a.learner.optimizer.variables if v.dtype.is_floating]
    self.assertNotEmpty(slots)
    self.assertLen(b.learner.optimizer.variables,
                   len(a.learner.optimizer.variables))
    for x, y in zip(a.learner.optimizer.variables,
                    b.learner.optimizer.variables):
      self.assertAllClose(x, y, atol=1e-6, rtol=0., msg=x.name)
    self.assertEqual((a.loop.rounds, a.loop.games, a.loop.env_steps),
                     (b.loop.rounds, b.loop.games, b.loop.env_steps))
    ra, rb = a.loop.replay, b.loop.replay
    self.assertEqual(ra.game_ids, rb.game_ids)
    for game_id in ra.game_ids:
      x, y = ra.game(game_id), rb.game(game_id)
      for name in _ARRAYS:
        np.testing.assert_array_equal(getattr(x, name), getattr(y, name),
                                      f'{name} of game {game_id}')
      self.assertEqual((x.terminal, x.bootstrap_value),
                       (y.terminal, y.bootstrap_value))
    keys = np.array([(g, t) for g in ra.game_ids
                     for t in range(ra.game(g).length)])
    np.testing.assert_array_equal(ra.get_priorities(keys),
                                  rb.get_priorities(keys))
    # The replay's generator continues identically too.
    batch_a, keys_a = ra.sample_batch()
    batch_b, keys_b = rb.sample_batch()
    np.testing.assert_array_equal(keys_a, keys_b)
    for name, value in batch_a._asdict().items():
      np.testing.assert_array_equal(getattr(batch_b, name), value, name)

  # The residual network has batch-norm statistics to restore; the MLP
  # keeps the prioritised variant quick.
  # With reanalysis, n = 2 < max_moves = 9 makes values bootstrap from the
  # target network, refreshed every 5 steps: across the resume too.
  @parameterized.named_parameters(
      ('uniform_residual', False, False, {}),
      ('prioritized_mlp', True, True, {}),
      ('reanalysed_prioritized_mlp', True, True,
       dict(reanalyze_fraction=0.5, td_steps=2, target_update_interval=5)),
  )
  def test_resume_with_more_steps_equals_an_uninterrupted_run(
      self, prioritized, mlp, changes):
    total = 12
    # 0.3 leaves a fraction of a learner step owed at most round ends.
    ratio = fractions.Fraction(3, 10)
    config = _config(mlp=mlp, prioritized_replay=prioritized,
                     training_steps=total, **changes)
    uninterrupted = _make_run(config, train_ratio=float(ratio))
    ends = []
    uninterrupted.loop.run(
        on_round=lambda l: ends.append(uninterrupted.learner.steps))
    self.assertEqual(uninterrupted.learner.steps, total)
    # A first run of N steps matches the longer one only if the longer one
    # trains no more in the round where it reaches N: N must be a round's
    # last step count (the first run cannot play on past N).
    n = [steps for steps in ends if 0 < steps < total][0]

    directory = self._new_directory()
    first = _make_run(config.replace(training_steps=n),
                      train_ratio=float(ratio), checkpoint_dir=directory)
    first.loop.run()
    self.assertEqual(first.learner.steps, n)
    self.assertEqual(_latest_number(directory), n)
    # The checkpoint carries part of a learner step: the environment steps
    # of the rounds that began with a batch's worth of positions, times the
    # ratio, exceed N.
    replay = first.loop.replay
    lengths = [replay.game(g).length for g in replay.game_ids]
    counted = sum(sum(lengths[2 * r:2 * r + 2])
                  for r in range(first.loop.rounds)
                  if sum(lengths[:2 * r]) >= config.batch_size)
    self.assertEqual(int(ratio * counted), n)
    self.assertGreater(ratio * counted, n)

    # A fresh process: other initial weights, restored from the directory.
    resumed = _make_run(config, train_ratio=float(ratio),
                        checkpoint_dir=directory, init_seed=1)
    self.assertEqual(resumed.learner.steps, n)
    self.assertEqual(resumed.loop.rounds, first.loop.rounds)
    self.assertEqual(resumed.loop.replay.game_ids, replay.game_ids)
    tf.random.set_seed(1)
    fresh = networks.make_network(config)
    fresh.create_variables()
    self.assertNotAllClose(fresh.trainable_variables[0],
                           resumed.learner.network.trainable_variables[0])
    resumed.loop.run()
    self.assertGreater(resumed.loop.games, first.loop.games)
    self.assertSameRun(uninterrupted, resumed)
    # The reanalysis state: calls, the target network and its last copy.
    state_a = uninterrupted.loop.source.counters()
    state_b = resumed.loop.source.counters()
    self.assertEqual(sorted(state_a), sorted(state_b))
    for name, a in state_a.items():
      b = state_b[name]
      pairs = (zip(a.variables, b.variables) if isinstance(a, tf.Module)
               else [(a, b)])
      for x, y in pairs:
        self.assertAllClose(x, y, atol=1e-6, rtol=0., msg=name)
    if changes:
      self.assertIn('reanalyse_target_network', state_a)
      self.assertEqual(int(state_a['reanalyse_target_network_step']), 10)

  def test_compiling_first_leaves_the_run_as_it_was(self):
    # The search's programs and the learner's step compiled side by side
    # before the first round (`compile_first`, the default): the same games
    # and the same learner, bit for bit, as compiling on first use.
    config = _config(training_steps=4)
    runs = {}
    for compile_first in (True, False):
      run = _make_run(config, compiled=True, compile_first=compile_first)
      with mock.patch.object(run.learner, 'compile_function',
                             wraps=run.learner.compile_function) as prepare:
        with self.assertLogs(logger='absl', level='INFO') as logs:
          run.loop.run()
      self.assertEqual(prepare.call_count, int(compile_first))
      message = 'Compiled the learner step with the search beside it'
      compiled_lines = [line for line in logs.output if message in line]
      self.assertLen(compiled_lines, int(compile_first))
      runs[compile_first] = run
    self.assertEqual(runs[True].learner.steps, 4)
    self.assertSameRun(runs[True], runs[False])
    for x, y in zip(runs[True].learner.network.variables,
                    runs[False].learner.network.variables):
      self.assertAllEqual(x, y, msg=x.name)

  def test_end_round_ends_continuous_rounds_where_it_says(self):
    # Every move ends its round, so on_round sees each move; the games in
    # play go on, so the games stored are whole games all the same.
    config = _config(mlp=True, training_steps=4)
    run = _make_run(config, continuous=True, compile_first=False)
    seen = []

    def on_round(loop):
      seen.append(loop.source.env_steps)
      return False

    run.loop.run(on_round=on_round, end_round=lambda loop: True)
    self.assertEqual(run.learner.steps, 4)
    # One move of the 2 games a round: 2 environment steps each.
    self.assertEqual(seen, list(range(2, 2 * len(seen) + 1, 2)))
    self.assertEqual(run.loop.source.rounds, len(seen))
    replay = run.loop.source.replay
    self.assertGreater(replay.num_games, 0)
    for game_id in replay.game_ids:
      game = replay.game(game_id)
      # Tic-tac-toe's games start on an empty board and end with a result.
      self.assertTrue(game.terminal)
      self.assertEqual(float(np.abs(game.observations[0, ..., :2]).sum()), 0.)
    # A log line after rounds that finished no game: no mean of nothing.
    run.loop.source.progress(1.)
    scalars = run.loop.source.progress(1.)
    self.assertNotIn('selfplay/episode_return', scalars)
    self.assertEqual(scalars['selfplay/env_steps'], seen[-1])


if __name__ == '__main__':
  absltest.main()
