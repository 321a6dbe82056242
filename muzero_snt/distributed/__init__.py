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

Ray (`pip install -e '.[distributed]'`) is imported only when a run starts
(`ray_support.require_ray`), so these modules import without it.
"""

from muzero_snt.distributed.rate_limiter import RateLimiter
from muzero_snt.distributed.ray_support import connect
from muzero_snt.distributed.ray_support import require_ray
from muzero_snt.distributed.ray_support import shutdown
from muzero_snt.distributed.reanalyse_worker import ReanalyseWorker
from muzero_snt.distributed.replay_service import Game
from muzero_snt.distributed.replay_service import ReplayService
from muzero_snt.distributed.replay_source import ReplayHandle
from muzero_snt.distributed.replay_source import ReplayServiceSource
from muzero_snt.distributed.runner import start
from muzero_snt.distributed.self_play_worker import SelfPlayWorker
from muzero_snt.distributed.weight_store import assign_arrays
from muzero_snt.distributed.weight_store import network_arrays
from muzero_snt.distributed.weight_store import WeightStore

__all__ = (
    'Game',
    'RateLimiter',
    'ReanalyseWorker',
    'ReplayHandle',
    'ReplayService',
    'ReplayServiceSource',
    'SelfPlayWorker',
    'WeightStore',
    'assign_arrays',
    'connect',
    'network_arrays',
    'require_ray',
    'shutdown',
    'start',
)
