/*
 * error: how every library (common/ up to run/) says what went wrong: a status, which the
 * command turns into an exit code in one place (cli_exit_status in
 * cli/cli.c), and one line of text that names the cause, such as the
 * byte offset where a file is corrupt or the line that is not understood.
 * A function that can fail takes a `struct error *` last and returns 0,
 * or -1 after error_fail (one that makes an object returns it, or NULL);
 * the first error wins, so the message names the cause and not what
 * failed because of it. A predicate (bool) takes no struct error.
 *
 * Two kinds of function need no struct error: stream writers that only
 * fail as stdio fails (svg_write, folded_write, speedscope_write) keep
 * stdio's own convention, -1 with errno set, so they compose with fwrite
 * and fprintf (output_file_write turns that errno into a status and a
 * message); and helpers whose only failure is running out of memory
 * return -1 or NULL, their caller recording ERROR_NO_MEMORY.
 */
#ifndef COMMON_ERROR_H
#define COMMON_ERROR_H

enum error_status {
    ERROR_NONE = 0,
    ERROR_CORRUPT,      /* input that is damaged or not of the expected kind */
    ERROR_UNSUPPORTED,  /* valid input in a form we do not take */
    ERROR_UNREADABLE,   /* an input that cannot be opened or read */
    ERROR_NO_MEMORY,    /* the host refused memory */
    ERROR_CANNOT_WRITE, /* an output that cannot be created or written */
};

struct error {
    enum error_status status;
    char msg[480];
};

/* An error that holds none yet: `struct error e = ERROR_INIT;`. */
#define ERROR_INIT                                                                                 \
    {                                                                                              \
        ERROR_NONE, ""                                                                             \
    }

/* Records the first error (later ones are dropped) and returns -1. */
int error_fail(struct error *e, enum error_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * For a failed system or stdio call: ERROR_NO_MEMORY for ENOMEM, else
 * `status`; the message is the formatted text, ": ", and strerror(err)
 * (EIO's when err is 0). Returns -1.
 */
int error_fail_errno(struct error *e, enum error_status status, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
