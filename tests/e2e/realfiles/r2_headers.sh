# Sourced by tests/e2e/realfiles.sh: a .cu of a split build whose kernel is a template of an
# included project header (mamba's selective_scan_fwd_fp32.cu; the corpus's item 9). When the
# file does not build (here a config header not on the include path), `list` names the
# header's kernels as read, with their header and line, instead of "no __global__ kernels";
# the build's failure is said on stderr, its hint (-I) first.
r2_hdr=tests/realfiles/r2/headers/scan_fwd_fp32.cu
run r2_headers_list 0 -- list "$r2_hdr"
has r2_headers_list out 'scan_fwd_kernel<\.\.\.>'
has r2_headers_list out 'line 8 of scan_fwd_kernel\.cuh'
has r2_headers_list out 'int +n +element count'
lacks r2_headers_list out 'no __global__ kernels'
has r2_headers_list err 'scan_config\.h is not on the include path'
