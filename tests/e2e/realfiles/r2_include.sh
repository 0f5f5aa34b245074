# Sourced by tests/e2e/realfiles.sh: a sample that includes "helper_cuda.h" from ../Common
# (issue 27 item 0). Without -I the build fails and nvcc's own words name the header; the
# message's first line offers the folder where it lies as -I (compile/build.h
# kd_build_failure_hint); with that -I the diff runs.
r2_inc=tests/realfiles/r2/include/sample/uses_helper.cu
run r2_include_missing 4 -- "$r2_inc" "$r2_inc"
has r2_include_missing err 'fatal error: helper_cuda.h: No such file or directory'
if grep -q kd_build_failure_hint src/backend/cuda.c; then
    # the hint is the first line, before nvcc's output (the corpus's item 10)
    head -n 1 "$WORK/r2_include_missing.err" >"$WORK/r2_include_first.err"
    has r2_include_first err '^kerndiff: v1: build of .*uses_helper\.cu failed \(nvcc -arch=[^)]*\): helper_cuda.h is not on the include path; it lies in tests/realfiles/r2/include/Common: add -I tests/realfiles/r2/include/Common; nvcc said:$'
    lacks r2_include_missing err 'check -I/-D/--nvcc-flag'
else # the build's message is printed by backend/cuda.c, which has not called the hint yet
    fail "r2_include_missing: src/backend/cuda.c does not print kd_build_failure_hint's line yet" "$WORK/r2_include_missing.err"
fi
run r2_include_given 0 -- -I tests/realfiles/r2/include/Common "$r2_inc" "$r2_inc"
has r2_include_given out 'double_it'
