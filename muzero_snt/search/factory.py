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
"""make_search: the reference or the compiled search over a network."""

from muzero_snt import config as config_lib
from muzero_snt.networks import muzero_network
from muzero_snt.search import base
from muzero_snt.search import compiled_search
from muzero_snt.search import model as model_lib
from muzero_snt.search import reference_search

# xla: the batched search compiled with XLA; graph: the same as a TensorFlow
# graph without XLA; reference: the NumPy trees of the pseudocode.
SEARCH_KINDS = ('xla', 'graph', 'reference')


def make_search(config: config_lib.MuZeroConfig,
                network: muzero_network.MuZeroNetwork,
                kind: str = 'xla',
                *,
                min_batch_size: int = 1) -> base.Search:
  """The search of one of `SEARCH_KINDS` over `network`.

  It runs `config.num_simulations` simulations (for another count pass
  `dataclasses.replace(config, num_simulations=n)`) of MuZero's search, or
  Gumbel MuZero's (`config.search_policy`; batched kinds only), reading the
  network's variables at each call. `min_batch_size` is
  `compiled_search.CompiledSearch`'s (1 for the reference search).

  Raises:
    ValueError: if `kind` is not one of `SEARCH_KINDS`, or is 'reference'
      with Gumbel MuZero or a `min_batch_size` other than 1.
  """
  if kind not in SEARCH_KINDS:
    raise ValueError(f'kind must be one of {SEARCH_KINDS}, got {kind!r}.')
  if kind != 'reference':
    return compiled_search.CompiledSearch(
        config, network, jit_compile=kind == 'xla',
        min_batch_size=min_batch_size)
  if config.search_policy != 'muzero':
    raise ValueError(
        f'search_policy={config.search_policy!r} runs on the batched search '
        f'only: kind must be \'xla\' or \'graph\', got {kind!r}.')
  if min_batch_size != 1:
    raise ValueError(f'min_batch_size={min_batch_size!r} pads the batched '
                     'searches\' batches; the reference search has no '
                     "batch: use 1 with kind='reference'.")
  return reference_search.ReferenceSearch(config,
                                          model_lib.NetworkModel(network))
