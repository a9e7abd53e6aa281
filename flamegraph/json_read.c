/*
 * json_read: a JSON profile parsed once, then read as Gecko when it has
 * "meta" and "threads" (the Firefox Profiler's keys), else as speedscope.
 */
#include "flamegraph/json_read.h"

#include <jansson.h>

#include "flamegraph/json_profile.h"

int json_profile_read(const unsigned char *data, size_t len, const char *name, struct profile *p,
                      struct error *e)
{
    json_error_t jerr;
    json_t *root = json_loadb((const char *)data, len, JSON_ALLOW_NUL, &jerr);
    if (!root)
        return error_fail(e, ERROR_CORRUPT, "%s: line %d: %s", name, jerr.line, jerr.text);
    int rc = json_object_get(root, "threads") && json_object_get(root, "meta")
                 ? gecko_read(root, name, p, e)
                 : speedscope_read(root, name, p, e);
    json_decref(root);
    return rc;
}
