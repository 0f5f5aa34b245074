#include "diff/build_target.h"

kd_build_target kd_build_target_of(const kd_comparison *c)
{
    const kd_backend *runner = kd_backend_for(c->side[0].path, c->side[1].path);
    return (kd_build_target){.arch = c->arch, .limits = c->limits, .gpu = c->gpu.present,
                             .times = c->gpu.present || (runner && !runner->needs_gpu)};
}
