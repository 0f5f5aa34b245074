#include "kd_test.h"

#include <stdlib.h>
#include <string.h>

#include "report/svg.h"

/* What `draw` wrote, as a string the caller frees. */
static char *render(void (*draw)(FILE *out))
{
    char *data = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&data, &len);
    draw(out);
    fclose(out);
    return data;
}

static void escape_hostile(FILE *out) { kd_xml_text(out, "<script>&\"'\033[2J"); }

static void text_is_escaped(void **state)
{
    (void)state;
    char *got = render(escape_hostile);
    assert_string_equal(got, "&lt;script&gt;&amp;&quot;&#39;\\x1b[2J");
    free(got);
}

/* A log axis over 1e-2..1e4 is ticked at its decades, labelled with SI prefixes. */
static void decades(FILE *out)
{
    kd_plot p = {.out = out, .width = 400, .height = 200};
    p.x = (kd_axis){.label = "x (FLOP/B)", .lo = 0.01, .hi = 1e4, .scale = KD_SCALE_LOG, .style = KD_TICKS_SI};
    p.y = (kd_axis){.label = "y (µs)", .lo = 0, .hi = 2000, .unit = 1000};
    kd_plot_begin(&p, "c", "a <chart>");
    kd_plot_end(&p);
}

static void axes_have_ticks_and_labels(void **state)
{
    (void)state;
    char *got = render(decades);
    static const char *const wants[] = {">0.01<", ">0.1<", ">1<", ">10<", ">100<", ">1 k<", ">10 k<", ">x (FLOP/B)<",
                                        ">y (µs)<", ">0.5<", ">2<", "<title id=\"c-title\">a &lt;chart&gt;</title>"};
    for (size_t i = 0; i < sizeof wants / sizeof *wants; i++)
        if (!strstr(got, wants[i]))
            fail_msg("no %s in %s", wants[i], got);
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_is_escaped),
        cmocka_unit_test(axes_have_ticks_and_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
