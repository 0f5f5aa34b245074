/* cleanup.h — work that must happen however kerndiff ends: at exit, and on SIGINT,
 * SIGTERM and SIGHUP (then the signal is re-raised so the exit status tells of it).
 * Actions run once, most recent first. */
#ifndef KD_UTIL_CLEANUP_H
#define KD_UTIL_CLEANUP_H

/* Registers `action`; returns 0, -1 when the table (16 entries) is full. */
int kd_on_exit(void (*action)(void));

#endif
