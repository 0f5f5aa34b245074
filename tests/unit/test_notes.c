/* test_notes.c — the model's notes (diff/notes.c) and their sentences (report/note_text.c):
 * every id has a slot, a JSON id and a sentence, and the sentence quotes the note's values. */
#include "kd_test.h"

#include <string.h>

#include "diff/notes.h"
#include "report/note_text.h"

static void every_id_has_a_slot_a_json_id_and_a_sentence(void **state)
{
    (void)state;
    for (int id = 1; id < KD_NOTE_ID_COUNT; id++) {
        kd_note n = {0};
        kd_note_set(&n, (kd_note_id)id, KD_NOTE_V2, "x", "y", "a detail");
        kd_strbuf text = {0};
        assert_true(kd_note_text(&n, &text));
        if (kd_note_kind_of((kd_note_id)id) >= KD_NOTE_KINDS || !kd_note_id_name((kd_note_id)id) || text.len < 2)
            fail_msg("note %d: no slot, JSON id or sentence", id);
        /* Ids are unique within a slot, so JSON can name them. */
        for (int other = 1; other < id; other++)
            if (kd_note_kind_of((kd_note_id)other) == kd_note_kind_of((kd_note_id)id) &&
                !strcmp(kd_note_id_name((kd_note_id)other), kd_note_id_name((kd_note_id)id)))
                fail_msg("notes %d and %d share the id %s", other, id, kd_note_id_name((kd_note_id)id));
        kd_sb_free(&text);
        kd_note_free(&n);
    }
}

static void no_note_says_nothing(void **state)
{
    (void)state;
    kd_note n = {0};
    kd_strbuf text = {0};
    assert_false(kd_note_text(&n, &text));
    assert_int_equal(text.len, 0);
}

static void sentences_quote_sides_values_and_detail(void **state)
{
    (void)state;
    kd_note n = {0};
    kd_strbuf text = {0};
    kd_note_set(&n, KD_RUNTIME_UNLAUNCHABLE, KD_NOTE_V2, "saxpy", NULL, "--n is not a number");
    kd_note_text(&n, &text);
    assert_string_equal(kd_sb_str(&text),
                        "v2: cannot launch saxpy: --n is not a number (or pass --no-run for the static diff only)");
    kd_sb_free(&text);
    kd_note_set(&n, KD_RUNTIME_SANITIZER_FINDINGS, KD_NOTE_BOTH, NULL, NULL, NULL);
    kd_note_text(&n, &text);
    assert_non_null(strstr(kd_sb_str(&text), "found problems in v1 and v2 (above)"));
    kd_sb_free(&text);
    kd_note_set(&n, KD_SELECTION_RUNS_DIFFER, KD_NOTE_NO_SIDE, "H100", "A100", NULL);
    n.number[0] = 550;
    n.number[1] = 535;
    kd_note_text(&n, &text);
    assert_non_null(strstr(kd_sb_str(&text), "OLD ran on H100 (driver 550), NEW on A100 (driver 535)"));
    kd_sb_free(&text);
    kd_note_free(&n);
    assert_false(n.present);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_id_has_a_slot_a_json_id_and_a_sentence),
        cmocka_unit_test(no_note_says_nothing),
        cmocka_unit_test(sentences_quote_sides_values_and_detail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
