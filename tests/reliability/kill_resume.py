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
r"""kill -9 at random moments, restart, and compare with an unbroken run.

The training launcher runs a small tic-tac-toe job with frequent
checkpoints; it is killed with SIGKILL at random moments (some during
saves, which come every few rounds) and restarted with the same flags
until it finishes. Its final checkpoint must equal, tensor for tensor and
bit for bit, the final checkpoint of the same job run without
interruption. tests/reliability/test_kill_resume.py runs it with one kill;
the long run is a script:

    python -m tests.reliability.kill_resume --kills=20 --seed=0 \
        --training_steps=1500
"""

import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Sequence

import numpy as np

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FLAGS = ('--preset=tictactoe',
         '--checkpoint_interval=10', '--batch_size=8', '--num_unroll_steps=2',
         '--channels=4', '--num_simulations=4', '--nojit_compile',
         '--search=graph', '--num_envs=2', '--train_ratio=1',
         '--log_every=1000', '--checkpoint_minutes=0')


def _command(directory: str, training_steps: int) -> List[str]:
  return [sys.executable, '-m', 'launchers.train',
          f'--checkpoint_dir={directory}', f'--training_steps={training_steps}',
          *FLAGS]


def _environment() -> Dict[str, str]:
  return dict(os.environ, PYTHONPATH=_REPO, CUDA_VISIBLE_DEVICES='')


def _newest(directory: str) -> int:
  """The largest number of a `ckpt-N.index` file, -1 if there is none."""
  if not os.path.isdir(directory):
    return -1
  numbers = [int(name[len('ckpt-'):-len('.index')])
             for name in os.listdir(directory)
             if name.startswith('ckpt-') and name.endswith('.index')]
  return max(numbers, default=-1)


def final_tensors(directory: str) -> Dict[str, np.ndarray]:
  """Every tensor of the directory's newest checkpoint."""
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(directory))
  return {name: reader.get_tensor(name)
          for name in reader.get_variable_to_shape_map()}


def run_unbroken(directory: str, training_steps: int) -> None:
  subprocess.run(_command(directory, training_steps), cwd=_REPO,
                 env=_environment(), check=True, capture_output=True,
                 timeout=3600)


def run_with_kills(directory: str, training_steps: int, kills: int,
                   rng: np.random.Generator, log=print,
                   max_delay: float = 3.) -> int:
  """Runs to the end, killing the first `kills` attempts; returns restarts.

  Each attempt is killed at a uniformly random moment between its first
  checkpoint file appearing (so the kill lands in training and saving, not
  in TensorFlow's start-up) and `max_delay` seconds later. An attempt that
  finishes inside its delay ends the runs early (fewer restarts).
  """
  attempts = 0
  while True:
    attempts += 1
    process = subprocess.Popen(_command(directory, training_steps), cwd=_REPO,
                               env=_environment(), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    if attempts > kills:
      _, stderr = process.communicate(timeout=1800)
      if process.returncode:
        raise RuntimeError(f'The last attempt failed:\n{stderr[-3000:]}')
      return attempts - 1
    start = time.time()
    before = _newest(directory)
    # Wait for this attempt's first save, then kill at a random moment.
    while process.poll() is None and time.time() - start < 1200:
      if _newest(directory) > before:
        break
      time.sleep(0.01)
    delay = float(rng.uniform(0., max_delay))
    time.sleep(delay)
    if process.poll() is not None:
      _, stderr = process.communicate()
      if process.returncode:
        raise RuntimeError(f'Attempt {attempts} failed:\n{stderr[-3000:]}')
      log(f'attempt {attempts}: finished before its kill')
      return attempts - 1
    process.send_signal(signal.SIGKILL)
    process.wait()
    log(f'attempt {attempts}: killed {delay:.2f} s after its first save '
        f'(newest checkpoint files then: {_newest(directory)})')


def main(argv: Sequence[str]) -> None:
  kills, seed, training_steps = 20, 0, 1500
  for arg in argv[1:]:
    name, _, value = arg.lstrip('-').partition('=')
    if name == 'kills':
      kills = int(value)
    elif name == 'seed':
      seed = int(value)
    elif name == 'training_steps':
      training_steps = int(value)
    else:
      raise SystemExit(f'Unknown argument {arg!r}; expected --kills=N, '
                       '--seed=N, --training_steps=N.')
  with tempfile.TemporaryDirectory() as root:
    unbroken, killed = os.path.join(root, 'unbroken'), os.path.join(
        root, 'killed')
    start = time.time()
    run_unbroken(unbroken, training_steps)
    print(f'unbroken run: {time.time() - start:.0f} s', flush=True)
    restarts = run_with_kills(killed, training_steps, kills,
                              np.random.default_rng(seed),
                              log=lambda m: print(m, flush=True))
    a, b = final_tensors(unbroken), final_tensors(killed)
    different = [n for n in a if not np.array_equal(a[n], b.get(n))]
    print(f'{restarts} kills; final checkpoints: {len(a)} tensors, '
          f'{len(different)} differ{": " + str(different[:5]) if different else ""}')
    damaged = os.path.join(killed, 'damaged')
    if os.path.isdir(damaged):
      print(f'checkpoints damaged by kills (moved aside): '
            f'{sorted(os.listdir(damaged))}')
    raise SystemExit(1 if different or set(a) != set(b) else 0)


if __name__ == '__main__':
  main(sys.argv)
