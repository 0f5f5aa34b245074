/* opts_rank.h — what kerndiff rank's option group (cli/opts_rank.c) holds that the rank
 * options' struct (cli/options.h kd_rank_cli_options) has no field for yet. */
#ifndef KD_CLI_OPTS_RANK_H
#define KD_CLI_OPTS_RANK_H

#include "util/strlist.h"

/* --jobs N: builds at once ahead of the gate (0: the host's cores). */
unsigned kd_opts_rank_jobs(void);
/* --refs REV,...: revisions of the baseline's file, each a candidate "REV:BASE" (the strings
 * are optarg's, borrowed). */
const kd_strlist *kd_opts_rank_refs(void);

#endif
