# Sourced by tests/e2e/realfiles.sh: a kernel that calls a constexpr host helper (marlin's
# ceildiv; the corpus's item 10). nvcc's errors name --expt-relaxed-constexpr, the flag the
# project's build passes: kerndiff's FIRST line on stderr says to add it as --nvcc-flag
# (compile/build.h kd_build_failure_hint), before nvcc's output; with the flag the diff runs.
r2_flags=tests/realfiles/r2/flags/ceildiv_tiles.cu
run r2_flags_missing 4 -- "$r2_flags" "$r2_flags"
head -n 1 "$WORK/r2_flags_missing.err" >"$WORK/r2_flags_first.err"
has r2_flags_first err "^kerndiff: v1: build of tests/realfiles/r2/flags/ceildiv_tiles\.cu failed \(nvcc -arch=[^)]*\): nvcc's errors ask for --expt-relaxed-constexpr, a flag the project's own build likely passes: add --nvcc-flag --expt-relaxed-constexpr; nvcc said:$"
has r2_flags_missing err "experimental flag '--expt-relaxed-constexpr'"
lacks r2_flags_missing err 'check -I/-D/--nvcc-flag'
run r2_flags_given 0 -- --nvcc-flag --expt-relaxed-constexpr "$r2_flags" "$r2_flags"
has r2_flags_given out 'tile_sum'
