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
"""A run killed with SIGKILL ends bit-identical to an unbroken one.

One kill here (each costs a TensorFlow start-up); `kill_resume.py` is the
long script with 20.
"""

import os
import tempfile

from absl.testing import absltest
import numpy as np

from tests.reliability import kill_resume

_STEPS = 200


class KillResumeTest(absltest.TestCase):

  def test_a_killed_run_ends_bit_identical(self):
    root = tempfile.mkdtemp()
    unbroken = os.path.join(root, 'unbroken')
    killed = os.path.join(root, 'killed')
    # A tiny learner step takes ~15 ms here: 200 steps leave about 3 s of
    # training after the first checkpoint, so a kill within 0.5 s of it
    # lands before the run ends, on a fast machine too.
    kill_resume.run_unbroken(unbroken, _STEPS)
    restarts = kill_resume.run_with_kills(killed, _STEPS, 1,
                                          np.random.default_rng(1),
                                          log=lambda message: None,
                                          max_delay=0.5)
    self.assertEqual(restarts, 1)
    a = kill_resume.final_tensors(unbroken)
    b = kill_resume.final_tensors(killed)
    self.assertEqual(sorted(a), sorted(b))
    for name in a:
      np.testing.assert_array_equal(a[name], b[name], err_msg=name)


if __name__ == '__main__':
  absltest.main()
