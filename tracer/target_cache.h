/*
 * target_cache: which function holds a jump target, looked up in the
 * symbol table once per distinct target (docs/CONTRACT.md#2-guest-profiles: no symbol lookup
 * per instruction). A uthash table: it is reached only from the tracer's
 * slow path, which the link table keeps off the hot path.
 */
#ifndef TRACER_TARGET_CACHE_H
#define TRACER_TARGET_CACHE_H

#include <stdint.h>

#include "symtab/symtab.h"

struct target_entry;

struct target_cache {
    const struct symtab *syms;
    struct target_entry *entries; /* uthash head */
};

void target_cache_init(struct target_cache *c, const struct symtab *syms);
void target_cache_free(struct target_cache *c);

/*
 * The index + 1 in the symbol table of the function holding `target`, or
 * 0 when none does. When memory runs out it still answers, uncached.
 */
uint32_t target_cache_function(struct target_cache *c, uint64_t target);

#endif
