/*
 * event_match: --event NAME against the event names of a recording, for
 * both perf commands.
 */
#include "perf/fold/event_match.h"

#include <string.h>

bool script_event_matches(const char *want, const char *event, size_t event_len)
{
    static const char modifiers[] = "ukhIGHpPSDWeb";
    size_t want_len = strlen(want);
    if (event_len < want_len || memcmp(want, event, want_len) != 0)
        return false;
    if (event_len == want_len)
        return true;
    if (event[want_len] != ':' || event_len == want_len + 1)
        return false;
    for (size_t i = want_len + 1; i < event_len; i++)
        if (!strchr(modifiers, event[i]) || event[i] == '\0')
            return false;
    return true;
}
