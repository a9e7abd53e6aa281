/*
 * speedscope_read: a speedscope file (https://www.speedscope.app/file-format-schema.json)
 * parsed with jansson, each "sampled" profile's stacks walked into the
 * trie (outermost frame first, as the samples list them) with its
 * weights. Evented profiles are refused. The file is parsed by json_read.c.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/json_profile.h"

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
        (*ids)[i] = profile_intern_frame(p, json_string_value(fname), json_string_length(fname));
        if (!(*ids)[i])
            return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    return 0;
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
    int w = profile_json_weight(p, pname, nprofiles, "profiles", name, e);
    if (w < 0)
        return -1;
    for (size_t si = 0; si < json_array_size(samples); si++) {
        uint32_t leaf = 0; /* set by sample_stack; -O2 cannot see it */
        uint64_t v;
        if (!profile_json_count(json_array_get(weights, si), &v))
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

int speedscope_read(json_t *root, const char *name, struct profile *p, struct error *e)
{
    uint32_t *ids = NULL;
    size_t nframes = 0;
    int rc = 0;
    json_t *profiles = json_object_get(root, "profiles");
    if (!json_is_array(profiles) || json_array_size(profiles) == 0)
        rc = error_fail(e, ERROR_CORRUPT, "%s: no profiles array (not a speedscope file?)", name);
    if (rc == 0)
        rc = read_frames(root, name, p, &ids, &nframes, e);
    size_t n = json_array_size(profiles);
    for (size_t pi = 0; rc == 0 && pi < n; pi++)
        rc = read_profile(json_array_get(profiles, pi), pi, n, ids, nframes, name, p, e);
    free(ids);
    return rc;
}
