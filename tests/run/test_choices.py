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
"""Tests that the run's enumerated settings are those its modules act on."""

from muzero_snt import mixed_precision
from muzero_snt import search
from muzero_snt.run import choices
from muzero_snt.run import distribute


def test_searches_are_the_kinds_make_search_builds():
  assert choices.SEARCHES == search.SEARCH_KINDS


def test_compute_dtypes_are_those_mixed_precision_casts_to():
  assert choices.COMPUTE_DTYPES == tuple(sorted(
      mixed_precision.COMPUTE_DTYPES))


def test_strategies_and_search_devices_are_distributes():
  assert distribute.STRATEGIES == choices.STRATEGIES
  assert distribute.SEARCH_DEVICES == choices.SEARCH_DEVICES
