/* includes.h — where a header that nvcc could not find lies near the kernel file, so that
 * a failed build can say `-I DIR` instead of "check -I". Real projects keep their helpers
 * beside the file, in a parent folder, or in a Common/, common/, include/ or inc/ folder of
 * one of those (the CUDA samples' Common/helper_cuda.h), or in another subfolder of one. */
#ifndef KD_COMPILE_INCLUDES_H
#define KD_COMPILE_INCLUDES_H

#include <stdbool.h>

/* The header nvcc's output says it could not open ("x.cu:3:10: fatal error: helper_cuda.h:
 * No such file or directory"), malloc'd in *header; false when it says none. */
bool kd_missing_include(const char *nvcc_output, char **header);

/* Looks for header (a name or a relative path such as "cuda/helper.h") in the folder of
 * path, then in each parent up to 3 levels up, each of those folders first itself, then
 * its Common/, common/, include/ and inc/ subfolders, then any other subfolder by name
 * (LeetCUDA's kernels/flash-attn/utils/utils.h for kernels/flash-attn/mma/basic/x.cu). Returns 0 with the folder to give as
 * -I in *dir (malloc'd, spelled from path: "../../Common"), or -1 when it is nowhere. */
int kd_suggest_include(const char *path, const char *header, char **dir);

#endif
