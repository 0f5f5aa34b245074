#!/usr/bin/env bash
# The GPU part of the capture/replay overhead on a 1 GiB working set (issue 30, "bench/"; the
# CPU part, packing and extraction without a GPU, is bench/capture_replay.sh): a CUDA program
# with four 256 MiB allocations (three read, one written) launches one kernel; measured:
#   program:  the program alone (wall seconds);
#   capture:  `kerndiff capture --fn kd_big -o F -- ./prog` (wall seconds: the injection
#             library's device-to-host copies before and after the launch, and the pack), MB of
#             the capture file;
#   replay:   `kerndiff --launch F k.cu k.cu --no-ncu --max-time 2` end to end (extraction, the
#             harness's host-to-device fills, timing both sides), MB extracted (the spans).
# Runs on the device machine (nvcc, a GPU), in under 120 s; prints a table; the table goes to
# $OUT/capture_replay_gpu.txt when OUT is set.
#   bench/capture_replay_gpu.sh BUILD_DIR
set -u
BUILD=$(realpath "${1:?usage: bench/capture_replay_gpu.sh BUILD_DIR}")
export PATH="$PATH:/usr/local/cuda/bin"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-bench-gpu.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
table=$WORK/capture_replay_gpu.txt
cat >"$WORK/k.cu" <<'CU'
__global__ void kd_big(const float *a, const float *b, const float *c, float *out, unsigned long long n)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        out[i] = a[i] * b[i] + c[i];
}
CU
cat "$WORK/k.cu" - >"$WORK/prog.cu" <<'CU'
#include <cstdio>
__global__ void kd_fill(float *p, unsigned long long n, float s)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        p[i] = s * (float)(i % 1000) + 0.5f;
}
int main()
{
    const unsigned long long n = 64ull << 20; /* 64 Mi floats: 256 MiB a buffer, 1 GiB in all */
    float *buf[4];
    for (int i = 0; i < 4; i++)
        if (cudaMalloc(&buf[i], n * sizeof(float)) != cudaSuccess) { printf("cudaMalloc failed\n"); return 1; }
    for (int i = 0; i < 3; i++)
        kd_fill<<<1024, 256>>>(buf[i], n, 0.001f * (i + 1));
    cudaMemset(buf[3], 0, n * sizeof(float));
    kd_big<<<2048, 256>>>(buf[0], buf[1], buf[2], buf[3], n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("kd_big: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
CU
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN {printf "%.3f", b - a}'; }
{
echo "# capture/replay overhead on the GPU, 1024 MiB working set ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
} | tee "$table"
if ! nvcc -O2 -o "$WORK/prog" "$WORK/prog.cu" 2>"$WORK/nvcc.err"; then
    echo "FAIL nvcc: $(tail -2 "$WORK/nvcc.err" | tr '\n' ' ')" | tee -a "$table"; [ -n "${OUT:-}" ] && cp "$table" "$OUT"/; exit 1
fi
printf '%-10s %9s %12s  %s\n' step seconds "MB" note | tee -a "$table"
t=$(now); (cd "$WORK" && ./prog >"$WORK/prog.out" 2>&1); rc=$?
printf '%-10s %9s %12s  %s\n' program "$(since "$t")" - "exit $rc: $(tail -1 "$WORK/prog.out")" | tee -a "$table"
t=$(now); (cd "$WORK" && "$BUILD/kerndiff" capture --fn kd_big -o "$WORK/big.kdcap" -- ./prog >"$WORK/cap.out" 2>"$WORK/cap.err"); rc=$?
secs=$(since "$t")
mb=$(stat -c %s "$WORK/big.kdcap" 2>/dev/null | awk '{printf "%.1f", $1 / 1e6}')
printf '%-10s %9s %12s  %s\n' capture "$secs" "${mb:--}" "exit $rc: $(tail -1 "$WORK/cap.err")" | tee -a "$table"
if [ -f "$WORK/big.kdcap" ]; then
    t=$(now)
    "$BUILD/kerndiff" --launch "$WORK/big.kdcap" --no-ncu --max-time 2 "$WORK/k.cu" "$WORK/k.cu" >"$WORK/replay.out" 2>"$WORK/replay.err"
    rc=$?
    secs=$(since "$t")
    verdict=$(grep -E '^(no significant|v2 is)' "$WORK/replay.out" | head -1)
    printf '%-10s %9s %12s  %s\n' replay "$secs" 1073.7 "exit $rc: ${verdict:-$(tail -1 "$WORK/replay.err")}" | tee -a "$table"
    grep -E '^(v[12] (still|differs)|not compared)' "$WORK/replay.out" | sed 's/^/#   /' | tee -a "$table"
fi
echo "# MB: the capture file's size (capture), the spans extracted and filled per side (replay)" | tee -a "$table"
[ -n "${OUT:-}" ] && cp "$table" "$OUT"/
exit 0
