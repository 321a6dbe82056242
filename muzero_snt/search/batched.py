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
"""MuZero's search as batched tensors, and what both batched searches share.

`batched_search` is the reference's search (`reference_search.search_trees`,
`mcts.run_mcts`) for B positions at once: one `initial_inference` for the
roots, roots expanded over their legal actions, optional Dirichlet noise,
then `num_simulations` simulations of descent by pUCT (`puct.py`), one
batched `recurrent_inference`, expansion and backup (`tree.py`). The trees
live in fixed-size tensors, so the whole search is one `tf.while_loop` that
XLA compiles, with the network called inside it. With float64 statistics it
returns the reference's visit counts and root values, without noise or with
the noise the reference draws (`root_noise.py`); float32 statistics (the
default) agree up to rounding of near-equal pUCT scores.

Both batched searches (this one and `gumbel_search.py`) start with
`expand_roots` and run `simulate` in `run_simulations`;
`compiled_search.CompiledSearch` compiles either over NumPy inputs.
"""

from typing import Callable, NamedTuple, Optional, Sequence

import tensorflow as tf

from muzero_snt import config as config_lib
from muzero_snt import types
from muzero_snt.networks import board_conv
from muzero_snt.search import puct
from muzero_snt.search import stateless_dirichlet
from muzero_snt.search import tree as tree_lib

# The network outputs checked for finiteness, in `BatchedSearchOutput.finite`.
CHECKED_OUTPUTS = ('value', 'reward', 'policy_logits')


class BatchedSearchOutput(NamedTuple):
  """The result of `batched_search` for B positions.

  Attributes:
    visit_counts: `[B, A]` int32 visits of each root action.
    policy: `[B, A]` float32 visit counts normalised per row.
    root_value: `[B]` float32 the root's mean backed-up value, for the player
      to move.
    finite: `[3]` bool whether every `value`, `reward` and `policy_logits`
      (`CHECKED_OUTPUTS`) the network returned during the search was finite.
    tree: the searched trees (`tree.Tree`).
  """
  visit_counts: tf.Tensor
  policy: tf.Tensor
  root_value: tf.Tensor
  finite: tf.Tensor
  tree: tree_lib.Tree


class Roots(NamedTuple):
  """A batched search after its prologue (`expand_roots`).

  Attributes:
    tree: the trees, their roots expanded over the legal actions (the mask
      is `tree.root_legal`).
    output: the roots' `initial_inference`.
    finite: `[3]` bool whether its `CHECKED_OUTPUTS` are finite.
    num_simulations: the number of simulations to run.
  """
  tree: tree_lib.Tree
  output: types.NetworkOutput
  finite: tf.Tensor
  num_simulations: int


def all_finite(output: types.NetworkOutput) -> tf.Tensor:
  """`[3]` bool: is every entry of each of `CHECKED_OUTPUTS` finite."""
  return tf.stack([
      tf.reduce_all(tf.math.is_finite(getattr(output, name)))
      for name in CHECKED_OUTPUTS
  ])


def add_exploration_noise(config: config_lib.MuZeroConfig,
                          tree: tree_lib.Tree,
                          seed: Optional[tf.Tensor] = None,
                          noise: Optional[tf.Tensor] = None
                         ) -> tree_lib.Tree:
  """`mcts.add_exploration_noise` on every root: prior*(1-f) + noise*f.

  The roots must be fresh (`tree.init_tree`): their rows are rewritten.
  `noise` is a `[B, A]` Dirichlet sample over each row's legal actions (e.g.
  `root_noise.dirichlet_noise`); without it one is drawn from `seed`, each
  root's from its row alone (`stateless_dirichlet.dirichlet_noise`), so
  that a root's noise does not depend on how many rows the batch has.
  """
  if noise is None:
    noise = stateless_dirichlet.dirichlet_noise(
        config.root_dirichlet_alpha, tree.root_legal, seed, tree.edges.dtype)
  noise = tf.cast(noise, tree.edges.dtype)
  frac = config.root_exploration_fraction
  no_parent = tf.fill(tf.shape(tree.root_legal)[:1], tree_lib.NO_PARENT)
  root_row = tree_lib.node_edges(
      tree.prior[:, 0] * (1 - frac) + noise * frac, no_parent)
  return tree._replace(edges=tree_lib.set_rows(
      tree.edges, tree_lib.node_index(tree, tf.zeros_like(no_parent)),
      root_row))


def _static_size(tensor: tf.Tensor, axis: int) -> Optional[int]:
  """The size of `tensor`'s `axis` if known when tracing, else None."""
  return tf.compat.dimension_value(tensor.shape[axis])


def _check_shapes(config: config_lib.MuZeroConfig, observation: tf.Tensor,
                  to_play: tf.Tensor, legal_actions_mask: tf.Tensor) -> None:
  """Raises ValueError, when tracing, on shapes known to be wrong.

  A mask of width 1, or of batch 1, would broadcast against the tree's
  `[B, A]` rows and silently stand for every row or action.
  """
  num_actions = config.action_space_size
  if legal_actions_mask.shape.rank != 2 or _static_size(
      legal_actions_mask, 1) not in (None, num_actions):
    raise ValueError(f'legal_actions_mask must be a [B, {num_actions}] bool '
                     f'mask, got shape {legal_actions_mask.shape}.')
  if to_play.shape.rank != 1:
    raise ValueError(f'to_play must be [B], got shape {to_play.shape}.')
  sizes = {_static_size(t, 0)
           for t in (observation, to_play, legal_actions_mask)}
  sizes.discard(None)
  if len(sizes) > 1:
    raise ValueError(
        f'observation, to_play and legal_actions_mask must have the same '
        f'batch size, got shapes {observation.shape}, {to_play.shape} and '
        f'{legal_actions_mask.shape}.')


def _input_assertions(config: config_lib.MuZeroConfig,
                      observation: tf.Tensor, to_play: tf.Tensor,
                      legal: tf.Tensor) -> list:
  """Run-time checks of the inputs' sizes and values (not under XLA)."""
  batch_size = tf.shape(observation)[0]
  return [
      tf.debugging.assert_equal(
          tf.shape(legal), tf.stack([batch_size, config.action_space_size]),
          message='legal_actions_mask must be a [B, A] mask, B the '
          'observations\' batch'),
      tf.debugging.assert_equal(
          tf.shape(to_play), batch_size[None],
          message='to_play must have one player per observation'),
      tf.debugging.assert_equal(
          tf.reduce_any(legal, axis=1), True,
          message='every position needs a legal action (a row of '
          'legal_actions_mask without one would search action 0)'),
      tf.debugging.assert_non_negative(
          to_play, message='to_play must be players in [0, num_players)'),
      tf.debugging.assert_less(
          to_play, tf.cast(config.num_players, to_play.dtype),
          message='to_play must be players in [0, num_players)'),
  ]


def expand_roots(config: config_lib.MuZeroConfig, network,
                 observation: tf.Tensor, to_play: tf.Tensor,
                 legal_actions_mask: tf.Tensor, *, add_noise: bool,
                 seed: Optional[tf.Tensor], noise: Optional[tf.Tensor],
                 num_simulations: Optional[int], dtype: tf.DType,
                 known_bounds: Optional[config_lib.KnownBounds],
                 check_inputs: bool) -> Roots:
  """The prologue of both batched searches, up to the expanded roots.

  The arguments are `batched_search`'s (`noise` a given sample of the
  search's noise), and `known_bounds`, the bounds of Q the trees start
  with. The inputs become tensors and are checked (shapes when tracing;
  sizes and values with `check_inputs`), then the roots' one
  `initial_inference` makes the trees (`tree.init_tree`).

  Returns:
    `Roots`.

  Raises:
    ValueError: if `add_noise` is set without a `seed` or `noise`, or, when
      tracing, the inputs' static shapes disagree with each other or the
      config, or the network's policy logits are not `[B, A]`.
  """
  if add_noise and seed is None and noise is None:
    raise ValueError('A batched search with add_noise=True needs a seed or '
                     'a noise sample.')
  if num_simulations is None:
    num_simulations = config.num_simulations
  num_actions = config.action_space_size
  observation = tf.convert_to_tensor(observation)
  to_play = tf.convert_to_tensor(to_play)
  legal = tf.convert_to_tensor(legal_actions_mask, tf.bool)
  _check_shapes(config, observation, to_play, legal)
  if check_inputs:
    with tf.control_dependencies(
        _input_assertions(config, observation, to_play, legal)):
      observation = tf.identity(observation)

  # At the root of the search tree we use the representation function to
  # obtain a hidden state given the current observation.
  output = network.initial_inference(observation)
  if _static_size(output.policy_logits, -1) not in (None, num_actions):
    raise ValueError(
        f'The network returns policy logits of shape '
        f'{output.policy_logits.shape}; the config has {num_actions} '
        'actions. Build the network from the same config.')
  finite = all_finite(output)
  tree = tree_lib.init_tree(num_simulations + 1, num_actions, output.value,
                            output.policy_logits, output.hidden_state,
                            to_play, legal, known_bounds, dtype)
  return Roots(tree, output, finite, num_simulations)


def simulate(config: config_lib.MuZeroConfig, network, tree: tree_lib.Tree,
             simulation: tf.Tensor, leaf_edge: tf.Tensor):
  """The rest of simulation `simulation` once the descent chose its edges.

  Args:
    config: the hyperparameters.
    network: see `batched_search`.
    tree: the trees.
    simulation: scalar int32 the simulation, the index of its new nodes.
    leaf_edge: `[B]` int32 the flat index of the edge into each new leaf.

  Returns:
    `(tree, output)`: the trees with the leaves expanded and their values
    backed up, and the leaves' `recurrent_inference`.
  """
  num_actions = config.action_space_size
  # Inside the search tree we use the dynamics function to obtain the next
  # hidden state given an action and the previous hidden state.
  output = network.recurrent_inference(
      tree_lib.gather_rows(tree.hidden_state, leaf_edge // num_actions),
      leaf_edge % num_actions)
  tree = tree_lib.expand(tree, simulation, leaf_edge, output.policy_logits,
                         output.hidden_state, config.num_players)
  tree = tree_lib.backpropagate(config, tree, leaf_edge, simulation,
                                output.value, output.reward)
  return tree, output


def run_simulations(network, roots: Roots, body: Callable[..., Sequence],
                    state: Sequence) -> Sequence:
  """Runs `body(simulation, *state)` for simulations 1..num_simulations.

  Small boards' convolutions run as matmuls whose matrices are made once
  here rather than in every simulation (`networks/board_conv.py`).

  Returns:
    The final `state`.
  """
  hidden_state = roots.output.hidden_state
  with board_conv.assembled_weights(network, hidden_state.shape,
                                    hidden_state.dtype):
    return tf.while_loop(
        lambda simulation, *_: simulation <= roots.num_simulations, body,
        (tf.constant(1),) + tuple(state))[1:]


def root_value(tree: tree_lib.Tree) -> tf.Tensor:
  """`[B]` float32 the roots' mean backed-up values, for the player to move."""
  return tf.cast(tree.root_value_sum / tree.root_visit_count, tf.float32)


def batched_search(config: config_lib.MuZeroConfig,
                   network,
                   observation: tf.Tensor,
                   to_play: tf.Tensor,
                   legal_actions_mask: tf.Tensor,
                   seed: Optional[tf.Tensor] = None,
                   add_noise: bool = True,
                   num_simulations: Optional[int] = None,
                   dtype: tf.DType = tf.float32,
                   check_inputs: bool = True,
                   noise: Optional[tf.Tensor] = None) -> BatchedSearchOutput:
  """Searches from each of B positions; plain TensorFlow, XLA-compilable.

  Call it inside a `tf.function` (see `CompiledSearch`). The order of work is
  the reference's (`reference_search.search_trees`; see the module).

  Every action the search passes to `recurrent_inference` or gathers is an
  argmax over A scores, so it lies in [0, A) whatever the inputs. Wrong
  inputs would still give silent values: a mask of width or batch 1
  broadcasts, a row without a legal action searches action 0. So shapes
  known when tracing are checked then (ValueError), and with `check_inputs`
  the sizes, the legal rows and the players are asserted when the search
  runs (`tf.errors.InvalidArgumentError`). XLA drops assertions: a search
  compiled with XLA must get checked inputs, as `CompiledSearch` checks its
  NumPy inputs (`inputs.check_inputs`) before calling it.

  Args:
    config: the hyperparameters (`num_simulations`, `num_players`,
      `action_space_size`, `discount`, `pb_c_*`, `known_bounds`, noise).
    network: has `initial_inference(observation)` and
      `recurrent_inference(hidden_state, action)` returning
      `types.NetworkOutput` tensors (e.g. a `MuZeroNetwork`), with
      `is_training` False by default.
    observation: `[B, *observation_shape]` the current observations.
    to_play: `[B]` int the player to move in each position.
    legal_actions_mask: `[B, A]` bool the legal actions (at least one per
      row).
    seed: `[2]` int stateless seed of the noise; needed if `add_noise`
      and no `noise` is given.
    add_noise: whether to mix Dirichlet noise into the root priors.
    num_simulations: overrides `config.num_simulations` if given.
    dtype: float type of the tree's statistics: float32, or float64 for
      results equal to the reference search's.
    check_inputs: assert the inputs' sizes and values when the search runs
      (see above; off when the caller has checked them).
    noise: `[B, A]` a given Dirichlet sample over each row's legal actions
      (`root_noise.dirichlet_noise`), used instead of drawing one from
      `seed` in the program.

  Returns:
    `BatchedSearchOutput`.

  Raises:
    ValueError: as `expand_roots`.
    tf.errors.InvalidArgumentError: with `check_inputs`, outside XLA, if
      the sizes disagree, a row of the mask has no legal action or a player
      is outside [0, num_players).
  """
  roots = expand_roots(
      config, network, observation, to_play, legal_actions_mask,
      add_noise=add_noise, seed=seed, noise=noise,
      num_simulations=num_simulations, dtype=dtype,
      known_bounds=config.known_bounds, check_inputs=check_inputs)
  tree = roots.tree
  if add_noise:
    tree = add_exploration_noise(config, tree, seed, noise)

  def body(simulation, tree, finite):
    leaf_edge = puct.select_leaves(config, tree)
    tree, output = simulate(config, network, tree, simulation, leaf_edge)
    return simulation + 1, tree, tf.logical_and(finite, all_finite(output))

  tree, finite = run_simulations(network, roots, body, (tree, roots.finite))
  counts = tree.edges[:, 0, :, tree_lib.VISIT_COUNT]  # [B, A]
  visit_counts = tf.cast(counts, tf.int32)
  counts = tf.cast(counts, tf.float32)
  policy = counts / tf.reduce_sum(counts, axis=1, keepdims=True)
  return BatchedSearchOutput(
      visit_counts=visit_counts,
      policy=policy,
      root_value=root_value(tree),
      finite=finite,
      tree=tree)


def select_actions(visit_counts: tf.Tensor, temperature: tf.Tensor,
                   seed: tf.Tensor) -> tf.Tensor:
  """`select_action` for a batch: a draw from `visit_softmax` of each row.

  Probabilities proportional to `N(a) ** (1 / T)`, as the reference's
  `visit_softmax` (log space, maximum subtracted); at T = 0 the most visited
  action, the lowest index among equal counts, without randomness.

  A row without a positive count has no distribution to sample: TensorFlow's
  sampler would return A, out of range. It is asserted against (outside
  XLA, which drops assertions; a search's counts always have a visit).

  Args:
    visit_counts: `[B, A]` root visit counts, each row with a positive count.
    temperature: `[B]` temperatures >= 0.
    seed: `[2]` int stateless seed.

  Returns:
    `[B]` int32 actions in [0, A).

  Raises:
    tf.errors.InvalidArgumentError: outside XLA, if a count is negative or a
      row has no positive count.
  """
  checks = [
      tf.debugging.assert_non_negative(
          visit_counts, message='visit counts must be >= 0'),
      tf.debugging.assert_equal(
          tf.reduce_any(visit_counts > 0, axis=1), True,
          message='every row of visit counts needs a positive count'),
  ]
  with tf.control_dependencies(checks):
    visit_counts = tf.identity(visit_counts)
  counts = tf.cast(visit_counts, tf.float32)
  temperature = tf.cast(temperature, tf.float32)[:, None]
  log_counts = tf.math.log(counts)  # -inf where unvisited.
  logits = log_counts - tf.reduce_max(log_counts, axis=1, keepdims=True)
  positive = temperature > 0
  logits = logits / tf.where(positive, temperature, 1.)
  sampled = tf.random.stateless_categorical(
      logits, 1, seed, dtype=tf.int32)[:, 0]
  greedy = tree_lib.first_argmax(counts)
  return tf.where(positive[:, 0], sampled, greedy)
