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
"""NumPy forward passes: the independent route the network tests compare to."""

from typing import Dict, Optional

import numpy as np
import tensorflow as tf

# Sonnet's BatchNorm default epsilon.
BATCH_NORM_EPS = 1e-5
# Epsilon of h(x), appendix "Value and reward transform" of the paper.
TRANSFORM_EPS = 1e-3


def _is_variable(value) -> bool:
  return isinstance(value, tf.Variable)


def variables_of(module: tf.Module) -> Dict[str, np.ndarray]:
  """The module's variables as NumPy arrays, keyed by path inside the module.

  For a module named 'rep', 'rep/torso/linear_0/w:0' is keyed
  'torso/linear_0/w'. The walk calls `tf.Module._flatten` on the class, not
  `module.variables`: some modules shadow `_flatten` with a `snt.Flatten`
  attribute, which `test_variables_property_lists_all_variables` of
  test_mlp.py and test_residual.py catch on its own.
  """
  prefix = module.name_scope.name
  out = {}
  walk = tf.Module._flatten  # pylint: disable=protected-access
  for v in walk(module, predicate=_is_variable):
    name = v.name[:-2] if v.name.endswith(':0') else v.name
    if name.startswith(prefix):
      name = name[len(prefix):]
    out[name] = v.numpy()
  return out


def relu(x: np.ndarray) -> np.ndarray:
  return np.maximum(x, 0.)


def mlp(x: np.ndarray,
        params: Dict[str, np.ndarray],
        prefix: str,
        num_layers: int,
        activate_final: bool = False) -> np.ndarray:
  """`snt.nets.MLP`: layers `{prefix}/linear_{i}`, ReLU between them."""
  for i in range(num_layers):
    x = x @ params[f'{prefix}/linear_{i}/w'] + params[f'{prefix}/linear_{i}/b']
    if i < num_layers - 1 or activate_final:
      x = relu(x)
  return x


def _same_padding(size: int, kernel: int, stride: int):
  """TensorFlow's SAME padding: (before, after), the extra one after."""
  out = -(-size // stride)
  total = max((out - 1) * stride + kernel - size, 0)
  return total // 2, total - total // 2


def conv2d(x: np.ndarray,
           w: np.ndarray,
           b: Optional[np.ndarray] = None,
           stride: int = 1) -> np.ndarray:
  """`[B, H, W, C]` * `[k, k, C, D]` cross-correlation, SAME padding."""
  k = w.shape[0]
  _, height, width, _ = x.shape
  pad_h = _same_padding(height, k, stride)
  pad_w = _same_padding(width, k, stride)
  padded = np.pad(x, [(0, 0), pad_h, pad_w, (0, 0)])
  out_h = -(-height // stride)
  out_w = -(-width // stride)
  out = np.zeros(x.shape[:1] + (out_h, out_w, w.shape[-1]), np.float64)
  for i in range(k):
    for j in range(k):
      window = padded[:, i:i + stride * (out_h - 1) + 1:stride,
                      j:j + stride * (out_w - 1) + 1:stride, :]
      out += window @ w[i, j]
  return out if b is None else out + b


def avg_pool_same(x: np.ndarray, kernel: int = 3, stride: int = 2):
  """`tf.nn.avg_pool2d(..., padding='SAME')`: padding not counted."""
  _, height, width, _ = x.shape
  ones = np.ones((1, height, width, 1))
  channels = x.shape[-1]
  box = np.ones((kernel, kernel, 1, 1))
  sums = np.concatenate(
      [conv2d(x[..., c:c + 1], box, stride=stride) for c in range(channels)],
      axis=-1)
  counts = conv2d(ones, box, stride=stride)
  return sums / counts


def scale_per_example(x: np.ndarray) -> np.ndarray:
  """(s - min s) / (max s - min s) over all non-batch axes of each example."""
  flat = x.reshape(x.shape[0], -1)
  low = flat.min(axis=1)
  high = flat.max(axis=1)
  shape = (-1,) + (1,) * (x.ndim - 1)
  return (x - low.reshape(shape)) / (high - low).reshape(shape)


def softmax(logits: np.ndarray) -> np.ndarray:
  z = np.exp(logits - logits.max(axis=-1, keepdims=True))
  return z / z.sum(axis=-1, keepdims=True)


def signed_hyperbolic(x: np.ndarray) -> np.ndarray:
  """h(x) = sign(x) (sqrt(|x| + 1) - 1) + eps x."""
  return np.sign(x) * (np.sqrt(np.abs(x) + 1.) - 1.) + TRANSFORM_EPS * x


def conv_block(x: np.ndarray,
               params: Dict[str, np.ndarray],
               prefix: str,
               stride: int = 1) -> np.ndarray:
  """`ConvBlock` without batch norm: relu(conv(x) + b)."""
  return relu(conv2d(x, params[f'{prefix}/conv/w'], params[f'{prefix}/conv/b'],
                     stride))


def residual_block(x: np.ndarray, params: Dict[str, np.ndarray],
                   prefix: str) -> np.ndarray:
  """`ResidualBlock` without batch norm: relu(x + conv(relu(conv(x))))."""
  hidden = relu(conv2d(x, params[f'{prefix}/conv_0/w'],
                       params[f'{prefix}/conv_0/b']))
  return relu(x + conv2d(hidden, params[f'{prefix}/conv_1/w'],
                         params[f'{prefix}/conv_1/b']))


def residual_tower(x: np.ndarray, params: Dict[str, np.ndarray], prefix: str,
                   num_blocks: int) -> np.ndarray:
  """`ResidualTower` without batch norm: blocks `{prefix}/block_{i}`."""
  for i in range(num_blocks):
    x = residual_block(x, params, f'{prefix}/block_{i}')
  return x


def downsample_stem(x: np.ndarray, params: Dict[str, np.ndarray],
                    prefix: str) -> np.ndarray:
  """`DownsampleStem` without batch norm; `prefix` '' for the stem itself."""
  p = f'{prefix}/' if prefix else ''
  h = conv_block(x, params, f'{p}conv_0', stride=2)
  h = residual_tower(h, params, f'{p}tower_0', 2)
  h = conv_block(h, params, f'{p}conv_1', stride=2)
  h = avg_pool_same(residual_tower(h, params, f'{p}tower_1', 3))
  return avg_pool_same(residual_tower(h, params, f'{p}tower_2', 3))
