/* replay.h — a launch made from a capture (issue 30 item 2): `kerndiff --launch FILE v1 v2`
 * runs each side on the geometry, the parameter buffer and the data the user's program
 * launched its kernel with (capture/file.h, docs/CAPTURE.md), not on a launch described
 * from the kernel's signature.
 *
 * What a harness is told (docs/PROTOCOL.md "Replayed launches"): each of the kernel's P
 * parameters as the program's bytes (`arg I bytes`), each allocation the pointer words
 * reach as a buffer argument P+J seeded with its captured contents before the launch
 * (`fill`), each pointer word rebased onto that buffer (`patch`). The allocations the
 * program's kernel changed are compared: between the two sides, and each side with what
 * the program's kernel computed (the capture's contents after the launch).
 *
 *   kd_replay r;  kd_diag err = {0};
 *   if (kd_replay_open("run.kdcap", dir, &r, &err) != 0) { kd_diag_say(&err); ... }
 *   kd_replay_spec(&r, kernel, 2, &spec, &err);   // v2's layout checked, its spec made
 *   kd_replay_free(&r);
 */
#ifndef KD_LAUNCH_REPLAY_H
#define KD_LAUNCH_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/file.h"
#include "launch/spec.h"
#include "source/scan.h"
#include "util/diag.h"

/* One captured allocation, as the replay's buffer argument P+J. */
typedef struct kd_replay_buffer {
    uint64_t bytes;           /* the captured span's bytes */
    bool changed;             /* the program's kernel changed it: compared (inout), else only read (in) */
    char *name;               /* that parameter's name ("y"), else "allocation J" (owned) */
    char *before_path;        /* its contents before the launch, extracted 0600 into the private folder */
    char *after_path;         /* after the launch (the program's result); NULL when unchanged */
} kd_replay_buffer;

typedef struct kd_replay {
    kd_capture cap;           /* the capture as read (capture/file.h) */
    kd_replay_buffer *buffers;/* one per cap.allocs, in its order */
    size_t nbuffers;
    uint64_t data_bytes;      /* the captured contents (before), for the launch line */
    char *kernel_name;        /* the captured kernel as --fn would name it ("axpy", "k<float>") (owned) */
} kd_replay;

/* Opens and checks the capture at path (kd_capture_open), extracts every allocation's
 * contents before the launch and, where the program's kernel changed it, after it, into
 * dir (the run's private folder), each checked against its checksum. 0, or -1 with *err set
 * (C1's capture messages: truncated, another version, a checksum ...). */
int kd_replay_open(const char *path, const char *dir, kd_replay *r, kd_diag *err);
void kd_replay_free(kd_replay *r);

/* Side `side` (1: v1, 2: v2)'s kernel against the captured kernel's parameter layout: the
 * same number of parameters, each of the same size (a pointer 8 bytes, a scalar its type's;
 * a parameter whose type kerndiff cannot size, such as a struct, is taken as it is), and a
 * captured pointer word only in a pointer parameter or a struct. Then fills *spec: the
 * capture's geometry and one buffer argument per allocation (launch/spec.h's roles: INOUT
 * for a changed one, INPUT else; typed and named by the parameter pointing at its start).
 * 0, or -1 with *err naming the side and the parameter (launch/launch_msgs.h ids from 900). */
int kd_replay_spec(const kd_replay *r, const kd_kernel *kernel, int side, kd_launch_spec *spec, kd_diag *err);

/* What a side's result is against the program's (its contents after the launch). */
typedef struct kd_replay_match {
    bool compared;            /* false: nothing to compare (no buffer changed) */
    bool same;                /* every compared buffer bit-identical to the program's result */
    size_t buffer;            /* the first that differs */
    unsigned long long element; /* its first differing element */
    double got, want;         /* that element as the side's and the program's value (the first lane) */
} kd_replay_match;

/* Compares outputs (the changed buffers' bytes, in order, as a harness's `check` writes one
 * run of them) with the program's result, element by element in the types of spec (the
 * side's kd_replay_spec). 0, or -1 when outputs is shorter than the changed buffers or an
 * after file cannot be read (*err set). */
int kd_replay_match_outputs(const kd_replay *r, const kd_launch_spec *spec, const unsigned char *outputs, size_t len,
                            kd_replay_match *m, kd_diag *err);

/* The parameter bytes of parameter i (the program's, pointer words unpatched) and their
 * size; the harness's `arg I bytes HEX`. */
const unsigned char *kd_replay_param(const kd_replay *r, size_t i, size_t *bytes);

#endif
