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
r"""How fast can the model learn which move wins? A supervised probe.

Self-play teaches the dynamics a board game's rules only through its
reward targets, and in connect four one move of a game's 20 to 40 earns
one. This probe takes that question alone: from the positions of
`--num_games` uniformly random games of the preset's OpenSpiel game, every
(position, legal move) pair is labelled with the reward the rules give the
mover (1 for a move that wins at once, else 0; `tactics.winning_moves`),
and a fresh network of the preset learns it supervised: the representation,
one dynamics step along the move, and the reward head's loss (the learner's
categorical cross-entropy, or squared error for a scalar head), with the
preset's optimizer and learning rate, one network per
`--action_encodings` value.

`--sampling=natural` draws the pairs uniformly (winning moves are as rare
as in the games, about 4% in connect four; self-play's reward targets are
as rare); `balanced` makes half of each batch winning moves. Every
`--eval_every` steps it reports, on the pairs of `--num_eval_games` other
random games, the mean predicted reward of the winning moves, of the other
moves in positions that have a win, and of the moves in positions that
have none.

    python -m benchmarks.reward_probe --preset=connect4 \
        --action_encodings=board,column --steps=4000
"""

import dataclasses
import json
import time
from typing import Any, Dict, List, NamedTuple, Sequence

from absl import app
from absl import flags
import numpy as np
import sonnet as snt
import tensorflow as tf

from benchmarks import reporting
from muzero_snt import config as config_lib
from muzero_snt import environments
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import tactics
from muzero_snt import value_transforms

PRESETS = ('connect4', 'go9')

PRESET = flags.DEFINE_enum('preset', 'connect4', PRESETS,
                           'the two-player preset whose game is learnt.')
ACTION_ENCODINGS = flags.DEFINE_list(
    'action_encodings', ['board', 'column'],
    f'network.action_encoding of each probed network, of '
    f'{list(config_lib.ACTION_ENCODINGS)}.')
SAMPLING = flags.DEFINE_enum(
    'sampling', 'natural', ['natural', 'balanced'],
    'natural: pairs drawn uniformly; balanced: half of each batch winning '
    'moves.')
LOSS_SCALE = flags.DEFINE_float(
    'loss_scale', 1.0, 'multiplies the loss: 0.2 gives the reward head the '
    'gradient an unrolled step\'s reward gets in the learner (K = 5, '
    'scale_gradient 1/K).')
STEPS = flags.DEFINE_integer('steps', 4000, 'supervised steps per network.')
EVAL_EVERY = flags.DEFINE_integer('eval_every', 500,
                                  'steps between evaluations.')
NUM_GAMES = flags.DEFINE_integer('num_games', 1500,
                                 'random games the training pairs come from.')
NUM_EVAL_GAMES = flags.DEFINE_integer(
    'num_eval_games', 300, 'other random games the evaluation pairs come from.')
SEED = flags.DEFINE_integer('seed', 0, 'seeds the games, batches and weights.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results as JSON.')


class Pairs(NamedTuple):
  """(position, legal move) pairs and the reward the rules give the move."""
  observation: np.ndarray  # [N, *observation_shape] float32.
  action: np.ndarray  # [N] int32.
  reward: np.ndarray  # [N] float32: 1 for a winning move, else 0.
  position_has_win: np.ndarray  # [N] bool: some legal move wins here.


def collect_pairs(preset: str, num_games: int, seed: int) -> Pairs:
  """Every (position, legal move) of `num_games` random games, labelled."""
  observations, actions, rewards, has_win = [], [], [], []
  env = environments.make_environment(preset, 0)
  for game in tactics.random_games(env.game, num_games, seed):
    env.reset()
    for played in game:
      observation = env.observation()
      wins = tactics.winning_moves(env.state)
      for action in env.legal_actions():
        observations.append(observation)
        actions.append(action)
        rewards.append(float(action in wins))
        has_win.append(bool(wins))
      env.step(played)
  return Pairs(np.stack(observations), np.asarray(actions, np.int32),
               np.asarray(rewards, np.float32), np.asarray(has_win))


def _reward_loss(network, config: config_lib.MuZeroConfig, observation,
                 action, reward):
  root = network.initial_inference(observation, is_training=True)
  output = network.recurrent_inference(root.hidden_state, action,
                                       is_training=True)
  support = config.network.reward_support_size
  if support:
    target = value_transforms.scalar_to_support(reward, support)
    per_pair = tf.nn.softmax_cross_entropy_with_logits(
        target, output.reward_logits)
  else:
    per_pair = tf.square(output.reward - reward)
  return tf.reduce_mean(per_pair)


def probe(config: config_lib.MuZeroConfig, train: Pairs, test: Pairs,
          steps: int, eval_every: int, sampling: str, batch_size: int,
          seed: int, loss_scale: float = 1.0) -> List[Dict[str, float]]:
  """Trains one fresh network on `train`; the evaluation rows on `test`."""
  tf.random.set_seed(seed)
  rng = np.random.default_rng(seed)
  network = networks.make_network(config)
  network.create_variables()
  optimizer = snt.optimizers.Momentum(config.lr_init, config.momentum)

  @tf.function(jit_compile=True)
  def update(observation, action, reward):
    with tf.GradientTape() as tape:
      loss = _reward_loss(network, config, observation, action, reward)
      scaled = loss * loss_scale
    gradients = tape.gradient(scaled, network.trainable_variables)
    optimizer.apply(gradients, network.trainable_variables)
    return loss

  @tf.function
  def predict(observation, action):
    root = network.initial_inference(observation, is_training=False)
    return network.recurrent_inference(root.hidden_state, action,
                                       is_training=False).reward

  winning = np.flatnonzero(train.reward > 0)
  half = batch_size // 2
  rows, start = [], time.perf_counter()
  for step in range(1, steps + 1):
    if sampling == 'balanced':
      index = np.concatenate([rng.choice(winning, half),
                              rng.integers(len(train.action),
                                           size=batch_size - half)])
    else:
      index = rng.integers(len(train.action), size=batch_size)
    loss = update(train.observation[index], train.action[index],
                  train.reward[index])
    if step % eval_every and step != steps:
      continue
    predicted = np.concatenate([
        predict(test.observation[i:i + 4096], test.action[i:i + 4096]).numpy()
        for i in range(0, len(test.action), 4096)])
    wins = test.reward > 0
    rows.append({
        'step': step,
        'loss': float(loss),
        'winning_moves': float(predicted[wins].mean()),
        'other_moves_where_a_win': float(
            predicted[test.position_has_win & ~wins].mean()),
        'moves_where_no_win': float(predicted[~test.position_has_win].mean()),
        'seconds': time.perf_counter() - start,
    })
    print(f'{config.network.action_encoding} step {step}: ' + ', '.join(
        f'{k} {v:.3f}' for k, v in rows[-1].items() if k != 'step'),
          flush=True)
  return rows


def format_table(results: Dict[str, List[Dict[str, float]]]) -> str:
  lines = ['| action encoding | step | predicted reward: winning moves / '
           'other moves where a win / moves where none |',
           '|---|---:|---|']
  for encoding, rows in results.items():
    for row in rows:
      lines.append(f'| {encoding} | {row["step"]} | '
                   f'{row["winning_moves"]:.2f} / '
                   f'{row["other_moves_where_a_win"]:.2f} / '
                   f'{row["moves_where_no_win"]:.2f} |')
  return '\n'.join(lines)


def main(argv: Sequence[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}')
  unknown = set(ACTION_ENCODINGS.value) - set(config_lib.ACTION_ENCODINGS)
  if unknown:
    raise app.UsageError(f'--action_encodings has {sorted(unknown)}: expected '
                         f'values of {list(config_lib.ACTION_ENCODINGS)}.')
  for name in ('steps', 'eval_every', 'num_games', 'num_eval_games'):
    if flags.FLAGS[name].value < 1:
      raise app.UsageError(f'--{name} must be positive, got '
                           f'{flags.FLAGS[name].value}.')
  preset = presets.get_preset(PRESET.value)
  train = collect_pairs(PRESET.value, NUM_GAMES.value, SEED.value)
  test = collect_pairs(PRESET.value, NUM_EVAL_GAMES.value, SEED.value + 1)
  print(f'{len(train.action)} training pairs ({train.reward.mean():.1%} '
        f'winning moves), {len(test.action)} evaluation pairs.', flush=True)
  results: Dict[str, Any] = {}
  for encoding in ACTION_ENCODINGS.value:
    config = preset.replace(network=dataclasses.replace(
        preset.network, action_encoding=encoding))
    results[encoding] = probe(config, train, test, STEPS.value,
                              EVAL_EVERY.value, SAMPLING.value,
                              preset.batch_size, SEED.value,
                              LOSS_SCALE.value)
  print(format_table(results))
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump({'preset': PRESET.value, 'sampling': SAMPLING.value,
                 'loss_scale': LOSS_SCALE.value,
                 'num_games': NUM_GAMES.value, 'seed': SEED.value,
                 'machine': reporting.machine(), 'results': results}, f,
                indent=1)


if __name__ == '__main__':
  app.run(main)
