/*
 * render: picking a format, and the one switch over the writers.
 */
#include "flamegraph/render.h"

#include <string.h>

#include "flamegraph/folded.h"
#include "flamegraph/gecko.h"
#include "flamegraph/pprof.h"
#include "flamegraph/speedscope.h"
#include "profile/frame_namer.h"

bool render_format_by_name(const char *name, enum render_format *f)
{
    if (strcmp(name, "svg") == 0)
        *f = RENDER_SVG;
    else if (strcmp(name, "json") == 0 || strcmp(name, "speedscope") == 0)
        *f = RENDER_JSON;
    else if (strcmp(name, "folded") == 0)
        *f = RENDER_FOLDED;
    else if (strcmp(name, "pprof") == 0)
        *f = RENDER_PPROF;
    else if (strcmp(name, "gecko") == 0)
        *f = RENDER_GECKO;
    else
        return false;
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0 && s[n - k - 1] != '/';
}

enum render_format render_format_of_path(const char *path, enum render_format fallback)
{
    if (path && ends_with(path, ".pb.gz"))
        return RENDER_PPROF;
    if (path && ends_with(path, ".gecko.json"))
        return RENDER_GECKO;
    const char *dot = path ? strrchr(path, '.') : NULL;
    enum render_format f;
    if (dot && !strchr(dot, '/') && render_format_by_name(dot + 1, &f))
        return f;
    return fallback;
}

bool render_format_choose(const char *name, const char *path, enum render_format fallback,
                          enum render_format *f)
{
    if (name && render_format_by_name(name, f))
        return true;
    *f = render_format_of_path(path, fallback);
    return !name;
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
    if (format == RENDER_PPROF || format == RENDER_GECKO) {
        struct profile p;
        /* the writers only read a borrowed profile's trie */
        if (!profile_wrap(&p, (struct trie *)t, (struct strtab *)names,
                          svg->unit ? svg->unit : "samples"))
            return -1;
        int rc = format == RENDER_PPROF ? pprof_write(out, &p) : gecko_write(out, &p, profile_name);
        profile_free(&p);
        return rc;
    }
    switch (format) {
    case RENDER_JSON:
        return speedscope_write(out, t, names, profile_name, speedscope_unit(svg->unit));
    case RENDER_FOLDED: return folded_write(out, t, folded_name_of, (void *)names);
    case RENDER_SVG:
    default: return svg_write(out, t, names, svg);
    }
}

int render_write_profile(FILE *out, struct profile *p, size_t weight, enum render_format format,
                         const struct svg_options *svg, const char *profile_name)
{
    switch (format) {
    case RENDER_PPROF: return pprof_write(out, p);
    case RENDER_GECKO: return gecko_write(out, p, profile_name);
    case RENDER_JSON:
        return speedscope_write_weights(out, p, profile_name, speedscope_unit(svg->unit));
    default: break;
    }
    if (profile_select_weight(p, weight))
        return -1;
    return render_write_trie(out, p->trie, p->names, format, svg, profile_name);
}
