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
"""The paper-size Atari network through self-play and learning, end to end."""

from absl.testing import absltest
import numpy as np

from muzero_snt.run import experiment
from muzero_snt import presets
from tests import testing

try:
  import ale_py  # pylint: disable=g-import-not-at-top,unused-import
except ImportError:
  ale_py = None

# The paper's Atari network (arXiv:1911.08265, appendix "Network
# Architecture"): representation and dynamics each hold 16 residual blocks
# of two 3x3 convolutions with 256 planes.
_BLOCKS, _CONVS_PER_BLOCK, _PLANES, _KERNEL = 16, 2, 256, 3
_TOWER_WEIGHTS = _BLOCKS * _CONVS_PER_BLOCK * _KERNEL**2 * _PLANES**2
# The down-sampling stem in front of the representation's tower: a stride-2
# convolution from the 128 input planes to 128, 2 blocks of 128, a stride-2
# convolution to 256, then twice 3 blocks of 256.
_STEM_WEIGHTS = _KERNEL**2 * (128 * 128 + 2 * 2 * 128 * 128 + 128 * 256 +
                              2 * 3 * 2 * 256 * 256)
_FRAMES = 32  # The paper's history: 32 RGB frames and 32 action planes.
_NUM_ACTIONS = 18
# A tiny run: 2 games of 3 moves per round, 2 simulations per move. Round 0
# fills the replay (6 positions >= batch 2) without learning; in round 1
# each move counts 2 environment steps, which owe 0.5 * 2 = 1 learner step,
# so the run ends after the second move of round 1 and its round.
_NUM_ENVS, _MAX_MOVES, _TRAIN_RATIO, _TRAINING_STEPS = 2, 3, 0.5, 2
_ROUNDS = 2
# The actor draws each game's environment seed from [0, 2**32); the Atari
# adapter folds them into ALE's int32 range.
_SEED = 0


def _tower_weights(network, scope):
  """Weights of the 3x3 convolutions of one function's residual tower."""
  return sum(v.shape.num_elements() for v in network.trainable_variables
             if v.name.startswith(f'{scope}/tower/') and v.name.endswith(
                 '/w:0'))


def _expected_action_planes(actions, t):
  """`[32]` values of the action planes of the observation at position t.

  Planes are oldest first: the newest, plane 31, holds the action that led
  to the newest frame, a_{t-1}; plane 31 - i holds a_{t-1-i}, and the
  frames before the game's first (and its reset frame, reached by 0) give 0.
  """
  planes = np.zeros(_FRAMES)
  for i in range(min(t, _FRAMES)):
    planes[_FRAMES - 1 - i] = actions[t - 1 - i] / _NUM_ACTIONS
  return planes


@absltest.skipIf(ale_py is None, 'needs ale-py: pip install -e .[atari]')
class PaperAtariTest(testing.TestCase):

  def test_paper_network_plays_pong_and_learns(self):
    # The paper's learning rate (0.05) makes the first update of the fresh
    # network so large (its gradient norm is in the thousands) that the
    # next search overflows; a small one keeps the run finite. Two unroll
    # steps instead of 5 halve the time to trace the learner's step.
    config = presets.make_atari_config().replace(
        batch_size=2, num_simulations=2, max_moves=_MAX_MOVES, window_size=4,
        training_steps=_TRAINING_STEPS, lr_init=1e-4, num_unroll_steps=2)
    before = {}

    def on_round(loop):
      if loop.rounds == 1:
        # Round 0 only filled the replay: these are the initial weights.
        self.assertEqual(loop.learner.steps, 0)
        before.update({v.name: v.numpy() for v in
                       loop.learner.network.trainable_variables})
      return False

    # The graph learner: XLA takes over a minute to compile this network's
    # update on 2 cores; the search is XLA-compiled as the launcher does.
    loop = experiment.run_selfplay(
        config, 'atari', num_envs=_NUM_ENVS, train_ratio=_TRAIN_RATIO,
        jit_compile=False, seed=_SEED, log_every=1, on_round=on_round,
        search='xla', env='Pong')

    # Learner.step counts finite updates only (it raises on the others).
    self.assertEqual(loop.learner.steps, _TRAINING_STEPS)
    self.assertEqual(loop.rounds, _ROUNDS)
    self.assertEqual(loop.games, _ROUNDS * _NUM_ENVS)
    self.assertEqual(loop.env_steps, _ROUNDS * _NUM_ENVS * _MAX_MOVES)

    network = loop.learner.network
    after = {v.name: v.numpy() for v in network.trainable_variables}
    self.assertEqual(set(after), set(before))
    for name, value in after.items():
      self.assertTrue(np.all(np.isfinite(value)), name)
    # The first and the last layers of the unroll both learned. The paper
    # network's blocks start as the identity (docs/pseudocode.md, deviation
    # Q): the last batch-norm scale of a block is 0, so that scale learns
    # first and the convolution before it gets no gradient until it moves.
    for name in ('representation/stem/conv_0/conv/w:0',
                 'dynamics/tower/block_15/batch_norm_1/scale:0',
                 'prediction/policy_head/w:0'):
      self.assertTrue(name in after, name)
      self.assertGreater(np.abs(after[name] - before[name]).max(), 0., name)

    # The paper's size: both towers exactly, the whole network at least the
    # towers plus the stem.
    self.assertEqual(_tower_weights(network, 'representation'),
                     _TOWER_WEIGHTS)
    self.assertEqual(_tower_weights(network, 'dynamics'), _TOWER_WEIGHTS)
    self.assertEqual(_TOWER_WEIGHTS, 18_874_368)
    total = sum(value.size for value in after.values())
    self.assertGreaterEqual(total, 2 * _TOWER_WEIGHTS + _STEM_WEIGHTS)

    replay = loop.replay
    self.assertEqual(len(replay.game_ids), _ROUNDS * _NUM_ENVS)
    for game_id in replay.game_ids:
      game = replay.game(game_id)
      self.assertEqual(game.length, _MAX_MOVES)
      self.assertFalse(game.terminal)  # Cut off by max_moves.
      self.assertEqual(game.observations.shape,
                       (_MAX_MOVES, 96, 96, 4 * _FRAMES))
      # Two simulations: every stored policy is a visit count out of 2.
      np.testing.assert_allclose(game.policies.sum(-1), 1., atol=1e-6)
      np.testing.assert_allclose(game.policies * 2,
                                 np.round(game.policies * 2), atol=1e-6)
      for t in range(game.length):
        observation = game.observations[t]
        expected = _expected_action_planes(game.actions, t)
        np.testing.assert_allclose(
            observation[..., 3 * _FRAMES:],
            np.broadcast_to(expected, (96, 96, _FRAMES)), atol=1e-7)
        # Position t has seen t + 1 frames, newest last: the older slots
        # are zeros, the newest is a Pong screen (never all black).
        seen = 3 * (t + 1)
        np.testing.assert_array_equal(
            observation[..., :3 * _FRAMES - seen], 0.)
        self.assertGreater(
            observation[..., 3 * _FRAMES - 3:3 * _FRAMES].max(), 0.)


if __name__ == '__main__':
  absltest.main()
