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
"""Checks that the Bazel BUILD files cover every Python file of the project.

The checks, with `tools/build_files.py` reading the BUILD and Python files:

  * every `.py` file under muzero_snt/, tests/, launchers/ and benchmarks/ is
    a source of a Python target of the BUILD file that owns it; test files
    (`test_*.py`, `*_test.py`) of `muzero_py_test` targets, and scripts with a
    `__main__` block under launchers/ and benchmarks/ of `muzero_py_binary`;
  * every source file a target names exists, and every first-party dep names
    a target that exists;
  * every first-party import of a target's sources is provided by a file of
    the target's transitive deps (else Bazel's runfiles lack it and the
    import fails under `bazel test` only), and every test has the
    `conftest.py` files that pytest loads for it;
  * the public library target `//:muzero_snt` contains every library module
    of the muzero_snt package;
  * the tests tagged "smoke", the ones CI runs under Bazel, are exactly
    `build_files.SMOKE_TESTS`, in the BUILD files and in what `--write`
    writes.

A failure message shows the target to add; `python -m tools.build_files
--write` rewrites the BUILD files. The Bazel target is tagged "external" so
that Bazel never takes its result from the cache.
"""

import os
from typing import List

import pytest

from tools import build_files


# --------------------------------------------------------------------------
# The checks.


@pytest.fixture(scope='module')
def ws():
  if not os.path.isfile(os.path.join(build_files.ROOT, 'WORKSPACE')):
    pytest.skip('no WORKSPACE at %s: not the source tree' % build_files.ROOT)
  return build_files.Workspace()


def _report(problems: List[str]):
  if problems:
    pytest.fail('\n\n'.join(problems), pytrace=False)


def test_every_python_file_has_a_target(ws):
  problems = []
  for f in ws.files:
    package = build_files.owning_package(f)
    in_package = [t for t in ws.owner.get(f, []) if t.package == package]
    if not in_package:
      problems.append('%s is in no BUILD target; %s' % (f, ws.suggestion(f)))
  _report(problems)


def test_test_files_are_tests_and_scripts_are_binaries(ws):
  problems = []
  for f in ws.files:
    kind = build_files.expected_kind(f)
    owners = ws.owner.get(f, [])
    if owners and kind != 'library' and not any(t.kind == kind
                                                for t in owners):
      problems.append('%s is not the source of a %s (it is in %s); %s' %
                      (f, build_files.MACRO_OF_KIND[kind],
                       ', '.join(t.label for t in owners), ws.suggestion(f)))
  _report(problems)


def test_every_named_source_exists(ws):
  problems = []
  for t in ws.targets.values():
    for s in t.srcs:
      path = os.path.join(build_files.ROOT, s)
      if s.endswith('.py') and not os.path.isfile(path):
        problems.append('%s:%d: %s names %s, which does not exist' %
                        (t.build_file, t.line, t.label, s))
  _report(problems)


def test_every_dep_exists(ws):
  problems = []
  for t in ws.targets.values():
    for d in t.deps:
      if d not in ws.targets:
        problems.append('%s:%d: %s depends on %s, which is no Python target' %
                        (t.build_file, t.line, t.label, d))
  _report(problems)


def test_imports_are_in_transitive_deps(ws):
  problems = []
  for t in ws.targets.values():
    if not any(s.split('/')[0] in build_files.SOURCE_DIRS for s in t.srcs):
      continue
    available = {s for dep in ws.closure(t.label) for s in dep.srcs}
    for s in t.srcs:
      path = os.path.join(build_files.ROOT, s)
      if not (s.endswith('.py') and os.path.isfile(path)):
        continue
      missing = sorted(ws.needed_files(s) - available)
      if missing:
        problems.append(
            '%s:%d: %s needs %s (imported by %s, or loaded by pytest) but no '
            'dep provides it: add %s to its deps' %
            (t.build_file, t.line, t.label, ', '.join(missing), s,
             ', '.join('"%s"' % ws.label_for(m) for m in missing)))
  _report(problems)


def test_public_library_has_every_module(ws):
  public = build_files.PUBLIC_TARGET
  if public not in ws.targets:
    pytest.fail('the root BUILD file has no %s target' % public)
  available = {s for t in ws.closure(public) for s in t.srcs}
  missing = [f for f in ws.files
             if f.startswith('muzero_snt/') and
             build_files.expected_kind(f) == 'library' and f not in available]
  if missing:
    pytest.fail('%s lacks %s: add %s to its deps in BUILD' %
                (public, ', '.join(missing), ', '.join(
                    '"%s"' % ws.label_for(m) for m in missing)),
                pytrace=False)


def _smoke_tagged(targets) -> List[str]:
  return sorted(t.label for t in targets
                if build_files.SMOKE_TAG in (t.attrs.get('tags') or []))


def test_smoke_tests_are_tagged(ws):
  """CI's `bazel test --config=smoke` runs SMOKE_TESTS: each is tagged."""
  expected = sorted(build_files.SMOKE_TESTS)
  for label in expected:
    target = ws.targets.get(label)
    if target is None or target.kind != 'test':
      pytest.fail('%s is in build_files.SMOKE_TESTS but is no test target' %
                  label, pytrace=False)
  tagged = _smoke_tagged(ws.targets.values())
  assert tagged == expected, (
      'the targets tagged "smoke" are %s, build_files.SMOKE_TESTS holds %s: '
      'run python -m tools.build_files --write' % (tagged, expected))


def test_write_keeps_the_smoke_tags(ws):
  """Regenerating the BUILD files tags SMOKE_TESTS, and only them."""
  generated = build_files.generate_build_files(ws)
  targets = [t for rel, text in generated.items()
             for t in build_files.parse_build_text(text, rel)]
  assert _smoke_tagged(targets) == sorted(build_files.SMOKE_TESTS)
  by_label = {t.label: t for t in targets}
  # Tags set for other reasons stay beside the smoke tag.
  assert by_label['//tests:test_build_files'].attrs['tags'] == [
      'external', build_files.SMOKE_TAG]


def test_smoke_tags_follow_the_list():
  smoke = build_files.SMOKE_TESTS[0]
  assert build_files.smoke_tags(smoke, None) == [build_files.SMOKE_TAG]
  assert build_files.smoke_tags(smoke, ['no-sandbox', 'smoke']) == [
      'no-sandbox', build_files.SMOKE_TAG]
  assert build_files.smoke_tags('//tests:not_smoke', ['smoke']) is None
  assert build_files.smoke_tags('//tests:not_smoke',
                                ['smoke', 'external']) == ['external']


def test_checks_catch_a_file_without_target(ws, monkeypatch, tmp_path):
  """The checks above fail for a module that no BUILD file lists."""
  del ws  # Only for the skip when not in the source tree.
  fake_root = tmp_path / 'repo'
  (fake_root / 'muzero_snt').mkdir(parents=True)
  (fake_root / 'WORKSPACE').write_text('')
  (fake_root / 'BUILD').write_text(
      'muzero_py_library(name = "muzero_snt", srcs = [], '
      'deps = ["//muzero_snt:a"])\n')
  (fake_root / 'muzero_snt' / 'BUILD').write_text(
      'muzero_py_library(name = "a")\n'
      'muzero_py_library(name = "gone")\n')
  (fake_root / 'muzero_snt' / 'a.py').write_text(
      'from muzero_snt import b\n')
  (fake_root / 'muzero_snt' / 'b.py').write_text('import numpy\n')
  monkeypatch.setattr(build_files, 'ROOT', str(fake_root))
  fake = build_files.Workspace()
  for check in (test_every_python_file_has_a_target,
                test_every_named_source_exists,
                test_imports_are_in_transitive_deps,
                test_public_library_has_every_module):
    with pytest.raises(pytest.fail.Exception) as info:
      check(fake)
    assert 'muzero_snt/' in str(info.value), check.__name__
  assert 'muzero_py_library(\n    name = "b"' in fake.suggestion(
      'muzero_snt/b.py')
