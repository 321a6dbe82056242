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
"""Any gymnasium task with discrete actions, by its id.

The 'gymnasium' preset builds the task and derives the configuration from
its spaces (`muzero_snt.config_for_environment`): the observation's shape
(an MLP for a vector, a residual tower for an [H, W, C] image), the number
of actions and the time limit. The same run from the launcher:

    python -m examples.gymnasium_task Acrobot-v1
    python -m launchers.train --preset=gymnasium --env=Acrobot-v1

Continuous actions and observations other than one array (a Dict or a
Tuple space) are refused in one line naming the space.
"""

import sys

import muzero_snt


def train(env_id: str = 'CartPole-v1', **settings):
  """Trains MuZero on the task `env_id`; `settings` are RunConfig fields."""
  run = muzero_snt.RunConfig(preset='gymnasium', env=env_id, **settings)
  return muzero_snt.train(run)


if __name__ == '__main__':
  train(*sys.argv[1:2])
