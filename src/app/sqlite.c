#include "app/sqlite.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app_msgs.h"
#include "util/strbuf.h"

bool kd_app_is_sqlite(const char *path)
{
    /* O_NONBLOCK and fstat first: a FIFO or a device is no profile, and is never read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    char magic[16] = {0};
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    ssize_t n = regular ? read(fd, magic, sizeof magic) : 0;
    close(fd);
    return n == (ssize_t)sizeof magic && memcmp(magic, "SQLite format 3", 16) == 0;
}

bool kd_app_names_profile(const char *path)
{
    static const char *const suffixes[] = {".sqlite", ".sqlite3", ".db", ".nsys-rep", ".qdrep"};
    size_t len = strlen(path);
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t n = strlen(suffixes[i]);
        if (len > n && !strcasecmp(path + len - n, suffixes[i]))
            return true;
    }
    return false;
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

/* ---- every value read is checked first, as `compare` checks a saved run -------------------
 * A profile edited by hand or by another tool (text in an integer column, `end` before
 * `start`, INT64's extremes that overflow a sum) is refused with the table, the row and the
 * column named, never turned into ratios. One scan of each table: the first failing check of
 * the first bad row. */
#define TIME_MAX "4611686018427387904"   /* 2^62 ns: 146 years, far from INT64's overflow */
#define KERNEL_MAX_NS "3600000000000"    /* one hour: a kernel, copy or memset longer is damage */
#define CALL_MAX_NS "86400000000000"     /* one day: an API call (a synchronisation may wait long) */
#define IS_INT(c) "typeof(" c ") = 'integer'"

typedef struct check {
    const char *column; /* as SQL names it */
    const char *sql;    /* true for a good value */
    const char *want;   /* what it should be, in words */
} check;

#define TIME_CHECKS(max, words)                                                                                        \
    {"start", IS_INT("start") " AND start BETWEEN 0 AND " TIME_MAX, "a time in ns (an integer from 0)"},                \
    {"\"end\"", IS_INT("\"end\"") " AND \"end\" BETWEEN start AND " TIME_MAX " AND \"end\" - start <= " max,                \
     "a time in ns at or after start, within " words " of it"}

static const check kernel_checks[] = {
    TIME_CHECKS(KERNEL_MAX_NS, "an hour"),
    {"gridX", IS_INT("gridX") " AND gridX BETWEEN 1 AND 2147483647", "a grid size (1 to 2^31-1)"},
    {"gridY", IS_INT("gridY") " AND gridY BETWEEN 1 AND 65535", "a grid size (1 to 65535)"},
    {"gridZ", IS_INT("gridZ") " AND gridZ BETWEEN 1 AND 65535", "a grid size (1 to 65535)"},
    {"blockX", IS_INT("blockX") " AND blockX BETWEEN 1 AND 1024", "a block size (1 to 1024)"},
    {"blockY", IS_INT("blockY") " AND blockY BETWEEN 1 AND 1024", "a block size (1 to 1024)"},
    {"blockZ", IS_INT("blockZ") " AND blockZ BETWEEN 1 AND 64 AND blockX * blockY * blockZ <= 1024",
     "a block size (1 to 64, at most 1024 threads a block)"},
    {"registersPerThread", IS_INT("registersPerThread") " AND registersPerThread BETWEEN 0 AND 255",
     "a register count (0 to 255)"},
    {"staticSharedMemory", IS_INT("staticSharedMemory") " AND staticSharedMemory BETWEEN 0 AND 1073741824",
     "a size in bytes (0 to 1 GiB)"},
    {"dynamicSharedMemory", IS_INT("dynamicSharedMemory") " AND dynamicSharedMemory BETWEEN 0 AND 1073741824",
     "a size in bytes (0 to 1 GiB)"},
    {"demangledName", "demangledName IS NULL OR " IS_INT("demangledName"), "a StringIds id"},
};
static const check memcpy_checks[] = {
    TIME_CHECKS(KERNEL_MAX_NS, "an hour"),
    {"bytes", IS_INT("bytes") " AND bytes BETWEEN 0 AND 1125899906842624", "a size in bytes (0 to 1 PiB)"},
    {"copyKind", IS_INT("copyKind") " AND copyKind BETWEEN 0 AND 255", "a copy kind (an integer)"},
};
static const check memset_checks[] = {
    TIME_CHECKS(KERNEL_MAX_NS, "an hour"),
    {"bytes", IS_INT("bytes") " AND bytes BETWEEN 0 AND 1125899906842624", "a size in bytes (0 to 1 PiB)"},
};
static const check call_checks[] = {
    TIME_CHECKS(CALL_MAX_NS, "a day"),
    {"nameId", "nameId IS NULL OR " IS_INT("nameId"), "a StringIds id"},
};
/* NVTX ranges (push/pop, start/end) that --range reads: marks have no end */
static const check nvtx_checks[] = {
    {"start", "eventType NOT IN (59, 60) OR \"end\" IS NULL OR (" IS_INT("start") " AND start BETWEEN 0 AND " TIME_MAX ")",
     "a time in ns (an integer from 0)"},
    {"\"end\"", "eventType NOT IN (59, 60) OR \"end\" IS NULL OR (" IS_INT("\"end\"") " AND \"end\" BETWEEN start AND " TIME_MAX ")",
     "a time in ns at or after start"},
};

typedef struct table_checks {
    const char *table;
    const check *checks;
    size_t n;
} table_checks;

#define TABLE(t, c) {t, c, sizeof c / sizeof *c}
static const table_checks tables_checked[] = {
    TABLE("CUPTI_ACTIVITY_KIND_KERNEL", kernel_checks), TABLE("CUPTI_ACTIVITY_KIND_MEMCPY", memcpy_checks),
    TABLE("CUPTI_ACTIVITY_KIND_MEMSET", memset_checks), TABLE("CUPTI_ACTIVITY_KIND_RUNTIME", call_checks),
    TABLE("CUPTI_ACTIVITY_KIND_DRIVER", call_checks),   TABLE("NVTX_EVENTS", nvtx_checks),
};

/* The table's values: 0, or -1 with err set (the first bad value, or a column missing). */
static int check_table(sqlite3 *db, const table_checks *t, const char *path, int v, kd_diag *err)
{
    kd_strbuf sql = {0};
    kd_sb_puts(&sql, "SELECT rowid, bad FROM (SELECT rowid, CASE");
    for (size_t i = 0; i < t->n; i++)
        kd_sb_printf(&sql, " WHEN NOT COALESCE((%s), 0) THEN %zu", t->checks[i].sql, i);
    kd_sb_printf(&sql, " END AS bad FROM %s) WHERE bad IS NOT NULL LIMIT 1", t->table);
    sqlite3_stmt *st;
    int prepared = sqlite3_prepare_v2(db, kd_sb_str(&sql), -1, &st, NULL);
    kd_sb_free(&sql);
    if (prepared != SQLITE_OK) {
        kd_diag_set(err, KD_MSG_APP_SQLITE_COLUMNS, v, KD_I(v), KD_S(path), KD_S(t->table), KD_S(sqlite3_errmsg(db)));
        return -1;
    }
    int step = sqlite3_step(st), rc = 0;
    if (step == SQLITE_ROW) {
        sqlite3_int64 row = sqlite3_column_int64(st, 0);
        int which = sqlite3_column_int(st, 1);
        const check *c = &t->checks[which >= 0 && (size_t)which < t->n ? which : 0];
        /* the value as SQLite quotes it (text in quotes, a blob in hex), cut short */
        kd_strbuf q = {0};
        kd_sb_printf(&q, "SELECT substr(quote(%s), 1, 40) FROM %s WHERE rowid = ?", c->column, t->table);
        sqlite3_stmt *vs;
        char value[64] = "?";
        if (sqlite3_prepare_v2(db, kd_sb_str(&q), -1, &vs, NULL) == SQLITE_OK) {
            sqlite3_bind_int64(vs, 1, row);
            if (sqlite3_step(vs) == SQLITE_ROW && sqlite3_column_text(vs, 0))
                snprintf(value, sizeof value, "%s", (const char *)sqlite3_column_text(vs, 0));
            sqlite3_finalize(vs);
        }
        kd_sb_free(&q);
        char rowtext[32];
        snprintf(rowtext, sizeof rowtext, "%lld", (long long)row);
        kd_diag_set(err, KD_MSG_APP_SQLITE_BAD_VALUE, v, KD_I(v), KD_S(path), KD_S(t->table), KD_S(rowtext),
                    KD_S(c->column[0] == '"' ? "end" : c->column), KD_S(value), KD_S(c->want));
        rc = -1;
    } else if (step != SQLITE_DONE) {
        kd_diag_set(err, KD_MSG_APP_SQLITE_READING, v, KD_I(v), KD_S(path), KD_S(t->table), KD_S(sqlite3_errmsg(db)));
        rc = -1;
    }
    sqlite3_finalize(st);
    return rc;
}

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
    for (size_t t = 0; rc == 0 && t < sizeof tables_checked / sizeof *tables_checked; t++)
        if (has_table(db, tables_checked[t].table) && (range || strcmp(tables_checked[t].table, "NVTX_EVENTS") != 0))
            rc = check_table(db, &tables_checked[t], path, v, err);
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
