/*
 * dwarf_scopes: bfd's function lookup over the DIEs, and one unit's
 * index of the levels above its functions (perf/dwarf/dwarf_scopes.h).
 */
#include "perf/dwarf/dwarf_scopes.h"

#include <dwarf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum scope_kind { FUNCTION, BLOCK, CONTAINER };

static enum scope_kind kind_of(Dwarf_Die *die, bool *relevant)
{
    *relevant = true;
    switch (dwarf_tag(die)) {
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_entry_point: return FUNCTION;
    case DW_TAG_lexical_block:
    case DW_TAG_try_block:
    case DW_TAG_catch_block: return BLOCK;
    case DW_TAG_namespace:
    case DW_TAG_module:
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type: return CONTAINER;
    default: *relevant = false; return CONTAINER;
    }
}

bool dwarf_scopes_walk(Dwarf_Die *parent, Dwarf_Addr addr, Dwarf_Die *chain, int *n, int depth)
{
    Dwarf_Die child, found;
    bool have = false, relevant;
    if (depth >= DWARF_SCOPES_MAX_DEPTH || dwarf_child(parent, &child) != 0)
        return false;
    do {
        switch (kind_of(&child, &relevant)) {
        case FUNCTION:
            if (dwarf_haspc(&child, addr) == 1)
                found = child, have = true;
            break;
        case BLOCK:
            if (!have && dwarf_haspc(&child, addr) == 1 &&
                dwarf_scopes_walk(&child, addr, chain, n, depth + 1))
                return true;
            break;
        case CONTAINER:
            if (relevant && !have && dwarf_scopes_walk(&child, addr, chain, n, depth + 1))
                return true;
            break;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    if (!have)
        return false;
    if (*n < DWARF_SCOPES_MAX_DEPTH)
        chain[(*n)++] = found;
    dwarf_scopes_walk(&found, addr, chain, n, depth + 1);
    return true;
}

/*
 * ---- the index ----
 *
 * A level is the nodes of one parent's children that can matter, in DIE
 * order: functions and blocks with code (their ranges kept: dwarf_haspc
 * is a scan of them), and containers whose own level is not empty. What
 * is left out never holds the address, so the scan finds what the walk
 * finds.
 */
struct scope_node {
    Dwarf_Die die;
    uint8_t kind;          /* enum scope_kind */
    uint32_t first, count; /* FUNCTION, BLOCK: its ranges; CONTAINER: its level's nodes */
};

struct scope_range {
    Dwarf_Addr low, high;
};

struct dwarf_scopes {
    struct scope_node *nodes;
    size_t nnodes, nodes_cap;
    struct scope_range *ranges;
    size_t nranges, ranges_cap;
    uint32_t first, count; /* the unit's level */
};

static bool grow(void **items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *p = realloc(*items, c * size);
    if (!p)
        return false;
    *items = p;
    *cap = c;
    return true;
}

/* Keeps the DIE's ranges (dwarf_haspc's); false when memory runs out. */
static bool keep_ranges(struct dwarf_scopes *s, Dwarf_Die *die, struct scope_node *node)
{
    Dwarf_Addr base, low, high;
    ptrdiff_t offset = 0;
    node->first = (uint32_t)s->nranges;
    while ((offset = dwarf_ranges(die, offset, &base, &low, &high)) > 0) {
        if (!grow((void **)&s->ranges, &s->ranges_cap, s->nranges + 1, sizeof(*s->ranges)))
            return false;
        s->ranges[s->nranges++] = (struct scope_range){low, high};
    }
    node->count = (uint32_t)(s->nranges - node->first);
    return true;
}

/* The level of `parent`'s children at `depth`, appended whole after its containers' levels. */
static bool index_level(struct dwarf_scopes *s, Dwarf_Die *parent, int depth, uint32_t *first,
                        uint32_t *count)
{
    Dwarf_Die child;
    struct scope_node *level = NULL;
    size_t n = 0, cap = 0;
    bool ok = true, relevant;
    *first = *count = 0;
    if (depth >= DWARF_SCOPES_MAX_DEPTH || dwarf_child(parent, &child) != 0)
        return true;
    do {
        struct scope_node node = {.die = child, .kind = (uint8_t)kind_of(&child, &relevant)};
        if (!relevant)
            continue;
        ok = node.kind == CONTAINER ? index_level(s, &child, depth + 1, &node.first, &node.count)
                                    : keep_ranges(s, &child, &node);
        if (ok && node.count > 0 && (ok = grow((void **)&level, &cap, n + 1, sizeof(*level))))
            level[n++] = node;
    } while (ok && dwarf_siblingof(&child, &child) == 0);
    if (ok && n > 0 &&
        (ok = grow((void **)&s->nodes, &s->nodes_cap, s->nnodes + n, sizeof(*s->nodes)))) {
        memcpy(s->nodes + s->nnodes, level, n * sizeof(*level));
        *first = (uint32_t)s->nnodes;
        *count = (uint32_t)n;
        s->nnodes += n;
    }
    free(level);
    return ok;
}

struct dwarf_scopes *dwarf_scopes_index(Dwarf_Die *cu)
{
    struct dwarf_scopes *s = cu ? calloc(1, sizeof(*s)) : NULL;
    if (s && !index_level(s, cu, 0, &s->first, &s->count)) {
        dwarf_scopes_free(s);
        return NULL;
    }
    return s;
}

void dwarf_scopes_free(struct dwarf_scopes *s)
{
    if (!s)
        return;
    free(s->nodes);
    free(s->ranges);
    free(s);
}

static bool holds(const struct dwarf_scopes *s, const struct scope_node *node, Dwarf_Addr addr)
{
    for (uint32_t i = 0; i < node->count; i++)
        if (addr >= s->ranges[node->first + i].low && addr < s->ranges[node->first + i].high)
            return true;
    return false;
}

/* The walk's loop over one level, from the index. */
static bool find_level(const struct dwarf_scopes *s, uint32_t first, uint32_t count,
                       Dwarf_Addr addr, Dwarf_Die *chain, int *n, int depth)
{
    const struct scope_node *found = NULL;
    for (uint32_t i = 0; i < count; i++) {
        const struct scope_node *node = &s->nodes[first + i];
        Dwarf_Die die = node->die;
        switch (node->kind) {
        case FUNCTION:
            if (holds(s, node, addr))
                found = node;
            break;
        case BLOCK:
            if (!found && holds(s, node, addr) &&
                dwarf_scopes_walk(&die, addr, chain, n, depth + 1))
                return true;
            break;
        default:
            if (!found && find_level(s, node->first, node->count, addr, chain, n, depth + 1))
                return true;
            break;
        }
    }
    if (!found)
        return false;
    Dwarf_Die die = found->die;
    if (*n < DWARF_SCOPES_MAX_DEPTH)
        chain[(*n)++] = die;
    dwarf_scopes_walk(&die, addr, chain, n, depth + 1);
    return true;
}

bool dwarf_scopes_find(const struct dwarf_scopes *s, Dwarf_Addr addr, Dwarf_Die *chain, int *n)
{
    return s && find_level(s, s->first, s->count, addr, chain, n, 0);
}
