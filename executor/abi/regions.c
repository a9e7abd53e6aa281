/*
 * regions: a short list searched by name; guests mark a few regions, not
 * thousands, so a linear search is the simplest thing that is fast.
 */
#include "executor/abi/regions.h"

#include <stdlib.h>
#include <string.h>

static struct region *find(struct regions *r, const char *name, size_t len)
{
    for (size_t i = 0; i < r->count; i++)
        if (strlen(r->list[i].name) == len && memcmp(r->list[i].name, name, len) == 0)
            return &r->list[i];
    return NULL;
}

static struct region *find_or_add(struct regions *r, const char *name, size_t len)
{
    struct region *g = find(r, name, len);
    if (g)
        return g;
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 8;
        struct region *list = realloc(r->list, cap * sizeof(*list));
        if (!list)
            return NULL;
        r->list = list;
        r->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, name, len);
    copy[len] = '\0';
    g = &r->list[r->count++];
    *g = (struct region){.name = copy};
    return g;
}

void regions_start(struct regions *r, const char *name, size_t len, uint64_t clock)
{
    struct region *g = find_or_add(r, name, len);
    if (!g) {
        r->out_of_memory = true;
        return;
    }
    g->started = clock;
    g->open = true;
}

void regions_end(struct regions *r, const char *name, size_t len, uint64_t clock)
{
    struct region *g = find(r, name, len);
    if (!g || !g->open)
        return;
    uint64_t took = clock - g->started;
    g->open = false;
    g->least = g->runs == 0 || took < g->least ? took : g->least;
    g->most = took > g->most ? took : g->most;
    g->total += took;
    g->runs++;
}

void regions_report(const struct regions *r, FILE *out)
{
    for (size_t i = 0; i < r->count; i++) {
        const struct region *g = &r->list[i];
        if (g->runs)
            fprintf(out, "region: %s: %llu runs, %llu instructions (least %llu, most %llu)\n",
                    g->name, (unsigned long long)g->runs, (unsigned long long)g->total,
                    (unsigned long long)g->least, (unsigned long long)g->most);
    }
}

void regions_free(struct regions *r)
{
    for (size_t i = 0; i < r->count; i++)
        free(r->list[i].name);
    free(r->list);
    memset(r, 0, sizeof(*r));
}
