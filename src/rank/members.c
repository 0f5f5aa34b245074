/* The candidate set of a rank, by content (rank/rank.h kd_rank_member). */
#include "rank/rank.h"

#include <stdlib.h>

#include "util/fs.h"
#include "util/hash.h"

int kd_rank_file_sha256(const char *path, char hex[65])
{
    hex[0] = '\0';
    size_t len = 0;
    char *text = kd_read_file(path, &len); /* a FIFO is refused without a read */
    if (!text)
        return -1;
    kd_hash h;
    kd_hash_init(&h);
    kd_hash_field(&h, text, len);
    kd_hash_hex(&h, hex);
    free(text);
    return 0;
}
