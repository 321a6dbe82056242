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
"""Factories of a run's parts from a config: learner, environments, checks.

Every check raises `ValueError` naming the value.
"""

from typing import Optional

from absl import logging
import tensorflow as tf

from muzero_snt import acting
from muzero_snt import config as config_lib
from muzero_snt import frames
from muzero_snt.run import data_sources
from muzero_snt.run import distribute
from muzero_snt import environments
from muzero_snt.environments import action_repeat
from muzero_snt.environments import factories
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt.run import overlapped_learning
from muzero_snt import reanalysis
from muzero_snt import search


def make_learner(config: config_lib.MuZeroConfig,
                 seed: int = 0,
                 jit_compile: bool = True,
                 strategy: Optional[tf.distribute.Strategy] = None,
                 compute_dtype: str = 'float32') -> learning.Learner:
  """The network and its learner, every variable created in `strategy`
  (default: the current), after TensorFlow's global seed is set to `seed`."""
  tf.random.set_seed(seed)
  network = networks.make_network(config)
  learner = learning.Learner(network, config, strategy=strategy,
                             jit_compile=jit_compile,
                             compute_dtype=compute_dtype)
  logging.info('Learner on %s with %d replica(s).',
               type(learner.strategy).__name__,
               learner.strategy.num_replicas_in_sync)
  return learner


def make_environment_factory(preset: Optional[str],
                             config: config_lib.MuZeroConfig,
                             title: Optional[str] = None,
                             environment: Optional[
                                 factories.FactoryOrName] = None
                            ) -> acting.EnvironmentFactory:
  """`(seed) -> environment` of a run, its specs and steps checked against
  `config` (`environments.CheckedEnvironment`) and each move held for
  `config.action_repeat` steps. The game is `preset` (with `title`, a
  titled preset's), or the user's `environment` factory or import string
  (ValueError if it does not load)."""
  if environment is not None:
    factory = factories.resolve(environment)
    make_raw = lambda seed: factories.call(factory, seed)
  else:
    make_raw = lambda seed: environments.make_environment(preset, seed, title)

  def make(seed: int) -> environments.Environment:
    raw = make_raw(seed)
    if config.action_repeat != 1:
      raw = action_repeat.ActionRepeat(raw, config.action_repeat)
    return environments.CheckedEnvironment.from_config(raw, config)

  return make


def describe_game(preset: Optional[str], title: Optional[str] = None,
                  environment: Optional[factories.FactoryOrName] = None
                 ) -> str:
  """The game of a run in a few words, for messages."""
  if environment is not None:
    return f'environment={factories.factory_name(environment)!r}'
  return f'preset {preset!r}' + (f' with title {title!r}' if title else '')


def check_environment(preset: Optional[str],
                      config: config_lib.MuZeroConfig,
                      title: Optional[str] = None,
                      environment: Optional[factories.FactoryOrName] = None
                     ) -> None:
  """Builds, resets and closes one environment before any training; a
  ValueError names the game and what is wrong (a missing optional package,
  an unknown title, specs that differ from `config`, ...)."""
  where = describe_game(preset, title, environment)
  if environment is not None:
    environment = factories.resolve(environment)
  try:
    made = make_environment_factory(preset, config, title, environment)(0)
    try:
      made.reset()
    finally:
      made.close()
  except (ImportError, TypeError, ValueError) as e:
    raise ValueError(f'{where}: {e}') from e


def frame_stack(preset: Optional[str],
                environment: Optional[factories.FactoryOrName] = None
               ) -> Optional[frames.FrameStack]:
  """The `frame_stack()` of a run's environments: a preset's without
  building one, a user's from one built with seed 0."""
  if environment is None:
    return environments.ENVIRONMENTS[preset].frame_stack
  made = environments.as_environment(
      factories.call(factories.resolve(environment), 0))
  try:
    return made.frame_stack()
  finally:
    made.close()


def check_strategy(config: config_lib.MuZeroConfig,
                   strategy: tf.distribute.Strategy,
                   jit_compile: bool) -> None:
  """Raises ValueError unless the replicas split the global batch, and XLA
  is asked of one replica or a TPU."""
  distribute.check_batch_size(config.batch_size, strategy)
  num_replicas = strategy.num_replicas_in_sync
  is_tpu = isinstance(strategy, tf.distribute.TPUStrategy)
  if jit_compile and num_replicas > 1 and not is_tpu:
    raise ValueError(
        f'jit_compile needs one replica (or a TPU), but the strategy has '
        f'{num_replicas} replicas: turn XLA off (jit_compile=False).')


def make_source(run, learner: learning.Learner) -> data_sources.DataSource:
  """The run's data: self-play on the learner's network, synthetic batches,
  or a replay file (`run`: a resolved `run_config.RunConfig`)."""
  config = run.config
  if run.data == 'synthetic':
    return data_sources.SyntheticBatches(config, learner, seed=run.seed)
  if run.data == 'replay':
    return data_sources.FixedReplay(
        config, run.replay_path, seed=run.seed,
        reanalyser=make_reanalyser(run, learner))
  network, actor_weights = learner.network, None
  if run.overlap_learning:
    # The actor's own network, filled from the learner's between moves.
    network = networks.make_network(config)
    network.create_variables()
    actor_weights = overlapped_learning.WeightCopy(learner.network, network)
    actor_weights()
  searcher = search.make_search(
      config, network, run.search,
      min_batch_size=run.num_envs if run.pad_rounds else 1)
  searcher = distribute.place_search(searcher, network, run.search_device,
                                     jit_compile=run.search == 'xla')
  actor = acting.Actor(
      config, searcher, search.NetworkModel(network),
      make_environment_factory(run.preset, config, run.env,
                               run.environment),
      seed=run.seed, num_envs=run.num_envs)
  return data_sources.SelfPlay(
      config, actor, run.train_ratio, seed=run.seed,
      reanalyser=make_reanalyser(run, learner, searcher),
      continuous=run.continuous_selfplay, actor_weights=actor_weights)


def make_reanalyser(run, learner: learning.Learner,
                    searcher: Optional[search.Search] = None
                   ) -> Optional[reanalysis.Reanalyser]:
  """The run's reanalyser (None with `config.reanalyze_fraction` 0), with
  self-play's `searcher` or a new search on the learner's network."""
  config = run.config
  if not config.reanalyze_fraction:
    return None
  searcher = searcher or search.make_search(config, learner.network,
                                            run.search)
  return reanalysis.Reanalyser(config, learner.network, searcher,
                               lambda: learner.steps, seed=run.seed)
