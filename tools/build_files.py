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
"""Reads, checks and writes the Bazel BUILD files of the Python code.

No Bazel needed: BUILD files are read with Python's `ast` (their syntax is a
subset of Python's). `Workspace` knows every Python file under
muzero_snt/, tests/, launchers/, examples/ and benchmarks/, the target that
owns it, what it imports, and the target a file without one should get;
tests/test_build_files.py turns that into checks. The same logic prints or
rewrites the BUILD files:

  python -m tools.build_files --print muzero_snt/networks
  python -m tools.build_files --write   # all of them; keeps size/tags

--write also tags the tests of SMOKE_TESTS, the ones CI runs under Bazel.

Under `bazel test` it reads the real source tree, found through the symlink
of this file in the runfiles.
"""

import ast
import collections
import dataclasses
import os
import re
import sys
from typing import Dict, Iterable, List, Optional, Set, Tuple


ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))

# Directories whose Python files must all be in BUILD targets.
SOURCE_DIRS = ('muzero_snt', 'tests', 'launchers', 'examples', 'benchmarks')
# Importable first-party directories: SOURCE_DIRS and this tool's own.
FIRST_PARTY_DIRS = SOURCE_DIRS + ('tools',)
# Directories of scripts: a file with a `__main__` block is a py_binary.
SCRIPT_DIRS = ('launchers', 'examples', 'benchmarks')
BUILD_NAMES = ('BUILD', 'BUILD.bazel')
PUBLIC_TARGET = '//:muzero_snt'
TEST_FILE_RE = re.compile(r'^(test_.*|.*_test)\.py$')

# Rule (or macro) name -> kind of Python target.
PY_RULES = {
    'muzero_py_library': 'library',
    'muzero_py_test': 'test',
    'muzero_py_binary': 'binary',
    'py_library': 'library',
    'py_test': 'test',
    'py_binary': 'binary',
}
MACRO_OF_KIND = {
    'library': 'muzero_py_library',
    'test': 'muzero_py_test',
    'binary': 'muzero_py_binary',
}
# Attributes that --write keeps from the existing target of the same name.
KEPT_ATTRIBUTES = ('size', 'timeout', 'tags', 'args', 'data', 'shard_count',
                   'flaky', 'env')

# Attributes of particular targets when their BUILD files do not set them.
DEFAULT_ATTRIBUTES = {
    # This test reads the source tree, not its runfiles: Bazel cannot see
    # what it depends on, so it must never pass from the cache.
    '//tests:test_build_files': {'size': 'small', 'tags': ['external']},
}

# The tests that CI runs under Bazel (`bazel test --config=smoke //...`),
# which --write tags SMOKE_TAG, and no other target. pytest runs every test
# once; under Bazel a few fast ones are enough to show that the test macro,
# the pytest runner and the runfiles work: the BUILD checks (which read the
# source tree), the public library imported in a fresh interpreter, and
# tests of the top test package and of nested ones with their helper
# libraries (numpy_reference, testing, conftest). See docs/bazel.md.
SMOKE_TAG = 'smoke'
SMOKE_TESTS = (
    '//tests:test_build_files',
    '//tests:test_imports',
    '//tests:test_value_transforms',
    '//tests/networks:test_mlp',
    '//tests/environments:test_tictactoe',
)

# Import name -> PyPI name, for the `# pip:` comments of the BUILD files.
PIP_NAMES = {
    'absl': 'absl-py',
    'dm_env': 'dm-env',
    'google.protobuf': 'protobuf',
    'lzero': 'LightZero',
    # muzero-general's top-level modules: a checkout on the path of its own
    # venv (benchmarks/peers/install_muzero_general.sh), not on PyPI.
    'models': 'muzero-general',
    'self_play': 'muzero-general',
    'trainer': 'muzero-general',
    'sonnet': 'dm-sonnet',
    'tensorflow_probability': 'tensorflow-probability',
    'tree': 'dm-tree',
    'yaml': 'pyyaml',
}

PACKAGE_DESCRIPTIONS = {
    'muzero_snt': 'The muzero_snt package: one py_library per module.',
    'muzero_snt/networks': (
        'Representation, dynamics and prediction networks: one py_library '
        'per module.'),
    'tests': 'Tests of muzero_snt: one py_test per pytest file.',
    'launchers': 'Launchers: one py_binary per script.',
    'examples': ('Examples a user copies, run by tests/examples: one '
                 'py_binary per script.'),
    'benchmarks': ('Benchmarks: one py_binary per script, one py_test per '
                   'test of their helpers.'),
}

# --------------------------------------------------------------------------
# Reading BUILD files.


@dataclasses.dataclass
class Target:
  """A Python target of a BUILD file, as far as the checks need it."""
  package: str  # '' for the root package.
  name: str
  kind: str  # 'library', 'test', 'binary'.
  rule: str
  srcs: List[str]  # Repository-relative paths.
  deps: List[str]  # Absolute labels, first-party only.
  attrs: Dict[str, object]
  build_file: str
  line: int

  @property
  def label(self) -> str:
    return '//%s:%s' % (self.package, self.name)


class BuildFileError(Exception):
  pass


def _literal(node: ast.AST):
  try:
    return ast.literal_eval(node)
  except ValueError:
    return None  # `glob(...)`, `name + ".py"` and such.


def normalize_label(label: str, package: str) -> Optional[str]:
  """`label` as `//pkg:name`, or None for an external (`@repo`) one."""
  if label.startswith('@'):
    return None
  if label.startswith('//'):
    if ':' in label:
      return label
    return '%s:%s' % (label, label.rsplit('/', 1)[-1])
  return '//%s:%s' % (package, label.lstrip(':'))


def label_to_path(label: str) -> str:
  """The repository-relative path of a file label `//pkg:file`."""
  package, name = label[2:].split(':', 1)
  return os.path.join(package, name) if package else name


def parse_build_file(path: str) -> List[Target]:
  """The Python targets that the BUILD file at `path` declares."""
  with open(path) as f:
    return parse_build_text(f.read(), os.path.relpath(path, ROOT))


def parse_build_text(source: str, rel: str) -> List[Target]:
  """The Python targets of BUILD text `source`, read from `rel`."""
  package = os.path.dirname(rel).replace(os.sep, '/')
  try:
    tree = ast.parse(source, filename=rel)
  except SyntaxError as e:
    raise BuildFileError('%s: cannot parse: %s' % (rel, e)) from e
  targets = []
  for node in tree.body:
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and
            isinstance(node.value.func, ast.Name)):
      continue
    rule = node.value.func.id
    if rule not in PY_RULES:
      continue
    keywords = [kw.arg for kw in node.value.keywords]
    if len(set(keywords)) != len(keywords) or None in keywords:
      raise BuildFileError('%s:%d: a %s with a repeated or ** argument' %
                           (rel, node.lineno, rule))
    attrs = {kw.arg: _literal(kw.value) for kw in node.value.keywords}
    name = attrs.get('name')
    if not isinstance(name, str):
      raise BuildFileError('%s:%d: a %s without a literal name' %
                           (rel, node.lineno, rule))
    kind = PY_RULES[rule]
    if rule.startswith('muzero_py_') and kind != 'library':
      srcs = [attrs.get('src') or name + '.py']
    elif rule == 'muzero_py_library' and 'srcs' not in attrs:
      srcs = [name + '.py']
    else:
      srcs = attrs.get('srcs') or []
      if not isinstance(srcs, list):
        raise BuildFileError('%s:%d: %s: srcs must be a literal list' %
                             (rel, node.lineno, name))
    src_paths = []
    for src in srcs:
      label = normalize_label(src, package)
      if label is not None:
        src_paths.append(label_to_path(label))
    deps = attrs.get('deps') or []
    if not isinstance(deps, list):
      raise BuildFileError('%s:%d: %s: deps must be a literal list' %
                           (rel, node.lineno, name))
    deps = [d for d in (normalize_label(d, package) for d in deps) if d]
    targets.append(Target(package, name, kind, rule, src_paths, deps, attrs,
                          rel, node.lineno))
  return targets


def find_build_files() -> List[str]:
  """Every BUILD file of the workspace but the ignored directories."""
  ignored = {'.git', '.venv', 'third_party'}
  found = []
  for dirpath, dirnames, filenames in os.walk(ROOT):
    rel = os.path.relpath(dirpath, ROOT)
    dirnames[:] = sorted(
        d for d in dirnames
        if not (rel == '.' and (d in ignored or d.startswith('bazel-'))) and
        not d.startswith('.') and d != '__pycache__')
    for b in BUILD_NAMES:
      if b in filenames:
        found.append(os.path.join(dirpath, b))
  return found


def load_targets() -> Dict[str, Target]:
  targets = {}
  for path in find_build_files():
    for t in parse_build_file(path):
      if t.label in targets:
        raise BuildFileError('%s: target %s declared twice' %
                             (t.build_file, t.label))
      targets[t.label] = t
  return targets


# --------------------------------------------------------------------------
# Reading Python files.


def python_files() -> List[str]:
  """Repository-relative paths of the `.py` files under SOURCE_DIRS."""
  found = []
  for top in SOURCE_DIRS:
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
      dirnames[:] = sorted(
          d for d in dirnames if d != '__pycache__' and not d.startswith('.'))
      for f in sorted(filenames):
        if f.endswith('.py'):
          found.append(
              os.path.relpath(os.path.join(dirpath, f), ROOT).replace(
                  os.sep, '/'))
  return found


def owning_package(path: str) -> str:
  """The Bazel package of a file: its nearest directory with a BUILD file."""
  d = os.path.dirname(path)
  while d:
    if any(os.path.isfile(os.path.join(ROOT, d, b)) for b in BUILD_NAMES):
      return d
    d = os.path.dirname(d)
  return ''


def _parse_python(path: str) -> ast.Module:
  with open(os.path.join(ROOT, path)) as f:
    return ast.parse(f.read(), filename=path)


def module_file(module: str) -> Optional[str]:
  """The first-party file of a dotted module name, or None."""
  parts = module.split('.')
  if parts[0] not in FIRST_PARTY_DIRS:
    return None
  base = '/'.join(parts)
  for candidate in (base + '.py', base + '/__init__.py'):
    if os.path.isfile(os.path.join(ROOT, candidate)):
      return candidate
  return None


def _package_of(path: str) -> str:
  return os.path.dirname(path).replace('/', '.')


def imports_of(path: str) -> Tuple[Set[str], Set[str]]:
  """(first-party files, third-party top-level modules) that `path` imports.

  `from pkg import name` needs the module `pkg.name` when that is a file,
  else `pkg` itself (its `__init__.py`). Imports inside functions and
  `try` blocks count too: Bazel cannot tell which ones run.
  """
  first_party, third_party = set(), set()

  def need(module: str):
    f = module_file(module)
    if f is not None:
      first_party.add(f)
    elif module.split('.')[0] not in FIRST_PARTY_DIRS:
      third_party.add(module)

  for node in ast.walk(_parse_python(path)):
    if isinstance(node, ast.Import):
      for alias in node.names:
        need(alias.name)
    elif isinstance(node, ast.ImportFrom):
      if node.level:
        base = _package_of(path).split('.')
        base = base[:len(base) - node.level + 1]
        module = '.'.join(base + ([node.module] if node.module else []))
      else:
        module = node.module
      if not module:
        continue
      for alias in node.names:
        sub = module + '.' + alias.name
        if alias.name != '*' and module_file(sub) is not None:
          need(sub)
        else:
          need(module)
  first_party.discard(path)
  return first_party, third_party


def has_main_block(path: str) -> bool:
  for node in _parse_python(path).body:
    if (isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and
        isinstance(node.test.left, ast.Name) and
        node.test.left.id == '__name__'):
      return True
  return False


def expected_kind(path: str) -> str:
  if TEST_FILE_RE.match(os.path.basename(path)):
    return 'test'
  if path.split('/')[0] in SCRIPT_DIRS and has_main_block(path):
    return 'binary'
  return 'library'


def expected_name(path: str) -> str:
  """The conventional target name of a file: its stem, or its package's."""
  base = os.path.basename(path)
  if base == '__init__.py':
    return os.path.basename(os.path.dirname(path))
  return base[:-len('.py')]


def conftest_files(path: str) -> List[str]:
  """The conftest.py files that pytest loads for the test file `path`."""
  found = []
  d = os.path.dirname(path)
  while d:
    c = d + '/conftest.py'
    if os.path.isfile(os.path.join(ROOT, c)):
      found.append(c)
    d = os.path.dirname(d)
  return found


def pip_name(module: str) -> Optional[str]:
  """PyPI name of a third-party import, or None for the standard library."""
  top = module.split('.')[0]
  if top in sys.stdlib_module_names or top == '__future__':
    return None
  for prefix in (module, top):
    for imported, name in PIP_NAMES.items():
      if prefix == imported or prefix.startswith(imported + '.'):
        return name
  return top


# --------------------------------------------------------------------------
# The model: which target owns which file, and what each target needs.


class Workspace:
  """The BUILD targets and Python files of the repository, cross-indexed."""

  def __init__(self):
    self.targets = load_targets()
    self.files = python_files()
    self.owner: Dict[str, List[Target]] = collections.defaultdict(list)
    for t in self.targets.values():
      for s in t.srcs:
        self.owner[s].append(t)

  def label_for(self, path: str) -> str:
    """Label of the target that has `path`, else the conventional one."""
    owners = [t for t in self.owner.get(path, []) if t.kind != 'test']
    owners = owners or self.owner.get(path, [])
    if owners:
      return owners[0].label
    return '//%s:%s' % (os.path.dirname(path), expected_name(path))

  def closure(self, label: str) -> List[Target]:
    seen, stack, out = set(), [label], []
    while stack:
      lab = stack.pop()
      if lab in seen:
        continue
      seen.add(lab)
      t = self.targets.get(lab)
      if t is not None:
        out.append(t)
        stack.extend(t.deps)
    return out

  def needed_files(self, path: str) -> Set[str]:
    """First-party files that must be in the runfiles of a target of path."""
    first_party, _ = imports_of(path)
    if expected_kind(path) == 'test':
      first_party.update(c for c in conftest_files(path)
                         if os.path.dirname(c))  # The root one is data.
    return first_party

  def suggested_deps(self, path: str) -> Tuple[List[str], List[str]]:
    """(first-party labels, PyPI names) that a target of `path` needs."""
    first_party, third_party = imports_of(path)
    if expected_kind(path) == 'test':
      first_party.update(c for c in conftest_files(path) if os.path.dirname(c))
    labels = {self.label_for(f) for f in first_party}
    labels.discard(self.label_for(path))
    pips = {p for p in (pip_name(m) for m in third_party) if p}
    return sorted(labels), sorted(pips)

  def suggestion(self, path: str) -> str:
    """The BUILD entry to add for `path`, as text."""
    package = os.path.dirname(path)  # One BUILD file per directory.
    build = package + '/BUILD'
    if not os.path.isfile(os.path.join(ROOT, build)):
      build += (' (a new file: `python -m tools.build_files --print %s` '
                'prints it whole)' % package)
    kind = expected_kind(path)
    deps, pips = self.suggested_deps(path)
    visibility = (['//:__subpackages__'] if kind == 'library' and
                  path.startswith('muzero_snt/') else None)
    entry = format_target(MACRO_OF_KIND[kind], expected_name(path), package,
                          os.path.basename(path), deps, pips, visibility, {})
    return 'add to %s:\n%s' % (build, entry)


# --------------------------------------------------------------------------
# Writing BUILD files.


def _short_label(label: str, package: str) -> str:
  if label.startswith('//%s:' % package):
    return ':' + label.split(':', 1)[1]
  pkg, name = label[2:].split(':', 1)
  if pkg and pkg.rsplit('/', 1)[-1] == name:
    return '//' + pkg
  return label


def _label_sort_key(label: str):
  """Buildifier's order: local labels, then by package, then by name."""
  return (0 if label.startswith(':') else 1 if label.startswith('//') else 2,
          label.split(':'))


def _format_value(value, indent: str) -> str:
  if isinstance(value, list):
    if not value:
      return '[]'
    if len(value) == 1 and not isinstance(value[0], (list, dict)):
      return '[%s]' % _format_value(value[0], indent)
    inner = indent + '    '
    return '[\n%s%s]' % (''.join(
        '%s%s,\n' % (inner, _format_value(v, inner)) for v in value), indent)
  if isinstance(value, dict):
    inner = indent + '    '
    return '{\n%s%s}' % (''.join(
        '%s%s: %s,\n' % (inner, _format_value(k, inner),
                         _format_value(v, inner))
        for k, v in sorted(value.items())), indent)
  if isinstance(value, bool):
    return 'True' if value else 'False'
  if isinstance(value, str):
    return '"%s"' % value.replace('\\', '\\\\').replace('"', '\\"')
  return repr(value)


def format_target(macro: str, name: str, package: str, src: Optional[str],
                  deps: Iterable[str], pips: Iterable[str],
                  visibility: Optional[List[str]],
                  kept: Dict[str, object]) -> str:
  """One target of a BUILD file, as buildifier would lay it out."""
  lines = ['%s(' % macro, '    name = "%s",' % name]
  if src is not None:
    if macro == 'muzero_py_library':
      lines.append('    srcs = ["%s"],' % src)
    elif src != name + '.py':
      lines.append('    src = "%s",' % src)
  for attr in KEPT_ATTRIBUTES:
    if attr in kept and kept[attr] is not None:
      lines.append('    %s = %s,' % (attr, _format_value(kept[attr], '    ')))
  if visibility:
    lines.append('    visibility = %s,' % _format_value(visibility, '    '))
  deps = sorted({_short_label(d, package) for d in deps}, key=_label_sort_key)
  pips = sorted(set(pips))
  if deps or pips:
    lines.append('    deps = [')
    lines.extend('        "%s",' % d for d in deps)
    lines.extend('        # pip: %s' % p for p in pips)
    lines.append('    ],')
  lines.append(')')
  return '\n'.join(lines) + '\n'


def smoke_tags(label: str, tags: Optional[List[str]]) -> Optional[List[str]]:
  """`tags` with SMOKE_TAG exactly when `label` is in SMOKE_TESTS."""
  tags = [t for t in (tags or []) if t != SMOKE_TAG]
  if label in SMOKE_TESTS:
    tags.append(SMOKE_TAG)
  return sorted(tags) or None


def licence_header() -> str:
  """The licence header of this file: every BUILD file starts with it."""
  lines = []
  with open(os.path.realpath(__file__)) as f:
    for line in f:
      if not line.startswith('#'):
        break
      lines.append(line)
  return ''.join(lines)


def generate_build_files(ws: Workspace) -> Dict[str, str]:
  """Repository-relative BUILD path -> the text it should have.

  One BUILD file per directory of Python files (plus the root one with the
  public target). Attributes in KEPT_ATTRIBUTES are kept from the existing
  target of the same name, so tags and sizes set by hand survive.
  """
  by_dir = collections.defaultdict(list)
  for f in ws.files:
    by_dir[os.path.dirname(f)].append(f)
  # Who uses each label, to keep visibility as tight as it can be.
  plans = {}
  for d, files in by_dir.items():
    for f in files:
      kind = expected_kind(f)
      label = '//%s:%s' % (d, expected_name(f))
      deps, pips = ws.suggested_deps(f)
      plans[label] = (f, kind, deps, pips)
  users = collections.defaultdict(set)
  for label, (_, _, deps, _) in plans.items():
    # A target's kept `data` (e.g. a launcher a test runs in a subprocess)
    # uses its labels as much as its deps do.
    old = ws.targets.get(label)
    data = list(old.attrs.get('data') or []) if old is not None else []
    for dep in list(deps) + [d for d in data if isinstance(d, str)]:
      users[dep].add(label[2:].split(':', 1)[0])
  header = licence_header()
  out = {}
  library_labels = []
  for d in sorted(by_dir):
    kinds = set()
    body = []
    for f in sorted(by_dir[d], key=lambda p: expected_name(p)):
      name = expected_name(f)
      label = '//%s:%s' % (d, name)
      _, kind, deps, pips = plans[label]
      kinds.add(kind)
      if kind == 'library' and d.split('/')[0] == 'muzero_snt':
        visibility = ['//:__subpackages__']
        library_labels.append(label)
      else:
        others = sorted(p for p in users[label] if p != d)
        visibility = ['//%s:__pkg__' % p for p in others] or None
      old = ws.targets.get(label)
      kept = dict(DEFAULT_ATTRIBUTES.get(label, {}))
      kept.update((k, old.attrs.get(k)) for k in KEPT_ATTRIBUTES
                  if old is not None and k in old.attrs)
      kept['tags'] = smoke_tags(label, kept.get('tags'))
      body.append(
          format_target(MACRO_OF_KIND[kind], name, d, os.path.basename(f),
                        deps, pips, visibility, kept))
    macros = sorted(MACRO_OF_KIND[k] for k in kinds)
    description = PACKAGE_DESCRIPTIONS.get(d, 'Python targets of %s/.' % d)
    text = [header, '\n# %s\n\n' % description,
            'load("//:build_defs.bzl", %s)\n\n' %
            ', '.join('"%s"' % m for m in macros),
            'package(default_visibility = ["//visibility:private"])\n\n',
            'licenses(["notice"])  # Apache 2.0\n']
    for b in body:
      text.append('\n' + b)
    out[d + '/BUILD'] = ''.join(text)
  out['BUILD'] = _root_build(header, library_labels)
  return out


def _root_build(header: str, library_labels: List[str]) -> str:
  deps = ''.join('        "%s",\n' % lab for lab in sorted(
      {_short_label(lab, '') for lab in library_labels}, key=_label_sort_key))
  return header + '''
# muzero_snt: MuZero as Sonnet 2 modules on TensorFlow 2.
# Python targets live in the BUILD file of each package; see docs/bazel.md.
# tests/test_build_files.py checks that they cover every Python file.

load("//:build_defs.bzl", "muzero_py_library")

package(default_visibility = ["//visibility:private"])

licenses(["notice"])  # Apache 2.0

exports_files(["LICENSE"])

# The public library: every module of the muzero_snt package.
muzero_py_library(
    name = "muzero_snt",
    srcs = [],
    visibility = ["//visibility:public"],
    deps = [
%s    ],
)

# pytest's configuration and root conftest.py, if any: data of every test.
filegroup(
    name = "pytest_config",
    srcs = glob([
        "conftest.py",
        "pyproject.toml",
        "pytest.ini",
        "setup.cfg",
        "tox.ini",
    ]),
    visibility = ["//:__subpackages__"],
)
''' % deps


# --------------------------------------------------------------------------
# Command line: print or write the BUILD files.


def main(argv: List[str]) -> int:
  usage = ('usage: python -m tools.build_files --print DIR... | --write\n'
           '  --print DIR  print the BUILD file that DIR should have\n'
           '  --write      rewrite every BUILD file of SOURCE_DIRS and the '
           'root one\n')
  if len(argv) < 2 or argv[1] not in ('--print', '--write'):
    sys.stderr.write(usage)
    return 2
  generated = generate_build_files(Workspace())
  if argv[1] == '--print':
    for d in argv[2:]:
      key = d.strip('/') + '/BUILD' if d.strip('/.') else 'BUILD'
      if key not in generated:
        sys.stderr.write('no Python files in %s\n' % d)
        return 1
      sys.stdout.write(generated[key])
    return 0
  for rel, text in sorted(generated.items()):
    path = os.path.join(ROOT, rel)
    old = open(path).read() if os.path.exists(path) else None
    if old != text:
      with open(path, 'w') as f:
        f.write(text)
      print('wrote', rel)
  return 0


if __name__ == '__main__':
  sys.exit(main(sys.argv))
