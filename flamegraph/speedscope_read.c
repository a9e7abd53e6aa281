/*
 * speedscope_read: a speedscope file (https://www.speedscope.app/file-format-schema.json)
 * parsed with jansson, each "sampled" profile's stacks walked into the
 * trie (outermost frame first, as the samples list them) with its
 * weights. Evented profiles are refused.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/profile_read.h"

/* shared.frames as interned names, by frame index. */
static int read_frames(json_t *root, const char *name, struct profile *p, uint32_t **ids, size_t *n,
                       struct error *e)
{
    json_t *frames = json_object_get(json_object_get(root, "shared"), "frames");
    if (!json_is_array(frames))
        return error_fail(e, ERROR_CORRUPT, "%s: no shared.frames array (not a speedscope file?)",
                          name);
    *n = json_array_size(frames);
    *ids = malloc((*n ? *n : 1) * sizeof(**ids));
    if (!*ids)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    for (size_t i = 0; i < *n; i++) {
        json_t *fname = json_object_get(json_array_get(frames, i), "name");
        if (!json_is_string(fname))
            return error_fail(e, ERROR_CORRUPT, "%s: frame %zu has no name", name, i);
        size_t len = json_string_length(fname);
        char *text = strndup(json_string_value(fname), len);
        if (!text)
            return error_fail(e, ERROR_NO_MEMORY, "out of memory");
        for (size_t k = 0; k < len; k++)
            if (text[k] == ';' || text[k] == '\n' || text[k] == '\r')
                text[k] = text[k] == ';' ? ':' : ' ';
        (*ids)[i] = strtab_intern(p->names, text, len);
        free(text);
        if (!(*ids)[i])
            return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    return 0;
}

/* A weight as an exact non-negative integer (integral reals pass). */
static bool weight_value(json_t *v, uint64_t *out)
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

/* One sample's stack, outermost first; *leaf its innermost node. */
static int sample_stack(json_t *stack, const uint32_t *ids, size_t nframes, struct profile *p,
                        const char *name, size_t pi, size_t si, uint32_t *leaf, struct error *e)
{
    if (!json_is_array(stack))
        return error_fail(e, ERROR_CORRUPT, "%s: profile %zu: sample %zu is not an array", name, pi,
                          si);
    uint32_t node = TRIE_ROOT;
    for (size_t k = 0; k < json_array_size(stack); k++) {
        json_t *f = json_array_get(stack, k);
        json_int_t fi = json_is_integer(f) ? json_integer_value(f) : -1;
        if (fi < 0 || (size_t)fi >= nframes)
            return error_fail(e, ERROR_CORRUPT,
                              "%s: profile %zu: sample %zu: frame index out of range", name, pi,
                              si);
        bool created;
        node = trie_child(p->trie, node, ids[fi], &created);
        if (node == UINT32_MAX)
            return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    if (node == TRIE_ROOT)
        return error_fail(e, ERROR_UNSUPPORTED, "%s: profile %zu: sample %zu has no frames", name,
                          pi, si);
    *leaf = node;
    return 0;
}

static int read_profile(json_t *prof, size_t pi, size_t nprofiles, const uint32_t *ids,
                        size_t nframes, const char *name, struct profile *p, struct error *e)
{
    json_t *type = json_object_get(prof, "type");
    if (!json_is_string(type) || strcmp(json_string_value(type), "sampled") != 0)
        return error_fail(e, ERROR_UNSUPPORTED, "%s: profile %zu is not a sampled profile", name,
                          pi);
    json_t *samples = json_object_get(prof, "samples"), *weights = json_object_get(prof, "weights");
    if (!json_is_array(samples) || !json_is_array(weights) ||
        json_array_size(samples) != json_array_size(weights))
        return error_fail(e, ERROR_CORRUPT,
                          "%s: profile %zu: samples and weights are not arrays of one length", name,
                          pi);
    const char *pname = json_string_value(json_object_get(prof, "name"));
    int w = nprofiles > 1 && pname ? profile_find_weight(p, pname) : -1;
    if (w < 0)
        w = nprofiles > 1 && pname ? profile_add_weight(p, pname, "count", true)
                                   : profile_add_weight(p, "samples", "count", false);
    if (w < 0)
        return errno == E2BIG ? error_fail(e, ERROR_UNSUPPORTED, "%s: more than %d profiles", name,
                                           PROFILE_MAX_WEIGHTS)
                              : error_fail(e, ERROR_NO_MEMORY, "out of memory");
    for (size_t si = 0; si < json_array_size(samples); si++) {
        uint32_t leaf;
        uint64_t v;
        if (!weight_value(json_array_get(weights, si), &v))
            return error_fail(e, ERROR_UNSUPPORTED,
                              "%s: profile %zu: weight %zu is not a non-negative integer", name, pi,
                              si);
        if (sample_stack(json_array_get(samples, si), ids, nframes, p, name, pi, si, &leaf, e))
            return -1;
        uint64_t *col = profile_values(p, (size_t)w);
        if (!col)
            return error_fail(e, ERROR_NO_MEMORY, "out of memory");
        if (col[leaf] + v < v)
            return error_fail(e, ERROR_UNSUPPORTED, "%s: a sum overflows 64 bits", name);
        col[leaf] += v;
    }
    return 0;
}

int speedscope_read(const unsigned char *data, size_t len, const char *name, struct profile *p,
                    struct error *e)
{
    json_error_t jerr;
    json_t *root = json_loadb((const char *)data, len, JSON_ALLOW_NUL, &jerr);
    if (!root)
        return error_fail(e, ERROR_CORRUPT, "%s: line %d: %s", name, jerr.line, jerr.text);
    uint32_t *ids = NULL;
    size_t nframes = 0;
    int rc = 0;
    json_t *profiles = json_object_get(root, "profiles");
    if (json_object_get(root, "threads") && json_object_get(root, "meta"))
        rc = error_fail(e, ERROR_UNSUPPORTED,
                        "%s: a Firefox Profiler (Gecko) file; zkprof writes these but reads "
                        "folded, speedscope and pprof files",
                        name);
    else if (!json_is_array(profiles) || json_array_size(profiles) == 0)
        rc = error_fail(e, ERROR_CORRUPT, "%s: no profiles array (not a speedscope file?)", name);
    if (rc == 0)
        rc = read_frames(root, name, p, &ids, &nframes, e);
    size_t n = json_array_size(profiles);
    for (size_t pi = 0; rc == 0 && pi < n; pi++)
        rc = read_profile(json_array_get(profiles, pi), pi, n, ids, nframes, name, p, e);
    free(ids);
    json_decref(root);
    return rc;
}
