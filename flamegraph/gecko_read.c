/*
 * gecko_read: a Firefox Profiler Gecko profile (the format gecko.c writes,
 * and SP1's profiler with the gecko_profile crate) parsed with jansson:
 * each thread's stack table walked into the trie (a stack's prefix comes
 * before it, as the format's writers emit it), and its samples added at
 * their stacks, each counting its `weight` column, or 1 without one.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/json_profile.h"

/* One thread's tables: a schema'd table is {"schema": {col: index}, "data": [[...], ...]}. */
struct gecko_table {
    json_t *rows;
    json_int_t cols[2]; /* the columns asked for; -1: absent */
};

static int table_open(json_t *thread, const char *key, const char *col0, const char *col1,
                      struct gecko_table *t, const char *name, size_t ti, struct error *e)
{
    json_t *table = json_object_get(thread, key), *schema = json_object_get(table, "schema");
    t->rows = json_object_get(table, "data");
    if (!json_is_object(schema) || !json_is_array(t->rows))
        return error_fail(e, ERROR_CORRUPT,
                          "%s: thread %zu: %s has no schema and data (Gecko tables; a profile "
                          "the Firefox Profiler saved after processing is not read)",
                          name, ti, key);
    const char *want[2] = {col0, col1};
    for (int c = 0; c < 2; c++) {
        json_t *at = want[c] ? json_object_get(schema, want[c]) : NULL;
        t->cols[c] = json_is_integer(at) ? json_integer_value(at) : -1;
    }
    if (t->cols[0] < 0)
        return error_fail(e, ERROR_CORRUPT, "%s: thread %zu: %s has no %s column", name, ti, key,
                          col0);
    return 0;
}

/* Row i's value in column c; NULL when the row or the column has none. */
static json_t *table_cell(const struct gecko_table *t, size_t i, int c)
{
    return t->cols[c] < 0 ? NULL : json_array_get(json_array_get(t->rows, i), (size_t)t->cols[c]);
}

/* Row i's column c as an index below `limit`; -1 for null (when allowed), -2 when bad. */
static json_int_t table_index(const struct gecko_table *t, size_t i, int c, json_int_t limit)
{
    json_t *v = table_cell(t, i, c);
    if (json_is_null(v))
        return -1;
    json_int_t k = json_is_integer(v) ? json_integer_value(v) : -2;
    return k >= 0 && k < limit ? k : -2;
}

/*
 * A frame's line (its `line` column, where the writer knew one) unless
 * another file of the merge gave its source already. Returns 0, or -1
 * (ENOMEM).
 */
static int keep_frame_line(struct profile *p, uint32_t id, const struct gecko_table *frames,
                           size_t i)
{
    json_int_t line = table_index(frames, i, 1, UINT32_MAX); /* -2 without a line column */
    bool known = id < p->frame_capacity && (p->frame_line[id] || p->frame_file[id]);
    if (line <= 0 || known)
        return 0;
    return profile_set_frame_source(p, id, NULL, (uint32_t)line);
}

/* The frame table as interned names, by frame index. */
static int read_frames(json_t *thread, size_t ti, const char *name, struct profile *p,
                       uint32_t **ids, size_t *n, struct error *e)
{
    struct gecko_table frames;
    if (table_open(thread, "frameTable", "location", "line", &frames, name, ti, e))
        return -1;
    json_t *strings = json_object_get(thread, "stringTable");
    if (!json_is_array(strings))
        strings = json_object_get(thread, "stringArray"); /* later format versions */
    if (!json_is_array(strings))
        return error_fail(e, ERROR_CORRUPT, "%s: thread %zu has no stringTable", name, ti);
    *n = json_array_size(frames.rows);
    *ids = malloc((*n ? *n : 1) * sizeof(**ids));
    if (!*ids)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    for (size_t i = 0; i < *n; i++) {
        json_int_t at = table_index(&frames, i, 0, (json_int_t)json_array_size(strings));
        json_t *s = at >= 0 ? json_array_get(strings, (size_t)at) : NULL;
        if (!json_is_string(s))
            return error_fail(e, ERROR_CORRUPT,
                              "%s: thread %zu: frame %zu: location is not a string index", name, ti,
                              i);
        (*ids)[i] = profile_intern_frame(p, json_string_value(s), json_string_length(s));
        if (!(*ids)[i] || keep_frame_line(p, (*ids)[i], &frames, i))
            return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    return 0;
}

/* The stack table as trie nodes, by stack index. */
static int read_stacks(json_t *thread, size_t ti, const uint32_t *ids, size_t nframes,
                       const char *name, struct profile *p, uint32_t **nodes, size_t *n,
                       struct error *e)
{
    struct gecko_table stacks;
    if (table_open(thread, "stackTable", "frame", "prefix", &stacks, name, ti, e))
        return -1;
    if (stacks.cols[1] < 0)
        return error_fail(e, ERROR_CORRUPT, "%s: thread %zu: stackTable has no prefix column", name,
                          ti);
    *n = json_array_size(stacks.rows);
    *nodes = malloc((*n ? *n : 1) * sizeof(**nodes));
    if (!*nodes)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    for (size_t i = 0; i < *n; i++) {
        json_int_t frame = table_index(&stacks, i, 0, (json_int_t)nframes);
        json_int_t prefix = table_index(&stacks, i, 1, (json_int_t)i);
        if (frame < 0 || prefix == -2)
            return error_fail(e, ERROR_CORRUPT,
                              "%s: thread %zu: stack %zu: %s out of range (a prefix must come "
                              "before its stack)",
                              name, ti, i, frame < 0 ? "frame" : "prefix");
        bool created;
        (*nodes)[i] =
            trie_child(p->trie, prefix < 0 ? TRIE_ROOT : (*nodes)[prefix], ids[frame], &created);
        if ((*nodes)[i] == UINT32_MAX)
            return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    return 0;
}

static int read_samples(json_t *thread, size_t ti, const uint32_t *nodes, size_t nstacks, int w,
                        const char *name, struct profile *p, struct error *e)
{
    struct gecko_table samples;
    if (table_open(thread, "samples", "stack", "weight", &samples, name, ti, e))
        return -1;
    uint64_t *col = profile_values(p, (size_t)w);
    if (!col)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    for (size_t si = 0; si < json_array_size(samples.rows); si++) {
        json_int_t stack = table_index(&samples, si, 0, (json_int_t)nstacks);
        if (stack < 0)
            return error_fail(e, stack == -1 ? ERROR_UNSUPPORTED : ERROR_CORRUPT,
                              "%s: thread %zu: sample %zu: %s", name, ti, si,
                              stack == -1 ? "no stack" : "stack out of range");
        uint64_t v = 1;
        json_t *wv = table_cell(&samples, si, 1);
        if (wv && !json_is_null(wv) && !profile_json_count(wv, &v))
            return error_fail(e, ERROR_UNSUPPORTED,
                              "%s: thread %zu: sample %zu: weight is not a non-negative integer",
                              name, ti, si);
        uint32_t leaf = nodes[stack];
        if (col[leaf] + v < v)
            return error_fail(e, ERROR_UNSUPPORTED, "%s: a sum overflows 64 bits", name);
        col[leaf] += v;
    }
    return 0;
}

static int read_thread(json_t *thread, size_t ti, size_t nthreads, const char *name,
                       struct profile *p, struct error *e)
{
    uint32_t *ids = NULL, *nodes = NULL;
    size_t nframes = 0, nstacks = 0;
    const char *tname = json_string_value(json_object_get(thread, "name"));
    int w = profile_json_weight(p, tname, nthreads, "threads", name, e);
    int rc = w < 0 ? -1 : read_frames(thread, ti, name, p, &ids, &nframes, e);
    if (rc == 0)
        rc = read_stacks(thread, ti, ids, nframes, name, p, &nodes, &nstacks, e);
    if (rc == 0)
        rc = read_samples(thread, ti, nodes, nstacks, w, name, p, e);
    free(ids);
    free(nodes);
    return rc;
}

int gecko_read(json_t *root, const char *name, struct profile *p, struct error *e)
{
    json_t *threads = json_object_get(root, "threads");
    size_t n = json_array_size(threads);
    if (n == 0)
        return error_fail(e, ERROR_CORRUPT, "%s: a Firefox Profiler (Gecko) file with no threads",
                          name);
    for (size_t ti = 0; ti < n; ti++)
        if (read_thread(json_array_get(threads, ti), ti, n, name, p, e))
            return -1;
    return 0;
}
