/*
 * range_index: nested address ranges looked up by binary search.
 */
#include "symtab/range_index.h"

#include <stdlib.h>
#include <string.h>

/* The uint64_t at byte `offset` of element i (start: 0, end: 8). */
static uint64_t field(const void *items, size_t i, size_t size, size_t offset)
{
    uint64_t v;
    memcpy(&v, (const char *)items + i * size + offset, sizeof(v));
    return v;
}

uint64_t *range_index_build(const void *items, size_t count, size_t size)
{
    uint64_t *max_end = calloc(count ? count : 1, sizeof(*max_end));
    if (!max_end)
        return NULL;
    uint64_t largest = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t end = field(items, i, size, sizeof(uint64_t));
        if (end > largest)
            largest = end;
        max_end[i] = largest;
    }
    return max_end;
}

size_t range_index_find(const void *items, const uint64_t *max_end, size_t count, size_t size,
                        uint64_t addr)
{
    size_t lo = 0, hi = count; /* the first element starting above addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (field(items, mid, size, 0) <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Nested ranges: walk back while an earlier one may still hold addr. */
    for (size_t i = lo; i-- > 0 && max_end[i] > addr;)
        if (addr < field(items, i, size, sizeof(uint64_t)))
            return i;
    return RANGE_NONE;
}
