/* The ids of app/'s messages (util/diag.h); their words are in report/words_app.c. */
#ifndef KD_APP_MSGS_H
#define KD_APP_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_APP_FIRST = KD_DIAG_ID(KD_AREA_APP, 0),
    KD_MSG_APP_SIDE_ERROR,         /* side number, why (another module's sentence) */
    KD_MSG_APP_NO_TMPDIR,          /* side number, strerror */
    KD_MSG_APP_NO_RUN_DIR,         /* side number, the folder, strerror */
    KD_MSG_APP_CANNOT_RUN,         /* side number, the program, strerror */
    KD_MSG_APP_CANNOT_RUN_IN,      /* side number, the program, the folder, strerror */
    KD_MSG_APP_RUN_EXITED,         /* side number, exit status, run, runs */
    KD_MSG_APP_RUN_KILLED,         /* side number, signal, run, runs */
    KD_MSG_APP_TAIL_STDERR,        /* a command's last lines (escaped) */
    KD_MSG_APP_TAIL_STDOUT,        /* a command's last lines (escaped) */
    KD_MSG_APP_AT_NO_TMPDIR,       /* side number, the revision, strerror */
    KD_MSG_APP_PREPARE_BAD,        /* why the --prepare command cannot be made */
    KD_MSG_APP_PREPARE_CANNOT_RUN_AT,   /* side number, the program, the revision, strerror */
    KD_MSG_APP_PREPARE_CANNOT_RUN_HERE, /* side number, the program, strerror */
    KD_MSG_APP_PREPARE_EXITED_AT,       /* side number, --prepare, exit status, the revision */
    KD_MSG_APP_PREPARE_KILLED_AT,       /* side number, --prepare, signal, the revision */
    KD_MSG_APP_PREPARE_EXITED_HERE,     /* side number, --prepare, exit status */
    KD_MSG_APP_PREPARE_KILLED_HERE,     /* side number, --prepare, signal */
    KD_MSG_APP_NO_INJECT_LIBRARY,
    /* A side's collected records (app/app_records.c): side number, run, then: */
    KD_MSG_APP_RECORDS_NO_FOLDER,   /* the folder */
    KD_MSG_APP_RECORDS_CANNOT_READ, /* the file's name */
    KD_MSG_APP_RECORDS_NOT_RECORDS, /* the file's name */
    KD_MSG_APP_RECORDS_BAD_LINE,    /* the file's name, line number, the line (its first 60 bytes) */
    KD_MSG_APP_RECORDS_NO_END,      /* the file's name */
    /* A side's nsys export (app/sqlite.c): side number, path, then: */
    KD_MSG_APP_SQLITE_NO_NVTX,      /* --range */
    KD_MSG_APP_SQLITE_CANNOT_OPEN,  /* SQLite's message */
    KD_MSG_APP_SQLITE_NO_MEMORY,
    KD_MSG_APP_SQLITE_NOT_NSYS,
    KD_MSG_APP_SQLITE_COLUMNS,      /* the table, SQLite's message */
    KD_MSG_APP_SQLITE_READING,      /* the table, SQLite's message */
    KD_MSG_APP_SQLITE_BAD_VALUE,    /* the table, the row, the column, the value (quoted), what it should be */
    KD_MSG_APP_NOT_A_PROFILE,       /* side number, path, why (not SQLite, or kd_read_error's words) */
    KD_MSG_APP_PROFILE_UNREADABLE,  /* side number, path, strerror (missing, no permission) */
};

#endif
