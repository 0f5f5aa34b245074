# Sourced by tests/e2e/realfiles.sh: a sample that includes "helper_cuda.h" from ../Common
# (issue 27 item 0). A header no -I reaches that lies near the file is added as -I, as the
# project's own build adds it, and said on one line per side (compile/includes.h
# kd_suggest_include); a header that lies nowhere near fails the build with nvcc's own words
# and the hint first; an -I of the user's is used as given, nothing added.
r2_inc=tests/realfiles/r2/include/sample/uses_helper.cu
run r2_include_found 0 -- "$r2_inc" "$r2_inc"
has r2_include_found err '^kerndiff: v1: .*uses_helper\.cu includes helper_cuda\.h, which no -I reaches; it lies in tests/realfiles/r2/include/Common: built with -I tests/realfiles/r2/include/Common \(an -I of yours comes first\)$'
has r2_include_found out 'double_it'
lacks r2_include_found err 'fatal error'
run r2_include_given 0 -- -I tests/realfiles/r2/include/Common "$r2_inc" "$r2_inc"
has r2_include_given out 'double_it'
lacks r2_include_given err 'which no -I reaches'
mkdir -p "$WORK/r2_far"
printf '#include "nowhere_helper.h"\n__global__ void k(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = 1; }\n' >"$WORK/r2_far/far.cu"
run r2_include_missing 4 -- "$WORK/r2_far/far.cu" "$WORK/r2_far/far.cu"
has r2_include_missing err 'fatal error: nowhere_helper.h: No such file or directory'
head -n 1 "$WORK/r2_include_missing.err" >"$WORK/r2_include_first.err"
has r2_include_first err '^kerndiff: v1: build of .*far\.cu failed \(nvcc -arch=[^)]*\): nowhere_helper\.h is not on the include path, nor near .*far\.cu: add -I FOLDER where it lies; nvcc said:$'
lacks r2_include_missing err 'check -I/-D/--nvcc-flag'
