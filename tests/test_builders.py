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
"""Tests of the run factories and their checks."""

import types

import tensorflow as tf

from muzero_snt import builders
from muzero_snt import config as config_lib
from tests import testing


def _tiny_config(**changes) -> config_lib.MuZeroConfig:
  return testing.tiny_mlp_config(21, batch_size=8).replace(**changes)


def _fake_strategy(num_replicas: int):
  """Stands in for a strategy of `num_replicas` (not a TPU's)."""
  return types.SimpleNamespace(num_replicas_in_sync=num_replicas)


class CheckStrategyTest(testing.TestCase):

  def test_batch_not_divisible_by_the_replicas_is_refused(self):
    with self.assertRaisesRegex(ValueError,
                                r'batch_size=8 .*the 3 replicas'):
      builders.check_strategy(_tiny_config(), _fake_strategy(3),
                           jit_compile=False)
    builders.check_strategy(_tiny_config(), _fake_strategy(4), jit_compile=False)

  def test_jit_compile_on_several_replicas_is_refused(self):
    with self.assertRaisesRegex(ValueError, 'jit_compile.*2 replicas'):
      builders.check_strategy(_tiny_config(), _fake_strategy(2),
                           jit_compile=True)
    builders.check_strategy(_tiny_config(), _fake_strategy(1), jit_compile=True)


if __name__ == '__main__':
  tf.test.main()
