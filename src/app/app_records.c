#include "app/app_records.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app_msgs.h"
#include "static/symbols.h"
#include "util/fs.h"
#include "util/xalloc.h"

/* One line of a records file. A name is the rest of its line (after %n), so it may hold
 * blanks ("void k<int>(float*, int)"). */
static int parse_line(const char *line, kd_app_activity *a, bool *ended)
{
    unsigned long long n[8];
    int used = 0;
    char word[16];
    kd_app_config cfg;
    if (sscanf(line, "kernel %llu %llu %llu %llu %d %d %d %d %d %d %u %d %d %n", &n[0], &n[1], &n[2], &n[3],
               &cfg.grid[0], &cfg.grid[1], &cfg.grid[2], &cfg.block[0], &cfg.block[1], &cfg.block[2],
               &cfg.registers, &cfg.static_smem, &cfg.dynamic_smem, &used) == 13 && used > 0) {
        if (!line[used] || n[2] > n[3] || n[1] < n[2])
            return -1;
        char *name = kd_demangle(line + used);
        if (!name)
            return -1;
        kd_app_add_kernel(a, name, &cfg, &(kd_app_kernel_launches){.count = n[0], .total_ns = n[1], .min_ns = n[2], .max_ns = n[3]});
        free(name);
        return 0;
    }
    if (sscanf(line, "copy %llu %llu %llu %llu%n", &n[0], &n[1], &n[2], &n[3], &used) == 4 && !line[used]) {
        kd_app_totals *t = &a->copies[n[0] < KD_COPY_KINDS ? n[0] : 0];
        t->count += n[1], t->bytes += n[2], t->ns += n[3];
        return 0;
    }
    if (sscanf(line, "memset %llu %llu %llu%n", &n[0], &n[1], &n[2], &used) == 3 && !line[used]) {
        a->memsets.count += n[0], a->memsets.bytes += n[1], a->memsets.ns += n[2];
        return 0;
    }
    if (sscanf(line, "api %15s %llu %llu %n", word, &n[0], &n[1], &used) == 3 && used > 0 && line[used] &&
        (!strcmp(word, "runtime") || !strcmp(word, "driver"))) {
        kd_app_add_api(a, line + used, !strcmp(word, "driver"), n[0], n[1]);
        return 0;
    }
    if (sscanf(line, "ranges %llu%n", &n[0], &used) == 1 && !line[used]) {
        a->has_ranges = true;
        a->ranges += n[0];
        return 0;
    }
    if (sscanf(line, "lost %llu%n", &n[0], &used) == 1 && !line[used]) {
        a->lost += n[0];
        return 0;
    }
    if (!strncmp(line, "unavailable ", 12)) {
        a->unavailable++;
        return 0;
    }
    if (sscanf(line, "pid %llu%n", &n[0], &used) == 1 && !line[used])
        return 0;
    if (!strcmp(line, "end")) {
        *ended = true;
        return 0;
    }
    return -1;
}

int kd_app_records_parse(const char *text, kd_app_activity *a, kd_app_records_error *err)
{
    if (strncmp(text, "kerndiff-records 1\n", 19) != 0) {
        *err = (kd_app_records_error){.id = KD_MSG_APP_RECORDS_NOT_RECORDS, .line = 1};
        return -1;
    }
    bool ended = false;
    int lineno = 1;
    size_t unavailable_before = a->unavailable;
    for (const char *p = text + 19; *p && !ended; lineno++) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char *line = kd_xstrndup(p, len);
        int rc = parse_line(line, a, &ended);
        if (rc != 0) {
            *err = (kd_app_records_error){.id = KD_MSG_APP_RECORDS_BAD_LINE, .line = lineno + 1};
            snprintf(err->text, sizeof err->text, "%.60s", line);
        }
        free(line);
        if (rc != 0)
            return -1;
        p += len + (eol != NULL);
    }
    if (!ended) {
        *err = (kd_app_records_error){.id = KD_MSG_APP_RECORDS_NO_END};
        return -1;
    }
    a->processes += a->unavailable == unavailable_before; /* one that collected nothing did no known GPU work */
    return 0;
}

static int by_name(const struct dirent **x, const struct dirent **y)
{
    return strcmp((*x)->d_name, (*y)->d_name);
}

static int is_records(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 4 && !strcmp(e->d_name + n - 4, ".rec");
}

int kd_app_records_read_dir(const char *dir, kd_app_records_run which, kd_app_activity *a, kd_diag *err)
{
    int side = which.side + 1;
    struct dirent **names;
    int n = scandir(dir, &names, is_records, by_name);
    if (n < 0) {
        kd_diag_set(err, KD_MSG_APP_RECORDS_NO_FOLDER, side, KD_I(side), KD_U(which.run + 1), KD_S(dir));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char *path = kd_path_join(dir, names[i]->d_name);
        char *text = kd_read_file(path, NULL);
        kd_app_records_error why = {0};
        const char *name = names[i]->d_name;
        if (rc == 0 && !text) {
            kd_diag_set(err, KD_MSG_APP_RECORDS_CANNOT_READ, side, KD_I(side), KD_U(which.run + 1), KD_S(name));
            rc = -1;
        } else if (rc == 0 && kd_app_records_parse(text, a, &why) != 0) {
            if (why.id == KD_MSG_APP_RECORDS_BAD_LINE)
                kd_diag_set(err, why.id, side, KD_I(side), KD_U(which.run + 1), KD_S(name), KD_I(why.line),
                            KD_S(why.text));
            else
                kd_diag_set(err, why.id, side, KD_I(side), KD_U(which.run + 1), KD_S(name));
            rc = -1;
        }
        free(text);
        free(path);
        free(names[i]);
    }
    free(names);
    return rc;
}
