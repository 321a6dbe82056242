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
r"""Trains MuZero: self-play, replay and the compiled learner in one process.

With --data=selfplay (the default) this is the whole MuZero loop: the actor
plays --num_envs games at once with the search and the learner's current
weights, the replay buffer keeps the last `window_size` games, and the
learner takes --train_ratio steps per environment step. With
--data=synthetic the learner alone trains on synthetic batches with
learnable targets fed through tf.data (smoke runs and throughput on any
--strategy). With --data=replay the learner trains on the games of a saved
replay file (--replay_path) and plays none (MuZero Unplugged);
--reanalyze_fraction refreshes the targets of that fraction of each batch
by searching again (docs/reanalysis.md), and --export_replay writes the
run's replay buffer at the end.

--strategy picks the learner's devices; --batch_size is the global batch,
split evenly across the replicas. With --logdir the metrics go to
TensorBoard; with --checkpoint_dir the run saves everything it needs to
continue and resumes from there. The work is the library's
(`muzero_snt.run.experiment.run`); this file turns flags into its arguments.

    python -m launchers.train --preset=tictactoe --checkpoint_dir=/tmp/ttt
    python -m launchers.train --preset=connect4
    python -m launchers.train --preset=atari_small --env=Breakout
    python -m launchers.train --preset=minatar --env=breakout
    python -m launchers.train --preset=cartpole --data=synthetic \
        --training_steps=300
    python -m launchers.train --data=synthetic --strategy=mirrored \
        --nojit_compile --logdir=/tmp/muzero
    python -m launchers.train --data=synthetic --strategy=tpu --tpu=local
    python -m launchers.train --preset=tictactoe --reanalyze_fraction=0.8 \
        --export_replay=/tmp/ttt_replay.npz
    python -m launchers.train --preset=tictactoe --data=replay \
        --replay_path=/tmp/ttt_replay.npz --reanalyze_fraction=1
    python -m launchers.train --preset=tictactoe --num_actors=2
    python -m launchers.train --preset=connect4 --num_actors=16 \
        --ray_address=10.0.0.5:6379
    python -m launchers.train --preset=cartpole --num_actors=2 \
        --reanalyze_fraction=0.8 --num_reanalyze_workers=1
    python -m launchers.train --preset=gymnasium --env=Acrobot-v1
    python -m launchers.train --preset=openspiel --env=connect_four
    python -m launchers.train --environment=examples.corridor:Corridor

--preset=gymnasium and --preset=openspiel take any gymnasium task with
discrete actions or any OpenSpiel game for two players (sequential,
deterministic, perfect information, zero-sum) by --env, and derive the
configuration from it; --environment trains on your own game, a factory
seed -> dm_env.Environment named by its import string
(docs/environments.md).

With --num_actors=N the self-play actors run as N Ray processes beside a
replay service that holds --train_ratio, and the learner publishes its
weights every --publish_interval steps (docs/distributed.md). There,
--reanalyze_fraction reanalyses in the learner's process, or in
--num_reanalyze_workers=M Ray processes.
"""

import os
from typing import Optional, Sequence

from absl import app
from absl import flags

from launchers import common_flags
from muzero_snt import config as config_lib
from muzero_snt.run import choices
from muzero_snt.run import resources
from muzero_snt.run import run_config
from muzero_snt.run import stopping
from muzero_snt import symmetries

# --help lists the shared flags a run starts with (--preset, --env,
# --checkpoint_dir, --logdir, --seed, --num_simulations, ...) among this
# launcher's own; absl shows only the main module's key flags there.
flags.adopt_module_key_flags(common_flags)

ENVIRONMENT = flags.DEFINE_string(
    'environment', None, 'your own game instead of --preset: the import '
    'string package.module:factory of a factory seed -> dm_env.Environment '
    '(docs/environments.md); the configuration is derived from its specs.')
DATA = flags.DEFINE_enum(
    'data', 'selfplay', list(run_config.DATA_SOURCES),
    'selfplay: the whole MuZero loop; synthetic: the learner alone on '
    'synthetic batches; replay: the games of --replay_path only.')
REPLAY_PATH = flags.DEFINE_string(
    'replay_path', None, 'the replay file --data=replay trains from (a '
    'checkpoint\'s replay-N.npz or an --export_replay file).')
EXPORT_REPLAY = flags.DEFINE_string(
    'export_replay', None, 'where to write the run\'s replay buffer at the '
    'end (a file --data=replay reads).')
REANALYZE_FRACTION = flags.DEFINE_float(
    'reanalyze_fraction', None, 'fraction of each batch whose targets come '
    'from a fresh search and a target network (MuZero Reanalyze; 0.8 in '
    'the paper; default: preset, 0).')
TARGET_UPDATE_INTERVAL = flags.DEFINE_integer(
    'target_update_interval', None, 'learner steps between copies of the '
    'network into the reanalysis target network (default: preset).')
BOARD_SYMMETRIES = flags.DEFINE_enum(
    'board_symmetries', None, list(symmetries.SYMMETRY_KINDS),
    'augment each sampled window with a random board symmetry: dihedral '
    '(the 8 maps of a square board, as AlphaGo Zero), left_right (a mirror, '
    'connect four) or none (the paper; default: preset).')
RANDOM_OPENING_MOVES = flags.DEFINE_integer(
    'random_opening_moves', None, 'self-play plays its first this many '
    'moves of a game at random among the legal ones (0: the paper; '
    'default: preset).')
NUM_ENVS = flags.DEFINE_integer(
    'num_envs', None, 'self-play games played at once, per actor with '
    '--num_actors (default: the preset\'s, shared among the actors).')
TRAIN_RATIO = flags.DEFINE_float(
    'train_ratio', None, 'learner steps per environment step (default: '
    'preset).')
CONTINUOUS_SELFPLAY = flags.DEFINE_bool(
    'continuous_selfplay', None, 'replace each self-play game as it ends '
    'instead of playing rounds that wait for their longest game, in this '
    'process or in each actor (default: preset, e.g. on for cartpole).')
OVERLAP_LEARNING = flags.DEFINE_bool(
    'overlap_learning', None, 'take the learner steps a self-play move owes '
    'in a second thread while the next move is played, on a copy of the '
    'weights one move behind (one process; default: preset, e.g. on for '
    'cartpole).')
PAD_ROUNDS = flags.DEFINE_bool(
    'pad_rounds', None, 'search every move of a self-play round with all '
    '--num_envs rows, the ended games\' padded, so that XLA compiles one '
    'search program instead of one per power of two, for the same games '
    'up to rounding (rounds of the xla or '
    'graph search; default: preset with xla, e.g. on for tictactoe).')
TRAINING_STEPS = flags.DEFINE_integer(
    'training_steps', None, 'learner steps to run (default: preset); a derived '
    'configuration (--environment, a family) decays its learning rate and '
    'temperatures over them.')
BATCH_SIZE = flags.DEFINE_integer('batch_size', None,
                                  'global batch size (default: preset).')
UNROLL_STEPS = flags.DEFINE_integer('num_unroll_steps', None,
                                    'K, the unroll length (default: preset).')
TD_STEPS = flags.DEFINE_integer(
    'td_steps', None, 'n of the n-step value target (default: preset).')
WINDOW_SIZE = flags.DEFINE_integer(
    'window_size', None, 'games the replay buffer keeps (default: preset).')
LR_INIT = flags.DEFINE_float('lr_init', None,
                             'initial learning rate (default: preset).')
LR_DECAY_STEPS = flags.DEFINE_float(
    'lr_decay_steps', None, 'steps per lr_decay_rate factor (default: preset).')
LR_DECAY_RATE = flags.DEFINE_float(
    'lr_decay_rate', None, 'learning-rate decay factor in (0, 1] (default: '
    'preset).')
LR_WARMUP_STEPS = flags.DEFINE_integer(
    'lr_warmup_steps', None, 'learner steps over which the learning rate '
    'rises linearly to its schedule; 0 for none (default: preset).')
WEIGHT_DECAY = flags.DEFINE_float('weight_decay', None,
                                  'L2 coefficient (default: preset).')
VALUE_LOSS_WEIGHT = flags.DEFINE_float(
    'value_loss_weight', None, 'weight of the value loss (default: preset).')
REWARD_LOSS_WEIGHT = flags.DEFINE_float(
    'reward_loss_weight', None, 'weight of each unrolled step\'s reward loss, '
    'inside its 1/K gradient scale (default: preset).')
OPTIMIZER = flags.DEFINE_enum('optimizer', None, list(config_lib.OPTIMIZERS),
                              'optimizer (default: preset).')
CHECKPOINT_INTERVAL = flags.DEFINE_integer(
    'checkpoint_interval', None, 'learner steps between checkpoints '
    '(default: preset).')
CHECKPOINT_MINUTES = flags.DEFINE_float(
    'checkpoint_minutes', 10., 'also checkpoint after this many minutes of '
    'wall time since the last checkpoint (0: by learner steps only).')
ALLOW_CONFIG_CHANGES = flags.DEFINE_list(
    'allow_config_changes', [], 'fields a resumed run may change from the '
    'configuration saved with its checkpoints (training_steps and '
    'checkpoint_interval always may).')
MIXED_PRECISION = flags.DEFINE_enum(
    'mixed_precision', 'float32', list(choices.COMPUTE_DTYPES),
    'compute dtype of the learner; variables stay float32.')
JIT_COMPILE = flags.DEFINE_bool('jit_compile', True,
                                'compile the loss and gradients with XLA.')
LOG_EVERY = flags.DEFINE_integer('log_every', 50, 'log every this many steps.')
STRATEGY = flags.DEFINE_enum('strategy', 'default',
                             list(choices.STRATEGIES),
                             'tf.distribute strategy of the learner.')
TPU = flags.DEFINE_string('tpu', None,
                          'TPU address or name (with --strategy=tpu).')
SEARCH_DEVICE = flags.DEFINE_enum(
    'search_device', 'accelerator', list(run_config.SEARCH_DEVICES),
    'where self-play searches: on the device of the learner\'s weights '
    '(the accelerator) or on the host.')
NUM_ACTORS = flags.DEFINE_integer(
    'num_actors', 0, 'self-play actor processes on Ray, beside a replay '
    'service and the learner (0: self-play in the learner\'s process).')
RAY_ADDRESS = flags.DEFINE_string(
    'ray_address', None, 'HOST:PORT of a Ray cluster to join (default: '
    'start Ray on this machine); with --num_actors.')
PUBLISH_INTERVAL = flags.DEFINE_integer(
    'publish_interval', 4, 'learner steps between weight publications to '
    'the actors; with --num_actors.')
EVAL_INTERVAL = flags.DEFINE_integer(
    'eval_interval', 0, 'learner steps between evaluations of the published '
    'weights by an evaluator process, written to --logdir as eval/... '
    '(0: none); with --num_actors.')
EVAL_GAMES = flags.DEFINE_integer(
    'eval_games', 20, 'games per opponent and side (or episodes) of each '
    '--eval_interval evaluation; 100 is the single-process benchmark\'s.')
NUM_REANALYZE_WORKERS = flags.DEFINE_integer(
    'num_reanalyze_workers', 0, 'reanalyse worker processes on Ray, taking '
    'batches from the replay service (0: the learner reanalyses); with '
    '--num_actors and --reanalyze_fraction.')
CONFIG = common_flags.CONFIG
flags.declare_key_flag('config')
EXPORT_DIR = flags.DEFINE_string(
    'export_dir', None, 'where to write a SavedModel of the two inference '
    'functions at the end.')
_PLACEMENT_HELP = ("'spread' evenly over the Ray cluster's nodes, "
                   "'learner' on the learner's node, or 'resource:NAME' "
                   'spread over the nodes started with custom resource NAME '
                   '(ray start --resources), one unit each; with ')
ACTOR_PLACEMENT = flags.DEFINE_string(
    'actor_placement', 'spread', 'where the self-play actors run: ' +
    _PLACEMENT_HELP + '--num_actors.')
REANALYZE_PLACEMENT = flags.DEFINE_string(
    'reanalyze_placement', 'spread', 'where the reanalyse workers run: ' +
    _PLACEMENT_HELP + '--num_reanalyze_workers.')
EVALUATOR_PLACEMENT = flags.DEFINE_string(
    'evaluator_placement', 'learner', 'where the evaluator runs: ' +
    _PLACEMENT_HELP + '--eval_interval.')
REPLAY_SHARDS = flags.DEFINE_integer(
    'replay_shards', 1, 'replay service processes on Ray, actor i\'s games '
    'going to shard i mod --replay_shards; with --num_actors.')
REPLAY_PLACEMENT = flags.DEFINE_string(
    'replay_placement', 'learner', 'where the replay shards run: ' +
    _PLACEMENT_HELP + '--num_actors.')

# Placement flags, by the flag of the processes they place.
_PLACEMENT_FLAGS = {'actor_placement': 'num_actors',
                    'replay_placement': 'num_actors',
                    'reanalyze_placement': 'num_reanalyze_workers',
                    'evaluator_placement': 'eval_interval'}

# Flags of self-play only, refused with --data=synthetic.
_SELF_PLAY_FLAGS = ('env', 'num_envs', 'train_ratio', 'search',
                    'num_simulations', 'unvisited_q', 'window_size')
# Flags of playing games, refused with --data=replay (its search and
# window still apply: reanalysis searches, the file's games need room).
_PLAYING_FLAGS = ('env', 'num_envs', 'train_ratio')


def validate_flags() -> None:
  """Checks the flags that need no TensorFlow work; raises `UsageError`."""
  common_flags.validate(environment=ENVIRONMENT.value)
  if STRATEGY.value == 'tpu' and not TPU.value:
    raise app.UsageError('--strategy=tpu needs --tpu, the TPU\'s address or '
                         'name (\'local\' on a TPU VM).')
  if TPU.value and STRATEGY.value != 'tpu':
    raise app.UsageError(f'--tpu={TPU.value} is only used with '
                         f'--strategy=tpu, got --strategy={STRATEGY.value}.')
  if DATA.value == 'synthetic':
    common_flags.refuse(_SELF_PLAY_FLAGS + ('export_replay',),
                        'only apply to --data=selfplay or replay')
  if DATA.value == 'replay':
    common_flags.refuse(_PLAYING_FLAGS, 'only apply to --data=selfplay')
    if not REPLAY_PATH.value:
      raise app.UsageError('--data=replay needs --replay_path, the replay '
                           'file to train from.')
  elif REPLAY_PATH.value:
    raise app.UsageError(f'--replay_path is read by --data=replay only, got '
                         f'--data={DATA.value}.')
  if REANALYZE_FRACTION.value is not None and not (
      0 <= REANALYZE_FRACTION.value <= 1):
    raise app.UsageError(f'--reanalyze_fraction must be in [0, 1], got '
                         f'{REANALYZE_FRACTION.value}.')
  for name in ('num_envs', 'log_every', 'publish_interval', 'replay_shards'):
    common_flags.check_positive(name)
  minutes = CHECKPOINT_MINUTES.value
  if not 0 <= minutes < float('inf'):
    raise app.UsageError(f'--checkpoint_minutes must be a finite number >= '
                         f'0, got {minutes}.')
  if EVAL_GAMES.value < 1:
    raise app.UsageError(f'--eval_games must be >= 1, got '
                         f'{EVAL_GAMES.value}.')
  if EVAL_INTERVAL.value < 0:
    raise app.UsageError(f'--eval_interval must be >= 0, got '
                         f'{EVAL_INTERVAL.value}.')
  for name in ('num_actors', 'num_reanalyze_workers'):
    if flags.FLAGS[name].value < 0:
      raise app.UsageError(f'--{name} must be >= 0, got '
                           f'{flags.FLAGS[name].value}.')
  if not NUM_ACTORS.value:
    common_flags.refuse(('ray_address', 'publish_interval', 'eval_interval',
                         'num_reanalyze_workers', 'replay_shards'),
                        'only apply to --num_actors > 0')
  elif DATA.value == 'synthetic':
    common_flags.refuse(('num_actors',), 'only applies to --data=selfplay')
  if DATA.value != 'selfplay':
    common_flags.refuse(('continuous_selfplay', 'overlap_learning',
                         'pad_rounds', 'search_device'),
                        'only applies to --data=selfplay')
  if NUM_ACTORS.value:
    common_flags.refuse(('overlap_learning', 'search_device'),
                        'only applies to one process (--num_actors=0)')
  ratio = TRAIN_RATIO.value
  if ratio is not None and not 0 < ratio < float('inf'):
    raise app.UsageError(f'--train_ratio must be a positive finite number, '
                         f'got {ratio}.')
  for name, processes in _PLACEMENT_FLAGS.items():
    if not run_config.is_placement(flags.FLAGS[name].value):
      raise app.UsageError(f'--{name} must be {run_config.PLACEMENT_FORMS}, '
                           f'got {flags.FLAGS[name].value!r}.')
    if not flags.FLAGS[processes].value:
      common_flags.refuse((name,), f'only applies to --{processes} > 0')
  # Every name the saved configuration holds for a run of these flags, or
  # for the run already in --checkpoint_dir (a setting it saved may be one
  # these flags leave out, e.g. overlap_learning).
  known = set(make_run().flat())
  if common_flags.CHECKPOINT_DIR.value:
    saved = common_flags.usage_errors(run_config.load,
                                      common_flags.CHECKPOINT_DIR.value)
    if saved is not None:
      known |= set(saved.flat())
  unknown = sorted(set(ALLOW_CONFIG_CHANGES.value) - known)
  if unknown:
    raise app.UsageError(f'--allow_config_changes names unknown fields '
                         f'{unknown}; expected names of {sorted(known)}.')


def make_config() -> config_lib.MuZeroConfig:
  """The preset with every flag's override, validated."""
  for name in ('training_steps', 'batch_size', 'num_unroll_steps', 'td_steps',
               'checkpoint_interval', 'lr_init', 'lr_decay_steps',
               'window_size', 'target_update_interval', 'value_loss_weight',
               'reward_loss_weight'):
    common_flags.check_positive(name)
  config = common_flags.make_config({
      'batch_size': BATCH_SIZE.value,
      'num_unroll_steps': UNROLL_STEPS.value,
      'td_steps': TD_STEPS.value,
      'checkpoint_interval': CHECKPOINT_INTERVAL.value,
      'lr_init': LR_INIT.value,
      'lr_decay_steps': LR_DECAY_STEPS.value,
      'lr_decay_rate': LR_DECAY_RATE.value,
      'lr_warmup_steps': LR_WARMUP_STEPS.value,
      'weight_decay': WEIGHT_DECAY.value,
      'optimizer': OPTIMIZER.value,
      'value_loss_weight': VALUE_LOSS_WEIGHT.value,
      'reward_loss_weight': REWARD_LOSS_WEIGHT.value,
      'training_steps': TRAINING_STEPS.value,
      'window_size': WINDOW_SIZE.value,
      'reanalyze_fraction': REANALYZE_FRACTION.value,
      'board_symmetries': BOARD_SYMMETRIES.value,
      'random_opening_moves': RANDOM_OPENING_MOVES.value,
      'target_update_interval': TARGET_UPDATE_INTERVAL.value,
  }, environment=ENVIRONMENT.value)
  try:
    return run_config.apply_overrides(config, CONFIG.value)
  except ValueError as e:
    raise app.UsageError(f'--config: {e}') from e


def make_run(config: Optional[config_lib.MuZeroConfig] = None
            ) -> run_config.RunConfig:
  """The run of the flags (with `config`, or the preset's hyperparameters)."""
  environment = ENVIRONMENT.value
  return run_config.RunConfig(
      preset=None if environment else common_flags.PRESET.value,
      config=config,
      env=common_flags.ENV.value,
      environment=environment,
      data=DATA.value,
      num_envs=NUM_ENVS.value,
      train_ratio=TRAIN_RATIO.value,
      continuous_selfplay=CONTINUOUS_SELFPLAY.value,
      overlap_learning=OVERLAP_LEARNING.value,
      pad_rounds=PAD_ROUNDS.value,
      search=common_flags.SEARCH.value,
      search_device=SEARCH_DEVICE.value,
      seed=common_flags.SEED.value,
      jit_compile=JIT_COMPILE.value,
      compute_dtype=MIXED_PRECISION.value,
      log_every=LOG_EVERY.value,
      checkpoint_dir=common_flags.CHECKPOINT_DIR.value,
      logdir=common_flags.LOGDIR.value,
      export_dir=EXPORT_DIR.value,
      allow_config_changes=tuple(ALLOW_CONFIG_CHANGES.value),
      checkpoint_minutes=CHECKPOINT_MINUTES.value or None,
      num_actors=NUM_ACTORS.value,
      ray_address=RAY_ADDRESS.value,
      publish_interval=PUBLISH_INTERVAL.value,
      eval_interval=EVAL_INTERVAL.value,
      eval_games=EVAL_GAMES.value,
      num_reanalyze_workers=NUM_REANALYZE_WORKERS.value,
      replay_path=REPLAY_PATH.value,
      export_replay=EXPORT_REPLAY.value,
      actor_placement=ACTOR_PLACEMENT.value,
      reanalyze_placement=REANALYZE_PLACEMENT.value,
      evaluator_placement=EVALUATOR_PLACEMENT.value,
      replay_shards=REPLAY_SHARDS.value,
      replay_placement=REPLAY_PLACEMENT.value)


def check_paths(run: run_config.RunConfig) -> None:
  """Checks the run's files and directories; raises `UsageError`.

  The output directories must be directories this process can write (they
  are created if missing), and --replay_path a file, before TensorFlow
  starts; the space a run's checkpoints need is checked with the rest of
  the run (`experiment.check_run`).
  """
  outputs = {'checkpoint_dir': run.checkpoint_dir, 'logdir': run.logdir,
             'export_dir': run.export_dir}
  if run.export_replay:
    outputs['export_replay'] = os.path.dirname(
        os.path.abspath(run.export_replay))
  for name, path in outputs.items():
    if path:
      common_flags.usage_errors(resources.check_output_directory, path, name)
  if run.replay_path and not os.path.isfile(run.replay_path):
    what = ('a directory' if os.path.isdir(run.replay_path) else
            'not found')
    raise app.UsageError(f'--replay_path={run.replay_path} is {what}: give '
                         'a replay file (a checkpoint\'s replay-N.npz or an '
                         '--export_replay file).')


def train(run: run_config.RunConfig, stop: stopping.StopOnSignals) -> None:
  """Starts TensorFlow and trains `run`, whose flags `main` has checked."""
  common_flags.start_tensorflow()
  # pylint: disable=g-import-not-at-top
  from muzero_snt.distributed import ray_support
  from muzero_snt.run import builders
  from muzero_snt.run import distribute
  from muzero_snt.run import experiment
  from muzero_snt.run import progress
  # pylint: enable=g-import-not-at-top
  config = run.config
  if run.data == 'selfplay':
    common_flags.usage_errors(builders.check_environment, run.preset,
                              config, run.env, run.environment)
  common_flags.usage_errors(experiment.check_run, run)
  if run.num_actors:
    common_flags.usage_errors(ray_support.check_installed)
  if run.num_actors and run.ray_address:
    common_flags.usage_errors(ray_support.check_address, run.ray_address)
  strategy = common_flags.usage_errors(
      distribute.make_strategy, STRATEGY.value, tpu=TPU.value,
      batch_size=config.batch_size)
  common_flags.usage_errors(builders.check_strategy, config, strategy,
                            JIT_COMPILE.value)
  experiment.run(run, strategy=strategy, stop=stop,
                 logger=progress.log_progress)


def main(argv: Sequence[str]) -> None:
  # From the first line a signal stops the run cleanly: at the end of the
  # stage in progress, with one line naming it (common_flags.run).
  with stopping.StopOnSignals() as stop:
    stop.begin('checking the run')
    if len(argv) > 1:
      raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
    # Every flag is checked before TensorFlow starts: a mistake costs a
    # moment, not TensorFlow's start-up.
    validate_flags()
    config = make_config()
    run = common_flags.usage_errors(make_run, config)
    check_paths(run)
    train(run, stop)


if __name__ == '__main__':
  common_flags.run(main)
