#!/bin/sh
# CPU check of the injection library's capture mode (no GPU needed): compiles
# tests/gpu/capture/cpu_check.c together with harness/capture_inject.c (driver calls faked over
# host memory) warning-free, runs it, and loads the built library in a process that launches
# nothing. Usage: tests/gpu/capture/cpu-check.sh BUILD_DIR   (BUILD_DIR holds libkerndiff-inject.so)
set -eu
build=${1:?usage: cpu-check.sh BUILD_DIR}
cuda=${CUDA_HOME:-/usr/local/cuda}
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${CC:-cc} -std=c11 -D_GNU_SOURCE -I"$cuda/include" -Wall -Wextra -Wshadow -Wformat=2 -Werror -O1 -g \
  -o "$work/cpu_check" "$root/tests/gpu/capture/cpu_check.c" -ldl -lpthread
"$work/cpu_check" "$work" "$build/libkerndiff-inject.so"
