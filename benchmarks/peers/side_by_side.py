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
"""Our learner step against peers', in alternating processes.

For each round and model, our driver (`benchmarks.learner --peer_worker`),
then each peer's (`benchmarks.peers.<peer>`, in its own venv), one process
at a time so that no two libraries share the cores. No TensorFlow here.
"""

import json
import statistics
import subprocess
import sys
from typing import Any, Dict, List, Sequence

from benchmarks import reporting

PEERS = ('lightzero', 'muzero_general')
OURS = 'muzero_snt'
# Where benchmarks/peers/install_<peer>.sh builds each peer's venv.
DEFAULT_PEER_PYTHONS = {
    'lightzero': '/work/peers-venv/bin/python',
    'muzero_general': '/work/muzero-general-venv/bin/python',
}


def worker_command(library: str, model: str, python: str, steps: int,
                   repeats: int, batch_size: int = 256,
                   threads: int = 0) -> List[str]:
  """The command line of one timing process of `library`; `threads` > 0
  sets TensorFlow's intra- and inter-op pools, or torch's threads."""
  if library != OURS and library not in PEERS:
    raise ValueError(f'Unknown library {library!r}; expected {OURS!r} or one '
                     f'of {PEERS}.')
  sizes = [f'--steps={steps}', f'--repeats={repeats}',
           f'--batch_size={batch_size}'] + (
               [f'--threads={threads}'] if threads else [])
  if library != OURS:
    return [python, '-m', f'benchmarks.peers.{library}',
            f'--model={model}'] + sizes
  return [python, '-m', 'benchmarks.learner', '--peer_worker',
          f'--models={model}'] + sizes


def parse_output(stdout: str) -> Dict[str, Any]:
  """The JSON result that a driver prints as its last line."""
  lines = [line for line in stdout.splitlines() if line.startswith('{')]
  if not lines:
    raise ValueError(f'No JSON line in the output: {stdout[-500:]!r}.')
  return json.loads(lines[-1])


def run_worker(command: Sequence[str]) -> Dict[str, Any]:
  """Runs one driver process; its result."""
  done = subprocess.run(command, capture_output=True, text=True, check=False)
  if done.returncode:
    raise RuntimeError(f'{" ".join(command)} exited with {done.returncode}: '
                       f'{done.stderr[-2000:]}')
  return parse_output(done.stdout)


def summarise(ours: Sequence[float], peer: Sequence[float]) -> Dict[str, Any]:
  """Each side's median rate, the per-round ratios ours / peer and their
  median; ValueError for unequal, empty or non-positive rates."""
  if len(ours) != len(peer) or not ours:
    raise ValueError(f'Expected one rate per round on each side, got '
                     f'{len(ours)} and {len(peer)}.')
  for rate in list(ours) + list(peer):
    if not rate > 0:
      raise ValueError(f'Expected positive rates, got {rate}.')
  ratios = [o / p for o, p in zip(ours, peer)]
  return {'ours': statistics.median(ours), 'peer': statistics.median(peer),
          'ratios': ratios, 'ratio': statistics.median(ratios)}


def run(models: Sequence[str],
        peers: Sequence[str],
        rounds: int = 5,
        steps: int = 20,
        repeats: int = 3,
        batch_size: int = 256,
        threads: int = 0,
        log=print) -> Dict[str, Any]:
  """Alternates our driver and the peers' (in `DEFAULT_PEER_PYTHONS`)
  `rounds` times per model: {'rounds': every process's result, 'summary':
  {model: {peer: `summarise(...)`}}}."""
  unknown = sorted(set(peers) - set(PEERS))
  if unknown:
    raise ValueError(f'Unknown peers {unknown}; expected some of {PEERS}.')
  results = []
  for round_index in range(rounds):
    for model in models:
      for library in (OURS,) + tuple(peers):
        python = (sys.executable if library == OURS else
                  DEFAULT_PEER_PYTHONS[library])
        result = run_worker(worker_command(library, model, python, steps,
                                           repeats, batch_size, threads))
        result['round'] = round_index
        result['median'] = statistics.median(result['samples_per_second'])
        results.append(result)
        log(f'round {round_index + 1}/{rounds} {model} {library}: '
            f'{result["median"]:.0f} samples/s')
  summary = {}
  for model in models:
    rates = {
        library: [r['median'] for r in results
                  if r['model'] == model and r['library'] == library]
        for library in (OURS,) + tuple(peers)
    }
    summary[model] = {peer: summarise(rates[OURS], rates[peer])
                      for peer in peers}
  return {'rounds': results, 'summary': summary}


def format_table(summary: Dict[str, Dict[str, Dict[str, Any]]]) -> str:
  """Medians of samples/s and of the per-round ratios, a row per pair."""
  return reporting.table(
      ('model', 'peer', 'ours', 'peer', 'ratio', 'per round'),
      [(model, peer, s['ours'], s['peer'], s['ratio'],
        ', '.join(f'{r:.2f}' for r in s['ratios']))
       for model, by_peer in summary.items() for peer, s in by_peer.items()])
