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
r"""Does a trained board-game network see wins and losses in one move?

Plays `--num_games` uniformly random games of the preset's OpenSpiel game
(or, with `--replay`, reads the last `--num_games` games of a run's
self-play from its replay file), keeps the positions with a one-move
tactic (`tactic_positions.py`: a win in one to take, or a threatened win to
stop) and asks, for each checkpoint:

  * `prior`: the legal move of highest prior (the policy head alone);
  * `muzero<N>`: MuZero's move after a noise-free search of N simulations
    (`evaluation.MuZeroPlayer`, as `launchers.evaluate` plays);
  * the model: at the 'win' positions, the reward the dynamics predicts for
    the winning moves and for the others (a model that knows the rules
    predicts the win's reward, 1, for the first and 0 for the second);
  * with `--replay`, how well the network fits the windows the learner
    draws from that replay (`--fit_batches` batches of the run's batch
    size, K steps unrolled along the played actions): its mean predicted
    reward where the target is 1 and where it is 0, and its root value
    where the target is +1 and where it is -1.

`random` (in expectation) and OpenSpiel's MCTS with random rollouts
(`--mcts_simulations`) answer the same positions for scale.

    python -m benchmarks.tactics --checkpoint_dirs=/tmp/c4 \
        --simulations=50,200 --mcts_simulations=10,100
    python -m benchmarks.tactics --checkpoint_dirs=/tmp/c4 \
        --replay=/tmp/c4/replay-17131.npz --num_games=200
"""

import json
from typing import Any, Dict, List, Sequence

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

from benchmarks import reporting
from muzero_snt import environments
from muzero_snt.evaluation import matches as evaluation
from muzero_snt.evaluation import loading
from muzero_snt import presets
from muzero_snt import replay as replay_lib
from muzero_snt import replay_files
from muzero_snt.run import run_config
from muzero_snt import search
from benchmarks import tactic_positions
from muzero_snt.environments import openspiel_players

PRESETS = ('connect4', 'go9')

PRESET = flags.DEFINE_enum('preset', 'connect4', PRESETS,
                           'the two-player preset whose game is played.')
CHECKPOINT_DIRS = flags.DEFINE_list(
    'checkpoint_dirs', [], 'training runs (or copies of their checkpoints) '
    'of --preset; the latest network of each is asked.')
NUM_GAMES = flags.DEFINE_integer('num_games', 60,
                                 'random games the positions come from.')
SEED = flags.DEFINE_integer('seed', 123, 'seeds the random games.')
SIMULATIONS = flags.DEFINE_list('simulations', ['50'],
                                'MuZero\'s simulations per search.')
MCTS_SIMULATIONS = flags.DEFINE_list(
    'mcts_simulations', [], 'simulations of OpenSpiel\'s MCTS players.')
REPLAY = flags.DEFINE_string(
    'replay', None, 'a replay file of a --preset run (replay-<step>.npz in '
    'its checkpoint directory): take the positions from its last '
    '--num_games self-play games instead of random games.')
FIT_BATCHES = flags.DEFINE_integer(
    'fit_batches', 20, 'with --replay: batches the fit is measured on.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results.')


def _environment_at(preset: str, position):
  """The preset's environment, played to `position`."""
  env = environments.make_environment(preset, 0)
  env.reset()
  for action in position.history:
    env.step(action)
  return env


def _observations(preset: str, positions) -> np.ndarray:
  """`[N, *obs]` the preset environment's observation at each position."""
  return np.stack([_environment_at(preset, p).observation()
                   for p in positions])


def _to_play(positions) -> List[int]:
  return [len(p.history) % 2 for p in positions]


def _prior_moves(network, observations, positions) -> np.ndarray:
  logits = network.initial_inference(observations,
                                     is_training=False).policy_logits.numpy()
  masked = np.full_like(logits, -np.inf)
  for i, position in enumerate(positions):
    masked[i, list(position.legal)] = logits[i, list(position.legal)]
  return np.argmax(masked, axis=-1)


def _predicted_rewards(network, observations, positions) -> Dict[str, float]:
  """Mean predicted reward of the winning and the other legal moves."""
  rows = [i for i, p in enumerate(positions) if p.kind == 'win']
  if not rows:
    return {}
  root = network.initial_inference(observations[rows], is_training=False)
  winning, other = [], []
  for action in range(network.num_actions):
    reward = network.recurrent_inference(
        root.hidden_state, tf.fill([len(rows)], action),
        is_training=False).reward.numpy()
    for row, value in zip(rows, reward):
      if action in positions[row].legal:
        (winning if action in positions[row].correct
         else other).append(float(value))
  return {'winning_moves': float(np.mean(winning)),
          'other_moves': float(np.mean(other))}


def _training_fit(config, network, replay_path: str, num_batches: int,
                  seed: int) -> Dict[str, float]:
  """Mean predictions on the learner's windows, by target (see above)."""
  replay = replay_lib.ReplayBuffer(config, seed)
  for game in replay_files.read(replay_path, config).games:
    replay.save_game(game)
  reward = {1: [], 0: []}
  value = {1: [], -1: []}
  for _ in range(num_batches):
    batch, _ = replay.sample_batch()
    output = network.initial_inference(batch.observation, is_training=False)
    for target in value:
      value[target] += list(output.value.numpy()[
          batch.target_value[:, 0] == target])
    hidden_state = output.hidden_state
    for k in range(config.num_unroll_steps):
      output = network.recurrent_inference(
          hidden_state, tf.constant(batch.action[:, k]), is_training=False)
      inside = batch.policy_mask[:, k] > 0  # The action was played.
      for target in reward:
        reward[target] += list(output.reward.numpy()[
            inside & (batch.target_reward[:, k] == target)])
      hidden_state = output.hidden_state
  mean = lambda x: float(np.mean(x)) if x else float('nan')
  return {'reward_where_1': mean(reward[1]), 'reward_where_0': mean(reward[0]),
          'root_value_where_won': mean(value[1]),
          'root_value_where_lost': mean(value[-1]),
          'counts': [len(reward[1]), len(reward[0]), len(value[1]),
                     len(value[-1])]}


def _muzero_moves(config, network, simulations, observations,
                  positions) -> np.ndarray:
  player = evaluation.MuZeroPlayer(
      search.make_search(config, network, 'xla', simulations))
  moves = []
  for start in range(0, len(positions), 64):
    chunk = slice(start, start + 64)
    moves.append(player.select_actions(
        observations[chunk], _to_play(positions[chunk]),
        [list(p.legal) for p in positions[chunk]]))
  return np.concatenate(moves)


def _mcts_moves(preset: str, simulations: int, positions) -> List[int]:
  moves = []
  for position in positions:
    env = _environment_at(preset, position)
    player = openspiel_players.MCTSPlayer(env.game, simulations, seed=1)
    moves.append(player.select_action(env))
  return moves


def _checkpoint(preset: str, directory: str, simulations: Sequence[int],
                observations, positions) -> Dict[str, Any]:
  saved = run_config.load(directory)
  if saved is None or saved.preset != preset:
    raise app.UsageError(f'{directory} holds no run of --preset={preset}.')
  network, step = loading.load_network(saved.config, directory)
  result = {'learner_step': step,
            'prior': tactic_positions.hit_rates(
                positions, _prior_moves(network, observations, positions)),
            'predicted_reward': _predicted_rewards(network, observations,
                                                   positions)}
  for n in simulations:
    result[f'muzero{n}'] = tactic_positions.hit_rates(
        positions, _muzero_moves(saved.config, network, n, observations,
                                 positions))
  if REPLAY.value:
    result['fit'] = _training_fit(saved.config, network, REPLAY.value,
                                  FIT_BATCHES.value, SEED.value)
  return result


def _print_row(name: str, rates: Dict[str, float]):
  print(f'  {name:12s} win in one taken {rates["win"]:.2f}   '
        f'loss in one avoided {rates["defend"]:.2f}')


def main(argv):
  reporting.check_no_arguments(argv)
  simulations = reporting.positive_ints(SIMULATIONS)
  mcts_simulations = (reporting.positive_ints(MCTS_SIMULATIONS)
                      if MCTS_SIMULATIONS.value else [])
  reporting.check_positive((NUM_GAMES, FIT_BATCHES))
  game = environments.make_environment(PRESET.value, 0).game
  if REPLAY.value:
    saved = replay_files.read(REPLAY.value,
                              presets.get_preset(PRESET.value)).games
    games = [g.actions for g in saved[-NUM_GAMES.value:]]
    positions = tactic_positions.positions_in_games(game, games)
    source = f'the last {len(games)} games of {REPLAY.value}'
  else:
    positions = tactic_positions.collect_positions(game, NUM_GAMES.value,
                                                   SEED.value)
    source = f'{NUM_GAMES.value} random games'
  observations = _observations(PRESET.value, positions)
  results = {'preset': PRESET.value, 'num_games': NUM_GAMES.value,
             'seed': SEED.value, 'source': source,
             'positions': tactic_positions.counts(positions),
             'machine': reporting.machine(),
             'random': tactic_positions.random_rates(positions),
             'checkpoints': {}}
  for n in mcts_simulations:
    results[f'mcts{n}'] = tactic_positions.hit_rates(
        positions, _mcts_moves(PRESET.value, n, positions))
  print(f'{results["positions"]} positions from {source}')
  for name in ['random'] + [f'mcts{n}' for n in mcts_simulations]:
    _print_row(name, results[name])
  for directory in CHECKPOINT_DIRS.value:
    result = _checkpoint(PRESET.value, directory, simulations, observations,
                         positions)
    results['checkpoints'][directory] = result
    print(f'{directory} (learner step {result["learner_step"]})')
    for name in ['prior'] + [f'muzero{n}' for n in simulations]:
      _print_row(name, result[name])
    fit = result.get('fit')
    if fit:
      print(f'  fit of the replay\'s windows: reward '
            f'{fit["reward_where_1"]:.3f} '
            f'where 1, {fit["reward_where_0"]:.3f} where 0; root value '
            f'{fit["root_value_where_won"]:.3f} where won, '
            f'{fit["root_value_where_lost"]:.3f} where lost')
    reward = result['predicted_reward']
    if reward:
      print(f'  predicted reward: winning moves '
            f'{reward["winning_moves"]:.3f}, '
            f'others {reward["other_moves"]:.3f}')
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump(results, f, indent=1)


if __name__ == '__main__':
  app.run(main)
