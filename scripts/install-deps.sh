#!/usr/bin/env bash
# Installs what kerndiff needs to build and test on Debian/Ubuntu: the C libraries
# (jansson, nettle, sqlite3, cmocka), clang for sanitizer and fuzz builds, chromium (run headless
# by the HTML report test), and from PyPI the SASS disassemblers (cuobjdump, nvdisasm), jsonschema
# for the JSON tests and Triton for .py inputs.
# nvcc itself comes from the CUDA toolkit (https://developer.nvidia.com/cuda-downloads).
set -euo pipefail
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    make gcc clang libclang-rt-14-dev libjansson-dev nettle-dev libsqlite3-dev zlib1g-dev libcmocka-dev chromium \
    python3 python3-pip >/dev/null
# Triton compiles .py kernels ahead of time (no GPU, no torch needed): pinned to the version
# the Triton backend is checked against.
python3 -m pip install -q --disable-pip-version-check jsonschema nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm triton==3.6.0 \
    2>&1 | grep -v -e 'Running pip as the' -e 'externally-managed' || true
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "note: nvcc not found; install the CUDA toolkit" >&2
fi
