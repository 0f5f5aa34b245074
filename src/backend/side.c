#include "backend/side.h"

#include <stdlib.h>
#include <string.h>

void kd_autotune_free(kd_autotune *t)
{
    for (size_t i = 0; t->configs && i < t->count; i++)
        free(t->configs[i]);
    free(t->configs);
    free(t->median_ns);
    free(t->untimed_detail);
    kd_note_free(&t->untimed_note);
    memset(t, 0, sizeof *t);
}

void kd_side_release_built(kd_side *side)
{
    kd_build_free(&side->build);
    kd_static_result_free(&side->stat);
    kd_launch_spec_free(&side->launch);
    free(side->launch_error);
    side->launch_error = NULL;
    kd_launch_abi_free(&side->abi);
    if (side->compiled)
        kd_kernel_free(side->compiled);
    free(side->compiled);
    side->compiled = NULL;
    free(side->build_note);
    side->build_note = NULL;
    free(side->captured);
    side->captured = NULL;
    free(side->launch_source);
    side->launch_source = NULL;
    free(side->unset_block);
    side->unset_block = NULL;
}
