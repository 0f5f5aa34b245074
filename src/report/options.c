#include "report/report.h"

kd_render_options kd_render_options_for(const kd_options *opts)
{
    return (kd_render_options){.color = opts->color, .all_rows = opts->all_instructions,
                               .all_metrics = opts->all_metrics, .per_kernel = opts->per_kernel,
                               .advice = !opts->no_advice, .brief = opts->brief,
                               .metric_names = opts->metric_names};
}
