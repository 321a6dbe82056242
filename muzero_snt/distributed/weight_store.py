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
"""Weight publication: the learner's newest weights, as NumPy arrays in
Ray's object store, versioned by its step; workers fetch only newer ones.
"""

import threading
import time
from typing import Any, List, Optional, Sequence, Tuple
import weakref

from absl import logging
import numpy as np
import tensorflow as tf

NO_VERSION = -1  # No weights published yet.
ASK_INTERVAL = 0.05  # Seconds between a `Follower`'s questions, not waiting.


class _Transfer:
  """A network's variables, read and written in one TensorFlow call each
  (one eager call per variable is slow for weights taken every move)."""

  def __init__(self, network: tf.Module):
    self.variables = tuple(network.variables)
    self.dtypes = sorted({v.dtype for v in self.variables},
                         key=lambda d: d.name)
    self.read = tf.function(
        lambda: [tf.identity(v) for v in self.variables], autograph=False)
    self.write = tf.function(self._write, input_signature=[
        tf.TensorSpec([None], dtype) for dtype in self.dtypes],
        autograph=False)

  def _write(self, *flats):
    """Assigns the variables from `flats`, one array per dtype."""
    for dtype, flat in zip(self.dtypes, flats):
      members = [v for v in self.variables if v.dtype == dtype]
      sizes = [v.shape.num_elements() for v in members]
      for variable, value in zip(members, tf.split(flat, sizes)):
        variable.assign(tf.reshape(value, variable.shape), read_value=False)


_TRANSFERS: 'weakref.WeakKeyDictionary[tf.Module, _Transfer]' = (
    weakref.WeakKeyDictionary())


def _transfer(network: tf.Module) -> _Transfer:
  if network not in _TRANSFERS:
    _TRANSFERS[network] = _Transfer(network)
  return _TRANSFERS[network]


def network_arrays(network: tf.Module) -> List[np.ndarray]:
  """Copies of every variable of `network` (trainable and not), in order."""
  return [np.array(value) for value in _transfer(network).read()]


def assign_arrays(network: tf.Module, arrays: Sequence[np.ndarray]) -> None:
  """Sets `network`'s variables from `network_arrays` of an equal network;
  ValueError if a number or shape differs."""
  transfer = _transfer(network)
  variables = transfer.variables
  if len(arrays) != len(variables):
    raise ValueError(f'Got {len(arrays)} weight arrays for a network of '
                     f'{len(variables)} variables: another network config?')
  for variable, array in zip(variables, arrays):
    if tuple(variable.shape) != np.shape(array):
      raise ValueError(f'Weight array of shape {list(np.shape(array))} for '
                       f'variable {variable.name} of shape '
                       f'{variable.shape.as_list()}.')
  transfer.write(*[np.concatenate([  # One flat array per dtype.
      np.ravel(array).astype(dtype.as_numpy_dtype, copy=False)
      for v, array in zip(variables, arrays) if v.dtype == dtype])
                   for dtype in transfer.dtypes])


class WeightStore:
  """The newest published weights' reference and version (a Ray actor)."""

  def __init__(self):
    self._version = NO_VERSION
    self._reference: Optional[Any] = None

  def publish(self, version: int, reference: List[Any]) -> int:
    """Takes `[ObjectRef]` of the arrays (a list: Ray passes the reference)
    unless an equal or newer version is held; returns the version held
    before (`NO_VERSION` from a store Ray restarted)."""
    held = self._version
    if version > self._version:
      self._version, self._reference = version, reference[0]
    return held

  def version(self) -> int:
    return self._version

  def latest(self) -> Tuple[int, List[Any]]:
    """(version, [ObjectRef]) of the newest weights; (NO_VERSION, [None])
    before the first publication."""
    return self._version, [self._reference]


class Publisher:
  """The learner's side: publishes a network's weights to a `WeightStore`.

  In the background (the default) the learner's thread only takes an
  on-device snapshot; the publisher's thread puts it in the object store
  (a large network's cost), a newer snapshot replacing one still waiting.

  Attributes:
    version: the newest publication's version asked for, or None.
    sent_version: the newest publication's in the object store, or None.
    replaced: snapshots replaced before they were sent.
  """

  def __init__(self, ray: Any, store: Any, background: bool = True):
    self._ray = ray
    self._store = store
    self._background = background
    self.version: Optional[int] = None
    self.sent_version: Optional[int] = None
    self.replaced = 0
    self._pending = None  # The last `publish` call to the store.
    self._held = NO_VERSION  # What the store answers it, unless restarted.
    self._condition = threading.Condition()
    self._waiting = None  # (version, snapshot) for the thread to send.
    self._sending = False
    self._error: Optional[BaseException] = None
    self._thread: Optional[threading.Thread] = None
    self._closed = False

  def publish(self, network: tf.Module, version: int) -> None:
    """Publishes `network`'s variables as weights `version`; raises what
    made an earlier publication in the background fail."""
    if not self._background:
      self._send(version, network_arrays(network))
      self.version = version
      return
    snapshot = _transfer(network).read()
    with self._condition:
      self._raise_error()
      if self._closed:
        raise RuntimeError('Publisher.publish after close.')
      if self._waiting is not None:
        self.replaced += 1
      self._waiting = (version, snapshot)
      self.version = version
      if self._thread is None:
        self._thread = threading.Thread(
            target=self._run, name='weight-publisher', daemon=True)
        self._thread.start()
      self._condition.notify_all()

  def flush(self, timeout: Optional[float] = None) -> bool:
    """Waits until every publication asked for is in the object store;
    returns False if `timeout` seconds passed first."""
    with self._condition:
      done = self._condition.wait_for(
          lambda: self._error or not (self._waiting or self._sending),
          timeout)
      self._raise_error()
    return done

  def close(self, send_waiting: bool = True) -> None:
    """Stops the thread once its send is done; call it before
    `ray.shutdown`, as a send in flight then ends the whole process.
    `send_waiting` first sends the waiting snapshot and raises what made a
    publication fail; a failed run passes False, keeping its own error."""
    with self._condition:
      self._closed = True
      if not send_waiting:
        self._waiting = None
      self._condition.notify_all()
    if self._thread is not None:
      self._thread.join()
    if send_waiting:
      self._raise_error()

  def _raise_error(self) -> None:
    if self._error is not None:
      raise RuntimeError('Publishing weights in the background failed: '
                         f'{self._error!r}') from self._error

  def _run(self) -> None:
    while True:
      with self._condition:
        self._condition.wait_for(lambda: self._waiting or self._closed)
        if self._waiting is None:
          return  # Closed, nothing left to send.
        (version, snapshot), self._waiting = self._waiting, None
        self._sending = True
      error = None
      try:
        self._send(version, [np.asarray(t) for t in snapshot])
      except BaseException as e:  # pylint: disable=broad-except
        error = e
      with self._condition:
        self._error, self._sending = error, False
        self._condition.notify_all()
      if error is not None:
        return

  def _send(self, version: int, arrays: List[np.ndarray]) -> None:
    """Puts `arrays` in the object store and tells the store, whose answer
    to the last publication is waited for now."""
    if self._pending is not None and (
        self._ray.get(self._pending) < self._held):
      logging.warning(
          'The weight store\'s process died; Ray restarted it, and it holds '
          'the weights of learner step %d again (the actors played with '
          'theirs meanwhile).', self.sent_version)
    reference = self._ray.put(arrays)
    self._pending = self._store.publish.remote(version, [reference])
    self._held = NO_VERSION if self.sent_version is None else self.sent_version
    self.sent_version = version


class Follower:
  """A worker's side: keeps a network at the store's newest weights, whose
  version is `version` (`NO_VERSION` before the first)."""

  def __init__(self, ray: Any, store: Any, network: tf.Module):
    self._ray = ray
    self._store = store
    self._network = network
    self.version = NO_VERSION
    self._asked = None  # The pending `WeightStore.latest` call.
    self._asked_at = -float('inf')

  def take(self, answer: Any, newer_than: Optional[int] = None) -> bool:
    """Sets the network from a `WeightStore.latest` answer (`ObjectRef` or
    value) newer than `newer_than` (default: `version`); True if it did."""
    newest, (reference,) = self._ray.get(answer)
    if newest <= (self.version if newer_than is None else newer_than):
      return False
    assign_arrays(self._network, self._ray.get(reference))
    self.version = newest
    return True

  def update(self, wait: bool = True,
             newer_than: Optional[int] = None) -> bool:
    """`take` of the store's answer to the question in flight (asked now
    if none is); without `wait`, only if the answer has come, and a new
    question only `ASK_INTERVAL` seconds after the last."""
    if self._asked is None:
      if not wait and time.monotonic() - self._asked_at < ASK_INTERVAL:
        return False
      self._asked = self._store.latest.remote()
      self._asked_at = time.monotonic()
    if not wait and not self._ray.wait([self._asked], timeout=0)[0]:
      return False
    asked, self._asked = self._asked, None
    return self.take(asked, newer_than)
