/*
 * speedscope: trie -> speedscope JSON, streamed.
 *
 * Frame indices are given to the names the nodes use, in bytewise name
 * order; each node's children are then sorted by frame index. Two
 * depth-first walks in that order write the samples (the walk keeps the
 * frame path from the root) and then the weights, so both lists line up.
 */
#include "flamegraph/speedscope.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph/json_write.h"
#include "profile/child_index.h"

#define NO_FRAME UINT32_MAX

static const char *const units[] = {"none",         "nanoseconds", "microseconds",
                                    "milliseconds", "seconds",     "bytes"};

static bool unit_is_known(const char *unit)
{
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(unit, units[i]) == 0)
            return true;
    return false;
}

/* shared.frames: the distinct names the nodes use. */
struct frame_table {
    uint32_t *frame_of_id; /* by strtab id: frame index, or NO_FRAME */
    uint32_t *ids;         /* by frame index: strtab id */
    size_t count;
};

struct named_id {
    const char *s;
    size_t len;
    uint32_t id;
};

static int compare_names(const void *a, const void *b)
{
    const struct named_id *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
    if (c)
        return c;
    return (x->len > y->len) - (x->len < y->len);
}

/* Orders ft->ids by name and numbers them; returns 0 or -1 (ENOMEM). */
static int number_frames_by_name(struct frame_table *ft, const struct strtab *names)
{
    struct named_id *sorted = malloc((ft->count ? ft->count : 1) * sizeof(*sorted));
    if (!sorted)
        return -1;
    for (size_t i = 0; i < ft->count; i++)
        sorted[i] = (struct named_id){.s = strtab_get(names, ft->ids[i]),
                                      .len = names->lengths[ft->ids[i]],
                                      .id = ft->ids[i]};
    qsort(sorted, ft->count, sizeof(*sorted), compare_names);
    for (size_t i = 0; i < ft->count; i++) {
        ft->ids[i] = sorted[i].id;
        ft->frame_of_id[sorted[i].id] = (uint32_t)i;
    }
    free(sorted);
    return 0;
}

/* Returns 0, or -1 with errno ENOMEM, or EINVAL for a key that names no string. */
static int frame_table_build(struct frame_table *ft, const struct trie *t,
                             const struct strtab *names)
{
    ft->frame_of_id = malloc(names->count * sizeof(*ft->frame_of_id));
    ft->ids = malloc(names->count * sizeof(*ft->ids)); /* at most one per id */
    ft->count = 0;
    if (!ft->frame_of_id || !ft->ids) {
        errno = ENOMEM;
        return -1;
    }
    memset(ft->frame_of_id, 0xff, names->count * sizeof(*ft->frame_of_id));
    for (size_t i = 1; i < t->count; i++) {
        uint64_t key = t->nodes[i].key;
        if (key == 0 || key >= names->count) {
            errno = EINVAL;
            return -1;
        }
        if (ft->frame_of_id[key] == NO_FRAME) {
            ft->frame_of_id[key] = 0; /* seen; numbered below */
            ft->ids[ft->count++] = (uint32_t)key;
        }
    }
    if (number_frames_by_name(ft, names)) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

static void frame_table_free(struct frame_table *ft)
{
    free(ft->frame_of_id);
    free(ft->ids);
}

static uint32_t frame_of_node(const struct frame_table *ft, const struct trie *t, uint32_t node)
{
    return ft->frame_of_id[t->nodes[node].key];
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts every node's children by frame index (siblings never share one). */
static int sort_children(struct child_index *ci, const struct trie *t, const struct frame_table *ft)
{
    size_t n = ci->first[t->count];
    uint64_t *keyed = malloc((n ? n : 1) * sizeof(*keyed));
    if (!keyed)
        return -1;
    for (size_t c = 0; c < n; c++)
        keyed[c] = (uint64_t)frame_of_node(ft, t, ci->children[c]) << 32 | ci->children[c];
    for (size_t p = 0; p < t->count; p++)
        if (ci->first[p + 1] - ci->first[p] > 1)
            qsort(keyed + ci->first[p], ci->first[p + 1] - ci->first[p], sizeof(*keyed),
                  compare_u64);
    for (size_t c = 0; c < n; c++)
        ci->children[c] = (uint32_t)keyed[c];
    free(keyed);
    return 0;
}

/* A depth-first walk in child-index order; depth 0 is an outermost frame. */
struct dfs_item {
    uint32_t node, depth;
};

struct dfs {
    const struct child_index *ci;
    struct dfs_item *todo; /* each node is pushed once: t->count entries suffice */
    size_t n;
};

static void dfs_push_children(struct dfs *d, uint32_t node, uint32_t depth)
{
    for (uint32_t c = d->ci->first[node + 1]; c > d->ci->first[node]; c--)
        d->todo[d->n++] = (struct dfs_item){.node = d->ci->children[c - 1], .depth = depth};
}

static void dfs_start(struct dfs *d)
{
    d->n = 0;
    dfs_push_children(d, TRIE_ROOT, 0);
}

static bool dfs_next(struct dfs *d, struct dfs_item *it)
{
    if (d->n == 0)
        return false;
    *it = d->todo[--d->n];
    dfs_push_children(d, it->node, it->depth + 1);
    return true;
}

static uint64_t counted_total(const struct trie *t)
{
    uint64_t sum = 0;
    for (size_t i = 1; i < t->count; i++) /* the root is no frame: its count is not shown */
        sum += t->nodes[i].count;
    return sum;
}

/* A frame's "file" and "line" where `sources` knows them (issue [8], --lines). */
static void write_source(struct json_out *j, const struct profile *sources, uint32_t id)
{
    if (!sources || id >= sources->frame_capacity || !sources->frame_line[id])
        return;
    uint32_t file = sources->frame_file[id];
    if (file) {
        json_raw(j, ",\"file\":");
        json_out_string(j, strtab_get(sources->names, file), sources->names->lengths[file]);
    }
    json_raw(j, ",\"line\":");
    json_u64(j, sources->frame_line[id]);
}

static void write_frames(struct json_out *j, const struct frame_table *ft,
                         const struct strtab *names, const struct profile *sources)
{
    json_raw(j, "\"shared\":{\"frames\":[");
    for (size_t i = 0; i < ft->count; i++) {
        json_raw(j, i ? ",\n{\"name\":" : "\n{\"name\":");
        json_out_string(j, strtab_get(names, ft->ids[i]), names->lengths[ft->ids[i]]);
        write_source(j, sources, ft->ids[i]);
        json_raw(j, "}");
    }
    json_raw(j, "]},\n");
}

/* One array of frame indices per counted node, outermost first. */
static void write_samples(struct json_out *j, struct dfs *d, const struct trie *t,
                          const struct frame_table *ft, uint32_t *path)
{
    struct dfs_item it;
    bool first = true;
    json_raw(j, "\"samples\":[");
    for (dfs_start(d); dfs_next(d, &it);) {
        path[it.depth] = frame_of_node(ft, t, it.node);
        if (!t->nodes[it.node].count)
            continue;
        json_raw(j, first ? "\n[" : ",\n[");
        first = false;
        for (uint32_t k = 0; k <= it.depth; k++) {
            if (k)
                json_raw(j, ",");
            json_u64(j, path[k]);
        }
        json_raw(j, "]");
    }
    json_raw(j, "],\n");
}

/* The counts, in the order write_samples wrote their stacks. */
static void write_weights(struct json_out *j, struct dfs *d, const struct trie *t)
{
    struct dfs_item it;
    bool first = true;
    json_raw(j, "\"weights\":[");
    for (dfs_start(d); dfs_next(d, &it);) {
        if (!t->nodes[it.node].count)
            continue;
        json_raw(j, first ? "\n" : ",\n");
        first = false;
        json_u64(j, t->nodes[it.node].count);
    }
    json_raw(j, "]");
}

/* What the file holds: one profile of the trie's counts, or one per weight of `weights`. */
struct speedscope_doc {
    const char *profile_name;
    const char *unit;
    struct profile *weights;       /* NULL: the one profile */
    const struct profile *sources; /* the frames' files and lines, or NULL */
};

static void write_profile(struct json_out *j, struct dfs *d, const struct trie *t,
                          const struct frame_table *ft, uint32_t *path, const char *name,
                          const char *unit)
{
    json_raw(j, "{\"type\":\"sampled\",\"name\":");
    json_out_string(j, name, strlen(name));
    json_raw(j, ",\"unit\":");
    json_out_string(j, unit, strlen(unit));
    json_raw(j, ",\"startValue\":0,\"endValue\":");
    json_u64(j, counted_total(t));
    json_raw(j, ",\n");
    write_samples(j, d, t, ft, path);
    write_weights(j, d, t);
    json_raw(j, "}");
}

static int write_file(struct json_out *j, const struct trie *t, const struct strtab *names,
                      const struct frame_table *ft, struct dfs *d, uint32_t *path,
                      const struct speedscope_doc *doc)
{
    json_raw(j, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n");
    write_frames(j, ft, names, doc->sources);
    json_raw(j, "\"profiles\":[");
    if (!doc->weights)
        write_profile(j, d, t, ft, path, doc->profile_name, doc->unit);
    for (size_t w = 0; doc->weights && w < doc->weights->nweights; w++) {
        if (profile_select_weight(doc->weights, w))
            return -1;
        if (w)
            json_raw(j, ",\n");
        write_profile(j, d, t, ft, path, profile_weight_name(doc->weights, w), "none");
    }
    json_raw(j, "],\n\"name\":");
    json_out_string(j, doc->profile_name, strlen(doc->profile_name));
    json_raw(j, ",\"activeProfileIndex\":0,\"exporter\":\"zkprof\"}\n");
    return 0;
}

static int write_document(FILE *out, const struct trie *t, const struct strtab *names,
                          const struct speedscope_doc *doc)
{
    if (!unit_is_known(doc->unit)) {
        errno = EINVAL;
        return -1;
    }
    struct frame_table ft = {0};
    struct child_index ci = {0};
    size_t n = t->count ? t->count : 1;
    struct dfs d = {.ci = &ci, .todo = malloc(n * sizeof(*d.todo))};
    uint32_t *path = malloc(n * sizeof(*path));
    int rc = frame_table_build(&ft, t, names);
    if (rc == 0 && (!d.todo || !path || child_index_build(t, &ci) || sort_children(&ci, t, &ft))) {
        errno = ENOMEM;
        rc = -1;
    }
    if (rc == 0) {
        struct json_out j = {.f = out};
        rc = write_file(&j, t, names, &ft, &d, path, doc);
        if (json_finish(&j))
            rc = -1;
    }
    frame_table_free(&ft);
    child_index_free(&ci);
    free(d.todo);
    free(path);
    return rc;
}

int speedscope_write(FILE *out, const struct trie *t, const struct strtab *names,
                     const char *profile_name, const char *unit)
{
    struct speedscope_doc doc = {.profile_name = profile_name, .unit = unit};
    return write_document(out, t, names, &doc);
}

int speedscope_write_weights(FILE *out, struct profile *p, const char *profile_name,
                             const char *unit)
{
    bool one = p->nweights == 1;
    struct speedscope_doc doc = {.profile_name = profile_name,
                                 .unit = one ? unit : "none",
                                 .weights = one ? NULL : p,
                                 .sources = p};
    if (one && profile_select_weight(p, 0))
        return -1;
    return write_document(out, p->trie, p->names, &doc);
}
