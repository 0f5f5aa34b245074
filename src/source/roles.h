/* roles.h — what a kernel parameter is for when kerndiff launches the kernel itself:
 * pointers are buffers typed by their pointee (const: input, else output), integers named
 * like a length get the element count, other scalars need a value from the user. */
#ifndef KD_SOURCE_ROLES_H
#define KD_SOURCE_ROLES_H

#include "source/scan.h"

typedef enum kd_param_role {
    KD_ROLE_INPUT,    /* const T*: filled with seeded random data */
    KD_ROLE_OUTPUT,   /* T*: poisoned, compared after the run */
    KD_ROLE_LENGTH,   /* integer named n, N, size, len, count, num_*, *_size ...: the element count */
    KD_ROLE_SCALAR,   /* any other value: needs --arg NAME=VALUE */
    KD_ROLE_STREAM,   /* a launcher's cudaStream_t: the harness's stream */
    KD_ROLE_SCRATCH,  /* compiler-owned workspace (Triton's scratch pointers): count bytes, never compared */
} kd_param_role;

kd_param_role kd_param_role_of(const kd_param *p);
const char *kd_param_role_name(kd_param_role r);

#endif
