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
"""Tests of environment factories by import string."""

import functools
import os
import sys
import tempfile

from absl.testing import absltest
import dm_env

from examples import corridor
from muzero_snt.environments import factories


def make_corridor(seed):
  return corridor.Corridor(seed)


class LoadFactoryTest(absltest.TestCase):

  def test_an_import_string_names_the_callable(self):
    self.assertIs(factories.load_factory('examples.corridor:Corridor'),
                  corridor.Corridor)
    self.assertIs(
        factories.load_factory(
            'tests.environments.test_factories:LoadFactoryTest.setUp'),
        LoadFactoryTest.setUp)

  def test_each_fault_is_one_line_naming_the_string(self):
    for name, message in (
        ('examples.corridor', r"environment='examples\.corridor' is not an "
         r"import string; expected 'package\.module:factory'\."),
        ('no_such_package.games:make',
         r"environment='no_such_package\.games:make': there is no module "
         r"'no_such_package' \(is its package installed, or its directory "
         r"on PYTHONPATH\?\)\."),
        ('examples.corridor:Corridr',
         r"environment='examples\.corridor:Corridr': module "
         r"'examples\.corridor' has no attribute 'Corridr'\."),
        ('examples.corridor:LENGTH',
         r"environment='examples\.corridor:LENGTH' is 5, not a callable; "
         r'expected a factory seed -> dm_env\.Environment\.'),
        ('tests.x:make.<locals>.<lambda>',
         r"environment='tests\.x:make\.<locals>\.<lambda>' names a lambda, a "
         r'local function, a callable object or a function of a script run '
         r'directly'),
        ('functools:partial(...)', r"environment='functools:partial\(\.\.\.\)' "
         r'names a lambda'),
        ('__main__:make', r"environment='__main__:make' names a lambda")):
      with self.subTest(name):
        with self.assertRaisesRegex(ValueError, message) as raised:
          factories.load_factory(name)
        self.assertNotIn('\n', str(raised.exception))

  def test_a_missing_module_inside_the_users_module_keeps_its_error(self):
    with tempfile.TemporaryDirectory() as directory:
      with open(os.path.join(directory, 'user_game_x1.py'), 'w') as f:
        f.write('import no_such_dependency_x1\n')
      sys.path.insert(0, directory)
      try:
        with self.assertRaisesRegex(ModuleNotFoundError,
                                    'no_such_dependency_x1'):
          factories.load_factory('user_game_x1:make')
      finally:
        sys.path.remove(directory)


class FactoryNameTest(absltest.TestCase):

  def test_module_level_callables_are_importable_by_their_name(self):
    for factory, name in (
        (corridor.Corridor, 'examples.corridor:Corridor'),
        (make_corridor, 'tests.environments.test_factories:make_corridor'),
        ('a.b:c', 'a.b:c')):
      self.assertEqual(factories.factory_name(factory), name)
      self.assertTrue(factories.is_importable(factory))
      if not isinstance(factory, str):
        self.assertIs(factories.load_factory(name), factory)

  def test_lambdas_local_functions_and_objects_are_not(self):
    def local(seed):
      return corridor.Corridor(seed)

    for factory, name in (
        (lambda seed: None, 'test_factories:FactoryNameTest.'
         'test_lambdas_local_functions_and_objects_are_not.<locals>.'
         '<lambda>'),
        (local, '<locals>.local'),
        (functools.partial(make_corridor), ':partial(...)')):
      self.assertIn(name, factories.factory_name(factory))
      self.assertFalse(factories.is_importable(factory))
      # Nor is the name saved for one.
      self.assertFalse(factories.is_importable(
          factories.factory_name(factory)))

  def test_call_refuses_what_is_not_an_environment(self):
    self.assertIsInstance(factories.call(corridor.Corridor, 3),
                          dm_env.Environment)
    with self.assertRaisesRegex(
        TypeError, r'The environment factory .*<lambda> returned 3 for seed '
        r'7; expected a dm_env\.Environment\.'):
      factories.call(lambda seed: 3, 7)


if __name__ == '__main__':
  absltest.main()
