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
# Builds muzero-general in its own virtual environment, for the side-by-side
# benchmarks (docs/benchmarks.md). Not the project's environment, not CI:
# run it by hand.
#
#   bash benchmarks/peers/install_muzero_general.sh SOURCE [VENV]
#
# SOURCE is a checkout of https://github.com/werner-duvaud/muzero-general
# (the numbers in docs/ are of commit 0825bd5): it has no package on PyPI,
# so the checkout is made beforehand, by whatever reaches GitHub. VENV
# defaults to /work/muzero-general-venv. The venv gets torch 2.13.0's CPU
# build (as install_lightzero.sh: from pip's configured indexes, or
# PIP_EXTRA_INDEX_URL), NumPy and absl-py, and a .pth file that puts SOURCE
# on the path. No Ray: the timed methods call none, and the drivers stand
# in for its decorators (muzero_general.import_peer).
#
# Environment: PYTHON, the interpreter the venv is made from (python3.11).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
if [ "$#" -lt 1 ] || [ "$#" -gt 2 ]; then
  echo "usage: $0 SOURCE [VENV]" >&2
  exit 2
fi
source_dir="$(realpath "$1")"
venv="${2:-/work/muzero-general-venv}"
python="${PYTHON:-python3.11}"

for module in models.py trainer.py self_play.py; do
  if [ ! -f "${source_dir}/${module}" ]; then
    echo "${source_dir} is no muzero-general checkout: no ${module}." >&2
    exit 2
  fi
done
case "$(realpath -m "${venv}")/" in
  "$(realpath "${here}/../..")"/*)
    echo "The peer's venv ${venv} must lie outside the repository." >&2
    exit 2 ;;
esac

if [ ! -x "${venv}/bin/python" ]; then
  "${python}" -m venv "${venv}"
fi
"${venv}/bin/python" -m pip install --upgrade pip
"${venv}/bin/python" -m pip install 'torch==2.13.0+cpu' numpy absl-py
site="$("${venv}/bin/python" -c 'import site; print(site.getsitepackages()[0])')"
echo "${source_dir}" > "${site}/muzero_general.pth"
cd "${here}/../.."
"${venv}/bin/python" - <<'PY'
import torch
from benchmarks.peers import muzero_general
models, trainer, self_play = muzero_general.import_peer()
assert not torch.version.cuda, (
    f'Expected a CPU torch, got CUDA {torch.version.cuda}.')
print(f'torch {torch.__version__}, muzero-general from {models.__file__}')
PY
