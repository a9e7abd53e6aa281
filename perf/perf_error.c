/*
 * perf_error: the first error wins, so the message names the cause and
 * not what failed because of it.
 */
#include "perf/perf_error.h"

#include <stdarg.h>
#include <stdio.h>

int perf_fail(struct perf_error *e, enum perf_status status, const char *fmt, ...)
{
    if (e->status != PERF_OK)
        return -1;
    e->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
    return -1;
}
