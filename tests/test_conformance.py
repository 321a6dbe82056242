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
"""Every Sonnet module of muzero_snt traces, checkpoints and is listed here."""

import importlib
import inspect
import itertools
import os
import pkgutil
import types
from typing import Any, Callable, NamedTuple, Sequence, Set, Tuple

import numpy as np
import sonnet as snt
import tensorflow as tf
from absl.testing import parameterized

import muzero_snt
from muzero_snt import config as config_lib
from muzero_snt import optimizers
from muzero_snt import presets
from muzero_snt.networks import board_conv
from muzero_snt.networks import mlp
from muzero_snt.networks import muzero_network
from muzero_snt.networks import projection
from muzero_snt.networks import residual
from muzero_snt.networks import tower
from tests import testing

Inputs = Tuple[tf.Tensor, ...]


class ModuleDescriptor(NamedTuple):
  """How to build a module, call it, and feed it.

  Attributes:
    name: test name suffix.
    create: builds the module (no variables yet).
    call: `(module, inputs, is_training) -> outputs`.
    input_specs: one batch-agnostic `TensorSpec` per input.
    num_actions: the range of integer inputs (actions).
  """
  name: str
  create: Callable[[], snt.Module]
  call: Callable[[snt.Module, Inputs, bool], Any]
  input_specs: Tuple[tf.TensorSpec, ...]
  num_actions: int = 1


def _make_inputs(descriptor: ModuleDescriptor, batch_size: int,
                 seed: int) -> Inputs:
  rng = np.random.default_rng(seed)
  inputs = []
  for spec in descriptor.input_specs:
    shape = (batch_size,) + tuple(spec.shape[1:])
    if spec.dtype.is_integer:
      values = rng.integers(0, descriptor.num_actions, shape)
    else:
      values = rng.uniform(-1., 1., shape)
    inputs.append(tf.constant(values, spec.dtype))
  return tuple(inputs)


def _spec(*shape, dtype=tf.float32) -> tf.TensorSpec:
  return tf.TensorSpec((None,) + shape, dtype)


def _call_module(module, inputs, is_training):
  return module(*inputs, is_training=is_training)


def _call_head(module, inputs, is_training):
  del is_training  # A head has no batch statistics.
  return module(*inputs)


def _call_projection_head(module, inputs, is_training):
  del is_training  # Layer norm only: no batch statistics.
  return module(*inputs, with_head=True)


def _initial_inference(network, inputs, is_training):
  return network.initial_inference(*inputs, is_training=is_training)


def _recurrent_inference(network, inputs, is_training):
  return network.recurrent_inference(*inputs, is_training=is_training)


def _tiny_mlp_config() -> config_lib.MuZeroConfig:
  return presets.make_cartpole_config().replace(
      network=config_lib.NetworkConfig(
          kind='mlp', hidden_size=8, mlp_layers=(8,), head_layers=(8,),
          value_support_size=5, reward_support_size=5))


def _tiny_residual_config(conv_as_matmul: bool = False
                         ) -> config_lib.MuZeroConfig:
  config = presets.make_tictactoe_config()
  return config.replace(
      network=config_lib.NetworkConfig(
          kind='residual', channels=4, num_blocks=1, prediction_blocks=0,
          head_layers=(8,), action_encoding='board', value_support_size=5,
          reward_support_size=5, conv_as_matmul=conv_as_matmul))


# pylint: disable=g-long-lambda
MODULES = (
    ModuleDescriptor(
        'ConvBlock', lambda: tower.ConvBlock(4), _call_module,
        (_spec(3, 3, 2),)),
    ModuleDescriptor(
        'ResidualBlock', lambda: tower.ResidualBlock(4), _call_module,
        (_spec(3, 3, 4),)),
    ModuleDescriptor(
        'ResidualTower', lambda: tower.ResidualTower(4, 1), _call_module,
        (_spec(3, 3, 4),)),
    ModuleDescriptor(
        'DownsampleStem', lambda: tower.DownsampleStem(4), _call_module,
        (_spec(8, 8, 3),)),
    ModuleDescriptor(
        'BoardConv2D_matmul',
        lambda: board_conv.BoardConv2D(4, 3, use_matmul=True),
        _call_head, (_spec(3, 3, 2),)),
    ModuleDescriptor(
        # A board larger than the kernel: the convolution.
        'BoardConv2D_convolution',
        lambda: board_conv.BoardConv2D(4, 3, use_matmul=True),
        _call_head, (_spec(5, 4, 2),)),
    ModuleDescriptor(
        'ValueHead', lambda: mlp.ValueHead((8,), 5), _call_head,
        (_spec(6),)),
    ModuleDescriptor(
        'Projection', lambda: projection.Projection(8, 6, 4), _call_head,
        (_spec(3, 3, 4),)),
    ModuleDescriptor(
        'Projection_with_head', lambda: projection.Projection(8, 6, 4),
        _call_projection_head, (_spec(8),)),
    ModuleDescriptor(
        'MLPRepresentation', lambda: mlp.MLPRepresentation(8, (8,)),
        _call_module, (_spec(4),)),
    ModuleDescriptor(
        'MLPDynamics', lambda: mlp.MLPDynamics(3, 8, (8,), (8,), 5),
        _call_module, (_spec(8), _spec(dtype=tf.int32)), num_actions=3),
    ModuleDescriptor(
        'MLPPrediction', lambda: mlp.MLPPrediction(3, (8,), (8,), 5),
        _call_module, (_spec(8),)),
    ModuleDescriptor(
        'ResidualRepresentation',
        lambda: residual.ResidualRepresentation(4, 1), _call_module,
        (_spec(3, 3, 3),)),
    ModuleDescriptor(
        # One-hot action planes here; the residual MuZeroNetwork below uses
        # board planes.
        'ResidualDynamics',
        lambda: residual.ResidualDynamics(3, 4, 1, (8,), 5,
                                          action_encoding='one_hot'),
        _call_module, (_spec(3, 3, 4), _spec(dtype=tf.int32)),
        num_actions=3),
    ModuleDescriptor(
        'ResidualPrediction',
        lambda: residual.ResidualPrediction(9, 4, 1, (8,), 5),
        _call_module, (_spec(3, 3, 4),)),
    ModuleDescriptor(
        'MuZeroNetwork_initial_inference_mlp',
        lambda: muzero_network.make_network(_tiny_mlp_config()),
        _initial_inference, (_spec(4),)),
    ModuleDescriptor(
        'MuZeroNetwork_recurrent_inference_mlp',
        lambda: muzero_network.make_network(_tiny_mlp_config()),
        _recurrent_inference, (_spec(8), _spec(dtype=tf.int32)),
        num_actions=2),
    ModuleDescriptor(
        'MuZeroNetwork_initial_inference_residual',
        lambda: muzero_network.make_network(_tiny_residual_config()),
        _initial_inference, (_spec(3, 3, 3),)),
    ModuleDescriptor(
        'MuZeroNetwork_recurrent_inference_residual',
        lambda: muzero_network.make_network(_tiny_residual_config()),
        _recurrent_inference, (_spec(3, 3, 4), _spec(dtype=tf.int32)),
        num_actions=9),
    ModuleDescriptor(
        'MuZeroNetwork_recurrent_inference_residual_conv_as_matmul',
        lambda: muzero_network.make_network(_tiny_residual_config(
            conv_as_matmul=True)),
        _recurrent_inference, (_spec(3, 3, 4), _spec(dtype=tf.int32)),
        num_actions=9),
)

OPTIMIZERS = (
    ('Momentum', lambda: optimizers.Momentum(0.1, momentum=0.9)),
    ('Adam', lambda: optimizers.Adam(0.1)),
)
# pylint: enable=g-long-lambda

# Abstract or plumbing-only classes: no state of their own to test here.
# `_MovingAverage` is batch norm's statistic: it traces and checkpoints inside
# every batch-normed module above; tests/networks/test_tower.py checks it.
IGNORED = frozenset({
    optimizers._Optimizer,  # pylint: disable=protected-access
    tower._MovingAverage,  # pylint: disable=protected-access
})


def _named(descriptors: Sequence[ModuleDescriptor]):
  return [(d.name, d) for d in descriptors]


def _all_variables(module: tf.Module) -> Tuple[tf.Variable, ...]:
  # tf.Module's own walk, called on the class: a module whose `_flatten`
  # attribute shadows the method (test_variables_property_works) must not
  # hide its checkpoint behaviour from the tests below.
  return tuple(tf.Module._flatten(  # pylint: disable=protected-access
      module, predicate=lambda v: isinstance(v, tf.Variable)))


def _warm_up(module: snt.Module, descriptor: ModuleDescriptor):
  """Creates the variables and gives batch norm non-trivial statistics."""
  if isinstance(module, muzero_network.MuZeroNetwork):
    module.create_variables()
  descriptor.call(module, _make_inputs(descriptor, 4, seed=0), True)


def _module_classes_in(module: types.ModuleType) -> Set[type]:
  """The `snt.Module` subclasses that `module` itself defines."""
  return {
      obj for _, obj in inspect.getmembers(module, inspect.isclass)
      if issubclass(obj, snt.Module) and obj.__module__ == module.__name__
  }


def _all_module_classes() -> Set[type]:
  found = _module_classes_in(muzero_snt)
  for info in pkgutil.walk_packages(muzero_snt.__path__, 'muzero_snt.'):
    found |= _module_classes_in(importlib.import_module(info.name))
  return found


class ConformanceTest(testing.TestCase):

  def assert_outputs_close(self, actual, expected):
    tf.nest.assert_same_structure(actual, expected)
    for a, e in zip(tf.nest.flatten(actual), tf.nest.flatten(expected)):
      if e is None:
        self.assertIsNone(a)
      else:
        self.assertAllClose(a, e, atol=1e-5, rtol=1e-5)

  def test_every_module_is_listed(self):
    listed = {type(d.create()) for d in MODULES}
    listed |= {type(create()) for _, create in OPTIMIZERS}
    missing = _all_module_classes() - listed - IGNORED
    self.assertEmpty(
        missing, 'Add these snt.Module subclasses to MODULES or OPTIMIZERS '
        f'of tests/test_conformance.py: {sorted(c.__name__ for c in missing)}')

  def test_finder_sees_a_new_module(self):
    fake = types.ModuleType('muzero_snt.fake')

    class NewModule(snt.Module):
      pass

    NewModule.__module__ = fake.__name__
    fake.NewModule = NewModule
    fake.Imported = tower.ConvBlock  # Defined elsewhere: not counted twice.
    self.assertEqual(_module_classes_in(fake), {NewModule})
    self.assertContainsSubset(
        {tower.ConvBlock, residual.ResidualDynamics, optimizers.Adam,
         muzero_network.MuZeroNetwork}, _all_module_classes())

  @parameterized.named_parameters(_named(MODULES))
  def test_variables_property_works(self, descriptor):
    module = descriptor.create()
    _warm_up(module, descriptor)
    self.assertEqual([v.name for v in module.variables],
                     [v.name for v in _all_variables(module)])

  @parameterized.named_parameters(_named(MODULES))
  def test_trace_batch_agnostic(self, descriptor):
    """One concrete function for batches of 2 and 3, equal to eager."""
    module = descriptor.create()
    _warm_up(module, descriptor)
    inputs_2 = _make_inputs(descriptor, 2, seed=1)
    inputs_3 = _make_inputs(descriptor, 3, seed=2)
    eager_2 = descriptor.call(module, inputs_2, False)
    eager_3 = descriptor.call(module, inputs_3, False)
    for autograph in (True, False):
      with self.subTest(autograph=autograph):
        forward = tf.function(
            lambda inputs: descriptor.call(module, inputs, False),
            input_signature=[descriptor.input_specs], autograph=autograph)
        traced_2 = forward(inputs_2)
        traced_3 = forward(inputs_3)
        self.assertEqual(forward.experimental_get_tracing_count(), 1)
        self.assert_outputs_close(traced_2, eager_2)
        self.assert_outputs_close(traced_3, eager_3)

  @parameterized.named_parameters(_named(MODULES))
  def test_checkpoint_round_trip(self, descriptor):
    module = descriptor.create()
    _warm_up(module, descriptor)
    path = tf.train.Checkpoint(module=module).write(
        os.path.join(self.get_temp_dir(), descriptor.name))
    restored = descriptor.create()
    _warm_up(restored, descriptor)  # Its own weights and statistics.
    inputs = _make_inputs(descriptor, 3, seed=5)
    before = tf.nest.flatten(descriptor.call(restored, inputs, False))
    after_write = tf.nest.flatten(descriptor.call(module, inputs, False))
    self.assertTrue(any(
        a is not None and not np.allclose(a, b)
        for a, b in zip(before, after_write)))
    tf.train.Checkpoint(module=restored).read(path).assert_consumed()
    original = _all_variables(module)
    copied = _all_variables(restored)
    self.assertEqual([v.name for v in copied], [v.name for v in original])
    for c, o in zip(copied, original):
      self.assertAllEqual(c, o, msg=o.name)
    self.assert_outputs_close(descriptor.call(restored, inputs, False),
                              descriptor.call(module, inputs, False))

  @parameterized.named_parameters(
      [(f'{name}_autograph_{a}'.lower(), create, a)
       for (name, create), a in itertools.product(OPTIMIZERS, (True, False))])
  def test_optimizer_apply_traces(self, create, autograph):
    gradients = [tf.constant([.5, -1.]), tf.constant([[2.], [0.]])]
    eager_parameters = [tf.Variable([1., 2.]), tf.Variable([[3.], [4.]])]
    traced_parameters = [tf.Variable([1., 2.]), tf.Variable([[3.], [4.]])]
    eager, traced = create(), create()
    traced.initialize(traced_parameters)
    apply = tf.function(traced.apply, autograph=autograph)
    for _ in range(2):
      eager.apply(gradients, eager_parameters)
      apply(gradients, traced_parameters)
    for t, e in zip(traced_parameters, eager_parameters):
      self.assertAllClose(t, e)
    self.assertNotAllClose(eager_parameters[0], [1., 2.])

  @parameterized.named_parameters(list(OPTIMIZERS))
  def test_optimizer_checkpoint_round_trip(self, create):
    gradients = [tf.constant([.5, -1.]), tf.constant([[2.], [0.]])]
    parameters = [tf.Variable([1., 2.]), tf.Variable([[3.], [4.]])]
    optimizer = create()
    optimizer.apply(gradients, parameters)
    path = tf.train.Checkpoint(optimizer=optimizer, parameters=parameters
                              ).write(os.path.join(self.get_temp_dir(), 'opt'))
    copy_parameters = [tf.Variable([0., 0.]), tf.Variable([[0.], [0.]])]
    copy = create()
    copy.initialize(copy_parameters)  # Slots exist before the restore.
    tf.train.Checkpoint(optimizer=copy, parameters=copy_parameters).read(
        path).assert_consumed()
    for c, o in zip(copy.variables, optimizer.variables):
      self.assertAllEqual(c, o, msg=o.name)
    # The restored slots carry on exactly as the original's.
    optimizer.apply(gradients, parameters)
    copy.apply(gradients, copy_parameters)
    for c, o in zip(copy_parameters, parameters):
      self.assertAllEqual(c, o)


if __name__ == '__main__':
  tf.test.main()
