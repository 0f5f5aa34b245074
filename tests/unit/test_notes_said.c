/* test_notes_said.c — a note that carries one of kerndiff's messages (diff/notes.h `said`)
 * in place of a detail sentence: report/note_text.c words the message where it words the
 * detail, the JSON writes its words as `detail` (read back as text), and the note frees it. */
#include "kd_test.h"

#include <string.h>

#include "diff/notes.h"
#include "report/diag_text.h"
#include "report/note_text.h"
#include "report/report.h"
#include "source/source_msgs.h"
#include "util/jtable.h"

/* The document's `notes` field alone (kd_comparison_table's), written and read as in a saved run. */
static kd_jtable notes_only(void)
{
    for (size_t i = 0; i < kd_comparison_table.count; i++)
        if (!strcmp(kd_comparison_table.fields[i].key, "notes"))
            return (kd_jtable){.fields = &kd_comparison_table.fields[i], .count = 1};
    fail_msg("the document has no notes field");
    return (kd_jtable){0};
}

/* A message with one value and words in report/words_source.c. */
static void say_several(kd_diag *d, const char *names)
{
    *d = (kd_diag){0};
    kd_diag_set(d, KD_MSG_SOURCE_SEVERAL_KERNELS, KD_DIAG_NO_SIDE, KD_S(names));
}

static void the_message_is_worded_where_the_detail_was(void **state)
{
    (void)state;
    kd_diag said;
    say_several(&said, "a, b");
    kd_strbuf want = {0};
    kd_diag_text(&said, &want);
    assert_non_null(strstr(kd_sb_str(&want), "a, b"));

    kd_note n = {0};
    kd_note_say(&n, KD_RUNTIME_SANITIZER_FAILED, KD_NOTE_V2, NULL, NULL, &said);
    assert_int_equal(said.id, 0); /* moved into the note */
    assert_int_equal(said.nargs, 0);
    assert_true(kd_note_has_detail(&n));
    assert_null(n.detail);

    kd_strbuf text = {0};
    assert_true(kd_note_text(&n, &text));
    kd_strbuf expected = {0};
    kd_sb_printf(&expected, "v2: compute-sanitizer: %s", kd_sb_str(&want));
    assert_string_equal(kd_sb_str(&text), kd_sb_str(&expected));

    kd_note_free(&n); /* frees the message's copies (ASan: no leak) */
    assert_int_equal(n.said.id, 0);
    assert_false(n.present);
    kd_sb_free(&text);
    kd_sb_free(&expected);
    kd_sb_free(&want);
}

static void a_detail_wins_and_none_is_still_none(void **state)
{
    (void)state;
    kd_note n = {0};
    kd_note_set(&n, KD_SASS_NOT_IN_BUILD, KD_NOTE_V1, NULL, NULL, NULL);
    assert_false(kd_note_has_detail(&n));
    kd_strbuf text = {0};
    kd_note_text(&n, &text);
    assert_string_equal(kd_sb_str(&text), "v1: SASS skipped: the build has no disassembly");
    kd_sb_free(&text);

    kd_diag said;
    say_several(&said, "k");
    kd_note_say(&n, KD_SASS_NOT_IN_BUILD, KD_NOTE_V1, NULL, NULL, &said);
    kd_note_text(&n, &text);
    assert_non_null(strstr(kd_sb_str(&text), "v1: SASS skipped: kerndiff: both files define several kernels"));
    assert_null(strstr(kd_sb_str(&text), "no disassembly"));
    kd_sb_free(&text);

    /* kd_note_set over a note with a message drops it */
    kd_note_set(&n, KD_RUNTIME_SANITIZER_FAILED, KD_NOTE_V1, NULL, NULL, "outside text");
    assert_int_equal(n.said.id, 0);
    kd_note_text(&n, &text);
    assert_string_equal(kd_sb_str(&text), "v1: compute-sanitizer: outside text");
    kd_sb_free(&text);
    kd_note_free(&n);
}

/* A nested note (gate not evaluated) quotes the inner reason's words from its message too. */
static void a_nested_reason_quotes_the_message(void **state)
{
    (void)state;
    kd_diag said;
    say_several(&said, "x");
    kd_note n = {0};
    kd_note_say(&n, KD_RUNTIME_GATE_NOT_EVALUATED, KD_NOTE_NO_SIDE, "--sanitize", "no_gpu", &said);
    kd_strbuf text = {0};
    kd_note_text(&n, &text);
    assert_non_null(strstr(kd_sb_str(&text), "gate --sanitize: NOT EVALUATED, nothing was run: runtime measurement "
                                             "skipped: kerndiff: both files define several kernels"));
    kd_sb_free(&text);
    kd_note_free(&n);
}

static void json_writes_the_words_as_detail_and_reads_them_back(void **state)
{
    (void)state;
    kd_comparison c;
    memset(&c, 0, sizeof c);
    kd_diag said;
    say_several(&said, "p, q");
    kd_note_say(&c.runtime_note, KD_RUNTIME_SANITIZER_FAILED, KD_NOTE_V1, NULL, NULL, &said);
    kd_strbuf want = {0};
    kd_diag_text(&c.runtime_note.said, &want);

    kd_jtable notes = notes_only();
    json_t *doc = kd_jtable_write(&notes, &c);
    assert_non_null(doc);
    json_t *note = json_object_get(json_object_get(doc, "notes"), "runtime");
    assert_non_null(note);
    assert_string_equal(json_string_value(json_object_get(note, "detail")), kd_sb_str(&want));
    const char *text = json_string_value(json_object_get(note, "text"));
    assert_non_null(text);
    assert_non_null(strstr(text, kd_sb_str(&want)));

    kd_comparison back;
    memset(&back, 0, sizeof back);
    kd_strbuf err = {0};
    if (kd_jtable_read(&notes, doc, &back, NULL, &err) != 0)
        fail_msg("read back: %s", kd_sb_str(&err));
    assert_string_equal(back.runtime_note.detail, kd_sb_str(&want)); /* a saved run keeps the words */
    assert_int_equal(back.runtime_note.said.id, 0);
    kd_strbuf again = {0};
    kd_note_text(&back.runtime_note, &again);
    assert_string_equal(kd_sb_str(&again), text);

    kd_sb_free(&again);
    kd_sb_free(&err);
    kd_sb_free(&want);
    json_decref(doc);
    kd_comparison_free(&back);
    kd_comparison_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_message_is_worded_where_the_detail_was),
        cmocka_unit_test(a_detail_wins_and_none_is_still_none),
        cmocka_unit_test(a_nested_reason_quotes_the_message),
        cmocka_unit_test(json_writes_the_words_as_detail_and_reads_them_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
