/*
 * render: picking a format, and the one switch over the writers.
 */
#include "flamegraph/render.h"

#include <string.h>

#include "flamegraph/folded.h"
#include "flamegraph/folded_read.h"
#include "flamegraph/speedscope.h"

bool render_format_by_name(const char *name, enum render_format *f)
{
    if (strcmp(name, "svg") == 0)
        *f = RENDER_SVG;
    else if (strcmp(name, "json") == 0 || strcmp(name, "speedscope") == 0)
        *f = RENDER_JSON;
    else if (strcmp(name, "folded") == 0)
        *f = RENDER_FOLDED;
    else
        return false;
    return true;
}

enum render_format render_format_of_path(const char *path, enum render_format fallback)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    enum render_format f;
    if (dot && !strchr(dot, '/') && render_format_by_name(dot + 1, &f))
        return f;
    return fallback;
}

/* speedscope's name for the unit: its own time and byte units pass, counts are "none". */
static const char *speedscope_unit(const char *unit)
{
    static const char *const units[] = {"nanoseconds", "microseconds", "milliseconds", "seconds",
                                        "bytes"};
    for (size_t i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(unit, units[i]) == 0)
            return unit;
    return "none";
}

int render_write_trie(FILE *out, const struct trie *t, const struct strtab *names,
                      enum render_format format, const struct svg_options *svg,
                      const char *profile_name)
{
    switch (format) {
    case RENDER_JSON:
        return speedscope_write(out, t, names, profile_name, speedscope_unit(svg->unit));
    case RENDER_FOLDED: return folded_write(out, t, folded_name_of, (void *)names);
    case RENDER_SVG:
    default: return svg_write(out, t, names, svg);
    }
}
