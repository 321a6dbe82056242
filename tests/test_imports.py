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
"""Tests that importing the library leaves its heavy optional packages out.

Each import runs in a fresh interpreter: this test process has imported
them all already.
"""

import json
import os
import subprocess
import sys

from absl.testing import absltest
from absl.testing import parameterized

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Imported only where used: tensorflow-probability (and the tf_keras it
# loads) by the search's Dirichlet draw, matplotlib by evaluation plots, the
# others by the environments.
_OPTIONAL = ('tensorflow_probability', 'tf_keras', 'matplotlib', 'gymnasium',
             'ale_py', 'pyspiel', 'jax')

# Prints, as JSON, the modules that `import {module}` loads beyond
# TensorFlow's own (TensorFlow imports Keras 3, which imports matplotlib),
# and the ones loaded in all.
_SCRIPT = """
import json, sys
import tensorflow
before = set(sys.modules)
import {module}
print(json.dumps({{'added': sorted(set(sys.modules) - before),
                  'all': sorted(sys.modules)}}))
"""


def _imported(module):
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL='3')
  result = subprocess.run(
      [sys.executable, '-c', _SCRIPT.format(module=module)], cwd=_ROOT,
      env=env, capture_output=True, text=True, timeout=300, check=False)
  if result.returncode:
    raise AssertionError(f'import {module} failed:\n{result.stderr}')
  return json.loads(result.stdout.strip().splitlines()[-1])


class ImportTest(parameterized.TestCase):

  @parameterized.parameters('muzero_snt.networks', 'muzero_snt')
  def test_no_optional_package_is_imported(self, module):
    modules = _imported(module)
    self.assertIn('muzero_snt', modules['added'])
    self.assertFalse('tensorflow_probability' in modules['all'],
                     msg=f'import {module} loads tensorflow_probability')
    added = {name.split('.')[0] for name in modules['added']}
    self.assertEqual(sorted(added.intersection(_OPTIONAL)), [])


if __name__ == '__main__':
  absltest.main()
