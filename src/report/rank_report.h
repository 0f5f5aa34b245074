/* rank_report.h — the report of `kerndiff rank` (rank/rank.h's kd_rank_result): the terminal
 * table (report/rank_text.c), JSON (report/rank_json.c), Markdown and HTML
 * (report/rank_markdown.c). formats.c's rows call them for a rank subject. */
#ifndef KD_REPORT_RANK_REPORT_H
#define KD_REPORT_RANK_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "rank/rank.h"
#include "rank/run.h"

void kd_rank_render_terminal(FILE *out, const kd_rank_result *r, bool color);
/* The JSON document (one record per candidate); NULL only when out of memory. */
json_t *kd_rank_json(const kd_rank_result *r);
int kd_rank_render_json(FILE *out, const kd_rank_result *r);
void kd_rank_render_markdown(FILE *out, const kd_rank_result *r);
void kd_rank_render_html(FILE *out, const kd_rank_result *r);

/* What failed in the rank itself (rank/run.h), said on stderr. */
void kd_rank_say_error(const kd_rank_error *e);
/* A heat's file could not be written (--shard I/N --json FILE). */
void kd_rank_say_heat_not_written(const char *path, int err);
/* The usage line of kerndiff rank. */
void kd_rank_say_usage(const char *why);

/* Shared by the renderers: "1.254x", "[1.241, 1.268]", "32", "-". */
void kd_rank_format_speedup(const kd_speedup *s, char *buf, size_t n);
void kd_rank_format_interval(const kd_speedup *s, char *buf, size_t n);
void kd_rank_format_static(const kd_rank_static *s, char regs[16], char spills[24], char occ[16]);
/* "c3.cu vs c7.cu: no significant difference" */
void kd_rank_format_pair(const kd_rank_result *r, const kd_rank_pair *p, char *buf, size_t n);
/* The header line: what was ranked, the correction named. */
void kd_rank_format_header(const kd_rank_result *r, char *buf, size_t n);

#endif
