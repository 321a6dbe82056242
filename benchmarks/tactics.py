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

Plays --num_games uniformly random games of the preset's OpenSpiel game and
keeps the positions with a one-move tactic: 'win' (the player to move can
win at once; the right moves are the winning ones) or 'defend' (it cannot,
and some of its moves let the opponent win at once: the right moves are the
others). For each checkpoint it asks:

  * `prior`: the legal move of highest prior (the policy head alone);
  * `muzero<N>`: MuZero's move after a noise-free search of N simulations,
    as `launchers.evaluate` plays;
  * at the 'win' positions, the reward the dynamics predicts for the winning
    moves and for the others (the rules say 1 and 0).

A random player (in expectation) and OpenSpiel's MCTS (--mcts_simulations)
answer the same positions for scale. See docs/results.md.

    python -m benchmarks.tactics --checkpoint_dirs=/tmp/c4 \
        --simulations=50,200 --mcts_simulations=10,100
"""

from typing import Any, Dict, Sequence

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

from benchmarks import reporting
from benchmarks import tactic_positions as tactics
from muzero_snt import environments
from muzero_snt import search
from muzero_snt.environments import openspiel_players
from muzero_snt.evaluation import loading
from muzero_snt.evaluation import matches as evaluation
from muzero_snt.run import run_config

PRESET = flags.DEFINE_enum('preset', 'connect4', ['connect4', 'go9'],
                           'the two-player preset whose game is played.')
CHECKPOINT_DIRS = flags.DEFINE_list(
    'checkpoint_dirs', [], 'training runs of --preset (or copies of their '
    'checkpoints); the latest network of each is asked.')
NUM_GAMES = flags.DEFINE_integer('num_games', 60,
                                 'random games the positions come from.')
SEED = flags.DEFINE_integer('seed', 123, 'seeds the random games.')
SIMULATIONS = flags.DEFINE_list('simulations', ['50'],
                                'MuZero\'s simulations per search.')
MCTS_SIMULATIONS = flags.DEFINE_list(
    'mcts_simulations', [], 'simulations of OpenSpiel\'s MCTS players.')
OUTPUT_JSON = reporting.output_json_flag()


def _environment_at(position):
  """The preset's environment, played to `position`."""
  env = environments.make_environment(PRESET.value, 0)
  env.reset()
  for action in position.history:
    env.step(action)
  return env


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


def _muzero_moves(config, network, simulations, observations,
                  positions) -> np.ndarray:
  player = evaluation.MuZeroPlayer(
      search.make_search(config, network, 'xla', simulations))
  moves = []
  for start in range(0, len(positions), 64):
    chunk = positions[start:start + 64]
    moves.append(player.select_actions(
        observations[start:start + 64],
        [len(p.history) % 2 for p in chunk], [list(p.legal) for p in chunk]))
  return np.concatenate(moves)


def _checkpoint(directory: str, simulations: Sequence[int], observations,
                positions) -> Dict[str, Any]:
  saved = run_config.load(directory)
  if saved is None or saved.preset != PRESET.value:
    raise app.UsageError(f'{directory} holds no run of '
                         f'--preset={PRESET.value}.')
  network, step = loading.load_network(saved.config, directory)
  result = {'learner_step': step,
            'prior': tactics.hit_rates(positions, _prior_moves(
                network, observations, positions)),
            'predicted_reward': _predicted_rewards(network, observations,
                                                   positions)}
  for n in simulations:
    result[f'muzero{n}'] = tactics.hit_rates(positions, _muzero_moves(
        saved.config, network, n, observations, positions))
  return result


def main(argv):
  reporting.check_no_arguments(argv)
  simulations = reporting.positive_ints(SIMULATIONS)
  mcts_simulations = (reporting.positive_ints(MCTS_SIMULATIONS)
                      if MCTS_SIMULATIONS.value else [])
  reporting.check_positive([NUM_GAMES])
  game = environments.make_environment(PRESET.value, 0).game
  positions = tactics.collect_positions(game, NUM_GAMES.value, SEED.value)
  observations = np.stack([_environment_at(p).observation()
                           for p in positions])
  results = {'preset': PRESET.value, 'num_games': NUM_GAMES.value,
             'seed': SEED.value, 'positions': tactics.counts(positions),
             'machine': reporting.machine(),
             'random': tactics.random_rates(positions)}
  lines = [f'{results["positions"]} positions from {NUM_GAMES.value} random '
           'games']
  row = lambda name, rates: (f'  {name:12s} win in one taken '
                             f'{rates["win"]:.2f}   loss in one avoided '
                             f'{rates["defend"]:.2f}')
  for n in mcts_simulations:
    results[f'mcts{n}'] = tactics.hit_rates(positions, [
        openspiel_players.MCTSPlayer(game, n, seed=1).select_action(
            _environment_at(p)) for p in positions])
  for name in ['random'] + [f'mcts{n}' for n in mcts_simulations]:
    lines.append(row(name, results[name]))
  for directory in CHECKPOINT_DIRS.value:
    result = _checkpoint(directory, simulations, observations, positions)
    results.setdefault('checkpoints', {})[directory] = result
    lines.append(f'{directory} (learner step {result["learner_step"]})')
    lines += [row(name, result[name])
              for name in ['prior'] + [f'muzero{n}' for n in simulations]]
    reward = result['predicted_reward']
    if reward:
      lines.append(f'  predicted reward: winning moves '
                   f'{reward["winning_moves"]:.3f}, others '
                   f'{reward["other_moves"]:.3f}')
  reporting.report(results, OUTPUT_JSON.value, '\n'.join(lines))


if __name__ == '__main__':
  app.run(main)
