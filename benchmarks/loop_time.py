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
r"""Where the main job's time goes, per learner step.

Runs the main job (`experiment.run_selfplay`: self-play, replay and learner
in one process) from scratch for --steps learner steps, with wall-clock
accumulators around its parts' methods (`method_timers`); each part's
milliseconds per learner step, the compilation before the first round
apart. With overlapped learning the learner's step runs in a thread of its
own, beside the other parts. See docs/benchmarks.md.

    python -m benchmarks.loop_time --preset=tictactoe --steps=1000 \
        --nooverlap_learning
"""

import time
from typing import Any, Dict, Sequence

from absl import app
from absl import flags

from benchmarks import method_timers
from benchmarks import reporting
from muzero_snt import acting
from muzero_snt.run import experiment
from muzero_snt import learning
from muzero_snt import presets
from muzero_snt import replay
from muzero_snt.run import run_config
from muzero_snt.run import training_loop
from muzero_snt.search import compiled_search

PRESET = flags.DEFINE_string('preset', 'tictactoe', 'the preset to run.')
STEPS = flags.DEFINE_integer('steps', 2000, 'learner steps to run.')
CONFIG = flags.DEFINE_list('config', [], 'changes to the preset, as '
                           'name=value (run_config.apply_overrides).')
RUN_SETTINGS = reporting.define_run_flags()
OUTPUT_JSON = reporting.output_json_flag()

# The part paid once per run, before the first round.
_ONCE = 'compile (before the first round)'
# (class, method, label), outermost first. A label's time includes those of
# the labels it calls.
PARTS = (
    (training_loop.TrainingLoop, '_compile', _ONCE),
    (learning.Learner, 'step', 'learner step'),
    # Inside 'learner step', or in the learner's thread beside self-play.
    (learning.Learner, 'step_prepared', '  the update (step_prepared)'),
    (replay.ReplayBuffer, 'sample_batch', 'replay batch'),
    (acting.Actor, '_move', 'self-play move'),
    (compiled_search.CompiledSearch, '__call__', '  of which the search'),
    (acting.Actor, '_result_if_over', 'game ends'),
    (replay.ReplayBuffer, 'save_game', 'replay save_game'),
)
# The parts that do not overlap, whose sum the whole is compared with.
_DISJOINT = (_ONCE, 'learner step', 'replay batch', 'self-play move',
             'game ends', 'replay save_game')


def main(argv: Sequence[str]) -> None:
  reporting.check_no_arguments(argv)
  reporting.check_positive([STEPS])
  config = run_config.apply_overrides(
      presets.get_preset(PRESET.value),
      CONFIG.value).replace(training_steps=STEPS.value)
  timers = method_timers.MethodTimers()
  for cls, name, label in PARTS:
    timers.wrap(cls, name, label)
  start = time.perf_counter()
  with timers:
    loop = experiment.run_selfplay(config, PRESET.value,
                                   **RUN_SETTINGS())
  total = time.perf_counter() - start
  rows = method_timers.per_step(
      timers, [label for _, _, label in PARTS], _DISJOINT, _ONCE, total,
      loop.learner.steps)
  results: Dict[str, Any] = {
      'preset': PRESET.value, 'config': CONFIG.value,
      **RUN_SETTINGS(),
      'learner_steps': loop.learner.steps, 'env_steps': loop.env_steps,
      'games': loop.games, 'parts': rows, 'machine': reporting.machine()}
  reporting.report(results, OUTPUT_JSON.value, reporting.table(
      ('part', 'seconds', 'calls', 'ms/step'),
      [(label, row['seconds'], row['calls'], row['ms_per_step'])
       for label, row in rows.items()]))


if __name__ == '__main__':
  app.run(main)
