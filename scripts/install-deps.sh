#!/usr/bin/env bash
# Installs what kerndiff needs to build and test on Debian/Ubuntu: the C libraries
# (jansson, nettle, sqlite3, cmocka), clang for sanitizer and fuzz builds, chromium (run headless
# by the HTML report test), and from PyPI the SASS disassemblers (cuobjdump, nvdisasm), jsonschema
# for the JSON tests and Triton for .py inputs.
# nvcc itself comes from the CUDA toolkit (https://developer.nvidia.com/cuda-downloads).
#
# Where the PyPI packages go: the active virtual environment ($VIRTUAL_ENV) if there is one;
# else, where the system Python is "externally managed" (PEP 668: Debian 12, Ubuntu 24.04,
# whose pip refuses to install into it) or KERNDIFF_VENV=1, the project's own virtual
# environment .venv at the repository's root (ignored by git), which kerndiff, the Makefile
# and the tests find by themselves; else python3's own site-packages (pyenv, a conda base).
# Every step that fails ends the script with its status and a line saying which step.
# KERNDIFF_SKIP_APT=1 skips apt-get (the system packages are there already).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV="$ROOT/.venv"

die() { echo "install-deps: $1" >&2; exit 1; }
# step WHAT CMD...: runs CMD; on failure says WHAT failed and exits with its status.
step() {
    local what=$1
    shift
    "$@" || {
        local rc=$?
        echo "install-deps: $what failed (exit $rc): $*" >&2
        exit "$rc"
    }
}

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "not root and no sudo: run this script as root, or install sudo"
    SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if [ -z "${KERNDIFF_SKIP_APT:-}" ]; then
    step "apt-get update" $SUDO apt-get update -qq
    # python3-venv: the project's virtual environment where the system Python is externally managed
    step "apt-get install" $SUDO apt-get install -y -qq --no-install-recommends \
        make gcc clang libclang-rt-14-dev libjansson-dev nettle-dev libsqlite3-dev zlib1g-dev libcmocka-dev chromium \
        python3 python3-pip python3-venv
fi

# Whether python3 refuses pip installs (PEP 668): the marker file in its stdlib folder, outside a venv.
externally_managed() {
    python3 - <<'EOF'
import os, sys, sysconfig
in_venv = sys.prefix != getattr(sys, "base_prefix", sys.prefix)
marker = os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")
sys.exit(0 if not in_venv and os.path.exists(marker) else 1)
EOF
}

PYTHON=python3
if [ -n "${VIRTUAL_ENV:-}" ]; then
    PYTHON="$VIRTUAL_ENV/bin/python3"
    echo "install-deps: installing the Python packages into the active virtual environment $VIRTUAL_ENV"
else
    why=""
    if [ "${KERNDIFF_VENV:-}" = 1 ]; then why="KERNDIFF_VENV=1"
    elif [ -x "$VENV/bin/python3" ]; then why="made by an earlier run"
    elif externally_managed; then why="the system Python is externally managed, PEP 668"
    fi
    if [ -n "$why" ]; then
        if [ ! -x "$VENV/bin/python3" ]; then
            step "creating the virtual environment $VENV (needs python3-venv)" python3 -m venv "$VENV"
        fi
        PYTHON="$VENV/bin/python3"
        echo "install-deps: installing the Python packages into $VENV ($why);"
        echo "              kerndiff, make and the tests use it by themselves (or: . .venv/bin/activate)"
    fi
fi
# Triton compiles .py kernels ahead of time (no GPU, no torch needed): pinned to the version
# the Triton backend is checked against. (KERNDIFF_PIP_PACKAGES replaces the list: a test of
# this script installs something small.)
PIP_ROOT_USER_ACTION=ignore step "pip install into $PYTHON" \
    "$PYTHON" -m pip install -q --disable-pip-version-check \
    ${KERNDIFF_PIP_PACKAGES:-jsonschema nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm triton==3.6.0}
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "note: nvcc not found; install the CUDA toolkit" >&2
fi
