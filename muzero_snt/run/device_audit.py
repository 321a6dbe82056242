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
"""Checks the programs a run puts on a device against GPU and TPU rules.

Each program (the learner's step, the compiled search, reanalysis, the
exported inference) is traced, not run, and every node it calls is read:
outside XLA for ops with no GPU kernel for their dtypes in this build,
floating-point tensors in host memory and nodes pinned to a CPU; inside XLA
for what a TPU refuses (float64, host callbacks, strings, value-dependent
shapes; the HLO too). A finding by design is reported with its
`Allowance`'s reason (docs/accelerators.md).
"""

import argparse
import dataclasses
import fnmatch
import functools
import json
import sys
import tempfile
from typing import List, NamedTuple, Optional, Sequence

import tensorflow as tf
from tensorflow.python.framework import kernels
from tensorflow.python.framework import op_def_registry

from muzero_snt import config as config_lib
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import reanalysis
from muzero_snt import search as search_lib
from muzero_snt.run import distribute
from muzero_snt.run import export

PROGRAMS = ('learner', 'learner_xla', 'learner_bfloat16', 'learner_mirrored',
            'learner_tpu_replica', 'search_puct', 'search_puct_noise',
            'search_gumbel', 'search_gumbel_noise', 'reanalysis', 'export')

_HOST_CALLBACKS = ('PyFunc', 'PyFuncStateless', 'EagerPyFunc')
# Ops whose output shape depends on input values.
_DYNAMIC_SHAPE = ('Where', 'Unique', 'UniqueV2', 'UniqueWithCounts',
                  'DynamicPartition', 'ListDiff', 'DenseToDenseSetOperation')
_FLOATS = frozenset(t.as_datatype_enum for t in (
    tf.float16, tf.bfloat16, tf.float32, tf.float64))
_GPU_TYPES = ('GPU', 'DEFAULT')  # DEFAULT kernels serve every device type.


class Finding(NamedTuple):
  """An op a GPU or TPU would not run as it stands (`op` 'HLO' for what
  only the HLO shows); `allowance` the reason if by design."""
  program: str
  kind: str
  op: str
  node: str
  allowance: Optional[str] = None


class Allowance(NamedTuple):
  """A finding by design: `program` and `op` are `fnmatch` patterns."""
  program: str
  kind: str
  op: str
  reason: str


ALLOWANCES = (
    Allowance('export', 'no_gpu_kernel', 'Const', 'the message of the '
              'exported recurrent_inference\'s check of its actions (no '
              'Python runs around a SavedModel): a string, kept on the host'),
)


@dataclasses.dataclass
class ProgramReport:
  """The findings of one program; `note` says why it was not traced."""
  program: str
  findings: List[Finding] = dataclasses.field(default_factory=list)
  note: Optional[str] = None

  @property
  def problems(self) -> List[Finding]:
    return [f for f in self.findings if f.allowance is None]

  def to_json(self) -> str:
    return json.dumps({'program': self.program, 'note': self.note,
                       'findings': [f._asdict() for f in self.findings]})


@functools.lru_cache(maxsize=None)
def _gpu_kernels(op: str) -> tuple:
  return tuple(k for k in kernels.get_registered_kernels_for_op(op).kernel
               if k.device_type in _GPU_TYPES)


def _matches(kernel, attrs) -> bool:
  """Whether a registered kernel's type constraints admit a node's attrs."""
  return all(c.name not in attrs or not attrs[c.name].type or
             attrs[c.name].type in c.allowed_values.list.type
             for c in kernel.constraint)


def _node_findings(node, xla: bool, where: str,
                   devices: frozenset) -> List[Finding]:
  found, attrs = [], dict(node.attr)
  types = []  # Every dtype of the node's attrs and fixed-type arguments.
  for value in attrs.values():
    types.extend([value.type] if value.type else value.list.type)
  op_def = op_def_registry.get(node.op)
  op_args = list(op_def.input_arg) + list(op_def.output_arg) if op_def else []
  types += [a.type for a in op_args]
  if xla:
    found = [kind for kind, hit in (
        ('float64', tf.float64.as_datatype_enum in types),
        ('string', tf.string.as_datatype_enum in types),
        ('host_callback', node.op in _HOST_CALLBACKS),
        ('dynamic_shape', node.op in _DYNAMIC_SHAPE)) if hit]
  else:
    if 'CPU' in node.device.upper() and _canonical(node.device) not in devices:
      found.append('host_pinned')
    gpu = [k for k in _gpu_kernels(node.op) if _matches(k, attrs)]
    if op_def is not None and not gpu:
      found.append('no_gpu_kernel')
    elif op_def is not None and _FLOATS.intersection(types) and all(
        {a.name for a in op_args} <= set(k.host_memory_arg) for k in gpu):
      found.append('host_memory')
  return [Finding('', kind, node.op, f'{where}/{node.name}')
          for kind in found]


def _calls(node, library) -> List[str]:
  """The library functions a node calls (by attr, or as its op)."""
  names = [node.op] if node.op in library else []
  for value in node.attr.values():
    if value.func.name:
      names.append(value.func.name)
    names.extend(f.name for f in value.list.func)
  return names


def _must_compile(attrs) -> bool:
  return bool('_XlaMustCompile' in attrs and attrs['_XlaMustCompile'].b)


def _canonical(device: str) -> str:
  return tf.DeviceSpec.from_string(device).to_string()


def graph_findings(concrete, devices: Sequence[str] = ()) -> List[Finding]:
  """The findings of a concrete function and every function it calls; a
  node on one of `devices` (a strategy's replicas) is not host-pinned."""
  devices = frozenset(_canonical(d) for d in devices)
  graph_def = concrete.graph.as_graph_def()
  library = {f.signature.name: f for f in graph_def.library.function}
  top_xla = _must_compile(concrete.function_def.attr)
  name = concrete.name
  pending = [(getattr(name, 'decode', lambda: name)(), graph_def.node,
              top_xla)]
  seen, found = set(), []
  while pending:
    where, nodes, xla = pending.pop()
    for node in nodes:
      found.extend(_node_findings(node, xla, where, devices))
      for name in _calls(node, library):
        inner = xla or _must_compile(node.attr) or _must_compile(
            library[name].attr)
        if (name, inner) not in seen:
          seen.add((name, inner))
          pending.append((name, library[name].node_def, inner))
  return found


def hlo_findings(hlo: str) -> List[Finding]:
  """What an XLA program's HLO text shows: float64, dynamic dimensions."""
  found = []
  if 'f64[' in hlo:
    found.append(Finding('', 'float64', 'HLO', 'f64 shapes'))
  if '[<=' in hlo or ',<=' in hlo:
    found.append(Finding('', 'dynamic_shape', 'HLO', 'bounded dimensions'))
  return found


def audit_function(program: str, function, args: Sequence = (),
                   allowances: Sequence[Allowance] = ALLOWANCES,
                   devices: Sequence[str] = ()) -> List[Finding]:
  """The findings of one `tf.function` (or concrete function) on `args`,
  one per kind and op type; an XLA function's HLO too ('not_compiled' if
  it cannot be lowered)."""
  concrete = function
  if hasattr(function, 'get_concrete_function'):
    concrete = function.get_concrete_function(*args)
  found = graph_findings(concrete, devices)
  if (hasattr(function, 'experimental_get_compiler_ir') and
      _must_compile(concrete.function_def.attr)):
    try:
      hlo = function.experimental_get_compiler_ir(*args)(stage='hlo')
      graph_kinds = {f.kind for f in found}
      found += [f for f in hlo_findings(hlo) if f.kind not in graph_kinds]
    except (tf.errors.OpError, ValueError) as e:
      first_line = (str(e).strip().splitlines() or [''])[0]
      found.append(Finding('', 'not_compiled', 'HLO', first_line[:200]))
  unique = {}
  for f in found:
    reason = next((a.reason for a in allowances if a.kind == f.kind and
                   fnmatch.fnmatch(program, a.program) and
                   fnmatch.fnmatch(f.op, a.op)), None)
    unique.setdefault((f.kind, f.op), f._replace(program=program,
                                                  allowance=reason))
  return list(unique.values())


# The programs audited below are private functions of the learner and search.
# pylint: disable=protected-access
def _learner(config, strategy=None, jit_compile=False,
             compute_dtype='float32'):
  learner = learning.Learner(networks.make_network(config), config,
                             strategy=strategy, jit_compile=jit_compile,
                             compute_dtype=compute_dtype)
  batch = learner.prepare(learning.zero_batch(config, config.batch_size))
  return learner, learner._compiled_step, batch


def _search_parts(config, add_noise: bool, policy: str):
  config = config.replace(search_policy=policy)
  searcher = search_lib.make_search(config, networks.make_network(config))
  b, a = 2, config.action_space_size
  args = (tf.zeros((b,) + tuple(config.observation_shape)),
          tf.zeros([b], tf.int32), tf.ones([b, a], tf.bool),
          tf.zeros([2], tf.int32), tf.zeros([b, a]))
  return [(searcher._searches[add_noise], args)]


def _parts(name: str, config: config_lib.MuZeroConfig):
  """[(function, args)] of program `name`, or a string saying why none."""
  if name in ('learner', 'learner_xla', 'learner_bfloat16'):
    _, step, batch = _learner(
        config, jit_compile=name == 'learner_xla',
        compute_dtype='bfloat16' if name == 'learner_bfloat16' else 'float32')
    return [(step, (batch,))]
  if name == 'learner_mirrored':
    try:
      strategy = distribute.make_strategy('mirrored')
    except ValueError:
      return ('needs 2 devices: the command line makes 2 logical CPUs when '
              'TensorFlow sees one device')
    config = config.replace(batch_size=2 * strategy.num_replicas_in_sync)
    _, step, batch = _learner(config, strategy=strategy)
    return [(step, (batch,), strategy.extended.worker_devices)]
  if name == 'learner_tpu_replica':
    # What a TPU compiles per core: the replica step, all-reduce included.
    learner, _, batch = _learner(config)
    replica = tf.function(learner._replica_step, jit_compile=True,
                          autograph=False)
    return [(replica, (batch,))]
  if name.startswith('search_'):
    policy = 'muzero' if name.startswith('search_puct') else 'gumbel'
    return _search_parts(config, name.endswith('_noise'), policy)
  if name == 'reanalysis':
    # A bootstrapped value target: the target network's inference runs.
    config = config.replace(reanalyze_fraction=0.5,
                            td_steps=min(config.td_steps,
                                         config.max_moves - 1))
    network = networks.make_network(config)
    searcher = search_lib.make_search(config, network)
    reanalyser = reanalysis.Reanalyser(config, network, searcher, lambda: 0)
    model = reanalyser._target_model
    return (_search_parts(config, False, config.search_policy) +
            [(model._initial_inference, ())])
  if name == 'export':
    with tempfile.TemporaryDirectory() as directory:
      path = export.export_inference(networks.make_network(config),
                                     directory + '/model', config)
      loaded = tf.saved_model.load(path)
    return [(loaded.signatures[key], ()) for key in sorted(loaded.signatures)]


def audit(config: config_lib.MuZeroConfig,
          programs: Sequence[str] = PROGRAMS,
          allowances: Sequence[Allowance] = ALLOWANCES) -> List[ProgramReport]:
  """Traces each of `programs` (of `PROGRAMS`) and reports its findings."""
  unknown = sorted(set(programs) - set(PROGRAMS))
  if unknown:
    raise ValueError(f'Unknown programs {unknown}: expected names of '
                     f'{PROGRAMS}.')
  reports = []
  for name in programs:
    parts = _parts(name, config)
    reports.append(ProgramReport(name, note=parts) if isinstance(parts, str)
                   else ProgramReport(name, [
                       f for function, args, *devices in parts
                       for f in audit_function(name, function, args,
                                               allowances, *devices)]))
  return reports


def format_report(report: ProgramReport) -> str:
  """One line per program, then one indented line per finding."""
  if report.note:
    return f'{report.program}: not traced ({report.note})'
  status = 'FAIL' if report.problems else 'ok'
  lines = [f'{report.program}: {status} ({len(report.problems)} problems, '
           f'{len(report.findings) - len(report.problems)} allowed)']
  for f in report.findings:
    why = f'allowed: {f.allowance}' if f.allowance else 'PROBLEM'
    lines.append(f'  {f.kind} {f.op} at {f.node}; {why}')
  return '\n'.join(lines)


def small_config(preset: str) -> config_lib.MuZeroConfig:
  """`preset` with a narrow tower and few simulations: the same ops."""
  config = presets.get_preset(preset)
  return config.replace(
      num_simulations=4, batch_size=8, num_unroll_steps=2,
      network=dataclasses.replace(config.network, channels=4,
                                  hidden_size=8))


def main(argv: Optional[Sequence[str]] = None) -> int:
  """The command line: prints the report, returns 1 if it has problems."""
  parser = argparse.ArgumentParser(
      prog='python -m muzero_snt.run.device_audit', description=__doc__)
  add = parser.add_argument
  add('--preset', default='tictactoe', choices=sorted(presets.PRESETS))
  add('--programs', default=','.join(PROGRAMS),
      help='comma-separated names of ' + ', '.join(PROGRAMS))
  add('--small', action='store_true', help='a narrow network, 4 simulations')
  add('--json', action='store_true', help='one JSON line per program')
  args = parser.parse_args(argv)
  # Two logical CPUs stand in for two devices (before TensorFlow starts).
  cpus = tf.config.list_physical_devices('CPU')
  if not tf.config.list_physical_devices('GPU') and len(cpus) == 1:
    try:
      tf.config.set_logical_device_configuration(
          cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
    except RuntimeError:  # Started already: learner_mirrored says so.
      pass
  config = (small_config if args.small else presets.get_preset)(args.preset)
  try:
    reports = audit(config, [p for p in args.programs.split(',') if p])
  except ValueError as e:
    parser.error(str(e))
  for report in reports:
    print(report.to_json() if args.json else format_report(report))
  return int(any(report.problems for report in reports))


if __name__ == '__main__':
  sys.exit(main())
