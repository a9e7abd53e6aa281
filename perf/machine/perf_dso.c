/*
 * perf_dso: the DSO table (a uthash table by name: a few lookups per MMAP
 * record, none per sample) and the per-DSO caches.
 * Finding a DSO's symbol files is dso_symbols.c.
 */
#include "perf/machine/perf_dso.h"

#include <stdlib.h>
#include <string.h>

#include "common/hash_table.h"
#include "perf/symbols/elf_file.h"

void perf_dsos_init(struct perf_dsos *d)
{
    d->by_name = NULL;
}

static void dso_free(struct perf_dso *dso)
{
    free(dso->name);
    free(dso->runtime_path);
    free(dso->symsrc_path);
    symtab_free(&dso->syms);
    symbol_lookup_free(&dso->lookup);
    free(dso->frames);
    if (dso->names_file)
        elf_file_close(dso->names_file);
    free(dso->names_file);
    free(dso);
}

void perf_dsos_free(struct perf_dsos *d)
{
    struct perf_dso *dso, *tmp;
    HASH_ITER(hh, d->by_name, dso, tmp)
    {
        HASH_DELETE(hh, d->by_name, dso);
        dso_free(dso);
    }
}

struct perf_dso *perf_dsos_findnew(struct perf_dsos *d, const char *name, enum dso_kind kind)
{
    struct perf_dso *dso;
    HASH_FIND_STR(d->by_name, name, dso);
    if (dso)
        return dso;
    dso = calloc(1, sizeof(*dso));
    if (!dso || !(dso->name = strdup(name))) {
        free(dso);
        return NULL;
    }
    dso->kind = kind;
    bool hash_added = true;
    HASH_ADD_KEYPTR(hh, d->by_name, dso->name, strlen(dso->name), dso);
    if (!hash_added) {
        dso_free(dso);
        return NULL;
    }
    return dso;
}

int perf_dso_prepare_frames(struct perf_dso *dso)
{
    free(dso->frames);
    dso->nr_frames = dso->syms.count ? dso->syms.count : 1;
    dso->frames = calloc(dso->nr_frames, sizeof(*dso->frames));
    return dso->frames ? 0 : -1;
}

int perf_dso_grow_frames(struct perf_dso *dso)
{
    if (dso->syms.count <= dso->nr_frames)
        return 0;
    size_t n = dso->nr_frames * 2 > dso->syms.count ? dso->nr_frames * 2 : dso->syms.count;
    uint32_t *frames = realloc(dso->frames, n * sizeof(*frames));
    if (!frames)
        return -1;
    memset(frames + dso->nr_frames, 0, (n - dso->nr_frames) * sizeof(*frames));
    dso->frames = frames;
    dso->nr_frames = n;
    return 0;
}
