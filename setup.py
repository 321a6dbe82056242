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
"""Installs muzero_snt: MuZero as Sonnet 2 modules on TensorFlow 2."""

import os
import re

import setuptools

# `tensorflow`, never `tensorflow-cpu`: tensorflow-probability[tf] pulls in
# tf-keras, which depends on the full `tensorflow` wheel, and the two
# TensorFlow wheels must not share one environment.
REQUIRED = [
    'absl-py>=1.0',
    'dm-env>=1.6',
    'dm-sonnet>=2.0.2,<2.1',
    'dm-tree>=0.1.8',
    'numpy>=1.23',
    'tensorboard>=2.16',
    'tensorflow>=2.16',
    'tensorflow-probability[tf]>=0.24',
]

# Environment adapters stay optional so that the core installs anywhere.
# gymnasium (CartPole) is pure Python; ale-py ships its Atari ROMs inside
# the wheel and open-spiel its games, so nothing is downloaded at run time.
GYMNASIUM = ['gymnasium>=1.0']
ATARI = ['ale-py>=0.9']
OPENSPIEL = ['open-spiel>=1.4']
# MinAtar is pure Python (GPL-3.0, imported only when a game is built); it
# pulls in matplotlib, seaborn, pandas and scipy for its own plots.
MINATAR = ['minatar==1.0.15']
ENVS = GYMNASIUM + ATARI + OPENSPIEL + MINATAR
# Learning curves as PNG (launchers/evaluate.py --curve_png).
PLOTS = [
    'matplotlib>=3.5',
]
# Actors, replay service and learner as processes (muzero_snt/distributed).
DISTRIBUTED = ['ray==2.60.0']
# benchmarks/search.py compares the batched searches with mctx (JAX), and
# tests/search/test_gumbel_search.py checks the Gumbel search against it;
# they share one environment with TensorFlow (same numpy).
MCTX = ['jax>=0.4.30', 'mctx>=0.0.5']
EXTRAS = {
    'test': [
        'pytest>=7',
        'pytest-xdist>=3',
    ] + ENVS + PLOTS + DISTRIBUTED + MCTX,
    'distributed': DISTRIBUTED,
    'envs': ENVS,
    'gymnasium': GYMNASIUM,
    'atari': ATARI,
    'openspiel': OPENSPIEL,
    'minatar': MINATAR,
    'plots': PLOTS,
    'bench': MCTX,
}

# README.md's links to the repository's own files (docs/...) lead nowhere in
# the description of an installed or indexed package, and the package names
# no repository URL to make them absolute: the description names each file
# as plain text instead.
_RELATIVE_LINK = re.compile(
    r'\[(?P<text>[^\]]+)\]\((?![a-z][a-z0-9+.-]*:|#)(?P<target>[^)\s]+)\)')


def _plain_file_name(match: re.Match) -> str:
  text, path = match['text'], match['target'].split('#')[0]
  return text if text == path else f'{text} ({path})'


def long_description() -> str:
  """README.md with its links to the repository's files as plain text."""
  readme = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        'README.md')
  with open(readme, encoding='utf-8') as f:
    return _RELATIVE_LINK.sub(_plain_file_name, f.read())


setuptools.setup(
    name='muzero_snt',
    version='0.1.0',
    description='MuZero as Sonnet 2 modules on TensorFlow 2.',
    long_description=long_description(),
    long_description_content_type='text/markdown',
    license='Apache 2.0',
    # The launchers ship with the library, as commands (entry points) and
    # as `python -m launchers.train`; tests/, benchmarks/ and tools/ do not.
    packages=setuptools.find_packages(
        include=['muzero_snt', 'muzero_snt.*', 'launchers']),
    entry_points={
        'console_scripts': [
            'muzero-snt-train = launchers.scripts:train',
            'muzero-snt-evaluate = launchers.scripts:evaluate',
        ],
    },
    python_requires='>=3.10',
    install_requires=REQUIRED,
    extras_require=EXTRAS,
    classifiers=[
        'Intended Audience :: Science/Research',
        'Programming Language :: Python :: 3',
        'Topic :: Scientific/Engineering :: Artificial Intelligence',
    ],
)
