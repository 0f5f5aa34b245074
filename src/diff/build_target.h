/* build_target.h — what a backend's build reads of a comparison (backend/backend.h's
 * kd_build_target), taken from it on the engine's floor so that the backends, a floor down,
 * never need the whole model (issue 29: types on the floor they serve). */
#ifndef KD_DIFF_BUILD_TARGET_H
#define KD_DIFF_BUILD_TARGET_H

#include "backend/backend.h"
#include "diff/comparison.h"

/* Its arch and limits, whether a GPU is present and whether it times anything (a GPU, or
 * the backend that runs both inputs needs none: the simulated harness). */
kd_build_target kd_build_target_of(const kd_comparison *c);

#endif
