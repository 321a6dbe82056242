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
"""The enumerated settings of a run, importable without TensorFlow, so that
a launcher checks its flags before TensorFlow starts."""

# The learner's `tf.distribute` strategies (`distribute.make_strategy`).
STRATEGIES = ('default', 'cpu', 'gpu', 'mirrored', 'multi_worker', 'tpu')
# Where self-play searches (`distribute.place_search`).
SEARCH_DEVICES = ('accelerator', 'host')
# How self-play searches (`search.SEARCH_KINDS`).
SEARCHES = ('xla', 'graph', 'reference')
# The learner's compute dtypes (`mixed_precision.COMPUTE_DTYPES`).
COMPUTE_DTYPES = ('bfloat16', 'float32')
