/*
 * perf_error: how the perf.data reader says what went wrong. One status
 * (which the command turns into an exit code) and one line of text that
 * names what is wrong and, for a corrupt file, the byte offset where.
 */
#ifndef PERF_PERF_ERROR_H
#define PERF_PERF_ERROR_H

enum perf_status {
    PERF_OK = 0,
    PERF_CORRUPT,     /* not a perf.data file, or a damaged one */
    PERF_UNSUPPORTED, /* a valid file in a form this reader does not take */
    PERF_UNREADABLE,  /* the file cannot be opened or read */
    PERF_NO_MEMORY,
};

struct perf_error {
    enum perf_status status;
    char msg[480];
};

/* Records the first error (later ones are dropped) and returns -1. */
int perf_fail(struct perf_error *e, enum perf_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
