/* `kerndiff compare A.json B.json`: two saved runs compared (workflow/saved.h), reported as
 * a diff is. */
#include "cmd/cmd.h"

#include "workflow/saved.h"

int kd_cmd_compare(const kd_cmd_args *a)
{
    kd_comparison c;
    kd_outcome outcome = kd_compare_saved(&a->opts->diff, a->opts->compare_side, &c);
    int rc = kd_cmd_comparison_status(&c, outcome, kd_cmd_comparison_outputs(a->opts, &c));
    kd_comparison_free(&c);
    return rc;
}
