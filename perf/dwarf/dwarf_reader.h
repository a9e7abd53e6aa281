/*
 * dwarf_reader: reading DWARF sections' bytes ourselves
 * (perf/dwarf/dwarf_aranges.c, perf/dwarf/line_rows.c): a section's bytes as libdw
 * reads them, and a little-endian reader whose reads past the end fail
 * once and for all (`ok` false, zeros read) instead of reading out of
 * bounds, so a parser checks `ok` where it decides, not at every field.
 */
#ifndef PERF_DWARF_READER_H
#define PERF_DWARF_READER_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dwarf_reader {
    const unsigned char *p, *end;
    bool ok; /* false once a read went past the end */
};

/* `n` bytes (at most 8) as a little-endian number. */
static inline uint64_t dwarf_read(struct dwarf_reader *r, size_t n)
{
    if ((size_t)(r->end - r->p) < n) {
        r->ok = false;
        r->p = r->end;
        return 0;
    }
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | r->p[i];
    r->p += n;
    return v;
}

/* An unsigned LEB128 number (bits past 64 dropped). */
static inline uint64_t dwarf_read_uleb(struct dwarf_reader *r)
{
    uint64_t v = 0;
    for (unsigned shift = 0; r->p < r->end; shift += 7) {
        unsigned char b = *r->p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    r->ok = false;
    return 0;
}

/*
 * The bytes of the section `name` (".debug_line") of `dw`'s file, as libdw
 * reads them, in `*size`; NULL when there is none this reader takes: not a
 * little-endian file, no such section, or one still compressed.
 */
const unsigned char *dwarf_section_bytes(Dwarf *dw, const char *name, size_t *size);

#endif
