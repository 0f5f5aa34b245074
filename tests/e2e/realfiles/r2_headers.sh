# Sourced by tests/e2e/realfiles.sh: a .cu of a split build whose kernel is a template of an
# included project header (mamba's selective_scan_fwd_fp32.cu; the corpus's item 9). When the
# file does not build (here a config header not on the include path, and with -I of a
# folder without it), `list` names the header's kernels as read, with their header and line,
# instead of "no __global__ kernels"; the build's failure is said on stderr, its hint (-I)
# first. With zero flags the config header is found near the file (its config/ folder), added
# as -I and said, and the instance the launching code makes is listed as compiled.
r2_hdr=tests/realfiles/r2/headers/scan_fwd_fp32.cu
run r2_headers_list 0 -- list "$r2_hdr"
has r2_headers_list out 'scan_fwd_kernel<\.\.\.>'
has r2_headers_list out 'line 8 of scan_fwd_kernel\.cuh'
has r2_headers_list out 'int +n +element count'
lacks r2_headers_list out 'no __global__ kernels'
has r2_headers_list err 'scan_config\.h, which no -I reaches; it lies in .*headers/config: built with -I'
has r2_headers_list out 'instances: scan_fwd_kernel<float, 128> \(made by the code that launches it\)'
lacks r2_headers_list out 'instances: none'
mkdir -p "$WORK/r2_hdr" && cp tests/realfiles/r2/headers/scan_fwd_fp32.cu tests/realfiles/r2/headers/scan_fwd_kernel.cuh "$WORK/r2_hdr/"
run r2_headers_unbuilt 0 -- list "$WORK/r2_hdr/scan_fwd_fp32.cu"
has r2_headers_unbuilt out 'scan_fwd_kernel<\.\.\.>'
has r2_headers_unbuilt out 'instances: none \(pick one'
has r2_headers_unbuilt err 'scan_config\.h is not on the include path'
