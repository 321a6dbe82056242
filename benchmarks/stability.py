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
"""Whether the paper's networks train from scratch at the paper's rates.

Runs `--steps` learner updates from a fresh network and records, per step,
the loss, the gradient norm and the learning rate, and after each update the
largest |value|, |reward| and |policy logit| the network gives in inference
mode (what the search sees) on the batch's first observations and actions,
unrolled K steps. A run fails at the first non-finite loss or inference
output (a search would overflow there). See docs/benchmarks.md.

  * `paper_board`: the tic-tac-toe board under `presets.PAPER_BOARD_NETWORK`
    (16 blocks of 256 planes) with the learning rate of the paper's shogi
    preset: 0.1 (chess's too), decay over 400e3 steps, warm-up.
  * `paper_atari`: `presets.make_atari_config()`, the paper's Atari network
    on 96x96x128 observations, at lr 0.05.

`--data=synthetic` trains on `synthetic.SyntheticBatches` (learnable
targets; values within +-1 for the board, +-3 for Atari);
`--data=selfplay` runs the whole loop (tic-tac-toe games, or Atari Pong),
where the search itself raises on a non-finite network output.

    python -m benchmarks.stability --models=paper_board --steps=200
"""

import dataclasses
import json
import time
from typing import Any, Dict, List, Optional, Sequence

from absl import app
from absl import flags
from absl import logging
import numpy as np
import tensorflow as tf

from benchmarks import reporting
from muzero_snt import config as config_lib
from muzero_snt import experiment
from muzero_snt import learning
from muzero_snt import networks
from muzero_snt import presets
from muzero_snt import synthetic

MODELS = ('paper_board', 'paper_atari')
DATA = ('synthetic', 'selfplay')
# Self-play: the preset whose environment each model plays.
_SELFPLAY_PRESETS = {'paper_board': 'tictactoe', 'paper_atari': 'atari'}
# Scale of the synthetic root values: a board game's outcome is +-1.
_VALUE_SCALES = {'paper_board': 1., 'paper_atari': 3.}
# Observations and actions of the inference check after each update.
_CHECK_EXAMPLES = 8

MODELS_FLAG = flags.DEFINE_list('models', list(MODELS),
                                f'models to train, of {list(MODELS)}.')
DATA_FLAG = flags.DEFINE_enum('data', 'synthetic', DATA, 'training data.')
STEPS = flags.DEFINE_integer('steps', 200, 'learner steps per model.')
BATCH_SIZE = flags.DEFINE_integer('batch_size', 128, 'examples per step.')
LR_INIT = flags.DEFINE_float('lr_init', None,
                             "initial learning rate (default: the model's).")
LR_WARMUP_STEPS = flags.DEFINE_integer(
    'lr_warmup_steps', None, "learning-rate warm-up (default: the preset's).")
ZERO_INIT_RESIDUAL = flags.DEFINE_bool(
    'zero_init_residual', None,
    "zero each residual block's last batch-norm scale (default: preset's).")
CHANNELS = flags.DEFINE_integer(
    'channels', None, 'planes of the towers (default: 256, the paper\'s).')
NUM_BLOCKS = flags.DEFINE_integer(
    'num_blocks', None, 'residual blocks per tower (default: 16).')
NUM_SIMULATIONS = flags.DEFINE_integer(
    'num_simulations', None, 'simulations per move, self-play only '
    "(default: the preset's; 2 for paper_atari).")
SEED = flags.DEFINE_integer('seed', 0, 'random seed.')
OUTPUT_JSON = flags.DEFINE_string('output_json', None,
                                  'where to write the results as JSON.')


def make_config(model: str,
                batch_size: int,
                lr_init: Optional[float] = None,
                lr_warmup_steps: Optional[int] = None,
                zero_init_residual: Optional[bool] = None,
                channels: Optional[int] = None,
                num_blocks: Optional[int] = None) -> config_lib.MuZeroConfig:
  """The configuration of `model`, with the given fields replaced."""
  if model == 'paper_board':
    paper = presets.make_shogi_config()
    config = presets.make_tictactoe_config().replace(
        network=paper.network, lr_init=paper.lr_init,
        lr_decay_steps=paper.lr_decay_steps,
        lr_warmup_steps=paper.lr_warmup_steps)
  elif model == 'paper_atari':
    config = presets.make_atari_config()
  else:
    raise ValueError(f'Unknown model {model!r}; expected one of {MODELS}.')
  network = {}
  for name, value in (('zero_init_residual', zero_init_residual),
                      ('channels', channels), ('num_blocks', num_blocks)):
    if value is not None:
      network[name] = value
  changes = {'batch_size': batch_size,
             'network': dataclasses.replace(config.network, **network)}
  if lr_init is not None:
    changes['lr_init'] = lr_init
  if lr_warmup_steps is not None:
    changes['lr_warmup_steps'] = lr_warmup_steps
  return config.replace(**changes)


def inference_extremes(network: networks.MuZeroNetwork,
                       observation: np.ndarray,
                       action: np.ndarray) -> Dict[str, float]:
  """Largest magnitudes of the search's inputs, in inference mode.

  Args:
    network: the model.
    observation: `[N, *observation_shape]` observations.
    action: `[N, K]` actions unrolled from them.

  Returns:
    'value', 'reward', 'policy_logits': the largest absolute value over the
    initial and the K recurrent inferences (inf or nan if one overflowed).
  """
  output = network.initial_inference(observation)
  extremes = {'value': [output.value], 'reward': [],
              'policy_logits': [output.policy_logits]}
  hidden_state = output.hidden_state
  for k in range(action.shape[1]):
    output = network.recurrent_inference(hidden_state, action[:, k])
    hidden_state = output.hidden_state
    for name in extremes:
      extremes[name].append(getattr(output, name))
  return {name: float(np.max([np.max(np.abs(v.numpy())) for v in values]))
          for name, values in extremes.items()}


def _record(metrics: Dict[str, np.ndarray], seconds: float,
            extremes: Optional[Dict[str, float]]) -> Dict[str, Any]:
  record = {'step': int(metrics['step']),
            'loss': float(metrics['loss']),
            'gradient_norm': float(metrics['gradient_norm']),
            'learning_rate': float(metrics['learning_rate']),
            'value_loss': float(np.mean(metrics['value_loss'])),
            'reward_loss': float(np.mean(metrics['reward_loss'])),
            'policy_loss': float(np.mean(metrics['policy_loss'])),
            'seconds': seconds}
  if extremes is not None:
    record['inference'] = extremes
  return record


def train_synthetic(config: config_lib.MuZeroConfig, model: str, steps: int,
                    seed: int = 0) -> Dict[str, Any]:
  """`steps` updates on synthetic batches; stops at the first failure."""
  tf.random.set_seed(seed)
  learner = learning.Learner(networks.make_network(config), config)
  batches = synthetic.SyntheticBatches(config, config.batch_size, seed,
                                       value_scale=_VALUE_SCALES[model])
  records, failure = [], None
  start = time.perf_counter()
  for i in range(steps):
    batch = next(batches)
    try:
      metrics = learner.step(batch)
    except FloatingPointError as e:
      failure = str(e)
      break
    extremes = inference_extremes(
        learner.network, batch.observation[:_CHECK_EXAMPLES],
        batch.action[:_CHECK_EXAMPLES])
    records.append(_record(metrics, time.perf_counter() - start, extremes))
    logging.info('%s', json.dumps(records[-1]))
    if not all(np.isfinite(v) for v in extremes.values()):
      failure = f'non-finite inference output after step {i + 1}: {extremes}'
      break
  return {'records': records, 'failure': failure}


def train_selfplay(config: config_lib.MuZeroConfig, model: str, steps: int,
                   seed: int = 0) -> Dict[str, Any]:
  """The whole loop until `steps` updates; stops at the first failure."""
  config = config.replace(training_steps=steps)
  records = []
  start = time.perf_counter()

  def on_round(loop):
    learner = loop.learner
    if not hasattr(learner, '_recorded_step'):
      step = learner.step

      def recorded_step(batch):
        metrics = step(batch)
        records.append(_record(metrics, time.perf_counter() - start, None))
        logging.info('%s', json.dumps(records[-1]))
        return metrics

      learner._recorded_step = recorded_step  # pylint: disable=protected-access
      learner.step = recorded_step
    return False

  settings = {'log_every': 10, 'seed': seed, 'jit_compile': False}
  if model == 'paper_atari':
    # Two games of 100 moves per round; a learner step per 2 moves.
    settings.update(title='Pong', num_envs=2, train_ratio=0.5)
  failure = None
  try:
    experiment.run_selfplay(config, _SELFPLAY_PRESETS[model],
                            on_round=on_round, **settings)
  except (FloatingPointError, tf.errors.InvalidArgumentError,
          ValueError) as e:
    failure = f'{type(e).__name__}: {e}'
  return {'records': records, 'failure': failure}


def summarize(result: Dict[str, Any]) -> Dict[str, Any]:
  """Steps done, first and last losses, largest gradient norm and outputs."""
  records = result['records']
  summary = {'steps': len(records), 'failure': result['failure']}
  if records:
    summary.update(
        first_loss=records[0]['loss'], last_loss=records[-1]['loss'],
        max_gradient_norm=max(r['gradient_norm'] for r in records),
        seconds=records[-1]['seconds'])
    inference = [r['inference'] for r in records if 'inference' in r]
    if inference:
      summary['max_inference'] = {
          name: max(i[name] for i in inference) for name in inference[0]}
  return summary


def run(models: Sequence[str], data: str, steps: int, batch_size: int,
        seed: int = 0, num_simulations: Optional[int] = None,
        **changes) -> List[Dict[str, Any]]:
  """Trains each model; `changes` are `make_config`'s optional fields."""
  results = []
  for model in models:
    config = make_config(model, batch_size, **changes)
    if data == 'selfplay':
      if num_simulations is None and model == 'paper_atari':
        num_simulations = 2
      if num_simulations is not None:
        config = config.replace(num_simulations=num_simulations)
      result = train_selfplay(config, model, steps, seed)
    else:
      result = train_synthetic(config, model, steps, seed)
    result.update(model=model, data=data, batch_size=batch_size,
                  lr_init=config.lr_init,
                  lr_warmup_steps=config.lr_warmup_steps,
                  network=dataclasses.asdict(config.network),
                  summary=summarize(result))
    logging.info('%s: %s', model, json.dumps(result['summary']))
    results.append(result)
  return results


def main(argv: Sequence[str]) -> None:
  if len(argv) > 1:
    raise app.UsageError(f'Unexpected arguments: {argv[1:]}.')
  unknown = sorted(set(MODELS_FLAG.value) - set(MODELS))
  if unknown:
    raise app.UsageError(f'Unknown models {unknown}; expected some of '
                         f'{list(MODELS)}.')
  for flag in (STEPS, BATCH_SIZE):
    if flag.value <= 0:
      raise app.UsageError(f'--{flag.name} must be positive, got '
                           f'{flag.value}.')
  results = run(MODELS_FLAG.value, DATA_FLAG.value, STEPS.value,
                BATCH_SIZE.value, seed=SEED.value,
                num_simulations=NUM_SIMULATIONS.value,
                lr_init=LR_INIT.value, lr_warmup_steps=LR_WARMUP_STEPS.value,
                zero_init_residual=ZERO_INIT_RESIDUAL.value,
                channels=CHANNELS.value, num_blocks=NUM_BLOCKS.value)
  print(json.dumps(reporting.machine()))
  for result in results:
    print(result['model'], json.dumps(result['summary']))
  if OUTPUT_JSON.value:
    with open(OUTPUT_JSON.value, 'w') as f:
      json.dump({'environment': reporting.machine(), 'results': results}, f,
                indent=2)


if __name__ == '__main__':
  app.run(main)
