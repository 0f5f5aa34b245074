/* registry.h — for backend files only: the entries of the table in backend.c. */
#ifndef KD_BACKEND_REGISTRY_H
#define KD_BACKEND_REGISTRY_H

#include "backend/backend.h"
/* Transitional (issue 29): the backends' build reads the comparison's arch and limits. Once
 * build and build_instrumented take those instead of the comparison, this include goes. */
#include "diff/model.h"

extern const kd_backend kd_backend_sim;
extern const kd_backend kd_backend_triton;
extern const kd_backend kd_backend_binary;
extern const kd_backend kd_backend_cuda;

#endif
