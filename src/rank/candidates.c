/* Candidates that are symbolic links (rank/run.h's kd_rank_refuse_links). */
#include "rank/run.h"

#include <sys/stat.h>

#include "util/xalloc.h"

kd_outcome kd_rank_refuse_links(const kd_strlist *candidates, kd_rank_error *e)
{
    for (size_t i = 0; i < candidates->count; i++) {
        struct stat st;
        if (lstat(candidates->items[i], &st) == 0 && S_ISLNK(st.st_mode)) {
            e->kind = KD_RANK_ERR_SYMLINK;
            e->detail = kd_xstrdup(candidates->items[i]);
            return KD_FAIL_INPUT;
        }
    }
    return KD_OK;
}
