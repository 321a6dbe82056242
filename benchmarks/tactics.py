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

The positions of --num_games random games where the player to move can win
at once ('win') or can only avoid a loss in one ('defend'). Each
checkpoint's network answers by its prior (`prior`) and a noise-free search
of N simulations (`muzero<N>`); at 'win' positions its dynamics predicts
the rewards of the winning and other moves (truly 1 and 0). A random player
and OpenSpiel's MCTS answer for scale. See docs/results.md.

    python -m benchmarks.tactics --checkpoint_dirs=/tmp/c4 \
        --simulations=50,200 --mcts_simulations=10,100
"""

from typing import Any, Dict, FrozenSet, List, NamedTuple, Optional
from typing import Sequence, Tuple

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

from benchmarks import reporting
from muzero_snt import environments
from muzero_snt import search
from muzero_snt.environments import openspiel
from muzero_snt.environments import openspiel_players
from muzero_snt.evaluation import loading
from muzero_snt.evaluation import matches as evaluation
from muzero_snt.run import run_config

KINDS = ('win', 'defend')

PRESET = CHECKPOINT_DIRS = NUM_GAMES = SEED = SIMULATIONS = None
MCTS_SIMULATIONS = OUTPUT_JSON = None


def _define_flags() -> None:
  """Defines the flags when run: tests import this beside launchers that
  define --preset and --seed too."""
  global PRESET, CHECKPOINT_DIRS, NUM_GAMES, SEED, SIMULATIONS
  global MCTS_SIMULATIONS, OUTPUT_JSON
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


class TacticalPosition(NamedTuple):
  """A position with a one-move tactic and its right moves (`correct`)."""
  history: Tuple[int, ...]
  kind: str
  legal: Tuple[int, ...]
  correct: FrozenSet[int]


def _wins_at_once(state, action: int, player: int) -> bool:
  after = state.clone()
  after.apply_action(action)
  return after.is_terminal() and after.returns()[player] > 0


def winning_moves(state) -> FrozenSet[int]:
  """The legal moves that win at once at `state`, a `pyspiel.State`."""
  if state.is_terminal():
    raise ValueError(f'winning_moves needs a position in play, got a '
                     f'terminal one:\n{state}')
  player = state.current_player()
  return frozenset(a for a in state.legal_actions()
                   if _wins_at_once(state, a, player))


def classify(state) -> Optional[Tuple[str, FrozenSet[int]]]:
  """('win', winning moves), ('defend', moves after which the opponent
  cannot win at once, if some but not all are), or None."""
  if state.is_terminal():
    raise ValueError(f'classify needs a position in play, got a terminal '
                     f'one:\n{state}')
  player = state.current_player()
  legal = state.legal_actions()
  wins = winning_moves(state)
  if wins:
    return 'win', wins
  safe = []
  for action in legal:
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal() or not any(
        _wins_at_once(after, reply, 1 - player)
        for reply in after.legal_actions()):
      safe.append(action)
  if 0 < len(safe) < len(legal):
    return 'defend', frozenset(safe)
  return None


def _load(game):
  if isinstance(game, str):
    game = openspiel.import_pyspiel().load_game(game)
  if game.num_players() != 2:
    raise ValueError(f'Tactics are for two-player games; '
                     f'{game.get_type().short_name!r} has '
                     f'{game.num_players()} players.')
  return game


def positions_in_games(game, games: Sequence[Sequence[int]]
                      ) -> List[TacticalPosition]:
  """The positions of `games` (each a list of actions) that `classify`
  names, in order of play; ValueError for an illegal action."""
  game = _load(game)
  positions = []
  for number, actions in enumerate(games):
    state = game.new_initial_state()
    history = []
    for action in actions:
      action = int(action)
      if state.is_terminal() or action not in state.legal_actions():
        raise ValueError(f'Game {number}: action {action} after '
                         f'{history} is not legal there.')
      tactic = classify(state)
      if tactic is not None:
        positions.append(TacticalPosition(tuple(history), tactic[0],
                                          tuple(state.legal_actions()),
                                          tactic[1]))
      state.apply_action(action)
      history.append(action)
  return positions


def collect_positions(game, num_games: int,
                      seed: int = 0) -> List[TacticalPosition]:
  """The tactical positions of `num_games` uniformly random games."""
  game = _load(game)
  if not isinstance(num_games, int) or num_games < 1:
    raise ValueError(f'num_games must be a positive integer, got '
                     f'{num_games!r}.')
  rng = np.random.default_rng(seed)
  games = []
  for _ in range(num_games):
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
      legal = state.legal_actions()
      actions.append(int(legal[rng.integers(len(legal))]))
      state.apply_action(actions[-1])
    games.append(actions)
  return positions_in_games(game, games)


def hit_rates(positions: Sequence[TacticalPosition],
              actions: Sequence[int]) -> Dict[str, float]:
  """{kind: the share of its positions where `actions` were right or NaN}."""
  if len(actions) != len(positions):
    raise ValueError(f'{len(actions)} actions for {len(positions)} '
                     'positions: give one action per position.')
  rates = {}
  for kind in KINDS:
    hits = [int(a) in p.correct for p, a in zip(positions, actions)
            if p.kind == kind]
    rates[kind] = float(np.mean(hits)) if hits else float('nan')
  return rates


def random_rates(positions: Sequence[TacticalPosition]) -> Dict[str, float]:
  """What a uniformly random player's `hit_rates` are in expectation."""
  rates = {}
  for kind in KINDS:
    shares = [len(p.correct) / len(p.legal) for p in positions
              if p.kind == kind]
    rates[kind] = float(np.mean(shares)) if shares else float('nan')
  return rates


def counts(positions: Sequence[TacticalPosition]) -> Dict[str, int]:
  return {kind: sum(p.kind == kind for p in positions) for kind in KINDS}


def _environment_at(position):
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
      search.make_search(config.replace(num_simulations=simulations),
                         network, 'xla'))
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
            'prior': hit_rates(positions, _prior_moves(
                network, observations, positions)),
            'predicted_reward': _predicted_rewards(network, observations,
                                                   positions)}
  for n in simulations:
    result[f'muzero{n}'] = hit_rates(positions, _muzero_moves(
        saved.config, network, n, observations, positions))
  return result


def main(argv):
  reporting.check_no_arguments(argv)
  simulations = reporting.positive_ints(SIMULATIONS)
  mcts_simulations = (reporting.positive_ints(MCTS_SIMULATIONS)
                      if MCTS_SIMULATIONS.value else [])
  reporting.check_positive([NUM_GAMES])
  game = environments.make_environment(PRESET.value, 0).game
  positions = collect_positions(game, NUM_GAMES.value, SEED.value)
  observations = np.stack([_environment_at(p).observation() for p in positions])
  results = {'preset': PRESET.value, 'num_games': NUM_GAMES.value,
             'seed': SEED.value, 'positions': counts(positions),
             'machine': reporting.machine(),
             'random': random_rates(positions)}
  rows = [('random', results['random'], None)]
  for n in mcts_simulations:
    results[f'mcts{n}'] = hit_rates(positions, [
        openspiel_players.MCTSPlayer(game, n, seed=1).select_action(
            _environment_at(p)) for p in positions])
    rows.append((f'mcts{n}', results[f'mcts{n}'], None))
  for directory in CHECKPOINT_DIRS.value:
    result = _checkpoint(directory, simulations, observations, positions)
    results.setdefault('checkpoints', {})[directory] = result
    rows += [(f'{directory}, step {result["learner_step"]}: {name}',
              result[name], result['predicted_reward'] or None)
             for name in ['prior'] + [f'muzero{n}' for n in simulations]]
  reporting.report(results, OUTPUT_JSON.value, (
      f'{results["positions"]} positions from {NUM_GAMES.value} random '
      'games\n' + reporting.table(
          ('player', 'win in one taken', 'loss in one avoided',
           'predicted reward: winning moves / others'),
          [(name, rates['win'], rates['defend'], reward and
            f'{reward["winning_moves"]:.3f} / {reward["other_moves"]:.3f}')
           for name, rates, reward in rows])))


if __name__ == '__main__':
  _define_flags()
  app.run(main)
