/* The ids of capture/'s messages (util/diag.h), in app's area from 700 on (the capture is
 * of a program, like `kerndiff app`); their words are in report/words_app.c's block
 * "capture file (C1)". {0} is always the file (or the raw folder's manifest) concerned. */
#ifndef KD_CAPTURE_MSGS_H
#define KD_CAPTURE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_CAPTURE_FIRST = KD_DIAG_ID(KD_AREA_APP, 700),
    /* Reading a capture file (path first): */
    KD_MSG_CAPTURE_CANNOT_OPEN,      /* strerror */
    KD_MSG_CAPTURE_NOT_REGULAR,
    KD_MSG_CAPTURE_CANNOT_READ,      /* strerror */
    KD_MSG_CAPTURE_NOT_CAPTURE,
    KD_MSG_CAPTURE_VERSION,          /* the file's format version, the version this kerndiff reads */
    KD_MSG_CAPTURE_TRUNCATED,        /* its size, the size it needs */
    KD_MSG_CAPTURE_TRAILING,         /* its size, the size its header gives */
    KD_MSG_CAPTURE_HEADER_CHECKSUM,
    KD_MSG_CAPTURE_MANIFEST_PLACE,   /* the manifest's offset, its size */
    KD_MSG_CAPTURE_MANIFEST_CHECKSUM,
    KD_MSG_CAPTURE_BAD_LINE,         /* line number, the line (its first 60 bytes) */
    KD_MSG_CAPTURE_EXPECTED,         /* line number, the key expected there */
    KD_MSG_CAPTURE_OVER_CAP,         /* what ("argc", "params", ...), the count, the cap */
    KD_MSG_CAPTURE_PARAM_OUTSIDE,    /* parameter index, its offset, its size, the buffer's size */
    KD_MSG_CAPTURE_SPAN_BAD,         /* allocation index, span start, span end, its size */
    KD_MSG_CAPTURE_POINTER_BAD_WORD, /* the word's byte offset, the buffer's size */
    KD_MSG_CAPTURE_POINTER_NO_ALLOC, /* the word's byte offset, the allocation index, how many the file holds */
    KD_MSG_CAPTURE_POINTER_OUTSIDE,  /* the word's byte offset, allocation index, offset, span start, span end */
    KD_MSG_CAPTURE_BLOB_PLACE,       /* allocation index, "before"/"after" (the format's keyword) */
    KD_MSG_CAPTURE_BLOB_CHECKSUM,    /* allocation index, "before"/"after" */
    KD_MSG_CAPTURE_BLOB_INFLATE,     /* allocation index, "before"/"after", zlib's reason */
    KD_MSG_CAPTURE_BLOB_SIZE,        /* allocation index, "before"/"after", bytes found, bytes recorded */
    KD_MSG_CAPTURE_BLOB_RAW_CHECKSUM,/* allocation index, "before"/"after" */
    KD_MSG_CAPTURE_NO_ALLOC,         /* allocation index asked, how many the file holds */
    KD_MSG_CAPTURE_NO_AFTER,         /* allocation index */
    KD_MSG_CAPTURE_TOO_BIG,          /* allocation index, "before"/"after", bytes, the most asked for */
    KD_MSG_CAPTURE_CANNOT_WRITE,     /* (the file written) strerror */
    KD_MSG_CAPTURE_OUT_NOT_REGULAR,  /* (the file to write) */
    /* Packing the injection library's raw folder (the folder or its manifest first): */
    KD_MSG_CAPTURE_RAW_NO_MANIFEST,
    KD_MSG_CAPTURE_RAW_UNAVAILABLE,  /* the library's one line */
    KD_MSG_CAPTURE_RAW_NOT_FOUND,    /* K, the kernels launched ("name (N), ...") */
    KD_MSG_CAPTURE_RAW_NOT_FOUND_NONE, /* K */
    KD_MSG_CAPTURE_RAW_ERROR,        /* the library's error lines, joined by "; " */
    KD_MSG_CAPTURE_RAW_VERSION,      /* the first line found */
    KD_MSG_CAPTURE_RAW_MISSING,      /* the key of the line missing */
    KD_MSG_CAPTURE_RAW_BLOB_SIZE,    /* the blob file's name, its size, the span's size */
    KD_MSG_CAPTURE_RAW_CANNOT_READ,  /* (the file) strerror */
    KD_MSG_CAPTURE_RAW_GRAPH,        /* K, graph launches seen, the kernels launched (as NOT_FOUND) */
    KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID,      /* K, the library's error lines joined by "; " */
    KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID_SEEN, /* K, the library's error lines, the kernels launched */
    KD_MSG_CAPTURE_TRITON_SIGNATURE,        /* side, kernel, parameter number, the file's name, the captured name */
    KD_MSG_CAPTURE_GEOMETRY,         /* (path) the kernel, which launch, "grid"/"block"/..., its value, the limits */
};

#endif
