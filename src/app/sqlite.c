#include "app/sqlite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "app/app_msgs.h"
#include "util/strbuf.h"

bool kd_app_is_sqlite(const char *path)
{
    char magic[16] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(magic, 1, sizeof magic, f);
    fclose(f);
    return n == sizeof magic && memcmp(magic, "SQLite format 3", 16) == 0;
}

static bool has_table(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1, &st, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    bool found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

static uint64_t u64(sqlite3_stmt *st, int col)
{
    sqlite3_int64 v = sqlite3_column_int64(st, col);
    return v > 0 ? (uint64_t)v : 0;
}

typedef void (*row_fn)(sqlite3_stmt *st, kd_app_activity *a);

static void kernel_row(sqlite3_stmt *st, kd_app_activity *a)
{
    kd_app_config cfg;
    for (int i = 0; i < 3; i++) {
        cfg.grid[i] = sqlite3_column_int(st, 1 + i);
        cfg.block[i] = sqlite3_column_int(st, 4 + i);
    }
    cfg.registers = (unsigned)sqlite3_column_int(st, 7);
    cfg.static_smem = sqlite3_column_int(st, 8);
    cfg.dynamic_smem = sqlite3_column_int(st, 9);
    const char *name = (const char *)sqlite3_column_text(st, 0);
    kd_app_kernel_launches launches = {.count = u64(st, 10), .total_ns = u64(st, 11), .min_ns = u64(st, 12), .max_ns = u64(st, 13)};
    kd_app_add_kernel(a, name ? name : "(unnamed)", &cfg, &launches);
}

static void copy_row(sqlite3_stmt *st, kd_app_activity *a)
{
    int kind = sqlite3_column_int(st, 0);
    kd_app_totals *t = &a->copies[kind >= 0 && kind < KD_COPY_KINDS ? kind : 0];
    t->count += u64(st, 1), t->bytes += u64(st, 2), t->ns += u64(st, 3);
}

static void memset_row(sqlite3_stmt *st, kd_app_activity *a)
{
    a->memsets.count += u64(st, 0), a->memsets.bytes += u64(st, 1), a->memsets.ns += u64(st, 2);
}

static void runtime_row(sqlite3_stmt *st, kd_app_activity *a)
{
    const char *name = (const char *)sqlite3_column_text(st, 0);
    kd_app_add_api(a, name ? name : "(unnamed)", false, u64(st, 1), u64(st, 2));
}

static void driver_row(sqlite3_stmt *st, kd_app_activity *a)
{
    const char *name = (const char *)sqlite3_column_text(st, 0);
    kd_app_add_api(a, name ? name : "(unnamed)", true, u64(st, 1), u64(st, 2));
}

/* Each query's parts, so that --range can add its condition on the record's start. */
static const struct query {
    const char *table, *columns, *alias, *join, *group;
    row_fn row;
} queries[] = {
    {"CUPTI_ACTIVITY_KIND_KERNEL",
     "s.value, k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ, k.registersPerThread, "
     "k.staticSharedMemory, k.dynamicSharedMemory, COUNT(*), SUM(k.\"end\" - k.start), MIN(k.\"end\" - k.start), "
     "MAX(k.\"end\" - k.start)",
     "k", "LEFT JOIN StringIds s ON s.id = k.demangledName", "GROUP BY k.demangledName, 2, 3, 4, 5, 6, 7, 8, 9, 10",
     kernel_row},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", "k.copyKind, COUNT(*), SUM(k.bytes), SUM(k.\"end\" - k.start)", "k", "",
     "GROUP BY k.copyKind", copy_row},
    {"CUPTI_ACTIVITY_KIND_MEMSET", "COUNT(*), SUM(k.bytes), SUM(k.\"end\" - k.start)", "k", "", "HAVING COUNT(*) > 0",
     memset_row},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", "s.value, COUNT(*), SUM(k.\"end\" - k.start)", "k",
     "LEFT JOIN StringIds s ON s.id = k.nameId", "GROUP BY k.nameId", runtime_row},
    {"CUPTI_ACTIVITY_KIND_DRIVER", "s.value, COUNT(*), SUM(k.\"end\" - k.start)", "k",
     "LEFT JOIN StringIds s ON s.id = k.nameId", "GROUP BY k.nameId", driver_row},
};

/* NVTX_EVENTS' eventType for push/pop and start/end ranges (nsys's ENUM_NSYS_EVENT_TYPE).
 * A range's name is in `text`, or in StringIds through `textId` for registered strings. */
#define RANGES_OF_NAME                                                                             \
    "SELECT e.start AS start, e.\"end\" AS \"end\" FROM NVTX_EVENTS e LEFT JOIN StringIds n ON n.id = e.textId " \
    "WHERE e.eventType IN (59, 60) AND e.\"end\" IS NOT NULL AND COALESCE(e.text, n.value) = ?1"

/* The profile being read: its database and path, the side its messages name (1 or 2). */
typedef struct profile {
    sqlite3 *db;
    const char *path;
    int side;
} profile;

/* --range NAME: how many ranges of that name the profile holds. 0, or -1 with err set. */
static int count_ranges(const profile *p, const char *range, kd_app_activity *a, kd_diag *err)
{
    sqlite3 *db = p->db;
    if (!has_table(db, "NVTX_EVENTS")) {
        kd_diag_set(err, KD_MSG_APP_SQLITE_NO_NVTX, p->side, KD_I(p->side), KD_S(p->path), KD_S(range));
        return -1;
    }
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM (" RANGES_OF_NAME ")", -1, &st, NULL) != SQLITE_OK) {
        kd_diag_set(err, KD_MSG_APP_SQLITE_COLUMNS, p->side, KD_I(p->side), KD_S(p->path), KD_S("NVTX_EVENTS"),
                    KD_S(sqlite3_errmsg(db)));
        return -1;
    }
    sqlite3_bind_text(st, 1, range, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        a->ranges = u64(st, 0);
    sqlite3_finalize(st);
    a->has_ranges = true;
    return 0;
}

int kd_app_sqlite_read(const char *path, const char *range, int side, kd_app_activity *a, kd_diag *err)
{
    sqlite3 *db = NULL;
    int v = side + 1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        if (db)
            kd_diag_set(err, KD_MSG_APP_SQLITE_CANNOT_OPEN, v, KD_I(v), KD_S(path), KD_S(sqlite3_errmsg(db)));
        else
            kd_diag_set(err, KD_MSG_APP_SQLITE_NO_MEMORY, v, KD_I(v), KD_S(path));
        sqlite3_close(db);
        return -1;
    }
    int rc = 0;
    if (!has_table(db, "StringIds")) {
        kd_diag_set(err, KD_MSG_APP_SQLITE_NOT_NSYS, v, KD_I(v), KD_S(path));
        rc = -1;
    }
    if (rc == 0 && range)
        rc = count_ranges(&(profile){.db = db, .path = path, .side = v}, range, a, err);
    for (size_t q = 0; rc == 0 && q < sizeof queries / sizeof *queries; q++) {
        if (!has_table(db, queries[q].table))
            continue;
        const struct query *qu = &queries[q];
        kd_strbuf sql = {0};
        kd_sb_printf(&sql, "SELECT %s FROM %s %s %s", qu->columns, qu->table, qu->alias, qu->join);
        if (range)
            kd_sb_printf(&sql, " WHERE EXISTS (SELECT 1 FROM (" RANGES_OF_NAME ") r WHERE %s.start BETWEEN r.start AND r.\"end\")",
                         qu->alias);
        kd_sb_printf(&sql, " %s", qu->group);
        sqlite3_stmt *st;
        int prepared = sqlite3_prepare_v2(db, kd_sb_str(&sql), -1, &st, NULL);
        kd_sb_free(&sql);
        if (prepared == SQLITE_OK && range)
            sqlite3_bind_text(st, 1, range, -1, SQLITE_STATIC);
        if (prepared != SQLITE_OK) {
            kd_diag_set(err, KD_MSG_APP_SQLITE_COLUMNS, v, KD_I(v), KD_S(path), KD_S(queries[q].table),
                        KD_S(sqlite3_errmsg(db)));
            rc = -1;
            break;
        }
        int step = SQLITE_DONE;
        while ((step = sqlite3_step(st)) == SQLITE_ROW)
            queries[q].row(st, a);
        if (step != SQLITE_DONE) {
            kd_diag_set(err, KD_MSG_APP_SQLITE_READING, v, KD_I(v), KD_S(path), KD_S(queries[q].table),
                        KD_S(sqlite3_errmsg(db)));
            rc = -1;
        }
        sqlite3_finalize(st);
    }
    if (rc == 0)
        a->processes = 1;
    sqlite3_close(db);
    return rc;
}
