/* kinds.h — what a file is, by its suffix: the one list of the suffixes kerndiff knows.
 *
 * It lives here, on the kernel floor, and not in backend/'s table because source/ (the
 * annotation comment, the "no kernel" message) asks it too and may not include a floor up;
 * the backend table's rows claim their inputs through kd_source_kind, so the table and
 * every other reader (rank's folder scan and build ahead, list's words, the CLI's output
 * guard) agree by construction instead of by hand-kept copies.
 *
 * The suffix is the text from the last '.' of the file's name (its last '/'-separated
 * part) to the end: "a.cu.bak" is none of these, "k.cu/report" neither. */
#ifndef KD_SOURCE_KINDS_H
#define KD_SOURCE_KINDS_H

#include <stdbool.h>

typedef enum kd_source_kind {
    KD_SOURCE_UNKNOWN,     /* no suffix kerndiff knows: the CUDA front end still tries it (nvcc decides) */
    KD_SOURCE_CUDA,        /* .cu */
    KD_SOURCE_CUDA_HEADER, /* .cuh .h .hpp .hh .hxx: what a CUDA source includes (a header kernel's file) */
    KD_SOURCE_TRITON,      /* .py */
    KD_SOURCE_PTX,         /* .ptx */
    KD_SOURCE_CUBIN,       /* .cubin */
    KD_SOURCE_HOST,        /* .c .cc .cpp .cxx: a project's host code, never read as a kernel, never written over */
} kd_source_kind;

/* The kind of `path` by its suffix, compared with case: the front ends go by what the
 * toolchains go by (nvcc takes .cu and not .CU as CUDA, Python imports .py), so "k.PY" is
 * KD_SOURCE_UNKNOWN. NULL is KD_SOURCE_UNKNOWN. */
kd_source_kind kd_source_kind_of(const char *path);

/* A kernel file kerndiff reads as a side of its own (.cu .py .ptx .cubin): what a folder of
 * rank candidates is searched for. Headers are left out: a folder of variants usually
 * holds the header they share, which is no candidate. */
bool kd_source_is_kernel(const char *path);

/* The suffix, as this table spells it, of a name a report must never be written to (any
 * kind above), compared without case: on a case-insensitive file system "K.CU" is k.cu,
 * and a name that merely looks like a source is refused all the same. NULL: none. */
const char *kd_source_guarded_suffix(const char *path);

#endif
