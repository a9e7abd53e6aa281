/* warning: hands a formatted warning to its sink (warning.h). */
#include "common/warning.h"

#include <stdarg.h>
#include <stdio.h>

void warning_say(const struct warning_sink *sink, const char *fmt, ...)
{
    if (!sink || !sink->say)
        return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    sink->say(sink->ctx, text);
}
