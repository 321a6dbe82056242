#!/usr/bin/env bash
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
#
# Builds LightZero 0.2.0 on CPU in its own virtual environment, for the
# side-by-side benchmarks (docs/benchmarks.md). Not the project's
# environment, not CI: run it by hand.
#
#   bash benchmarks/peers/install_lightzero.sh [VENV]  # /work/peers-venv
#
# Two steps, because a plain resolve of LightZero pulls a CUDA torch (5.6 GB):
#   1. torch 2.13.0's CPU build (`torch==2.13.0+cpu`), from pip's configured
#      indexes and find-links (give PyTorch's CPU wheel index with
#      PIP_EXTRA_INDEX_URL where pip has none that serves it);
#   2. lightzero_cpu_lock.txt with --no-deps: DI-engine 0.5.3 pins
#      setuptools<=66.1.1 where torch 2.13 wants >=77, and a resolve
#      backtracks to a CUDA torch.
# LightZero's wheel for CPython 3.11 on manylinux x86_64 carries its compiled
# tree search (lzero.mcts.ctree), so nothing is compiled here; the last step
# imports it to check.
#
# Environment: PYTHON, the interpreter the venv is made from (python3.11).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
venv="${1:-/work/peers-venv}"
python="${PYTHON:-python3.11}"

case "$(realpath -m "${venv}")/" in
  "$(realpath "${here}/../..")"/*)
    echo "The peers' venv ${venv} must lie outside the repository." >&2
    exit 2 ;;
esac

if [ ! -x "${venv}/bin/python" ]; then
  "${python}" -m venv "${venv}"
fi
"${venv}/bin/python" -m pip install --upgrade pip
"${venv}/bin/python" -m pip install 'torch==2.13.0+cpu'
"${venv}/bin/python" -m pip install --no-deps \
  -r "${here}/lightzero_cpu_lock.txt"
"${venv}/bin/python" - <<'PY'
import torch
import lzero
from lzero.mcts.ctree.ctree_muzero import mz_tree
assert not torch.version.cuda, (
    f'Expected a CPU torch, got CUDA {torch.version.cuda}.')
print(f'torch {torch.__version__}, LightZero {lzero.__version__}, '
      f'compiled tree {mz_tree.__file__}')
PY
