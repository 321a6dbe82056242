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
"""MuZero's parts as processes on Ray: actors, replay service, learner.

One module per concern; `run/experiment.py` starts it all (`runner.start`).

* `ray_support`, `reaper`: Ray imported on demand; connecting, and no Ray
  process outliving the driver.
* `runner`: which processes start, where they run, how Ray restarts them.
* `replay_service`, `rate_limiter`: the shared replay and its admission.
* `replay_source`: the learner's side of the service (a `DataSource`).
* `weight_store`: publishing the learner's weights and following them.
* `worker_setup`: what the worker processes share; `self_play_worker`,
  `reanalyse_worker`, `evaluator`: the workers.

Ray (`pip install -e '.[distributed]'`) is imported only when a run starts,
so these modules import without it.
"""
