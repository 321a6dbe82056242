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
"""Runs one pytest file as a Bazel test: the main of every muzero_py_test.

Usage (Bazel passes the arguments; see //:build_defs.bzl):

  pytest_runner.py TEST_FILE [PYTEST_ARGS...]

TEST_FILE is the test's runfiles path (`$(rootpath ...)`), relative to the
current directory, which Bazel sets to the test's runfiles tree. Exits with
pytest's exit code. The JUnit XML that Bazel asks for in $XML_OUTPUT_FILE is
written by pytest, so `bazel test` reports each test case.
"""

import os
import sys


def _pytest_args(test_file, extra_args):
  """Builds pytest's command line for one test file."""
  args = [
      test_file,
      '-q',
      # The runfiles tree is read-only and rebuilt at will: keep pytest's
      # cache out of it, and its rootdir where the sources are.
      '-p', 'no:cacheprovider',
      '--rootdir', os.getcwd(),
  ]
  xml_output = os.environ.get('XML_OUTPUT_FILE')
  if xml_output:
    args.append('--junitxml=' + xml_output)
  # `bazel test --test_filter=EXPR` selects test cases as pytest's -k does.
  test_filter = os.environ.get('TESTBRIDGE_TEST_ONLY')
  if test_filter:
    args += ['-k', test_filter]
  return args + list(extra_args)


def main(argv):
  if len(argv) < 2:
    sys.stderr.write('usage: pytest_runner.py TEST_FILE [PYTEST_ARGS...]\n')
    return 2
  test_file = argv[1]
  if not os.path.isfile(test_file):
    sys.stderr.write('pytest_runner.py: no test file %r under %s\n' %
                     (test_file, os.getcwd()))
    return 2
  # Import pytest only now, so that a missing pytest is reported clearly.
  import pytest  # pylint: disable=g-import-not-at-top
  return int(pytest.main(_pytest_args(test_file, argv[2:])))


if __name__ == '__main__':
  sys.exit(main(sys.argv))
