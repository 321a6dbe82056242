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
"""Throughput of LightZero 0.2.0's MuZero learner step, on our shapes.

Run with the peers' venv python (benchmarks/peers/install_lightzero.sh),
from the repository root:

    /work/peers-venv/bin/python -m benchmarks.peers.lightzero_learner \
        --model=cartpole_mlp

Times `MuZeroPolicy._forward_learn((current_batch, target_batch))`, what
LightZero's learner calls once per update: NumPy batch in (converted to
tensors inside), targets through h(x) and onto the supports, K = 5 unrolled
steps, loss, backward, gradient clipping, SGD step, metrics out as floats.
Samples/s = batch size x steps / seconds, after `--warmup_steps` untimed
steps. Prints one JSON line; `benchmarks/learner.py --peers=lightzero`
starts this in turns with our learner (docs/benchmarks.md).
"""

import json
from typing import Any, Dict, Sequence

from absl import app
from absl import flags
import torch

from benchmarks import reporting
from benchmarks.peers import lightzero_models

MODEL = flags.DEFINE_enum('model', 'cartpole_mlp', lightzero_models.MODELS,
                          'shape to time.')
BATCH_SIZE = flags.DEFINE_integer('batch_size', 256, 'examples per step.')
STEPS = flags.DEFINE_integer('steps', 20, 'learner steps per timing.')
REPEATS = flags.DEFINE_integer('repeats', 3, 'timings.')
WARMUP_STEPS = flags.DEFINE_integer('warmup_steps', 3, 'untimed steps first.')
THREADS = flags.DEFINE_integer(
    'threads', 0, 'torch.set_num_threads (0: torch\'s default, one per core).')
SEED = flags.DEFINE_integer('seed', 0, 'seed of the batch and the weights.')


def time_learner(model: str, batch_size: int, steps: int, repeats: int,
                 warmup_steps: int, seed: int = 0) -> Dict[str, Any]:
  """Samples/s of `repeats` timings of `steps` learner steps each."""
  torch.manual_seed(seed)
  config = lightzero_models.make_policy_config(model, batch_size=batch_size)
  policy = lightzero_models.make_policy(config)
  data = lightzero_models.make_batch(config, seed)
  rates = reporting.learner_rates(
      lambda: policy._forward_learn(data),  # pylint: disable=protected-access
      batch_size, steps, repeats, warmup_steps)
  return reporting.learner_result('lightzero', model, steps, rates,
                                    lightzero_models.describe(config))


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  reporting.check_positive((BATCH_SIZE, STEPS, REPEATS))
  if THREADS.value:
    torch.set_num_threads(THREADS.value)
  print(json.dumps(time_learner(MODEL.value, BATCH_SIZE.value, STEPS.value,
                                REPEATS.value, WARMUP_STEPS.value,
                                SEED.value)))


if __name__ == '__main__':
  app.run(main)
