/* registry.h — for backend files only: the entries of the table in backend.c. */
#ifndef KD_BACKEND_REGISTRY_H
#define KD_BACKEND_REGISTRY_H

#include "backend/backend.h"

extern const kd_backend kd_backend_sim;
extern const kd_backend kd_backend_triton;
extern const kd_backend kd_backend_binary;
extern const kd_backend kd_backend_cuda;

#endif
