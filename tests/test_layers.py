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
"""Tests that the package's zones import only downwards.

The algorithm (the package's top level and its `networks/`, `search/`
and `environments/`) imports nothing of the machinery that runs an
experiment (`run/`), of `evaluation/` or of `distributed/`; `run/`
reaches `distributed/` only from its top, `experiment.py`, which starts
the Ray processes; nothing imports `benchmarks`; the examples, written as a
user writes, import the public face `muzero_snt` only. Read from the source
text, so that a lazy import inside a function counts too.
"""

import os
import re

from absl.testing import absltest

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_IMPORT = re.compile(
    r'^\s*(?:from (muzero_snt(?:\.\w+)*|benchmarks(?:\.\w+)*) import (\w+)|'
    r'import (muzero_snt(?:\.\w+)*|benchmarks(?:\.\w+)*))', re.M)
_ALGORITHM = ('networks', 'search', 'environments')
_ZONES = ('run', 'evaluation', 'distributed')


def _zone(module: str) -> str:
  """'algorithm', a subpackage's name, 'benchmarks' or 'face'."""
  parts = module.split('.')
  if parts[0] == 'benchmarks':
    return 'benchmarks'
  if len(parts) == 1:
    return 'face'
  return parts[1] if parts[1] in _ZONES else 'algorithm'


def _imports(path: str):
  """The modules a file imports, `from a import b` counted as `a.b`."""
  with open(path) as f:
    text = f.read()
  for match in _IMPORT.finditer(text):
    if match.group(3):
      yield match.group(3)
    else:
      yield f'{match.group(1)}.{match.group(2)}'


def _modules(top: str):
  for directory, _, names in os.walk(os.path.join(_ROOT, top)):
    for name in sorted(names):
      if name.endswith('.py'):
        path = os.path.join(directory, name)
        module = os.path.relpath(path, _ROOT)[:-3].replace(os.sep, '.')
        yield module.removesuffix('.__init__'), path


class LayersTest(absltest.TestCase):

  def test_each_zone_imports_only_below_itself(self):
    allowed = {
        'algorithm': {'algorithm'},
        'run': {'algorithm', 'run'},
        'evaluation': {'algorithm', 'run', 'evaluation'},
        'distributed': {'algorithm', 'run', 'evaluation', 'distributed'},
    }
    wrong = []
    for module, path in _modules('muzero_snt'):
      zone = _zone(module)
      if zone == 'face':
        continue  # The public face re-exports from every zone.
      for imported in _imports(path):
        target = _zone(imported)
        if target == 'face':
          continue  # `from muzero_snt import x`: x's zone is x's.
        ok = target in allowed[zone] or (
            module == 'muzero_snt.run.experiment' and target == 'distributed')
        if not ok:
          wrong.append(f'{module} ({zone}) imports {imported} ({target})')
    self.assertEqual(wrong, [])

  def test_no_test_or_library_imports_benchmarks(self):
    wrong = [f'{module} imports {imported}'
             for top in ('muzero_snt', 'tests', 'launchers', 'examples')
             for module, path in _modules(top)
             for imported in _imports(path)
             if _zone(imported) == 'benchmarks']
    self.assertEqual(wrong, [])

  def test_examples_import_only_the_public_face(self):
    imported = [(module, name) for module, path in _modules('examples')
                for name in _imports(path)]
    self.assertIn(('examples.corridor', 'muzero_snt'), imported)
    self.assertEqual(
        [f'{module} imports {name}' for module, name in imported
         if _zone(name) != 'face'], [])

  def test_the_zones_are_what_the_checks_read(self):
    # A check that reads nothing would pass anyway: each zone has modules
    # and imports to check.
    zones = {}
    for module, path in _modules('muzero_snt'):
      zones.setdefault(_zone(module), []).extend(_imports(path))
    for zone in ('algorithm', 'run', 'evaluation', 'distributed'):
      self.assertNotEmpty(zones.get(zone), zone)


if __name__ == '__main__':
  absltest.main()
