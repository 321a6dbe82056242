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
"""Learner steps in a second thread while self-play plays its next move.

The learner's XLA program and the actor's batched search both release the
interpreter, so they run side by side, the actor on a network of its own
(`WeightCopy`). `TrainingLoop(overlap_learning=True)` keeps one schedule
whatever the threads' timing, so a run is reproducible: after move m, draw
the batches move m owes (in the main thread, which alone touches the
replay buffer); wait for move m-1's steps and the weights read after them;
start move m's steps; write those weights into the actor's network; play
move m+1. Rounds end with every step taken and the actor's weights the
learner's, so checkpoints are as without overlap.
"""

import concurrent.futures
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence

import numpy as np
import tensorflow as tf


class WeightCopy:
  """Copies every variable of `source` into `target` of the same build;
  `read` (in the source's thread) and `write` (in the target's) split the
  copy, the tensors read keeping their values as the source changes on."""

  def __init__(self, source: tf.Module, target: tf.Module):
    sources, targets = list(source.variables), list(target.variables)
    if len(sources) != len(targets):
      raise ValueError(f'The networks have {len(sources)} and '
                       f'{len(targets)} variables; expected the same build '
                       '(both built, e.g. by network.create_variables()).')
    for s, t in zip(sources, targets):
      if (s.name, s.shape, s.dtype) != (t.name, t.shape, t.dtype):
        raise ValueError(
            f'Variable {s.name} {s.shape} {s.dtype.name} of the source '
            f'network meets {t.name} {t.shape} {t.dtype.name} of the '
            'target; expected the same build.')
    self._sources, self._targets = sources, targets
    self._read = tf.function(
        lambda: [s.read_value() for s in self._sources], autograph=False)
    self._write = tf.function(self._assign, autograph=False)

  def _assign(self, values):
    for target, value in zip(self._targets, values):
      target.assign(value)

  def read(self) -> List[tf.Tensor]:
    return self._read()

  def write(self, values: Sequence[tf.Tensor]) -> None:
    self._write(list(values))

  def __call__(self) -> None:
    self.write(self.read())


class Finished(NamedTuple):
  """What a list of learner steps left behind."""
  metrics: List[Dict[str, np.ndarray]]  # One per step taken, in order.
  weights: Optional[List[tf.Tensor]]  # `read()` after the last step.


class LearnerThread:
  """Runs lists of learner steps in one worker thread, a list at a time:
  `start(batches)` returns at once, `wait()` returns the `Finished`."""

  def __init__(self, step: Callable[[Any], Dict[str, np.ndarray]],
               read_weights: Optional[Callable[[], List[tf.Tensor]]] = None):
    """`read_weights` reads the weights after a list (`WeightCopy.read`)."""
    self._step = step
    self._read_weights = read_weights
    self._pool: Optional[concurrent.futures.ThreadPoolExecutor] = None
    self._running: Optional[concurrent.futures.Future] = None

  @property
  def running(self) -> bool:
    """Whether a list was started and not yet waited for."""
    return self._running is not None

  def start(self, batches: Sequence[Any]) -> None:
    if self._running is not None:
      raise RuntimeError('LearnerThread.start before wait(): the previous '
                         'steps are still running.')
    if self._pool is None:
      self._pool = concurrent.futures.ThreadPoolExecutor(
          1, thread_name_prefix='learner')
    self._running = self._pool.submit(self._run, list(batches))

  def _run(self, batches: List[Any]):
    """The steps in order, then the weights; stops at the first error."""
    done = []
    for batch in batches:
      try:
        done.append(self._step(batch))
      except Exception as error:  # pylint: disable=broad-except
        return done, None, error
    weights = None if self._read_weights is None else self._read_weights()
    return done, weights, None

  def wait(self) -> Finished:
    """Waits for the started steps (none started: no metrics, no weights);
    re-raises a step's error, the steps after it not run and the metrics of
    those before on the error as `completed_metrics`."""
    if self._running is None:
      return Finished([], None)
    running, self._running = self._running, None
    done, weights, error = running.result()
    if error is not None:
      error.completed_metrics = done
      raise error
    return Finished(done, weights)

  def close(self) -> None:
    """Waits for running steps (their errors dropped); ends the thread."""
    if self._running is not None:
      self._running.result()
      self._running = None
    if self._pool is not None:
      self._pool.shutdown(wait=True)
      self._pool = None
