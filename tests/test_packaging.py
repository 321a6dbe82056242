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
"""Tests of the package setup.py builds: the wheel a user installs.

Slow for a unit test (tens of seconds): it builds the wheel with pip from a
copy of the source tree, installs it into a temporary directory and runs
one of its console scripts there, which imports TensorFlow. It needs the
source tree (setup.py), so it skips where only runfiles are (Bazel).
"""

import configparser
import email
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The flags a run starts with, shared by both launchers (common_flags.py).
_FIRST_FLAGS = ('preset', 'env', 'checkpoint_dir', 'logdir',
                'num_simulations', 'seed')


@pytest.fixture(scope='module')
def wheel(tmp_path_factory) -> str:
  """Builds the wheel from a copy of the tree (no build/ left in it)."""
  if not os.path.isfile(os.path.join(_ROOT, 'setup.py')):
    pytest.skip(f'no setup.py at {_ROOT}: not the source tree')
  source = tmp_path_factory.mktemp('source') / 'muzero_snt'
  shutil.copytree(_ROOT, source, ignore=shutil.ignore_patterns(
      '.git', 'build', 'dist', '*.egg-info', '__pycache__', 'bazel-*',
      '.venv', '*.whl'))
  # The copy keeps tests/ and benchmarks/: the wheel must leave them out.
  assert os.path.isdir(source / 'tests'), 'the copy should hold tests/'
  out = tmp_path_factory.mktemp('wheel')
  subprocess.run(
      [sys.executable, '-m', 'pip', 'wheel', '--no-deps',
       '--no-build-isolation', '--no-index', '-q', '-w', str(out),
       str(source)], check=True, capture_output=True)
  (name,) = os.listdir(out)
  return str(out / name)


def _read(wheel_path: str, suffix: str) -> str:
  with zipfile.ZipFile(wheel_path) as archive:
    (name,) = [n for n in archive.namelist()
               if n.endswith(f'.dist-info/{suffix}')]
    return archive.read(name).decode('utf-8')


def test_wheel_ships_the_launchers_and_not_the_repository_tools(wheel):
  with zipfile.ZipFile(wheel) as archive:
    names = archive.namelist()
  for launcher in ('train', 'evaluate', 'common_flags', 'scripts'):
    assert f'launchers/{launcher}.py' in names
  assert 'muzero_snt/run/experiment.py' in names
  top = {name.split('/')[0] for name in names}
  assert not top & {'tests', 'benchmarks', 'tools', 'docs'}, sorted(top)


def test_entry_points_name_both_console_scripts(wheel):
  entry_points = configparser.ConfigParser()
  entry_points.read_string(_read(wheel, 'entry_points.txt'))
  assert dict(entry_points['console_scripts']) == {
      'muzero-snt-train': 'launchers.scripts:train',
      'muzero-snt-evaluate': 'launchers.scripts:evaluate',
  }


def test_description_has_no_relative_link(wheel):
  description = email.message_from_string(
      _read(wheel, 'METADATA')).get_payload()
  assert description.startswith('# muzero_snt'), description[:80]
  targets = re.findall(r'\]\(([^)]*)\)', description)
  assert targets, 'the description lost its absolute links too'
  relative = [t for t in targets
              if not t.startswith(('https://', 'http://', '#'))]
  assert not relative, relative
  # The documents stay named, as files of the repository.
  assert 'training (docs/training.md)' in description
  assert '(docs/results.md)' in description


def test_installed_console_script_shows_the_launcher_and_its_flags(
    wheel, tmp_path):
  target = tmp_path / 'site'
  subprocess.run(
      [sys.executable, '-m', 'pip', 'install', '--no-deps', '--no-index',
       '-q', '--target', str(target), wheel], check=True,
      capture_output=True)
  # Outside the repository, with the installed copy first on the path.
  env = dict(os.environ, PYTHONPATH=str(target))
  result = subprocess.run(
      [str(target / 'bin' / 'muzero-snt-train'), '--help'],
      cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
  help_text = result.stdout
  assert help_text.startswith('Trains MuZero'), (help_text[:200],
                                                 result.stderr[-2000:])
  # absl heads the flags with the main module: the installed launcher.
  assert f'\n{target}/launchers/train.py:\n' in help_text
  listed = set(re.findall(r'^  --(?:\[no\])?(\w+):', help_text, re.M))
  assert set(_FIRST_FLAGS) <= listed, sorted(listed)
  assert {'data', 'training_steps', 'num_actors'} <= listed
