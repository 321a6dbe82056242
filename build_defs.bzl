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

"""Thin wrappers around Bazel's native Python rules for muzero_snt.

Every Python target of the project goes through these macros, so that all of
them agree on the Python version, the test runner and the test sizes:

  muzero_py_library: one library module (`foo.py` -> target `foo`).
  muzero_py_test:    one pytest file, run by //tools:pytest_runner.py.
  muzero_py_binary:  one launcher or benchmark script.

Third-party packages (TensorFlow, Sonnet, ...) are not Bazel targets: they
come from the Python environment of the toolchain in //tools. BUILD files
note them as `# pip: <package>` comments beside the first-party deps.
"""

_RUNNER = "//tools:pytest_runner.py"

def muzero_py_library(name, srcs = None, deps = [], **kwargs):
    """A py_library for Python 3; `srcs` defaults to `[name + ".py"]`."""
    native.py_library(
        name = name,
        srcs = [name + ".py"] if srcs == None else srcs,
        deps = deps,
        srcs_version = "PY3",
        **kwargs
    )

def muzero_py_test(
        name,
        src = None,
        deps = [],
        data = [],
        args = [],
        size = "medium",
        **kwargs):
    """A py_test that runs one pytest file through //tools:pytest_runner.py.

    Args:
      name: the target's name, by convention the file's name without `.py`.
      src: the pytest file; defaults to `name + ".py"`.
      deps: first-party py_library targets that the test imports.
      data: files that the test reads at run time.
      args: extra pytest arguments, after the test file.
      size: Bazel test size. "medium" (300 s timeout) fits most TensorFlow
        tests, which spend seconds importing TensorFlow alone; use "large"
        (900 s) and `tags = ["slow"]` for training runs.
      **kwargs: any other py_test attribute (`tags`, `timeout`, `shard_count`,
        `flaky`, ...).
    """
    src = src or (name + ".py")
    native.py_test(
        name = name,
        srcs = [src, _RUNNER],
        main = _RUNNER,
        args = ["$(rootpath %s)" % src] + args,
        data = data + ["//:pytest_config"],
        deps = deps,
        size = size,
        python_version = "PY3",
        srcs_version = "PY3",
        **kwargs
    )

def muzero_py_binary(name, src = None, deps = [], **kwargs):
    """A py_binary whose main is `src` (default `name + ".py"`)."""
    src = src or (name + ".py")
    native.py_binary(
        name = name,
        srcs = [src],
        main = src,
        deps = deps,
        python_version = "PY3",
        srcs_version = "PY3",
        **kwargs
    )
