/*
 * target_cache: target -> function, remembered per target in a uthash table.
 */
#include "tracer/target_cache.h"

#include <stdbool.h>
#include <stdlib.h>

#include "common/hash_table.h"

struct target_entry {
    uint64_t target;
    uint32_t func; /* function index + 1, or 0 */
    UT_hash_handle hh;
};

void target_cache_init(struct target_cache *c, const struct symtab *syms)
{
    c->syms = syms;
    c->entries = NULL;
}

void target_cache_free(struct target_cache *c)
{
    struct target_entry *e, *tmp;
    HASH_ITER(hh, c->entries, e, tmp)
    {
        HASH_DEL(c->entries, e);
        free(e);
    }
}

uint32_t target_cache_function(struct target_cache *c, uint64_t target)
{
    struct target_entry *e;
    HASH_FIND(hh, c->entries, &target, sizeof(target), e);
    if (e)
        return e->func;
    const struct symtab_func *f = symtab_lookup(c->syms, target);
    uint32_t func = f ? (uint32_t)(f - c->syms->funcs) + 1 : 0;
    e = malloc(sizeof(*e));
    if (!e)
        return func; /* still right, just not remembered */
    e->target = target;
    e->func = func;
    bool hash_added = true;
    HASH_ADD(hh, c->entries, target, sizeof(e->target), e);
    if (!hash_added)
        free(e);
    return func;
}
