/*
 * profile: weights as columns beside the trie's node array, grown with it;
 * merging maps each source node to its named node in the destination,
 * parents first (a node's id is always above its parent's).
 */
#include "profile/profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool profile_init(struct profile *p)
{
    memset(p, 0, sizeof(*p));
    if (!trie_init(&p->own_trie))
        return false;
    if (!strtab_init(&p->own_names)) {
        trie_free(&p->own_trie);
        return false;
    }
    p->trie = &p->own_trie;
    p->names = &p->own_names;
    p->owned = true;
    return true;
}

static bool set_weight(struct profile_weight *w, const char *name, const char *unit, bool named)
{
    w->name = strdup(name);
    w->unit = strdup(unit);
    w->named = named;
    return w->name && w->unit;
}

bool profile_wrap(struct profile *p, struct trie *t, struct strtab *names, const char *name)
{
    memset(p, 0, sizeof(*p));
    p->trie = t;
    p->names = names;
    p->nweights = 1;
    if (!set_weight(&p->weights[0], name, "count", true)) {
        profile_free(p);
        return false;
    }
    return true;
}

void profile_free(struct profile *p)
{
    for (size_t w = 0; w < p->nweights; w++) {
        free(p->weights[w].name);
        free(p->weights[w].unit);
        free(p->values[w]);
    }
    free(p->frame_file);
    free(p->frame_line);
    if (p->owned) {
        trie_free(&p->own_trie);
        strtab_free(&p->own_names);
    }
    memset(p, 0, sizeof(*p));
}

/* Grows every column to the trie's node capacity. */
static bool grow_columns(struct profile *p)
{
    size_t need = p->trie->capacity;
    if (need <= p->values_capacity)
        return true;
    for (size_t w = 0; w < p->nweights; w++) {
        if (!p->values[w] && !p->owned)
            continue;
        uint64_t *v = realloc(p->values[w], need * sizeof(*v));
        if (!v)
            return false;
        size_t old = p->values[w] ? p->values_capacity : 0;
        memset(v + old, 0, (need - old) * sizeof(*v));
        p->values[w] = v;
    }
    p->values_capacity = need;
    return true;
}

int profile_add_weight(struct profile *p, const char *name, const char *unit, bool named)
{
    if (p->nweights == PROFILE_MAX_WEIGHTS || !p->owned) {
        errno = E2BIG;
        return -1;
    }
    size_t w = p->nweights;
    uint64_t *v = calloc(p->values_capacity ? p->values_capacity : 1, sizeof(*v));
    if (!v || !set_weight(&p->weights[w], name, unit, named)) {
        free(v);
        free(p->weights[w].name);
        free(p->weights[w].unit);
        memset(&p->weights[w], 0, sizeof(p->weights[w]));
        errno = ENOMEM;
        return -1;
    }
    p->values[w] = v;
    p->nweights++;
    if (!grow_columns(p)) {
        errno = ENOMEM;
        return -1;
    }
    return (int)w;
}

int profile_find_weight(const struct profile *p, const char *name)
{
    for (size_t w = 0; w < p->nweights; w++)
        if (strcmp(p->weights[w].name, name) == 0)
            return (int)w;
    return -1;
}

const char *profile_weight_name(const struct profile *p, size_t w)
{
    return p->weights[w].name;
}

uint64_t *profile_values(struct profile *p, size_t w)
{
    return grow_columns(p) ? p->values[w] : NULL;
}

int profile_adopt_counts(struct profile *p, const char *name, const char *unit, bool named)
{
    int w = profile_add_weight(p, name, unit, named);
    uint64_t *v = w >= 0 ? profile_values(p, (size_t)w) : NULL;
    if (!v)
        return -1;
    for (size_t i = 0; i < p->trie->count; i++)
        v[i] = p->trie->nodes[i].count;
    return w;
}

int profile_select_weight(struct profile *p, size_t w)
{
    if (w >= p->nweights) {
        errno = EINVAL;
        return -1;
    }
    if (!p->values[w])
        return 0; /* already the counts */
    for (size_t i = 0; i < p->trie->count; i++)
        p->trie->nodes[i].count = p->values[w][i];
    return 0;
}

static bool grow_frames(struct profile *p, size_t need)
{
    if (need <= p->frame_capacity)
        return true;
    size_t cap = p->frame_capacity ? p->frame_capacity : 256;
    while (cap < need)
        cap *= 2;
    uint32_t *file = realloc(p->frame_file, cap * sizeof(*file));
    if (file)
        p->frame_file = file;
    uint32_t *line = realloc(p->frame_line, cap * sizeof(*line));
    if (line)
        p->frame_line = line;
    if (!file || !line)
        return false;
    memset(file + p->frame_capacity, 0, (cap - p->frame_capacity) * sizeof(*file));
    memset(line + p->frame_capacity, 0, (cap - p->frame_capacity) * sizeof(*line));
    p->frame_capacity = cap;
    return true;
}

int profile_set_frame_source(struct profile *p, uint32_t name_id, const char *file, uint32_t line)
{
    uint32_t file_id = file && *file ? strtab_intern(p->names, file, strlen(file)) : 0;
    if ((file && *file && !file_id) || !grow_frames(p, (size_t)name_id + 1)) {
        errno = ENOMEM;
        return -1;
    }
    p->frame_file[name_id] = file_id;
    p->frame_line[name_id] = line;
    return 0;
}

uint64_t profile_total(const struct profile *p, size_t w)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < p->trie->count; i++)
        sum += profile_value(p, w, (uint32_t)i);
    return sum;
}

/* dst's weight for src's weight `w`, added when new; -1 when it cannot be. */
static int merged_weight(struct profile *dst, const struct profile *src, size_t w)
{
    const struct profile_weight *sw = &src->weights[w];
    if (!sw->named && dst->nweights > 0)
        return 0;
    int d = sw->named ? profile_find_weight(dst, sw->name) : -1;
    if (d >= 0)
        return d;
    if (sw->named && dst->nweights > 0 && !dst->weights[0].named) {
        /* a folded file's count was the first weight: it takes this name */
        char *name = strdup(sw->name), *unit = strdup(sw->unit);
        if (!name || !unit) {
            free(name);
            free(unit);
            errno = ENOMEM;
            return -1;
        }
        free(dst->weights[0].name);
        free(dst->weights[0].unit);
        dst->weights[0] = (struct profile_weight){.name = name, .unit = unit, .named = true};
        return 0;
    }
    return profile_add_weight(dst, sw->name, sw->unit, sw->named);
}

/* Maps src's nodes to dst's (parents first); map[i] is dst's node for src's i. */
static int map_nodes(struct profile *dst, const struct profile *src, uint32_t *map)
{
    map[TRIE_ROOT] = TRIE_ROOT;
    for (size_t i = 1; i < src->trie->count; i++) {
        const struct call_node *n = &src->trie->nodes[i];
        uint32_t key = (uint32_t)n->key;
        const char *name = strtab_get(src->names, key);
        uint32_t id = strtab_intern(dst->names, name, src->names->lengths[key]);
        bool created;
        map[i] = id ? trie_child(dst->trie, map[n->parent], id, &created) : UINT32_MAX;
        if (map[i] == UINT32_MAX)
            return -1;
        if (src->frame_line && key < src->frame_capacity &&
            (src->frame_line[key] || src->frame_file[key]) &&
            profile_set_frame_source(
                dst, id, src->frame_file[key] ? strtab_get(src->names, src->frame_file[key]) : NULL,
                src->frame_line[key]))
            return -1;
    }
    return grow_columns(dst) ? 0 : -1;
}

int profile_merge(struct profile *dst, const struct profile *src, struct error *e)
{
    int to[PROFILE_MAX_WEIGHTS];
    for (size_t w = 0; w < src->nweights; w++) {
        to[w] = merged_weight(dst, src, w);
        if (to[w] < 0)
            return errno == E2BIG ? error_fail(e, ERROR_UNSUPPORTED, "more than %d weights",
                                               PROFILE_MAX_WEIGHTS)
                                  : error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    uint32_t *map = malloc((src->trie->count ? src->trie->count : 1) * sizeof(*map));
    if (!map || map_nodes(dst, src, map)) {
        free(map);
        return error_fail(e, ERROR_NO_MEMORY, "out of memory");
    }
    int rc = 0;
    for (size_t w = 0; rc == 0 && w < src->nweights; w++) {
        uint64_t *v = dst->values[to[w]];
        for (size_t i = 0; i < src->trie->count; i++) {
            uint64_t add = profile_value(src, w, (uint32_t)i);
            if (v[map[i]] + add < add) {
                rc = error_fail(e, ERROR_UNSUPPORTED, "the sum of %s overflows 64 bits",
                                dst->weights[to[w]].name);
                break;
            }
            v[map[i]] += add;
        }
    }
    free(map);
    return rc;
}

int profile_weight_by_option(const struct profile *p, const char *name, struct error *e)
{
    if (p->nweights == 0)
        return error_fail(e, ERROR_UNSUPPORTED, "the profile has no weights");
    if (!name)
        return 0;
    int w = profile_find_weight(p, name);
    if (w >= 0)
        return w;
    char list[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < p->nweights && len < sizeof(list); i++)
        len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "",
                                p->weights[i].name);
    return error_fail(e, ERROR_UNSUPPORTED, "no weight '%s' in the profile; it has %s", name, list);
}
