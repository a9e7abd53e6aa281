/*
 * json_profile: the frame names and counts both JSON readers take the
 * same way.
 */
#include "flamegraph/json_profile.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

uint32_t profile_intern_frame(struct profile *p, const char *text, size_t len)
{
    char *copy = strndup(text, len);
    if (!copy)
        return 0;
    len = strlen(copy); /* a name stops at an embedded NUL */
    for (size_t k = 0; k < len; k++)
        if (copy[k] == ';' || copy[k] == '\n' || copy[k] == '\r')
            copy[k] = copy[k] == ';' ? ':' : ' ';
    uint32_t id = strtab_intern(p->names, copy, len);
    free(copy);
    return id;
}

bool profile_json_count(json_t *v, uint64_t *out)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return true;
    }
    double d = json_is_real(v) ? json_real_value(v) : -1;
    if (d >= 0 && d < 9.2e18 && (double)(uint64_t)d == d) {
        *out = (uint64_t)d;
        return true;
    }
    return false;
}

int profile_json_weight(struct profile *p, const char *part_name, size_t nparts, const char *parts,
                        const char *name, struct error *e)
{
    bool named = nparts > 1 && part_name;
    int w = named ? profile_find_weight(p, part_name) : -1;
    if (w < 0)
        w = named ? profile_add_weight(p, part_name, "count", true)
                  : profile_add_weight(p, "samples", "count", false);
    if (w < 0)
        return errno == E2BIG ? error_fail(e, ERROR_UNSUPPORTED, "%s: more than %d %s", name,
                                           PROFILE_MAX_WEIGHTS, parts)
                              : error_fail(e, ERROR_NO_MEMORY, "out of memory");
    return w;
}
