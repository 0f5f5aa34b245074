#include "app/sqlite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

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

typedef int (*row_fn)(sqlite3_stmt *st, kd_app_activity *a);

static int kernel_row(sqlite3_stmt *st, kd_app_activity *a)
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
    return kd_app_add_kernel(a, name ? name : "(unnamed)", &cfg, u64(st, 10), u64(st, 11), u64(st, 12), u64(st, 13));
}

static int copy_row(sqlite3_stmt *st, kd_app_activity *a)
{
    int kind = sqlite3_column_int(st, 0);
    kd_app_totals *t = &a->copies[kind >= 0 && kind < KD_COPY_KINDS ? kind : 0];
    t->count += u64(st, 1), t->bytes += u64(st, 2), t->ns += u64(st, 3);
    return 0;
}

static int memset_row(sqlite3_stmt *st, kd_app_activity *a)
{
    a->memsets.count += u64(st, 0), a->memsets.bytes += u64(st, 1), a->memsets.ns += u64(st, 2);
    return 0;
}

static int runtime_row(sqlite3_stmt *st, kd_app_activity *a)
{
    const char *name = (const char *)sqlite3_column_text(st, 0);
    return kd_app_add_api(a, name ? name : "(unnamed)", false, u64(st, 1), u64(st, 2));
}

static int driver_row(sqlite3_stmt *st, kd_app_activity *a)
{
    const char *name = (const char *)sqlite3_column_text(st, 0);
    return kd_app_add_api(a, name ? name : "(unnamed)", true, u64(st, 1), u64(st, 2));
}

static const struct query {
    const char *table, *sql;
    row_fn row;
} queries[] = {
    {"CUPTI_ACTIVITY_KIND_KERNEL",
     "SELECT s.value, k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ, k.registersPerThread, "
     "k.staticSharedMemory, k.dynamicSharedMemory, COUNT(*), SUM(k.\"end\" - k.start), MIN(k.\"end\" - k.start), "
     "MAX(k.\"end\" - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds s ON s.id = k.demangledName "
     "GROUP BY k.demangledName, 2, 3, 4, 5, 6, 7, 8, 9, 10",
     kernel_row},
    {"CUPTI_ACTIVITY_KIND_MEMCPY",
     "SELECT copyKind, COUNT(*), SUM(bytes), SUM(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY copyKind",
     copy_row},
    {"CUPTI_ACTIVITY_KIND_MEMSET",
     "SELECT COUNT(*), SUM(bytes), SUM(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_MEMSET HAVING COUNT(*) > 0",
     memset_row},
    {"CUPTI_ACTIVITY_KIND_RUNTIME",
     "SELECT s.value, COUNT(*), SUM(r.\"end\" - r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
     "LEFT JOIN StringIds s ON s.id = r.nameId GROUP BY r.nameId",
     runtime_row},
    {"CUPTI_ACTIVITY_KIND_DRIVER",
     "SELECT s.value, COUNT(*), SUM(r.\"end\" - r.start) FROM CUPTI_ACTIVITY_KIND_DRIVER r "
     "LEFT JOIN StringIds s ON s.id = r.nameId GROUP BY r.nameId",
     driver_row},
};

int kd_app_sqlite_read(const char *path, kd_app_activity *a, kd_strbuf *err)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        kd_sb_printf(err, "%s: cannot open it as SQLite: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return -1;
    }
    int rc = 0;
    if (!has_table(db, "StringIds")) {
        kd_sb_printf(err, "%s: not an nsys export (no StringIds table); make one with "
                          "`nsys export --type sqlite REPORT.nsys-rep`", path);
        rc = -1;
    }
    for (size_t q = 0; rc == 0 && q < sizeof queries / sizeof *queries; q++) {
        if (!has_table(db, queries[q].table))
            continue;
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, queries[q].sql, -1, &st, NULL) != SQLITE_OK) {
            kd_sb_printf(err, "%s: table %s lacks a column kerndiff reads: %s", path, queries[q].table, sqlite3_errmsg(db));
            rc = -1;
            break;
        }
        int step = SQLITE_DONE;
        while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
            if (queries[q].row(st, a) != 0) {
                kd_sb_printf(err, "%s: out of memory", path);
                rc = -1;
            }
        if (rc == 0 && step != SQLITE_DONE) {
            kd_sb_printf(err, "%s: reading %s: %s", path, queries[q].table, sqlite3_errmsg(db));
            rc = -1;
        }
        sqlite3_finalize(st);
    }
    if (rc == 0)
        a->processes = 1;
    sqlite3_close(db);
    return rc;
}
