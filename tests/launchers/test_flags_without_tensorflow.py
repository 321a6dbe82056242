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
"""Tests that the launchers check their flags before TensorFlow starts.

Each check runs in a fresh interpreter, where `sys.modules` tells whether
anything imported TensorFlow: parsing and checking every flag must not,
so that a mistake is answered in a moment.
"""

import os
import subprocess
import sys
import tempfile
import textwrap

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _run(code: str, *args: str) -> subprocess.CompletedProcess:
  return subprocess.run(
      [sys.executable, '-c', textwrap.dedent(code), *args], cwd=_ROOT,
      capture_output=True, text=True, timeout=300,
      env=dict(os.environ, PYTHONPATH=_ROOT))


# Runs a launcher as `python -m` and the console scripts do, then prints
# whether TensorFlow was imported.
_MAIN = """
    import runpy, sys
    module = sys.argv[1]
    sys.argv = [module] + sys.argv[2:]
    try:
      runpy.run_module(module, run_name='__main__', alter_sys=True)
    except SystemExit as e:
      print('exit', e.code)
    print('tensorflow', 'tensorflow' in sys.modules)
"""


def _main(module: str, *flags: str):
  """The exit code, whether TensorFlow was imported, and the error lines."""
  result = _run(_MAIN, module, *flags)
  lines = result.stdout.split()
  assert lines[-2] == 'tensorflow', (result.stdout, result.stderr[-2000:])
  errors = [line for line in result.stderr.splitlines()
            if 'error' in line]
  return int(lines[lines.index('exit') + 1]), lines[-1] == 'True', errors


def test_checking_every_train_flag_imports_no_tensorflow():
  with tempfile.TemporaryDirectory() as directory:
    result = _run("""
        import sys
        from absl import flags
        from launchers import train
        flags.FLAGS(sys.argv)
        train.validate_flags()
        run = train.make_run(train.make_config())
        train.check_paths(run)
        print(run.preset, run.config.num_simulations, run.checkpoint_dir)
        print('tensorflow' in sys.modules)
    """, 'train', '--preset=cartpole', '--num_simulations=7',
                  '--config=max_moves=30', f'--checkpoint_dir={directory}/c',
                  f'--logdir={directory}/l')
    assert result.stdout.split() == ['cartpole', '7', f'{directory}/c',
                                     'False'], result.stderr[-2000:]
    assert os.path.isdir(f'{directory}/c')  # Created, and writable.


def test_checking_evaluate_flags_imports_no_tensorflow():
  result = _run("""
      import sys
      from absl import flags
      from launchers import evaluate
      flags.FLAGS(sys.argv)
      evaluate.validate_flags()
      print('tensorflow' in sys.modules)
  """, 'evaluate', '--preset=connect4', '--random_init', '--opponents=mcts',
                '--opponent_simulations=5')
  assert result.stdout.split() == ['False'], result.stderr[-2000:]


def test_bad_train_flags_are_refused_before_tensorflow():
  with tempfile.NamedTemporaryFile() as a_file:
    for flags, message in (
        (['--num_simulations=0'],
         '--num_simulations must be positive, got 0.'),
        (['--config=max_moves'], "--config: Override 'max_moves' is not "
         'name=value.'),
        (['--preset=gymnasium', '--env=NoSuchTask-v0'],
         '--preset=gymnasium --env=NoSuchTask-v0'),
        ([f'--checkpoint_dir={a_file.name}'],
         f'--checkpoint_dir={a_file.name} is a file, not a directory'),
        (['--data=replay', '--replay_path=/no/such/file.npz'],
         '--replay_path=/no/such/file.npz is not found'),
        (['--strategy=tpu'], '--strategy=tpu needs --tpu'),
        ([f'--compile_cache={a_file.name}'],
         f'--compile_cache={a_file.name} cannot be used')):
      code, imported, errors = _main('launchers.train', *flags)
      assert (code, imported) == (1, False), (flags, errors)
      assert len(errors) == 1 and message in errors[0], (flags, errors)


def test_bad_evaluate_flags_are_refused_before_tensorflow():
  with tempfile.NamedTemporaryFile() as a_file:
    for flags, message in (
        (['--checkpoint_dir=/no/such/run'],
         '--checkpoint_dir=/no/such/run does not exist'),
        ([f'--checkpoint_dir={a_file.name}'], 'is a file, not a directory'),
        (['--random_init', '--preset=cartpole', '--opponents=random'],
         '--opponents choose the opponents of two-player presets'),
        (['--random_init', '--num_games=0'],
         '--num_games must be positive, got 0.')):
      code, imported, errors = _main('launchers.evaluate', *flags)
      assert (code, imported) == (1, False), (flags, errors)
      assert len(errors) == 1 and message in errors[0], (flags, errors)


def test_an_unknown_enum_value_names_the_flag_and_the_choices():
  code, imported, errors = _main('launchers.train', '--search=fast')
  assert (code, imported) == (1, False)
  assert errors == ['FATAL Flags parsing error: flag --search=fast: value '
                    'should be one of <xla|graph|reference>'], errors


def test_package_import_loads_no_tensorflow_until_a_name_needs_it():
  result = _run("""
      import sys
      import muzero_snt
      from muzero_snt import presets
      config = muzero_snt.get_preset('tictactoe')
      print('tensorflow' in sys.modules, config.action_space_size)
      muzero_snt.Learner
      print('tensorflow' in sys.modules)
  """)
  assert result.stdout.split() == ['False', '9', 'True'], (
      result.stderr[-2000:])
