/* sqlite.h — reading a profile made by `nsys export --type sqlite` into the activity model,
 * so that `kerndiff app a.sqlite b.sqlite` gives the same report as a collected run.
 * Tables used (nsys's documented schema): CUPTI_ACTIVITY_KIND_KERNEL (start, end,
 * demangledName -> StringIds, gridX..Z, blockX..Z, registersPerThread, staticSharedMemory,
 * dynamicSharedMemory), CUPTI_ACTIVITY_KIND_MEMCPY (copyKind, bytes, start, end),
 * CUPTI_ACTIVITY_KIND_MEMSET (bytes, start, end), CUPTI_ACTIVITY_KIND_RUNTIME and, when
 * present, CUPTI_ACTIVITY_KIND_DRIVER (nameId -> StringIds, start, end). nsys leaves a
 * table out when it has no rows: a missing activity table is no activity. Aggregation is
 * done by SQLite, so a profile of millions of launches is never held in memory. */
#ifndef KD_APP_SQLITE_H
#define KD_APP_SQLITE_H

#include <stdbool.h>

#include "app/activity.h"
#include "util/diag.h"

/* True when `path` is a readable regular file starting with SQLite's magic header (a FIFO or
 * a device is opened without blocking and never read). */
bool kd_app_is_sqlite(const char *path);
/* Whether a side's argument is named as a profile (.sqlite, .sqlite3, .db, .nsys-rep, .qdrep):
 * such a file is read as one or refused, never run as a command. */
bool kd_app_names_profile(const char *path);

/* Adds the profile's activity to `a`. With `range` (--range NAME), only records whose
 * start lies inside an NVTX range of that name (push/pop or start/end, NVTX_EVENTS, ends
 * included) are kept, and a->ranges counts those ranges: a kernel, copy or memset by its
 * start on the GPU, an API call by its start on the CPU (nsys puts both on one clock).
 * Every value read is checked first (types, end >= start, times and sizes within bounds):
 * a bad one is refused with its table, row and column.
 * Returns 0, or -1 with the reason in *err (also when there is no NVTX_EVENTS table), a
 * message naming side `side` (0 or 1) for the caller to say (kd_diag_free it). */
int kd_app_sqlite_read(const char *path, const char *range, int side, kd_app_activity *a, kd_diag *err);

#endif
