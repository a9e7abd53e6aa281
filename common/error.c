/*
 * error: the first error wins.
 */
#include "common/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int record(struct error *e, enum error_status status, const char *fmt, va_list ap)
{
    if (e->status != ERROR_NONE)
        return -1;
    e->status = status;
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    return -1;
}

int error_fail(struct error *e, enum error_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(e, status, fmt, ap);
    va_end(ap);
    return -1;
}

int error_fail_errno(struct error *e, enum error_status status, int err, const char *fmt, ...)
{
    if (e->status != ERROR_NONE)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    record(e, err == ENOMEM ? ERROR_NO_MEMORY : status, fmt, ap);
    va_end(ap);
    size_t used = strlen(e->msg);
    snprintf(e->msg + used, sizeof(e->msg) - used, ": %s", strerror(err ? err : EIO));
    return -1;
}
