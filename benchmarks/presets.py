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
"""What each preset costs on this machine: learner step, self-play, memory.

Per preset: ms of an XLA `Learner.step` on a synthetic batch (lr 1e-6: the
repeated batch cannot diverge) and of a self-play round (a batched search
over `num_envs` environments and a step of each), medians over --repeats
after the first call; the parameters and the peak RSS (a process each with
--isolate). Presets missing their package are skipped. See docs/benchmarks.md.

    python -m benchmarks.presets --isolate --presets=tictactoe,cartpole
    python -m benchmarks.presets --presets=atari --paper_simulations=2 \
        --repeats=1
"""

import json
import os
import resource
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Optional, Sequence

from absl import app
from absl import flags
from absl import logging
import numpy as np

from benchmarks import reporting
from muzero_snt import config as config_lib
from muzero_snt import presets
from muzero_snt import search
from muzero_snt.run import builders
from muzero_snt.run import synthetic

# 16 blocks of 256 planes: sized for accelerators, timed at a small batch.
PAPER_PRESETS = ('atari', 'chess', 'go', 'shogi')
SEED = 0
_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRESETS_FLAG = flags.DEFINE_list('presets', sorted(presets.PRESETS),
                                 'presets to measure.')
REPEATS = flags.DEFINE_integer('repeats', 3, 'timings of each measurement.')
PAPER_BATCH_SIZE = flags.DEFINE_integer(
    'paper_batch_size', 8, f'learner batch of {list(PAPER_PRESETS)}.')
PAPER_SIMULATIONS = flags.DEFINE_integer(
    'paper_simulations', None, f'simulations a move of {list(PAPER_PRESETS)} '
    '(default: the preset\'s).')
ISOLATE = flags.DEFINE_bool('isolate', False, 'each preset in its own '
                            'process (its own peak RSS).')
OUTPUT_JSON = reporting.output_json_flag()


def time_selfplay(preset: str, config: config_lib.MuZeroConfig, network,
                  num_envs: int, rounds: int) -> Dict[str, Any]:
  make_environment = builders.make_environment_factory(preset, config)
  environments = [make_environment(SEED + i) for i in range(num_envs)]
  time_steps = [environment.reset() for environment in environments]
  compiled = search.CompiledSearch(config, network)
  rng = np.random.default_rng(SEED)

  def play_round():
    result = compiled(
        np.stack([t.observation for t in time_steps]),
        [environment.to_play() for environment in environments],
        search.legal_actions_to_mask(
            [environment.legal_actions() for environment in environments],
            config.action_space_size), rng)
    for i, environment in enumerate(environments):
      # Temperature 1, as in the early moves or early training.
      action = search.sample_action(result.visit_counts[i], 1., rng)
      time_step = environment.step(action)
      time_steps[i] = environment.reset() if time_step.last() else time_step

  first, ms = reporting.first_and_repeats(play_round, REPEATS.value, rounds)
  for environment in environments:
    environment.close()
  logging.info('%s self-play: first round %.1fs, then %s ms', preset, first, ms)
  return {'first_call_seconds': first, 'ms_per_round': ms,
          'ms_per_move': [m / num_envs for m in ms]}


def benchmark_preset(preset: str) -> Dict[str, Any]:
  """Measures one preset in this process."""
  config = presets.get_preset(preset).replace(lr_init=1e-6)
  if preset in PAPER_PRESETS:
    config = config.replace(
        batch_size=PAPER_BATCH_SIZE.value,
        num_simulations=PAPER_SIMULATIONS.value or config.num_simulations)
  num_envs = presets.run_defaults(preset)['num_envs']
  result = {'preset': preset, 'batch_size': config.batch_size,
            'num_simulations': config.num_simulations, 'num_envs': num_envs,
            'observation_bytes': 4 * int(np.prod(config.observation_shape))}
  try:
    # One environment says what is missing, before any network.
    builders.make_environment_factory(preset, config)(SEED).close()
  except ImportError as e:
    logging.info('%s skipped: %s', preset, e)
    return dict(result, skipped=str(e))
  learner = builders.make_learner(config, SEED, jit_compile=True,
                                  strategy=None, compute_dtype='float32')
  result['parameters'] = int(sum(
      v.shape.num_elements() for v in learner.network.trainable_variables))
  # Self-play rounds and learner steps a timing.
  calls = 1 if preset in PAPER_PRESETS else 5
  # Self-play first: it searches with the initial weights.
  result['selfplay'] = time_selfplay(preset, config, learner.network,
                                     num_envs, calls)
  batch = next(synthetic.SyntheticBatches(config, config.batch_size, seed=SEED))
  first, ms = reporting.first_and_repeats(
      lambda: learner.step(batch), REPEATS.value, calls)
  logging.info('%s learner: first step %.1fs, then %s ms', preset, first, ms)
  result['learner'] = {'first_call_seconds': first, 'ms_per_step': ms}
  peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
  # Linux reports KiB, macOS bytes.
  result['peak_rss_mb'] = peak / 2**(20 if sys.platform == 'darwin' else 10)
  return result


def run_isolated(names: Sequence[str]) -> List[Dict[str, Any]]:
  """`python -m benchmarks.presets --presets=X` per preset, with this
  process's flags; a process that fails is a skipped preset."""
  forwarded = [f'--{flag.name}={flag.value}' for flag in (
      REPEATS, PAPER_BATCH_SIZE, PAPER_SIMULATIONS) if flag.value is not None]
  results = []
  for name in names:
    with tempfile.TemporaryDirectory() as directory:
      path = os.path.join(directory, 'result.json')
      returncode = subprocess.run(
          [sys.executable, '-m', 'benchmarks.presets', f'--presets={name}',
           f'--output_json={path}', *forwarded], cwd=_REPO,
          check=False).returncode
      if returncode:
        results.append({'preset': name, 'skipped': f'its process exited '
                                                   f'with {returncode}'})
        continue
      with open(path) as f:
        results.extend(json.load(f)['results'])
  return results


def _median(part: Dict[str, Any], key: str) -> Optional[float]:
  return reporting.with_medians(part).get(key, {}).get('median')


def format_table(results: Sequence[Dict[str, Any]]) -> str:
  """The medians, a row per preset."""
  rows = []
  for r in results:
    learner, selfplay = r.get('learner', {}), r.get('selfplay', {})
    rows.append((
        r['preset'], r.get('batch_size'), _median(learner, 'ms_per_step'),
        learner.get('first_call_seconds'), r.get('num_simulations'),
        r.get('num_envs'), _median(selfplay, 'ms_per_move'),
        _median(selfplay, 'ms_per_round'), r.get('parameters'),
        r['observation_bytes'] / 1024 if 'observation_bytes' in r else None,
        r.get('peak_rss_mb'),
        'skipped: ' + r['skipped'].replace('|', '/') if 'skipped' in r
        else ''))
  return reporting.table(
      ('preset', 'batch', 'learner ms/step', 'learner first s',
       'simulations', 'num_envs', 'self-play ms/move', 'ms/round', 'params',
       'obs KB', 'peak RSS MB', 'note'), rows)


def main(argv):
  reporting.check_no_arguments(argv)
  reporting.check_known(PRESETS_FLAG, presets.PRESETS)
  reporting.check_positive((REPEATS, PAPER_BATCH_SIZE, PAPER_SIMULATIONS))
  if ISOLATE.value:
    results = run_isolated(PRESETS_FLAG.value)
  else:
    results = [benchmark_preset(name) for name in PRESETS_FLAG.value]
  reporting.report({'machine': reporting.machine(), 'isolated': ISOLATE.value,
                    'results': results}, OUTPUT_JSON.value,
                   format_table(results))


if __name__ == '__main__':
  app.run(main)
