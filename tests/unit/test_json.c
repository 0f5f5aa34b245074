/* test_json.c — the JSON document's writer and reader (report/json.c, util/jtable.c): a
 * model written and read back is equal field by field, walked from the same table, so a
 * new field is covered without touching this test; and bad documents are refused with the
 * field's path, never a crash. */
#include "kd_test.h"

#include <math.h>
#include <string.h>

#include "report/report.h"

#define AT(base, off) ((char *)(base) + (off))

static int counter;

/* Gives every field the table describes a distinct non-zero value. */
static void fill(const kd_jtable *t, void *base)
{
    for (size_t i = 0; i < t->count; i++) {
        const kd_jfield *f = &t->fields[i];
        char *p = AT(base, f->offset);
        if (f->has_when)
            *(bool *)AT(base, f->when) = true;
        int v = ++counter;
        switch (f->type) {
        case KD_J_BOOL: *(bool *)p = true; break;
        case KD_J_INT: *(int *)p = v; break;
        case KD_J_UINT: *(unsigned *)p = (unsigned)v; break;
        case KD_J_LONG: *(long *)p = v; break;
        case KD_J_SIZE: *(size_t *)p = (size_t)v; break;
        case KD_J_ULL: *(unsigned long long *)p = (unsigned long long)v; break;
        case KD_J_DOUBLE: *(double *)p = f->range == KD_J_FRACTION ? 1.0 / v : v + 0.25; break;
        case KD_J_ENUM: *(int *)p = f->nnames - 1; break;
        case KD_J_TEXT: snprintf(p, f->size, "t%d", v); break;
        case KD_J_STRING: case KD_J_BORROWED: {
            /* Owned strings are the model's to free; borrowed ones come from a static pool,
             * as they would point into a document that outlives the model. */
            static char pool[4096][16];
            static size_t used;
            char *s = f->type == KD_J_STRING ? malloc(16) : pool[used++ % 4096];
            assert_non_null(s);
            snprintf(s, 16, "s%d", v);
            memcpy(p, &s, sizeof s);
            break;
        }
        case KD_J_DOUBLES: {
            double *d = calloc(3, sizeof *d);
            assert_non_null(d);
            for (int k = 0; k < 3; k++)
                d[k] = v + k + 0.5;
            memcpy(p, &d, sizeof d);
            *(size_t *)AT(base, f->count) = 3;
            break;
        }
        case KD_J_OBJECT: fill(f->sub, p); break;
        case KD_J_PAIR: fill(f->sub, p); fill(f->sub, p + f->size); break;
        case KD_J_ARRAY: {
            char *items = calloc(2, f->size);
            assert_non_null(items);
            fill(f->sub, items);
            fill(f->sub, items + f->size);
            memcpy(p, &items, sizeof items);
            *(size_t *)AT(base, f->count) = 2;
            break;
        }
        case KD_J_CUSTOM: break; /* below, by hand */
        }
    }
}

/* What the custom fields hold, consistent with what the filled fields say. */
static void fill_custom(kd_comparison *c)
{
    for (int s = 0; s < 2; s++) {
        kd_side_timing *t = &c->timing.side[s];
        t->throttled = calloc(t->n, sizeof *t->throttled);
        assert_non_null(t->throttled);
        t->throttled[1] = true;
        t->throttled_count = 1;
        t->round = calloc(t->n, sizeof *t->round);
        assert_non_null(t->round);
        for (size_t i = 0; i < t->n; i++)
            t->round[i] = (unsigned)(i / 5);
        t->clock_min_mhz = 1000;
        t->clock_max_mhz = 1980;
        kd_hist_add(&c->side[s].stat.ptx_ops, "fma.rn.f32", 3 + s);
        kd_hist_add(&c->side[s].stat.ptx_families, "fma", 3 + s);
        kd_hist_add(&c->side[s].stat.sass_ops, "LDG.E.128", 1 - s);
        kd_hist_add(&c->side[s].stat.sass_families, "LDG", 1 - s);
        c->side[s].launch_error = strdup("not described");
        kd_side_counters *k = &c->counters.side[s];
        k->total.present[2] = k->kernels[1].values.present[2] = true;
        k->total.value[2] = 10.5 + s;
        k->kernels[1].values.value[2] = 4.5 + s;
    }
    c->timing.clocks_locked = true;
    c->timing.outputs_match = true;
    for (size_t i = 0; i < c->timing.noutputs; i++) {
        kd_output_check *oc = &c->timing.outputs[i];
        oc->type.base = KD_DT_F32;
        oc->result.first_count = 1;
        oc->result.first[0] = (kd_mismatch){.index = 7, .v1 = 1.5, .v2 = NAN};
    }
    /* Each note slot holds one of its own ids (the last of its kind), with values and numbers. */
    for (int id = 1; id < KD_NOTE_ID_COUNT; id++) {
        kd_note *n = kd_comparison_note(c, kd_note_kind_of((kd_note_id)id));
        n->id = (kd_note_id)id;
        n->number[0] = id;
        n->number[1] = -id;
    }
    for (int k = 0; k < KD_NOTE_KINDS; k++) {
        kd_note *n = kd_comparison_note(c, (kd_note_kind)k);
        assert_true(n->present);
        n->value[0] = strdup("a value");
        n->value[1] = strdup("another");
    }
    c->counters.full = true;
    c->gpu.present = false;
    snprintf(c->gpu.reason, sizeof c->gpu.reason, "no driver");
    kd_comparison_tabulate(c);
}

static void build_model(kd_comparison *c)
{
    memset(c, 0, sizeof *c);
    counter = 0;
    fill(&kd_comparison_table, c);
    fill_custom(c);
}

static void expect_equal(const kd_jtable *t, const void *a, const void *b, const char *where);

static void expect_field_equal(const kd_jfield *f, const void *a, const void *b, const char *where)
{
    char path[512];
    snprintf(path, sizeof path, "%s.%s", where, f->key);
    const char *p = (const char *)a + f->offset, *q = (const char *)b + f->offset;
    switch (f->type) {
    case KD_J_BOOL: case KD_J_INT: case KD_J_UINT: case KD_J_LONG: case KD_J_SIZE: case KD_J_ULL: case KD_J_ENUM:
        if (memcmp(p, q, f->size) != 0)
            fail_msg("%s differs after the round trip", path);
        break;
    case KD_J_DOUBLE:
        if (*(const double *)p != *(const double *)q && !(isnan(*(const double *)p) && isnan(*(const double *)q)))
            fail_msg("%s: %g became %g", path, *(const double *)p, *(const double *)q);
        break;
    case KD_J_TEXT:
        if (strcmp(p, q) != 0)
            fail_msg("%s: '%s' became '%s'", path, p, q);
        break;
    case KD_J_STRING: case KD_J_BORROWED: {
        const char *x = *(const char *const *)p, *y = *(const char *const *)q;
        if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0))
            fail_msg("%s: '%s' became '%s'", path, x ? x : "(null)", y ? y : "(null)");
        break;
    }
    case KD_J_DOUBLES: {
        size_t n = *(const size_t *)((const char *)a + f->count), m = *(const size_t *)((const char *)b + f->count);
        if (n != m || memcmp(*(double *const *)p, *(double *const *)q, n * sizeof(double)) != 0)
            fail_msg("%s differs after the round trip", path);
        break;
    }
    case KD_J_OBJECT: expect_equal(f->sub, p, q, path); break;
    case KD_J_PAIR:
        expect_equal(f->sub, p, q, path);
        expect_equal(f->sub, p + f->size, q + f->size, path);
        break;
    case KD_J_ARRAY: {
        size_t n = *(const size_t *)((const char *)a + f->count), m = *(const size_t *)((const char *)b + f->count);
        if (n != m)
            fail_msg("%s: %zu items became %zu", path, n, m);
        for (size_t i = 0; i < n; i++)
            expect_equal(f->sub, *(char *const *)p + i * f->size, *(char *const *)q + i * f->size, path);
        break;
    }
    case KD_J_CUSTOM: {
        /* Custom fields: what they write must be the same. Derived ones (no reader: the
         * launch, the environment, sentences) are made from the fields compared here. */
        if (!f->read)
            break;
        json_t *x = f->write(a), *y = f->write(b);
        if (!json_equal(x, y) && !(x == NULL && y == NULL))
            fail_msg("%s differs after the round trip", path);
        json_decref(x);
        json_decref(y);
        break;
    }
    }
}

static void expect_equal(const kd_jtable *t, const void *a, const void *b, const char *where)
{
    for (size_t i = 0; i < t->count; i++) {
        const kd_jfield *f = &t->fields[i];
        if (f->has_when) {
            bool x = *(const bool *)((const char *)a + f->when), y = *(const bool *)((const char *)b + f->when);
            if (x != y)
                fail_msg("%s.%s: presence differs after the round trip", where, f->key);
            if (!x)
                continue;
        }
        expect_field_equal(f, a, b, where);
    }
}

static void every_field_survives_the_round_trip(void **state)
{
    (void)state;
    kd_comparison c, back;
    build_model(&c);
    json_t *doc = kd_comparison_json(&c);
    assert_non_null(doc);
    char *text = json_dumps(doc, 0);
    json_decref(doc);
    doc = json_loads(text, 0, NULL); /* through text, as a saved file goes */
    free(text);
    kd_strbuf err = {0};
    if (kd_comparison_read(doc, &back, &err) != 0)
        fail_msg("read back failed: %s", kd_sb_str(&err));
    expect_equal(&kd_comparison_table, &c, &back, "");
    assert_true(back.timed && back.counters.present && back.gate.requested && back.timing.checked);
    assert_int_equal(back.timing.noutputs, 2);
    kd_sb_free(&err);
    kd_comparison_free(&back);
    json_decref(doc);
    kd_comparison_free(&c);
}

/* Each field's declared type has the member's size (catches a table entry of the wrong kind). */
static void check_sizes(const kd_jtable *t)
{
    for (size_t i = 0; i < t->count; i++) {
        const kd_jfield *f = &t->fields[i];
        if (kd_jtype_size(f->type) && kd_jtype_size(f->type) != f->size)
            fail_msg("field %s: size %zu, its type wants %zu", f->key, f->size, kd_jtype_size(f->type));
        if (f->sub)
            check_sizes(f->sub);
    }
}

static void table_types_match_the_members(void **state)
{
    (void)state;
    check_sizes(&kd_comparison_table);
}

/* A valid document with one edit must be refused with `message` (path and reason). */
static void expect_refused(void (*edit)(json_t *doc), const char *message)
{
    kd_comparison c, back;
    build_model(&c);
    json_t *doc = kd_comparison_json(&c);
    assert_non_null(doc);
    edit(doc);
    kd_strbuf err = {0};
    assert_int_equal(kd_comparison_read(doc, &back, &err), -1);
    if (!strstr(kd_sb_str(&err), message))
        fail_msg("wanted '%s', got '%s'", message, kd_sb_str(&err));
    kd_sb_free(&err);
    kd_comparison_free(&back);
    json_decref(doc);
    kd_comparison_free(&c);
}

static json_t *get(json_t *doc, const char *path)
{
    json_error_t e;
    json_t *v = doc;
    char key[64];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ".");
        snprintf(key, sizeof key, "%.*s", (int)n, p);
        v = key[0] >= '0' && key[0] <= '9' ? json_array_get(v, (size_t)atoi(key)) : json_object_get(v, key);
        p += n + (p[n] == '.');
    }
    (void)e;
    assert_non_null(v);
    return v;
}

static void opcode_key_number(json_t *d) { json_object_set_new(get(d, "ptx.opcodes.0"), "key", json_integer(7)); }
static void version_99(json_t *d) { json_object_set_new(d, "schema_version", json_integer(99)); }
static void version_missing(json_t *d) { json_object_del(d, "schema_version"); }
static void version_string(json_t *d) { json_object_set_new(d, "schema_version", json_string("2")); }
static void version_2(json_t *d) { json_object_set_new(d, "schema_version", json_integer(2)); }
static void note_of_another_slot(json_t *d) { json_object_set_new(get(d, "notes.runtime"), "id", json_string("no_ncu_flag")); }
static void note_value_number(json_t *d) { json_array_set_new(get(d, "notes.git.values"), 1, json_integer(4)); }
static void note_as_sentence(json_t *d) { json_object_set_new(get(d, "notes"), "sass", json_string("SASS skipped")); }
static void sample_zero(json_t *d) { json_array_set_new(get(d, "runtime.sides.1.samples_ns"), 2, json_real(0)); }
static void sample_negative(json_t *d) { json_array_set_new(get(d, "runtime.sides.0.samples_ns"), 0, json_real(-3)); }
static void sample_string(json_t *d) { json_array_set_new(get(d, "runtime.sides.0.samples_ns"), 1, json_string("NaN")); }
static void sides_object(json_t *d) { json_object_set_new(d, "sides", json_object()); }
static void sm_string(json_t *d) { json_object_set_new(get(d, "runtime.gpu"), "sm", json_string("90")); }
static void kernel_name_number(json_t *d) { json_object_set_new(get(d, "counters.sides.0.kernels.1"), "name", json_integer(1)); }
static void registers_negative(json_t *d) { json_object_set_new(get(d, "sides.1.resources"), "registers", json_integer(-1)); }
static void verdict_unknown(json_t *d) { json_object_set_new(get(d, "runtime"), "verdict", json_string("better")); }
static void throttled_out_of_range(json_t *d) { json_array_append_new(get(d, "runtime.sides.0.throttled_sample_indexes"), json_integer(99)); }
static void occupancy_missing(json_t *d) { json_object_del(get(d, "sides.0.occupancy"), "limiter"); }

static void bad_documents_are_refused_with_the_path(void **state)
{
    (void)state;
    expect_refused(opcode_key_number, "ptx.opcodes[0].key: must be a string");
    expect_refused(version_99, "schema_version: must be 3 (");
    expect_refused(version_2, "schema_version: must be 3: version 2 was written by an older kerndiff");
    expect_refused(version_missing, "schema_version: is missing");
    expect_refused(version_string, "schema_version: must be 3");
    expect_refused(note_of_another_slot, "notes.runtime.id: must be one of \"no_run_flag\"");
    expect_refused(note_value_number, "notes.git.values[1]: must be a string or null");
    expect_refused(note_as_sentence, "notes.sass: must be an object");
    expect_refused(sample_zero, "runtime.sides[1].samples_ns[2]: must be a positive number");
    expect_refused(sample_negative, "runtime.sides[0].samples_ns[0]: must be a positive number");
    expect_refused(sample_string, "runtime.sides[0].samples_ns[1]: must be a positive number");
    expect_refused(sides_object, "sides: must be an array of two objects");
    expect_refused(sm_string, "runtime.gpu.sm: must be an integer >= 0");
    expect_refused(kernel_name_number, "counters.sides[0].kernels[1].name: must be a string");
    expect_refused(registers_negative, "sides[1].resources.registers: must be an integer >= 0");
    expect_refused(verdict_unknown, "runtime.verdict: must be one of");
    expect_refused(throttled_out_of_range, "runtime.sides[0].throttled_sample_indexes[1]: must be the index of a sample");
    expect_refused(occupancy_missing, "sides[0].occupancy.limiter: is missing");
}

static void not_an_object_is_refused(void **state)
{
    (void)state;
    const char *texts[] = {"[]", "2", "\"x\"", "{}", "{\"schema_version\": 2}"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        json_t *doc = json_loads(texts[i], JSON_DECODE_ANY, NULL);
        kd_comparison back;
        kd_strbuf err = {0};
        assert_int_equal(kd_comparison_read(doc, &back, &err), -1);
        assert_true(err.len > 0);
        kd_sb_free(&err);
        kd_comparison_free(&back);
        json_decref(doc);
    }
    kd_comparison back;
    kd_strbuf err = {0};
    assert_int_equal(kd_comparison_read(NULL, &back, &err), -1); /* an empty or truncated file */
    assert_string_equal(kd_sb_str(&err), "must be an object");
    kd_sb_free(&err);
    kd_comparison_free(&back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_field_survives_the_round_trip),
        cmocka_unit_test(table_types_match_the_members),
        cmocka_unit_test(bad_documents_are_refused_with_the_path),
        cmocka_unit_test(not_an_object_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
