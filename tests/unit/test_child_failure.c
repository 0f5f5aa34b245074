/* test_child_failure.c — a harness child's failure is data (wire/child.h's
 * kd_child_failure, a kd_diag with wire ids) and its sentence comes from report/words_wire.c:
 * the same words the e2e suites grep, a message nested in a message, copies that own their
 * values, and the text a `why` chain receives through util/diag.h's kd_diag_append_words. */
#include "kd_test.h"

#include <signal.h>
#include <string.h>

#include "report/diag_text.h"
#include "util/strbuf.h"
#include "wire/child.h"
#include "wire/wire_msgs.h"

/* A child as read_reply leaves it: the reply split, its stderr kept, its end recorded. */
static void fake_child(kd_child *c, const char *reply, const char *stderr_text)
{
    memset(c, 0, sizeof *c);
    c->side = "v1";
    c->line = strdup(reply ? reply : "");
    kd_proto_split(c->line, &c->words);
    if (stderr_text)
        kd_sb_puts(&c->stderr_text, stderr_text);
}

static void free_child(kd_child *c)
{
    free(c->line);
    kd_sb_free(&c->stderr_text);
}

/* The sentence of a failure, through the diag (the renderer main's sink uses). */
static char *sentence(const kd_child *c, kd_reply_status st, const char *doing)
{
    kd_child_failure f;
    kd_child_failure_get(c, st, &f);
    kd_diag d = {0};
    kd_child_failure_diag(&f, doing, KD_DIAG_NO_SIDE, &d);
    kd_child_failure_free(&f);
    kd_strbuf out = {0};
    kd_diag_text(&d, &out);
    kd_diag_free(&d);
    return kd_sb_take(&out);
}

static void a_signal_is_data_and_worded_with_last_words(void **state)
{
    (void)state;
    kd_child c;
    fake_child(&c, NULL, "loading the module\nCUDA error: illegal address\n\n");
    c.exited = true;
    c.signal = SIGSEGV;
    kd_child_failure f;
    kd_child_failure_get(&c, KD_REPLY_DIED, &f);
    assert_int_equal(f.status, KD_REPLY_DIED);
    assert_int_equal(f.signal, SIGSEGV);
    assert_string_equal(f.last_words, "CUDA error: illegal address");
    assert_null(f.answer);
    kd_diag d = {0};
    kd_child_failure_diag(&f, NULL, 1, &d);
    assert_int_equal(d.id, KD_MSG_WIRE_CHILD_SIGNAL_WORDS);
    assert_int_equal(d.side, 1);
    assert_int_equal(d.args[0].v.i, SIGSEGV);
    kd_diag_free(&d);
    kd_child_failure_free(&f);
    char *text = sentence(&c, KD_REPLY_DIED, "timing the kernel");
    char want[256];
    snprintf(want, sizeof want,
             "timing the kernel: the harness was killed by signal %d (%s); its last words: CUDA error: illegal address",
             SIGSEGV, strsignal(SIGSEGV));
    assert_string_equal(text, want);
    free(text);
    free_child(&c);
}

static void an_exit_without_stderr_says_only_the_status(void **state)
{
    (void)state;
    kd_child c;
    fake_child(&c, NULL, NULL);
    c.exited = true;
    c.exit_code = 3;
    char *text = sentence(&c, KD_REPLY_DIED, NULL);
    assert_string_equal(text, "the harness exited with status 3");
    free(text);
    free_child(&c);
}

static void err_garbled_and_timeout_keep_their_words(void **state)
{
    (void)state;
    kd_child c;
    fake_child(&c, "err load cannot load the module: no kernel image", NULL);
    char *text = sentence(&c, KD_REPLY_ERR, "setting up");
    assert_string_equal(text, "setting up: cannot load the module: no kernel image");
    free(text);
    free_child(&c);

    fake_child(&c, "hello there", NULL);
    text = sentence(&c, KD_REPLY_GARBLED, NULL);
    assert_string_equal(text, "the harness broke the protocol: it answered 'hello there'");
    free(text);
    free_child(&c);

    fake_child(&c, NULL, "partial line\n");
    text = sentence(&c, KD_REPLY_TIMEOUT, NULL);
    assert_string_equal(text, "the harness did not answer in time (a hung kernel?) and was killed");
    free(text);
    free_child(&c);
}

/* A `why` chain gets report/'s words (report/diag_text.c installs them when linked, as here). */
static void a_why_chain_receives_the_same_words(void **state)
{
    (void)state;
    kd_child c;
    fake_child(&c, "err run the kernel faulted", NULL);
    kd_strbuf why = {0};
    kd_sb_puts(&why, "v1: ");
    kd_child_failure_words(&c, KD_REPLY_ERR, "profiling the kernel", &why);
    assert_string_equal(kd_sb_str(&why), "v1: profiling the kernel: the kernel faulted");
    kd_sb_free(&why);
    kd_child_failure_words(&c, KD_REPLY_ERR, NULL, &why);
    assert_string_equal(kd_sb_str(&why), "the kernel faulted");
    kd_sb_free(&why);
    free_child(&c);
}

/* A kept message owns its nested message: a copy outlives the original's values. */
static void a_nested_message_is_copied_and_freed(void **state)
{
    (void)state;
    char doing[] = "starting the harness";
    kd_diag inner = {0}, outer = {0}, copy = {0};
    kd_diag_set(&inner, KD_MSG_WIRE_CHILD_EXIT, 2, KD_I(127));
    kd_diag_set(&outer, KD_MSG_WIRE_CHILD_WHILE, 2, KD_S(doing), KD_M(&inner));
    kd_diag_free(&inner);
    kd_diag_copy(&copy, &outer);
    kd_diag_free(&outer);
    memset(doing, 'x', sizeof doing - 1);
    kd_strbuf out = {0};
    kd_diag_text(&copy, &out);
    assert_string_equal(kd_sb_str(&out), "starting the harness: the harness exited with status 127");
    kd_sb_free(&out);
    kd_diag_copy(&copy, &copy); /* onto itself: unchanged */
    kd_diag_text(&copy, &out);
    assert_string_equal(kd_sb_str(&out), "starting the harness: the harness exited with status 127");
    kd_sb_free(&out);
    kd_diag_free(&copy);
}

/* What the harness answered, worded in report/ and appended to a `why` chain as wire/client.c
 * and wire/counters.c do (no sentence is built in wire/ any more: hostile/l1_words.sh). */
static void the_harness_answers_are_worded_in_report(void **state)
{
    (void)state;
    kd_strbuf why = {0};
    kd_sb_puts(&why, "allocating buffers: out of memory");
    kd_diag d = {0};
    kd_diag_set(&d, KD_MSG_WIRE_NEEDS_MEMORY, KD_DIAG_NO_SIDE, KD_D(1.5));
    kd_diag_append_words(&d, &why);
    kd_diag_free(&d);
    assert_string_equal(kd_sb_str(&why),
                        "allocating buffers: out of memory (this launch needs 1.50 GiB of GPU memory: reduce --n or --buf)");
    kd_sb_free(&why);
    kd_diag_set(&d, KD_MSG_WIRE_PROTOCOL_VERSION, KD_DIAG_NO_SIDE, KD_S("3"), KD_U(4));
    kd_diag_append_words(&d, &why);
    kd_diag_free(&d);
    assert_string_equal(kd_sb_str(&why), "the harness speaks protocol 3, kerndiff speaks 4: reinstall kerndiff");
    kd_sb_free(&why);
    kd_diag_set(&d, KD_MSG_WIRE_COUNTERS_VALUES, KD_DIAG_NO_SIDE, KD_U(12));
    kd_diag_append_words(&d, &why);
    kd_diag_free(&d);
    assert_string_equal(kd_sb_str(&why), "the harness answered `counters` without 12 values per kernel");
    kd_sb_free(&why);
}

int main(void)
{
    kd_diag_set_words(kd_diag_text); /* as main.c does: reasons handed up as text get report/'s words */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_signal_is_data_and_worded_with_last_words),
        cmocka_unit_test(an_exit_without_stderr_says_only_the_status),
        cmocka_unit_test(err_garbled_and_timeout_keep_their_words),
        cmocka_unit_test(a_why_chain_receives_the_same_words),
        cmocka_unit_test(a_nested_message_is_copied_and_freed),
        cmocka_unit_test(the_harness_answers_are_worded_in_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
