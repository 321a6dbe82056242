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
"""A user's environment factory, `seed -> dm_env.Environment`, by name.

A run names its factory by an import string, 'package.module:factory', so
that another process can build its environments again. A lambda, a local
function or a function of a script run directly cannot be imported: a run
that used one can be continued only by passing the same factory.
"""

import importlib
import sys
from typing import Callable, Union

import dm_env

EnvironmentFactory = Callable[[int], dm_env.Environment]
# A factory or its import string.
FactoryOrName = Union[str, EnvironmentFactory]


def _module_name(factory) -> str:
  module = getattr(factory, '__module__', None) or ''
  if module == '__main__':
    # `python -m package.module` runs the module as __main__; its spec
    # keeps the name another process imports it by.
    spec = getattr(sys.modules.get('__main__'), '__spec__', None)
    if spec is not None and spec.name:
      module = spec.name.removesuffix('.__main__')
  return module


def factory_name(factory: FactoryOrName) -> str:
  """'module:qualified_name' of a factory (an import string: itself)."""
  if isinstance(factory, str):
    return factory
  qualname = getattr(factory, '__qualname__', None)
  if qualname is None:  # An instance: a partial, a callable object.
    qualname = f'{type(factory).__qualname__}(...)'
  return f'{_module_name(factory)}:{qualname}'


def is_importable(factory: FactoryOrName) -> bool:
  """Whether `factory_name(factory)` imports as `factory` in any process.

  Not for a lambda, a local function, a callable object or a script's
  function, nor for the import string saved for one. Nothing is imported.
  """
  if isinstance(factory, str):
    return not (set('<(') & set(factory) or factory.startswith('__main__:'))
  qualname = getattr(factory, '__qualname__', None)
  module = _module_name(factory)
  if not qualname or '<' in qualname or not module or module == '__main__':
    return False
  if getattr(factory, '__module__', None) == '__main__':
    return True  # Run as `python -m module`: importable by that name.
  target = sys.modules.get(module)
  for part in qualname.split('.'):
    target = getattr(target, part, None)
  return target is factory


def load_factory(name: str) -> EnvironmentFactory:
  """The callable that the import string 'package.module:factory' names; a
  `ValueError` naming `name` if it is not of that form, is not importable
  (`is_importable`), or does not import as a callable."""
  module_name, colon, attribute = name.partition(':')
  if not (colon and module_name and attribute) or ':' in attribute:
    raise ValueError(
        f"environment={name!r} is not an import string; expected "
        f"'package.module:factory'.")
  if set('<(') & set(attribute) or module_name == '__main__':
    raise ValueError(
        f'environment={name!r} names a lambda, a local function, a '
        'callable object or a function of a script run directly, which '
        'another process cannot import; pass the same factory itself as '
        'environment.')
  try:
    module = importlib.import_module(module_name)
  except ModuleNotFoundError as e:
    if e.name is None or not (module_name == e.name or
                              module_name.startswith(e.name + '.')):
      raise  # A module the user's module imports: its own traceback.
    raise ValueError(
        f'environment={name!r}: there is no module {e.name!r} (is its '
        'package installed, or its directory on PYTHONPATH?).') from e
  target = module
  for part in attribute.split('.'):
    if not hasattr(target, part):
      raise ValueError(f'environment={name!r}: module {module_name!r} has no '
                       f'attribute {attribute!r}.')
    target = getattr(target, part)
  if not callable(target):
    raise ValueError(
        f'environment={name!r} is {target!r}, not a callable; expected a '
        'factory seed -> dm_env.Environment.')
  return target


def resolve(factory: FactoryOrName) -> EnvironmentFactory:
  """The callable of a factory or of its import string (`load_factory`)."""
  return load_factory(factory) if isinstance(factory, str) else factory


def call(factory: EnvironmentFactory, seed: int) -> dm_env.Environment:
  """`factory(seed)`; a `TypeError` naming the factory if that is not a
  `dm_env.Environment`."""
  environment = factory(seed)
  if not isinstance(environment, dm_env.Environment):
    raise TypeError(
        f'The environment factory {factory_name(factory)} returned '
        f'{environment!r} for seed {seed}; expected a dm_env.Environment.')
  return environment
