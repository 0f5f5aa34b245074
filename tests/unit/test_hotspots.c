/* The hot-spot diff (issue 31 item 2): reading records and listings, the per-line table,
 * matching two versions, and every renderer, on tests/fixtures/hotspots/synthetic (hand-
 * written records over real nvdisasm listings: see its README). */
#include "kd_test.h"

#include <math.h>
#include <string.h>

#include "hotspots/hotspots.h"
#include "hotspots/hotspots_pass.h"
#include "report/hotspots_report.h"

typedef struct pair {
    kd_hs_profile p[2];
    kd_hs_diff d;
} pair;

static void load_side(kd_hs_profile *p, const char *v, bool with_source)
{
    char path[64];
    snprintf(path, sizeof path, "hotspots/synthetic/%s.rec", v);
    char *rec = read_fixture(path);
    kd_hs_error err;
    assert_int_equal(kd_hs_record_parse(rec, p, &err), 0);
    free(rec);
    snprintf(path, sizeof path, "hotspots/synthetic/%s.sass", v);
    char *sass = read_fixture(path);
    assert_int_equal(kd_hs_attach_sass(p, sass), p->insn_count);
    free(sass);
    snprintf(path, sizeof path, "hotspots/synthetic/%s.cu", v);
    char *src = with_source ? read_fixture(path) : NULL;
    kd_hs_profile_finish(p, src);
    free(src);
}

static int setup_pair(void **state)
{
    pair *pr = calloc(1, sizeof *pr);
    load_side(&pr->p[0], "v1", true);
    load_side(&pr->p[1], "v2", true);
    kd_hs_diff_build(&pr->p[0], &pr->p[1], &pr->d);
    *state = pr;
    return 0;
}

static int teardown_pair(void **state)
{
    pair *pr = *state;
    kd_hs_diff_free(&pr->d);
    kd_hs_profile_free(&pr->p[0]);
    kd_hs_profile_free(&pr->p[1]);
    free(pr);
    return 0;
}

static void record_fields(void **state)
{
    (void)state;
    char *rec = read_fixture("hotspots/synthetic/v1.rec");
    kd_hs_profile p;
    kd_hs_error err;
    assert_int_equal(kd_hs_record_parse(rec, &p, &err), 0);
    assert_string_equal(p.kernel, "gather");
    assert_int_equal(p.period, 5);
    assert_int_equal(p.total, 1000);
    assert_int_equal(p.reason_count, 5);
    assert_int_equal(p.insn_count, 8);
    assert_int_equal(p.sampled, 1000);
    assert_string_equal(kd_hs_reason_short(p.reasons[0]), "long_scoreboard");
    assert_int_equal(p.insns[1].offset, 0x570);
    assert_int_equal(p.insns[1].samples, 520);
    assert_int_equal(p.insns[1].by_reason[0], 500);
    kd_hs_profile_free(&p);
    free(rec);
}

static void expect_error(const char *text, kd_hs_error_code code, size_t line)
{
    kd_hs_profile p;
    kd_hs_error err;
    assert_int_equal(kd_hs_record_parse(text, &p, &err), -1);
    assert_int_equal(err.code, code);
    assert_int_equal(err.line, line);
    assert_null(p.insns);
    kd_strbuf sb = {0};
    kd_hotspots_error_text(&sb, "v2", "b.rec", &err);
    assert_non_null(strstr(kd_sb_str(&sb), "v2's hot-spot record b.rec"));
    kd_sb_free(&sb);
}

static void record_errors(void **state)
{
    (void)state;
    expect_error("kerndiff-hotspots 2\npc k 0x10\n", KD_HS_ERR_HEADER, 1);
    expect_error("", KD_HS_ERR_HEADER, 1);
    expect_error("kerndiff-hotspots 1\nreason 1 a\npc k 0x10 1:3\nbogus line\n", KD_HS_ERR_LINE, 4);
    expect_error("kerndiff-hotspots 1\nreason 1 a\npc k 0x10 2:3\n", KD_HS_ERR_REASON, 3);
    expect_error("kerndiff-hotspots 1\nreason 1 a\npc k 0x10 1:x\n", KD_HS_ERR_LINE, 3);
    expect_error("kerndiff-hotspots 1\nreason 1 a\npc k -5 1:3\n", KD_HS_ERR_LINE, 3);
    expect_error("kerndiff-hotspots 1\nkernel k\nreason 1 a\n", KD_HS_ERR_EMPTY, 3);
    expect_error("kerndiff-hotspots 1\nreason 1 a\npc k 0x10 1:99999999999999999999999\n", KD_HS_ERR_LINE, 3);
    /* A line of more words than any record line has is refused, not cut. */
    char *long_line = malloc(600 * 4 + 64);
    strcpy(long_line, "kerndiff-hotspots 1\nreason 1 a\npc k 0x10");
    for (int k = 0; k < 600; k++)
        strcat(long_line, " 1:1");
    expect_error(long_line, KD_HS_ERR_LINE, 3);
    free(long_line);
}

static void lines_and_sass(void **state)
{
    pair *pr = *state;
    const kd_hs_profile *p = &pr->p[0];
    assert_non_null(p->main_file);
    assert_non_null(strstr(p->main_file, "v1.cu"));
    const kd_hs_line *load = NULL;
    uint64_t sum = 0;
    for (size_t k = 0; k < p->line_count; k++) {
        sum += p->lines[k].samples;
        if (p->lines[k].line == 7)
            load = &p->lines[k];
    }
    assert_int_equal(sum, 1000);
    assert_non_null(load);
    assert_int_equal(load->samples, 570);
    assert_int_equal(load->insn_count, 2);
    assert_string_equal(load->family, "FADD");
    assert_non_null(strstr(load->text, "a[(i * stride + k) & mask]"));
    const kd_hs_insn *ldg = &p->insns[load->insn[0]];
    assert_string_equal(ldg->family, "LDG");
    assert_string_equal(ldg->text, "LDG.E.CONSTANT R19, desc[UR4][R4.64]");
}

static const kd_hs_row *row_at(const kd_hs_diff *d, unsigned v1_line)
{
    for (size_t k = 0; k < d->row_count; k++)
        if (d->rows[k].line[0] == v1_line)
            return &d->rows[k];
    return NULL;
}

static void matching(void **state)
{
    pair *pr = *state;
    const kd_hs_diff *d = &pr->d;
    assert_int_equal(d->row_count, 6);
    const kd_hs_row *top = &d->rows[0];
    assert_int_equal(top->how, KD_HS_CHANGED);
    assert_int_equal(top->line[0], 7);
    assert_int_equal(top->line[1], 8);
    assert_float_equal(top->share[0], 0.57, 1e-9);
    assert_float_equal(top->share[1], 0.15, 1e-9);
    assert_float_equal(top->delta, -0.42, 1e-9);
    assert_string_equal(top->dominant[0], "long_scoreboard");
    assert_string_equal(top->dominant[1], "wait");
    /* LDG with LDG, FADD with FADD. */
    assert_int_equal(top->insn_count, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_non_null(top->insns[i].side[0]);
        assert_non_null(top->insns[i].side[1]);
        assert_string_equal(top->insns[i].side[0]->family, top->insns[i].side[1]->family);
    }
    /* Every other line moved down by one and kept its text. */
    for (unsigned l = 4; l <= 12; l++) {
        const kd_hs_row *r = row_at(d, l);
        if (!r || l == 7)
            continue;
        assert_int_equal(r->how, KD_HS_SAME_LINE);
        assert_int_equal(r->line[1], l + 1);
        assert_string_equal(r->text[0], r->text[1]);
    }
    assert_float_equal(row_at(d, 8)->share[1], 0.22, 1e-9);
    for (size_t k = 1; k < d->row_count; k++)
        assert_true(fabs(d->rows[k - 1].delta) >= fabs(d->rows[k].delta));
}

static void matching_without_sources(void **state)
{
    (void)state;
    kd_hs_profile p[2];
    load_side(&p[0], "v1", false);
    load_side(&p[1], "v2", false);
    kd_hs_diff d;
    kd_hs_diff_build(&p[0], &p[1], &d);
    /* By number: v1's line 7 meets v2's line 7 (a different line, the best one can do). */
    const kd_hs_row *r = row_at(&d, 7);
    assert_non_null(r);
    assert_int_equal(r->line[1], 7);
    assert_null(r->text[0]);
    /* v1.cu's line 8 and v2.cu's line 8, both sampled, pair though the files' names differ. */
    r = row_at(&d, 8);
    assert_non_null(r->side[0]);
    assert_non_null(r->side[1]);
    assert_int_equal(r->side[1]->samples, 150);
    kd_hs_diff_free(&d);
    kd_hs_profile_free(&p[0]);
    kd_hs_profile_free(&p[1]);
}

/* A block that grew: the changed line pairs with the other side's line of the same family. */
static const char *listing(const char *file, unsigned l1, unsigned l2, unsigned l3)
{
    static char buf[3][1024];
    static int which;
    char *b = buf[which++ % 3];
    snprintf(b, 1024,
             "//--------------------- .text.k --------------------------\n"
             "\t//## File \"%s\", line %u\n        /*0000*/ IMAD R1, R2, R3, RZ ;\n"
             "\t//## File \"%s\", line %u\n        /*0010*/ @!P0 LDG.E R4, desc[UR4][R2.64] ;\n"
             "\t//## File \"%s\", line %u inlined at \"x.cu\", line 1\n        /*0020*/ FFMA R5, R4, R4, R5 ;\n",
             file, l1, file, l2, file, l3);
    return b;
}

static void matching_by_family(void **state)
{
    (void)state;
    const char *rec = "kerndiff-hotspots 1\nreason 7 smsp__pcsamp_warps_issue_stalled_long_scoreboard\n"
                      "reason 9 smsp__pcsamp_warps_issue_stalled_math_pipe_throttle\n"
                      "pc k 0x0 9:10\npc k 0x10 7:60\npc k 0x20 9:30\n";
    const char *src1 = "a\nb = x[i];\nc += b * b;\nd\n";
    const char *src2 = "a\nj = i * 2;\nb = y[j];\nc = fma(b, b, c);\nd\n";
    kd_hs_profile p[2];
    kd_hs_error err;
    for (int s = 0; s < 2; s++) {
        assert_int_equal(kd_hs_record_parse(rec, &p[s], &err), 0);
        assert_int_equal(kd_hs_attach_sass(&p[s], s == 0 ? listing("k.cu", 1, 2, 3) : listing("k.cu", 2, 3, 4)), 3);
        kd_hs_profile_finish(&p[s], s == 0 ? src1 : src2);
    }
    assert_string_equal(p[0].insns[1].family, "LDG"); /* the predicate is not the family */
    assert_int_equal(p[0].insns[2].line, 3);          /* the innermost location of an inlined one */
    kd_hs_diff d;
    kd_hs_diff_build(&p[0], &p[1], &d);
    const kd_hs_row *load = row_at(&d, 2), *fma = row_at(&d, 3), *first = row_at(&d, 1);
    assert_int_equal(load->how, KD_HS_FAMILY);
    assert_int_equal(load->line[1], 3);
    assert_int_equal(fma->how, KD_HS_FAMILY);
    assert_int_equal(fma->line[1], 4);
    /* v1's line 1 (IMAD) has no IMAD line in v2's block: it stands alone, and v2's line 2 too. */
    assert_int_equal(first->how, KD_HS_SAME_LINE);
    assert_int_equal(first->line[1], 1);
    bool v2_alone = false;
    for (size_t k = 0; k < d.row_count; k++)
        if (d.rows[k].how == KD_HS_ONLY_V2 && d.rows[k].line[1] == 2)
            v2_alone = true;
    assert_true(v2_alone);
    kd_hs_diff_free(&d);
    kd_hs_profile_free(&p[0]);
    kd_hs_profile_free(&p[1]);
}

/* PCs CUPTI could not name ("?": a module loaded before sampling was on) are placed when the
 * listing has one function, and not guessed when it has several. */
static void unnamed_function(void **state)
{
    (void)state;
    const char *rec = "kerndiff-hotspots 1\nreason 1 x\npc ? 0x10 1:4\npc k 0x20 1:1\n";
    kd_hs_profile p;
    kd_hs_error err;
    assert_int_equal(kd_hs_record_parse(rec, &p, &err), 0);
    assert_int_equal(kd_hs_attach_sass(&p, listing("k.cu", 1, 2, 3)), 2);
    assert_string_equal(p.insns[0].function, "k");
    assert_string_equal(p.insns[0].family, "LDG");
    kd_hs_profile_free(&p);
    char two[2048];
    snprintf(two, sizeof two, "%s%s", listing("k.cu", 1, 2, 3), "//--------------------- .text.other ----\n"
                                                                 "        /*0010*/ FADD R1, R1, R2 ;\n");
    assert_int_equal(kd_hs_record_parse(rec, &p, &err), 0);
    assert_int_equal(kd_hs_attach_sass(&p, two), 1);
    assert_null(p.insns[0].text);
    kd_hs_profile_free(&p);
}

/* A Triton cubin carries the .py's lines: the same reader places its PCs on them. */
static void triton_lines(void **state)
{
    (void)state;
    kd_hs_profile p;
    kd_hs_error err;
    char *rec = read_fixture("hotspots/synthetic/triton_add.rec");
    char *sass = read_fixture("hotspots/synthetic/triton_add.sass");
    char *src = read_fixture("hotspots/synthetic/triton_add.py");
    assert_int_equal(kd_hs_record_parse(rec, &p, &err), 0);
    assert_int_equal(kd_hs_attach_sass(&p, sass), 3);
    kd_hs_profile_finish(&p, src);
    assert_string_equal(p.main_file, "triton_add.py");
    assert_int_equal(p.line_count, 2);
    assert_int_equal(p.lines[0].line, 8);
    assert_string_equal(p.lines[0].text, "    x = tl.load(x_ptr + offs, mask=m)");
    assert_string_equal(p.lines[0].family, "LDG");
    assert_int_equal(p.lines[1].line, 10);
    assert_int_equal(p.lines[1].samples, 80);
    assert_string_equal(p.lines[1].family, "FFMA");
    kd_hs_profile_free(&p);
    free(rec), free(sass), free(src);
}

static char *render(void (*fn)(FILE *, const kd_hs_diff *), const kd_hs_diff *d)
{
    /* On the heap: gcc takes a local's address kept by the stream for a dangling pointer. */
    struct {
        char *text;
        size_t len;
    } *m = calloc(1, sizeof *m);
    FILE *f = open_memstream(&m->text, &m->len);
    fn(f, d);
    fclose(f);
    char *text = m->text;
    free(m);
    return text;
}

static void terminal_plain(FILE *out, const kd_hs_diff *d) { kd_hotspots_terminal(out, d, false); }

static void terminal(void **state)
{
    pair *pr = *state;
    char *text = render(terminal_plain, &pr->d);
    assert_non_null(strstr(text, "Where the time moved (PC samples: v1 1000, v2 1000;"));
    const char *first = strstr(text, "\n  ");
    assert_non_null(first);
    assert_true(!strncmp(first, "\n  line 7 -> 8 `sum += a[(i * stride + k) & mask];` -> `sum += a[(k * stride + i) & mask];`: "
                                "57% -> 15% of samples, long scoreboard -> wait\n",
                         strlen("\n  line 7 -> 8 `sum += a[(i * stride + k) & mask];` -> `sum += a[(k * stride + i) & "
                                "mask];`: 57% -> 15% of samples, long scoreboard -> wait\n")));
    assert_non_null(strstr(text, "  line 8 -> 9 `x = x * 1.0001f + 0.5f;`: 8% -> 22% of samples, wait -> wait\n"));
    assert_null(strstr(text, "\033["));
    free(text);
}

static void markdown(void **state)
{
    pair *pr = *state;
    char *text = render(kd_hotspots_markdown, &pr->d);
    assert_non_null(strstr(text, "| line | source | v1 | v2 | change | stall reason (v1 -> v2) |"));
    assert_non_null(strstr(text, "| line 7 -> 8 | `sum += a[(i * stride + k) & mask];` -> `sum += a[(k * stride + i) & mask];` "
                                 "| 57% | 15% | -42 pp | long scoreboard -> wait |"));
    free(text);
}

static void markdown_escapes(void **state)
{
    (void)state;
    const char *rec[2] = {"kerndiff-hotspots 1\nreason 1 x\npc k 0x0 1:5\npc k 0x10 1:1\n",
                          "kerndiff-hotspots 1\nreason 1 x\npc k 0x0 1:1\npc k 0x10 1:5\n"};
    kd_hs_profile p[2];
    kd_hs_error err;
    for (int s = 0; s < 2; s++) {
        assert_int_equal(kd_hs_record_parse(rec[s], &p[s], &err), 0);
        kd_hs_attach_sass(&p[s], listing("k.cu", 1, 2, 3));
        kd_hs_profile_finish(&p[s], s == 0 ? "a = b | c;\nz\n" : "a = `b` || c;\nz\n");
    }
    kd_hs_diff d;
    kd_hs_diff_build(&p[0], &p[1], &d);
    char *text = render(kd_hotspots_markdown, &d);
    /* The source's '|' cannot split the row and its '`' cannot close the span. */
    const char *row = strstr(text, "| line 1 |");
    assert_non_null(row);
    const char *end = strchr(row, '\n');
    size_t bars = 0;
    for (const char *s = row; s < end; s++)
        bars += *s == '|' && s[-1] != '\\';
    assert_int_equal(bars, 7);
    free(text);
    kd_hs_diff_free(&d);
    kd_hs_profile_free(&p[0]);
    kd_hs_profile_free(&p[1]);
}

static void json(void **state)
{
    pair *pr = *state;
    json_t *j = kd_hotspots_json(&pr->d);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "kernel")), "gather");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "samples"), 1)), 1000);
    json_t *lines = json_object_get(j, "lines");
    assert_int_equal(json_array_size(lines), 6);
    json_t *top = json_array_get(lines, 0);
    assert_string_equal(json_string_value(json_object_get(top, "match")), "changed");
    json_t *v1 = json_object_get(top, "v1"), *v2 = json_object_get(top, "v2");
    assert_int_equal(json_integer_value(json_object_get(v1, "line")), 7);
    assert_int_equal(json_integer_value(json_object_get(v2, "line")), 8);
    assert_int_equal(json_integer_value(json_object_get(v1, "samples")), 570);
    assert_string_equal(json_string_value(json_object_get(v1, "reason")), "long_scoreboard");
    assert_float_equal(json_real_value(json_object_get(top, "delta")), -0.42, 1e-9);
    json_t *insns = json_object_get(top, "instructions");
    assert_int_equal(json_array_size(insns), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(insns, 0), "family")), "LDG");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(insns, 1), "v1"), "offset")),
                     0x570);
    assert_float_equal(json_real_value(json_object_get(json_object_get(json_array_get(insns, 1), "v1"), "share")), 0.52,
                       1e-9);
    json_decref(j);
}

/* SASS counts (exec lines): attached to the sampled instruction, an unsampled one added with
 * no samples, summed per line; shown only where both sides were counted, and a side without
 * them is null in the JSON, never 0. */
static void executed_counts(void **state)
{
    (void)state;
    const char *rec[2] = {"kerndiff-hotspots 1\nreason 1 x\npc k 0x0 1:5\npc k 0x10 1:1\n"
                          "# SASS metric smsp__sass_inst_executed\nexec k 0x0 1000\nexec k 0x10 40\nexec k 0x20 7\n",
                          "kerndiff-hotspots 1\nreason 1 x\npc k 0x0 1:1\npc k 0x10 1:5\n"
                          "exec k 0x0 1000\nexec k 0x10 4000000\nexec k 0x20 7\n"};
    kd_hs_profile p[2];
    kd_hs_error err;
    for (int s = 0; s < 2; s++) {
        assert_int_equal(kd_hs_record_parse(rec[s], &p[s], &err), 0);
        assert_true(p[s].has_executed);
        assert_int_equal(kd_hs_attach_sass(&p[s], listing("k.cu", 1, 2, 3)), 3);
        kd_hs_profile_finish(&p[s], "a = b;\nc = d[i];\ne = f;\n");
    }
    assert_int_equal(p[0].executed, 1047);
    assert_int_equal(p[0].sampled, 6);
    assert_int_equal(p[0].insn_count, 3);
    const kd_hs_line *third = NULL;
    for (size_t k = 0; k < p[0].line_count; k++)
        if (p[0].lines[k].line == 3)
            third = &p[0].lines[k];
    assert_non_null(third);
    assert_int_equal(third->samples, 0);
    assert_int_equal(third->executed, 7);
    kd_hs_diff d;
    kd_hs_diff_build(&p[0], &p[1], &d);
    const kd_hs_row *load = row_at(&d, 2);
    assert_non_null(load);
    assert_int_equal(load->executed[0], 40);
    assert_int_equal(load->executed[1], 4000000);
    kd_strbuf sb = {0};
    kd_hotspots_row_text(&sb, load);
    assert_non_null(strstr(kd_sb_str(&sb), "; 40 -> 4.0M warp instructions executed"));
    kd_sb_free(&sb);
    char *text = render(terminal_plain, &d);
    assert_non_null(strstr(text, "; warp instructions executed in one launch: 1047 -> 4.0M)"));
    free(text);
    text = render(kd_hotspots_markdown, &d);
    assert_non_null(strstr(text, "| executed (v1 -> v2) |"));
    free(text);
    kd_hs_diff_free(&d);
    kd_hs_profile_free(&p[1]);

    /* v2 without SASS counts: no count in the sentences, null in the JSON. */
    assert_int_equal(kd_hs_record_parse("kerndiff-hotspots 1\nreason 1 x\npc k 0x0 1:1\npc k 0x10 1:5\n", &p[1], &err), 0);
    assert_false(p[1].has_executed);
    kd_hs_attach_sass(&p[1], listing("k.cu", 1, 2, 3));
    kd_hs_profile_finish(&p[1], "a = b;\nc = d[i];\ne = f;\n");
    kd_hs_diff_build(&p[0], &p[1], &d);
    load = row_at(&d, 2);
    assert_int_equal(load->executed[1], -1);
    kd_hotspots_row_text(&sb, load);
    assert_null(strstr(kd_sb_str(&sb), "executed"));
    kd_sb_free(&sb);
    text = render(terminal_plain, &d);
    assert_null(strstr(text, "executed"));
    free(text);
    json_t *j = kd_hotspots_json(&d);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "executed"), 0)), 1047);
    assert_true(json_is_null(json_array_get(json_object_get(j, "executed"), 1)));
    json_decref(j);
    kd_hs_diff_free(&d);
    kd_hs_profile_free(&p[0]);
    kd_hs_profile_free(&p[1]);

    /* exec lines follow the pc lines, and are four words of numbers. */
    expect_error("kerndiff-hotspots 1\nreason 1 a\nexec k 0x10 5\npc k 0x10 1:3\n", KD_HS_ERR_LINE, 3);
    expect_error("kerndiff-hotspots 1\nreason 1 a\npc k 0x10 1:3\nexec k 0x10 5\npc k 0x20 1:3\n", KD_HS_ERR_LINE, 5);
    expect_error("kerndiff-hotspots 1\nreason 1 a\npc k 0x10 1:3\nexec k 0x10 -5\n", KD_HS_ERR_LINE, 4);
    expect_error("kerndiff-hotspots 1\nreason 1 a\npc k 0x10 1:3\nexec k 0x10\n", KD_HS_ERR_LINE, 4);
    expect_error("kerndiff-hotspots 1\nreason 1 a\npc k 0x10 1:3\nexec k 0x10 5 6\n", KD_HS_ERR_LINE, 4);
}

/* The recorded pair (tests/fixtures/hotspots/recorded: an H100's PC samples and SASS counts of
 * tests/gpu/hotspots/v1.cu and v2.cu): every sampled and counted offset is in the listing, the
 * changed load is the first row, its share falls, and it ran about as often on both sides
 * (the same loop; only the address it loads changed). */
static void recorded_pair(void **state)
{
    (void)state;
    kd_hs_profile p[2];
    for (int s = 0; s < 2; s++) {
        char path[96];
        snprintf(path, sizeof path, "hotspots/recorded/hotspots-run1-v%d.rec", s + 1);
        char *rec = read_fixture(path);
        kd_hs_error err;
        assert_int_equal(kd_hs_record_parse(rec, &p[s], &err), 0);
        free(rec);
        assert_true(p[s].has_executed);
        assert_true(p[s].sampled > 1000);
        snprintf(path, sizeof path, "hotspots/synthetic/v%d.sass", s + 1);
        char *sass = read_fixture(path);
        assert_int_equal(kd_hs_attach_sass(&p[s], sass), p[s].insn_count);
        free(sass);
        snprintf(path, sizeof path, "hotspots/synthetic/v%d.cu", s + 1);
        char *src = read_fixture(path);
        kd_hs_profile_finish(&p[s], src);
        free(src);
    }
    kd_hs_diff d;
    kd_hs_diff_build(&p[0], &p[1], &d);
    const kd_hs_row *top = &d.rows[0];
    assert_int_equal(top->line[0], 7);
    assert_int_equal(top->line[1], 8);
    assert_true(top->delta < 0);
    assert_true(top->executed[0] > 1000000 && top->executed[1] > 1000000);
    double ratio = (double)top->executed[1] / (double)top->executed[0];
    assert_true(ratio > 0.9 && ratio < 1.1);
    kd_strbuf sb = {0};
    kd_hotspots_row_text(&sb, top);
    assert_non_null(strstr(kd_sb_str(&sb), "line 7 -> 8 `sum += a[(i * stride + k) & mask];`"));
    assert_non_null(strstr(kd_sb_str(&sb), " warp instructions executed"));
    kd_sb_free(&sb);
    json_t *j = kd_hotspots_json(&d);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "executed"), 0)), (json_int_t)p[0].executed);
    json_decref(j);
    kd_hs_diff_free(&d);
    kd_hs_profile_free(&p[0]);
    kd_hs_profile_free(&p[1]);
}

static void html(void **state)
{
    pair *pr = *state;
    char *text = render(kd_hotspots_html, &pr->d);
    assert_non_null(strstr(text, "<section class=\"hotspots\">"));
    assert_non_null(strstr(text, "k &lt; 32"));
    assert_null(strstr(text, "k < 32"));
    /* One table row per line of v2's source (14), plus the header row. */
    size_t rows = 0;
    for (const char *s = strstr(text, "<table"); (s = strstr(s, "<tr>")) != NULL; s++)
        rows++;
    assert_int_equal(rows, pr->p[1].src_count + 1);
    assert_non_null(strstr(text, "<td>7</td><td class=\"num\"><svg width=\"120\" height=\"10\" role=\"img\" "
                                 "aria-label=\"v1 57.0%\"><rect class=\"v1 bar\" x=\"0\" y=\"0\" width=\"68.4\""));
    free(text);
}

static void failures(void **state)
{
    (void)state;
    /* A side loaded through a launcher has no cubin to list: said before any child starts. */
    kd_harness_side side = {.label = "v2", .load_kind = "launcher", .load_path = "/nonexistent.so"};
    kd_hotspots_request r = {.side = &side, .workdir = "/nonexistent"};
    kd_hs_profile p;
    kd_hotspots_failure f = {0};
    assert_int_equal(kd_hotspots_record(&r, &p, &f), -1);
    assert_int_equal(f.step, KD_HS_STEP_NOT_CUBIN);
    assert_null(p.insns);
    kd_strbuf sb = {0};
    kd_hotspots_failure_text(&sb, "v2", &f);
    assert_string_equal(kd_sb_str(&sb), "v2: no hot spots: its kernel is loaded through a launcher, not from a cubin "
                                        "whose instructions can be listed; hot spots need a cubin");
    kd_sb_free(&sb);
    kd_sb_free(&f.why);
    /* A record refused: where and why. */
    f = (kd_hotspots_failure){.step = KD_HS_STEP_RECORD, .record = {KD_HS_ERR_REASON, 9}};
    kd_hotspots_failure_text(&sb, "v1", &f);
    assert_string_equal(kd_sb_str(&sb), "v1: no hot spots: the harness's record could not be read, line 9: a pc line "
                                        "names a stall-reason index that no reason line declared");
    kd_sb_free(&sb);
    /* From a note's values: the step's name and the record's "LINE CODE". */
    kd_hotspots_step_text(&sb, "v1", kd_hs_step_name(KD_HS_STEP_RECORD), "9 3");
    assert_string_equal(kd_sb_str(&sb), "v1: no hot spots: the harness's record could not be read, line 9: a pc line "
                                        "names a stall-reason index that no reason line declared");
    kd_sb_free(&sb);
    assert_int_equal(kd_hs_step_named("nvdisasm"), KD_HS_STEP_NVDISASM);
    assert_int_equal(kd_hs_step_named("bogus"), KD_HS_STEP_NONE);
    kd_hotspots_step_text(&sb, "v2", "nvdisasm", "nvdisasm not found");
    assert_string_equal(kd_sb_str(&sb), "v2: no hot spots: its cubin could not be listed with nvdisasm --print-line-info "
                                        "(install nvdisasm: the CUDA toolkit or pip install nvidia-cuda-nvdisasm): "
                                        "nvdisasm not found");
    kd_sb_free(&sb);
    /* The child's words, escaped. */
    f = (kd_hotspots_failure){.step = KD_HS_STEP_SAMPLING};
    kd_sb_puts(&f.why, "err hotspots \033[31mCUPTI_ERROR_NOT_SUPPORTED");
    kd_hotspots_failure_text(&sb, "v1", &f);
    assert_non_null(strstr(kd_sb_str(&sb), "PC sampling failed"));
    assert_non_null(strstr(kd_sb_str(&sb), "CUPTI_ERROR_NOT_SUPPORTED"));
    assert_null(strchr(kd_sb_str(&sb), '\033'));
    kd_sb_free(&sb);
    kd_sb_free(&f.why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_fields),
        cmocka_unit_test(record_errors),
        cmocka_unit_test_setup_teardown(lines_and_sass, setup_pair, teardown_pair),
        cmocka_unit_test_setup_teardown(matching, setup_pair, teardown_pair),
        cmocka_unit_test(matching_without_sources),
        cmocka_unit_test(matching_by_family),
        cmocka_unit_test(unnamed_function),
        cmocka_unit_test(triton_lines),
        cmocka_unit_test_setup_teardown(terminal, setup_pair, teardown_pair),
        cmocka_unit_test_setup_teardown(markdown, setup_pair, teardown_pair),
        cmocka_unit_test(markdown_escapes),
        cmocka_unit_test_setup_teardown(json, setup_pair, teardown_pair),
        cmocka_unit_test_setup_teardown(html, setup_pair, teardown_pair),
        cmocka_unit_test(executed_counts),
        cmocka_unit_test(recorded_pair),
        cmocka_unit_test(failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
