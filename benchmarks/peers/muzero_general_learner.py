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
"""Throughput of muzero-general's learner step, on our shapes.

Run with muzero-general's venv python (benchmarks/peers/
install_muzero_general.sh), from the repository root:

    /work/muzero-general-venv/bin/python \
        -m benchmarks.peers.muzero_general_learner --model=cartpole_mlp

Times `Trainer.update_lr()` and `Trainer.update_weights(batch)`, what its
training loop calls once per update: the replay buffer's lists in
(converted to tensors inside), targets onto the supports, K = 5 unrolled
steps with its gradient hooks (0.5 on the hidden state, 1 / K on the
losses), importance weights, backward, the SGD step, priorities and losses
out as floats. Samples/s = batch size x steps / seconds, after
`--warmup_steps` untimed steps. Prints one JSON line; `benchmarks/
learner.py --peers=muzero_general` starts this in turns with our learner
(docs/benchmarks.md).
"""

import json
from typing import Any, Dict, Sequence

from absl import app
from absl import flags
import torch

from benchmarks import reporting
from benchmarks.peers import muzero_general_models

MODEL = flags.DEFINE_enum('model', 'cartpole_mlp',
                          muzero_general_models.MODELS, 'shape to time.')
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
  config = muzero_general_models.make_config(model, batch_size=batch_size)
  config.seed = seed  # The weights' (torch.manual_seed in the Trainer).
  learner = muzero_general_models.make_trainer(config)
  data = muzero_general_models.make_batch(config, seed)

  def step():
    learner.update_lr()
    learner.update_weights(data)

  rates = reporting.learner_rates(step, batch_size, steps, repeats,
                                    warmup_steps)
  return reporting.learner_result('muzero_general', model, steps, rates,
                                    muzero_general_models.describe(config))


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
