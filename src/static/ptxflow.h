/* ptxflow.h — which pointer parameters of a PTX entry the kernel reads and writes through,
 * from the data flow of its code (what `const` in the source does not say: `T *g_idata` is
 * often only read).
 *
 * The analysis follows each 64-bit parameter from its `ld.param` through every register it
 * flows into (cvta.to.global, add, mad.wide, mov, selp ... any instruction whose destination
 * is computed from it), to the addresses of loads (read), stores (written), atomics and
 * reductions (read and written: the result depends on what was there). It is flow
 * insensitive (a register is whatever any of its assignments made it), so it can only
 * over-approximate: a parameter it calls read-only is never written through by the code it
 * read. Where it cannot follow a pointer it says so (escaped): the pointer is stored to
 * memory (a local array, a call's parameter block), passed to a call, used by an
 * instruction it does not model, or mixed with more than KD_PTXFLOW_SET other parameters in
 * one address. Comparisons do not carry a pointer (their result is a predicate). */
#ifndef KD_STATIC_PTXFLOW_H
#define KD_STATIC_PTXFLOW_H

#include <stdbool.h>
#include <stddef.h>

enum {
    KD_PTX_READ = 1,    /* loaded through */
    KD_PTX_WRITE = 2,   /* stored, atomically updated or reduced through */
    KD_PTX_ESCAPE = 4,  /* the analysis lost it: treat as written ("role assumed") */
};

/* Parameters mixed in one register before the analysis gives up on them. */
#define KD_PTXFLOW_SET 8

typedef struct kd_ptx_param_use {
    char *name;   /* the PTX parameter name (`_Z4copyPfS_i_param_0`) */
    bool pointer; /* declared .u64/.b64/.s64 (how nvcc and Triton pass pointers) */
    int use;      /* KD_PTX_* bits; 0: never accessed through */
} kd_ptx_param_use;

/* The parameters of `entry` in `ptx`, in declaration order, with what the code does through
 * each. Returns 0; -1 when the entry (with a body) is not in the PTX. *uses is malloc'd;
 * free with kd_ptx_param_uses_free. */
int kd_ptx_param_uses(const char *ptx, const char *entry, kd_ptx_param_use **uses, size_t *count);
void kd_ptx_param_uses_free(kd_ptx_param_use *uses, size_t count);

#endif
