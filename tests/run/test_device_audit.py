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
"""Tests of the device audit: every program clean, planted faults found."""

import json
import os
import subprocess
import sys

from absl.testing import absltest
from absl.testing import parameterized
import numpy as np
import tensorflow as tf

from muzero_snt.run import device_audit
from tests import testing

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# The mirrored learner needs two devices: the command line's child process.
IN_PROCESS = [p for p in device_audit.PROGRAMS if p != 'learner_mirrored']


def _kinds(findings):
  return {(f.kind, f.op) for f in findings if f.allowance is None}


class ProgramsTest(testing.TestCase):

  @parameterized.named_parameters((p, p) for p in IN_PROCESS)
  def test_program_has_no_problem(self, program):
    (report,) = device_audit.audit(device_audit.small_config('tictactoe'),
                                   [program])
    self.assertIsNone(report.note)
    self.assertEqual(report.problems, [], device_audit.format_report(report))

  def test_export_reports_its_allowance_with_the_reason(self):
    (report,) = device_audit.audit(device_audit.small_config('tictactoe'),
                                   ['export'])
    (allowed,) = report.findings
    self.assertEqual((allowed.kind, allowed.op), ('no_gpu_kernel', 'Const'))
    self.assertIn('recurrent_inference', allowed.allowance)
    self.assertIn('allowed: the message of the exported',
                  device_audit.format_report(report))

  def test_command_line_audits_the_mirrored_learner_on_two_cpus(self):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL='2', CUDA_VISIBLE_DEVICES='')
    process = subprocess.run(
        [sys.executable, '-m', 'muzero_snt.run.device_audit', '--small',
         '--json', '--programs=learner_mirrored'], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=240, check=False)
    self.assertEqual(process.returncode, 0, process.stderr[-5000:])
    (line,) = process.stdout.splitlines()
    self.assertEqual(json.loads(line), {
        'program': 'learner_mirrored', 'note': None, 'findings': []})

  def test_unknown_program_is_refused(self):
    with self.assertRaisesRegex(ValueError, r"Unknown programs \['lerner'\]"):
      device_audit.audit(device_audit.small_config('tictactoe'), ['lerner'])


class PlantedTest(testing.TestCase):

  def test_cpu_only_op_outside_xla(self):
    # The stateful Gamma sampler has a CPU kernel only.
    function = tf.function(lambda x: x * tf.random.gamma([2], 0.5))
    findings = device_audit.audit_function('planted', function,
                                           (tf.ones([2]),))
    self.assertEqual(_kinds(findings), {('no_gpu_kernel', 'RandomGamma')})
    self.assertEqual(findings[0].program, 'planted')

  def test_float64_inside_xla(self):
    function = tf.function(
        lambda x: tf.cast(tf.cast(x, tf.float64) * 2., tf.float32),
        jit_compile=True)
    found = _kinds(device_audit.audit_function('planted', function,
                                               (tf.ones([2]),)))
    self.assertEqual(found, {('float64', 'Cast'), ('float64', 'Mul'),
                             ('float64', 'Const')})

  def test_float64_in_an_xla_function_called_from_a_graph(self):
    inner = tf.function(lambda x: tf.cast(tf.cast(x, tf.float64), tf.float32),
                        jit_compile=True)
    outer = tf.function(lambda x: inner(x) + 1.)
    found = _kinds(device_audit.audit_function('planted', outer,
                                               (tf.ones([2]),)))
    self.assertEqual(found, {('float64', 'Cast')})

  def test_float64_outside_xla_is_not_a_tpu_finding(self):
    function = tf.function(lambda x: tf.cast(tf.cast(x, tf.float64) * 2.,
                                             tf.float32))
    self.assertEqual(device_audit.audit_function('planted', function,
                                                 (tf.ones([2]),)), [])

  def test_host_callback_inside_xla_cannot_compile(self):
    function = tf.function(
        lambda x: tf.numpy_function(np.square, [x], tf.float32),
        jit_compile=True)
    found = _kinds(device_audit.audit_function('planted', function,
                                               (tf.ones([2]),)))
    self.assertIn(('host_callback', 'PyFunc'), found)
    self.assertIn(('not_compiled', 'HLO'), found)

  def test_string_and_dynamic_shape_inside_xla(self):
    function = tf.function(
        lambda x: (tf.strings.as_string(x), tf.where(x > 0.)),
        jit_compile=True)
    found = _kinds(device_audit.audit_function('planted', function,
                                               (tf.ones([2]),)))
    self.assertIn(('string', 'AsString'), found)
    self.assertIn(('dynamic_shape', 'Where'), found)

  def test_node_pinned_to_the_host(self):

    def pinned(x):
      with tf.device('/cpu:0'):
        return x * 2.

    function = tf.function(pinned)
    found = _kinds(device_audit.audit_function('planted', function,
                                               (tf.ones([2]),)))
    self.assertIn(('host_pinned', 'Mul'), found)
    # A program's own devices (a strategy's replicas) are not the host's.
    self.assertEqual(device_audit.audit_function(
        'planted', function, (tf.ones([2]),), devices=['/cpu:0']), [])

  def test_hlo_float64_and_bounded_dimensions(self):
    hlo = ('ENTRY main { p = f32[<=4]{0} parameter(0)\n'
           '  c = f64[2]{0} convert(p) }')
    found = _kinds(device_audit.hlo_findings(hlo))
    self.assertEqual(found, {('float64', 'HLO'), ('dynamic_shape', 'HLO')})
    self.assertEqual(device_audit.hlo_findings('f32[4] bf16[2,3]'), [])

  def test_an_allowance_keeps_the_finding_with_its_reason(self):
    function = tf.function(lambda x: x * tf.random.gamma([2], 0.5))
    allowance = device_audit.Allowance('plant*', 'no_gpu_kernel',
                                       'RandomGamma', 'a planted sampler')
    (finding,) = device_audit.audit_function(
        'planted', function, (tf.ones([2]),), allowances=[allowance])
    self.assertEqual(finding.allowance, 'a planted sampler')
    report = device_audit.ProgramReport('planted', [finding])
    self.assertEqual(report.problems, [])
    self.assertEqual(
        device_audit.format_report(report).splitlines()[0],
        'planted: ok (0 problems, 1 allowed)')


if __name__ == '__main__':
  absltest.main()
