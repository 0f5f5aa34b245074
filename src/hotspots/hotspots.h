/* hotspots.h — where inside a kernel the time went, and where it moved between two versions
 * (issue 31 item 2). A side's profile is built from three texts: the harness's PC-sampling
 * record (docs/HOTSPOTS.md: per sampled PC, warp samples by stall reason), the disassembly
 * of its cubin with line info (`nvdisasm --print-line-info`: PC offset -> file:line and the
 * instruction) and its source. Samples are summed per source line and per instruction; two
 * profiles are matched by source line (the same text, found by a line diff of the two
 * sources, so moved lines still match), changed lines by their instruction family, and the
 * rows are ordered by how much their share of the samples changed. Plain data only: the
 * sentences are report/hotspots_*.c's. */
#ifndef KD_HOTSPOTS_HOTSPOTS_H
#define KD_HOTSPOTS_HOTSPOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Why a text could not be read: the code and the 1-based line of the text. */
typedef enum kd_hs_error_code {
    KD_HS_OK = 0,
    KD_HS_ERR_HEADER,   /* the record's first line is not "kerndiff-hotspots 1" */
    KD_HS_ERR_LINE,     /* a line that is none of the record's kinds, or a malformed one */
    KD_HS_ERR_REASON,   /* a pc line names a stall-reason index no reason line declared */
    KD_HS_ERR_EMPTY,    /* no pc line: nothing was sampled */
} kd_hs_error_code;

typedef struct kd_hs_error {
    kd_hs_error_code code;
    size_t line;
} kd_hs_error;

/* One sampled instruction. */
typedef struct kd_hs_insn {
    char *function;
    uint64_t offset;     /* bytes from the function's start, as CUPTI and nvdisasm count */
    char *text;          /* the SASS instruction, NULL when the disassembly lacks it */
    char *family;        /* its opcode without modifiers or predicate ("LDG"), NULL when unknown */
    char *file;          /* the source file of its line info, NULL when none */
    unsigned line;       /* 0 when unknown */
    uint64_t samples;
    uint64_t *by_reason; /* [profile.reason_count] */
    uint64_t executed;   /* warp-level executions (the record's exec line; 0 without one) */
} kd_hs_insn;

/* One source line's samples (the sum of its instructions'). */
typedef struct kd_hs_line {
    const char *file;    /* NULL: instructions without line info */
    unsigned line;
    const char *text;    /* the source line, NULL when the source is not known */
    uint64_t samples;
    uint64_t *by_reason;
    uint64_t executed;   /* the sum of its instructions' executions */
    const char *family;  /* the family with most samples on this line */
    size_t *insn;        /* indices into profile.insns, by offset */
    size_t insn_count;
} kd_hs_line;

typedef struct kd_hs_profile {
    char *kernel;
    unsigned period;          /* log2 of the sampling period in cycles, as recorded */
    uint64_t total, dropped;  /* CUPTI's totals for the launch */
    uint64_t sampled;         /* the sum over pc lines */
    bool has_executed;        /* the record has exec lines (SASS metrics: instructions executed) */
    uint64_t executed;        /* their sum: warp-level instructions the launch executed */
    char **reasons;           /* stall-reason names as CUPTI gives them, by record index */
    size_t reason_count;
    kd_hs_insn *insns;
    size_t insn_count;
    kd_hs_line *lines;        /* by file then line; built by kd_hs_profile_finish */
    size_t line_count;
    char *main_file;          /* the file most samples come from (its basename matches the source) */
    char **src;               /* the source's lines (1-based line n is src[n-1]), NULL without source */
    size_t src_count;
    char *src_text;           /* owns src's strings */
} kd_hs_profile;

/* Reads a record (docs/HOTSPOTS.md). 0, or -1 with err set (p is then empty but freeable). */
int kd_hs_record_parse(const char *text, kd_hs_profile *p, kd_hs_error *err);
/* Gives each sampled instruction its SASS text, family and source line from an
 * `nvdisasm --print-line-info` listing. Returns how many sampled PCs it found there. */
size_t kd_hs_attach_sass(kd_hs_profile *p, const char *listing);
/* Builds the per-line table; source (may be NULL) gives the lines' text. */
void kd_hs_profile_finish(kd_hs_profile *p, const char *source);
void kd_hs_profile_free(kd_hs_profile *p);

/* The short name of a stall reason: CUPTI's "smsp__pcsamp_warps_issue_stalled_long_scoreboard"
 * -> "long_scoreboard" (a pointer into name). */
const char *kd_hs_reason_short(const char *name);

typedef enum kd_hs_match {
    KD_HS_SAME_LINE,   /* the same text on both sides (line numbers may differ: moved) */
    KD_HS_CHANGED,     /* the text changed: paired inside the same changed block of the source diff */
    KD_HS_FAMILY,      /* paired by the instruction family that dominates both lines */
    KD_HS_ONLY_V1,
    KD_HS_ONLY_V2,
} kd_hs_match;

/* Instructions of a row paired by family and order (the k-th LDG with the k-th LDG). */
typedef struct kd_hs_insn_pair {
    const kd_hs_insn *side[2]; /* NULL when the other side has no such instruction sampled */
} kd_hs_insn_pair;

typedef struct kd_hs_row {
    kd_hs_match how;
    const kd_hs_line *side[2];  /* NULL: the line is not sampled on that side */
    unsigned line[2];           /* the line numbers (0 when the side has no counterpart) */
    const char *text[2];        /* each side's source text, NULL when unknown */
    double share[2];            /* samples / that side's sampled total, 0..1 */
    double delta;               /* share[1] - share[0] */
    const char *dominant[2];    /* short stall-reason name, NULL when the line has no samples */
    long long executed[2];      /* warp-level instructions the line executed; -1: that side not counted */
    kd_hs_insn_pair *insns;
    size_t insn_count;
} kd_hs_row;

typedef struct kd_hs_diff {
    const kd_hs_profile *side[2];
    kd_hs_row *rows;  /* by |delta|, largest first */
    size_t row_count;
} kd_hs_diff;

/* Matches two profiles (both finished). The diff points into them: free it first. */
void kd_hs_diff_build(const kd_hs_profile *v1, const kd_hs_profile *v2, kd_hs_diff *d);
void kd_hs_diff_free(kd_hs_diff *d);

#endif
