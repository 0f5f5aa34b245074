/* The candidates' builds ahead of the gate (rank/prebuild.h). */
#include "rank/prebuild.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "diff/comparison.h"
#include "diff/pipeline.h"
#include "source/kinds.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/xalloc.h"

unsigned kd_rank_default_jobs(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* Worker w of `jobs` (util/spawn.h's kd_fork_worker: silent, _exits): candidates w,
 * w + jobs, ... built. */
static void worker(const kd_rank_prebuild *p, unsigned w, unsigned jobs)
{
    for (size_t i = w; i < p->n; i += jobs) {
        kd_diff_options d = *p->diff;
        d.files[0] = p->baseline;
        d.files[1] = p->paths[i];
        d.git_file = NULL;
        d.no_run = true;
        if (p->prepare)
            p->prepare(p->ctx, i);
        kd_source_kind kind = kd_source_kind_of(p->paths[i]);
        if (kind != KD_SOURCE_CUDA && kind != KD_SOURCE_CUDA_HEADER)
            continue; /* built in the gate (below) */
        /* nvcc's build alone, as `kerndiff list` makes it (no static analysis: the gate's) */
        kd_kernel_list kernels = {0};
        kd_annotations annotations = {0};
        char *ptx = NULL;
        kd_list_file(&d, p->paths[i], &kernels, &annotations, &ptx);
        kd_kernel_list_free(&kernels);
        kd_annotations_free(&annotations);
        free(ptx);
    }
    _exit(0);
}

unsigned kd_rank_prebuild_run(const kd_rank_prebuild *p)
{
    unsigned jobs = p->jobs ? p->jobs : kd_rank_default_jobs();
    if (jobs > p->n)
        jobs = (unsigned)p->n;
    if (p->diff->frontend.no_cache || jobs < 2)
        return 0;
    pid_t *pids = kd_xcalloc(jobs, sizeof *pids);
    unsigned started = 0;
    for (unsigned w = 0; w < jobs; w++) {
        pid_t pid = kd_fork_worker(false);
        if (pid == 0)
            worker(p, w, jobs);
        if (pid < 0)
            break; /* the gate builds what no worker did */
        pids[started++] = pid;
    }
    for (unsigned w = 0; w < started; w++)
        (void)kd_wait_child(pids[w]);
    free(pids);
    return started;
}
