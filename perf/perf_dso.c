/*
 * perf_dso: the DSO table (a hash by name) and the per-DSO caches.
 * Finding a DSO's symbol files is dso_symbols.c.
 */
#include "perf/perf_dso.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_name(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

int perf_dsos_init(struct perf_dsos *d)
{
    d->mask = 255;
    d->count = 0;
    d->buckets = calloc(d->mask + 1, sizeof(*d->buckets));
    return d->buckets ? 0 : -1;
}

static void dso_free(struct perf_dso *dso)
{
    free(dso->name);
    symtab_free(&dso->syms);
    symbol_lookup_free(&dso->lookup);
    free(dso->frames);
    free(dso);
}

void perf_dsos_free(struct perf_dsos *d)
{
    for (size_t i = 0; d->buckets && i <= d->mask; i++) {
        for (struct perf_dso *dso = d->buckets[i], *next; dso; dso = next) {
            next = dso->next;
            dso_free(dso);
        }
    }
    free(d->buckets);
    memset(d, 0, sizeof(*d));
}

/* The DSO named `name`, or NULL. */
static struct perf_dso *perf_dsos_find(const struct perf_dsos *d, const char *name)
{
    for (struct perf_dso *dso = d->buckets[hash_name(name) & d->mask]; dso; dso = dso->next)
        if (strcmp(dso->name, name) == 0)
            return dso;
    return NULL;
}

static void grow(struct perf_dsos *d)
{
    size_t mask = d->mask * 2 + 1;
    struct perf_dso **buckets = calloc(mask + 1, sizeof(*buckets));
    if (!buckets)
        return; /* longer chains, still correct */
    for (size_t i = 0; i <= d->mask; i++) {
        for (struct perf_dso *dso = d->buckets[i], *next; dso; dso = next) {
            next = dso->next;
            size_t b = hash_name(dso->name) & mask;
            dso->next = buckets[b];
            buckets[b] = dso;
        }
    }
    free(d->buckets);
    d->buckets = buckets;
    d->mask = mask;
}

struct perf_dso *perf_dsos_findnew(struct perf_dsos *d, const char *name, enum dso_kind kind)
{
    struct perf_dso *dso = perf_dsos_find(d, name);
    if (dso)
        return dso;
    dso = calloc(1, sizeof(*dso));
    if (!dso || !(dso->name = strdup(name))) {
        free(dso);
        return NULL;
    }
    dso->kind = kind;
    if (d->count >= d->mask)
        grow(d);
    size_t b = hash_name(name) & d->mask;
    dso->next = d->buckets[b];
    d->buckets[b] = dso;
    d->count++;
    return dso;
}

int perf_dso_prepare_frames(struct perf_dso *dso)
{
    free(dso->frames);
    dso->frames = calloc(dso->syms.count ? dso->syms.count : 1, sizeof(*dso->frames));
    return dso->frames ? 0 : -1;
}
