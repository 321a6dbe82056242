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
"""What runs an experiment around the algorithm: the run's machinery.

`experiment.run(run_config)` is the entry point. It wires a run's parts
(`builders`), turns data into learner steps (`training_loop`,
`data_sources`, `synthetic`, `overlapped_learning`), reports progress and
keeps TensorBoard's files consistent (`progress`), saves and resumes
(`checkpointing`, `run_config`, `run_lock`), checks resources first
(`resources`, `network_size`), stops on signals (`stopping`), builds
strategies (`distribute`), audits programs for accelerators
(`device_audit`) and exports SavedModels (`export`). Nothing at the
package's top level imports from here.
"""
