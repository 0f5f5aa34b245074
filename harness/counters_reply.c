#include "counters_reply.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vendor.h"

long kd_counters_names(kd_words *w, const char **names, size_t max)
{
    size_t n = 0;
    for (size_t i = 1; i < w->count; i++) {
        char *save = NULL;
        for (char *name = strtok_r(w->word[i], ",", &save); name; name = strtok_r(NULL, ",", &save)) {
            if (n == max) {
                kd_proto_reply("err protocol %s: more than %zu metrics", w->word[0], max);
                return -1;
            }
            names[n++] = name;
        }
    }
    if (n == 0)
        kd_proto_reply("err protocol usage: %s NAME[,NAME...]", w->word[0]);
    return n ? (long)n : -1;
}

static double phases[3] = {-1, -1, -1};

void kd_counters_reply_phases(double setup_ms, double passes_ms, double evaluate_ms)
{
    phases[0] = setup_ms;
    phases[1] = passes_ms;
    phases[2] = evaluate_ms;
}

static unsigned profiler_version;
static const char *profiler_l2;

void kd_counters_reply_profiler(unsigned cupti_version, const char *l2)
{
    profiler_version = cupti_version;
    profiler_l2 = l2;
}

void kd_counters_reply(size_t ranges, const char *const *kernels, const double *values, size_t n, size_t passes,
                       const char *replay)
{
    printf("ok counters ranges=%zu passes=%zu replay=%s kernels=", ranges, passes, replay);
    for (size_t r = 0; r < ranges; r++) {
        char *name = kernels[r] && *kernels[r] ? kd_proto_encode(kernels[r]) : NULL;
        fputs(r ? "," : "", stdout);
        /* A C++ name holds commas ("f<int, float>"): they separate the names here. */
        for (const char *c = name ? name : "-"; *c; c++)
            fputs(*c == ',' ? "%2C" : (char[2]){*c, 0}, stdout);
        free(name);
    }
    for (size_t r = 0; r < ranges; r++) {
        printf(" r%zu=", r);
        for (size_t m = 0; m < n; m++) {
            double v = values[r * n + m];
            if (isfinite(v))
                printf("%s%.17g", m ? "," : "", v);
            else
                printf("%snan", m ? "," : "");
        }
    }
    if (phases[0] >= 0)
        printf(" setup_ms=%.1f passes_ms=%.1f evaluate_ms=%.1f", phases[0], phases[1], phases[2]);
    phases[0] = phases[1] = phases[2] = -1;
    if (profiler_l2)
        printf(" cupti=%u l2=%s", profiler_version, profiler_l2);
    profiler_l2 = NULL;
    kd_proto_reply("%s", "");
}
