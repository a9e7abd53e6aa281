/*
 * dwarf_aranges: .debug_aranges read into a sorted array
 * (perf/dwarf/dwarf_aranges.h).
 */
#include "perf/dwarf/dwarf_aranges.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "perf/dwarf/dwarf_reader.h"

static int add(struct dwarf_aranges *a, size_t *cap, struct dwarf_arange r)
{
    if (a->count == *cap) {
        size_t more = *cap ? *cap * 2 : 256;
        struct dwarf_arange *list = realloc(a->list, more * sizeof(*list));
        if (!list)
            return -1;
        a->list = list;
        *cap = more;
    }
    a->list[a->count++] = r;
    return 0;
}

/*
 * One set: its header (unit length, version 2, unit offset, address and
 * segment sizes), padding to twice the address size, then (address,
 * length) pairs up to (0, 0). Returns 1, 0 for a set libdw refuses, -1
 * when memory runs out.
 */
static int read_set(struct dwarf_aranges *a, size_t *cap, struct dwarf_reader *r, size_t info_size)
{
    const unsigned char *start = r->p;
    uint64_t length = dwarf_read(r, 4);
    size_t offset_size = 4;
    if (length == 0xffffffff)
        length = dwarf_read(r, 8), offset_size = 8;
    else if (length >= 0xfffffff0)
        return 0; /* a reserved length */
    uint64_t version = dwarf_read(r, 2);
    uint64_t unit = dwarf_read(r, offset_size);
    uint64_t address_size = dwarf_read(r, 1);
    dwarf_read(r, 1); /* segment selector size: ignored, as libdw does */
    if (!r->ok || version != 2 || (address_size != 4 && address_size != 8) || unit >= info_size)
        return 0;
    size_t pair = 2 * (size_t)address_size;
    dwarf_read(r, (pair - (size_t)(r->p - start) % pair) % pair);
    for (;;) {
        uint64_t addr = dwarf_read(r, address_size), len = dwarf_read(r, address_size);
        if (!r->ok)
            return 0;
        if (addr == 0 && len == 0)
            return 1;
        if (add(a, cap, (struct dwarf_arange){addr, len, unit}))
            return -1;
    }
}

/* A stable sort: the section's order breaks ties (qsort's order among them is unspecified). */
static int sort_stable(struct dwarf_aranges *a)
{
    struct dwarf_arange *tmp = malloc(a->count * sizeof(*tmp));
    if (!tmp)
        return -1;
    for (size_t width = 1; width < a->count; width *= 2) {
        for (size_t lo = 0; lo < a->count; lo += 2 * width) {
            size_t mid = lo + width < a->count ? lo + width : a->count;
            size_t hi = lo + 2 * width < a->count ? lo + 2 * width : a->count;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = a->list[j].start < a->list[i].start ? a->list[j++] : a->list[i++];
            while (i < mid)
                tmp[k++] = a->list[i++];
            while (j < hi)
                tmp[k++] = a->list[j++];
        }
        memcpy(a->list, tmp, a->count * sizeof(*tmp));
    }
    free(tmp);
    return 0;
}

int dwarf_aranges_read(struct dwarf_aranges *a, Dwarf *dw)
{
    memset(a, 0, sizeof(*a));
    size_t size = 0, info_size = 0;
    const unsigned char *bytes = dwarf_section_bytes(dw, ".debug_aranges", &size);
    if (!bytes || !dwarf_section_bytes(dw, ".debug_info", &info_size))
        return 0;
    struct dwarf_reader r = {bytes, bytes + size, true};
    size_t cap = 0;
    int rc = 1;
    while (rc == 1 && r.p < r.end)
        rc = read_set(a, &cap, &r, info_size);
    if (rc == 1 && a->count > 1 && sort_stable(a))
        rc = -1;
    if (rc != 1)
        dwarf_aranges_free(a);
    return rc;
}

Dwarf_Die *dwarf_aranges_unit(const struct dwarf_aranges *a, Dwarf *dw, Dwarf_Addr addr,
                              Dwarf_Die *result)
{
    size_t lo = 0, hi = a->count;
    while (lo < hi) { /* dwarf_getarange_addr's search */
        size_t mid = (lo + hi) / 2;
        const struct dwarf_arange *r = &a->list[mid];
        if (addr < r->start) {
            hi = mid;
        } else if (addr > r->start && addr - r->start >= r->length) {
            lo = mid + 1;
        } else {
            Dwarf_Die header;
            if (!dwarf_offdie(dw, r->unit, &header)) /* the unit holding that offset */
                return NULL;
            return dwarf_diecu(&header, result, NULL, NULL);
        }
    }
    return NULL;
}

void dwarf_aranges_free(struct dwarf_aranges *a)
{
    free(a->list);
    memset(a, 0, sizeof(*a));
}
