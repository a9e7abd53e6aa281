/*
 * ceno_hints: Ceno's hints region, as ceno_host lays it out (see
 * ceno_hints.h). scroll-tech/ceno ceno_host/src/lib.rs:
 *
 * rkyv (d6191f74 .. fe4b65da; RKYV_ALIGNMENT = rkyv's AlignedVec::ALIGNMENT,
 *   16): Items::finalise writes each item's end, a u32 counted from the
 *   region's start, zero-padded to 16 bytes, then the items, each padded
 *   to 16. ceno_rt's mmio.rs read_slice takes hints[..end]: rkyv finds
 *   its root from the end, whatever lies before it.
 * ceno_serde (cff9d41d on): the data offset 4 (n + 2), the alignment 4,
 *   each item's length, then the items, each padded to 4 (RegionState in
 *   mmio.rs reads them in that order).
 */
#define _GNU_SOURCE /* memmem */
#include "executor/abi/ceno_hints.h"

#include <string.h>

#include "executor/memory.h"

#define RKYV_ALIGNMENT 16

static bool file_has(const struct elf_image *img, const char *text)
{
    return img->file && memmem(img->file, img->file_size, text, strlen(text)) != NULL;
}

enum ceno_hint_format ceno_hint_format_of(const struct elf_image *img, bool earlier)
{
    if (earlier)
        return CENO_HINTS_RKYV;
    bool rkyv = file_has(img, "rkyv") || file_has(img, "Deserialised access failed.");
    return rkyv && !file_has(img, "ceno_serde") ? CENO_HINTS_RKYV : CENO_HINTS_SERDE;
}

const char *ceno_hint_format_name(enum ceno_hint_format f)
{
    return f == CENO_HINTS_RKYV ? "rkyv" : "ceno_serde";
}

static uint64_t round_up(uint64_t n, uint64_t to)
{
    return (n + to - 1) / to * to;
}

/* The table's bytes (before the items) and each item's padding, by format. */
static uint64_t table_size(enum ceno_hint_format f, size_t n)
{
    return f == CENO_HINTS_RKYV ? round_up(4 * (uint64_t)n, RKYV_ALIGNMENT) : 4 * ((uint64_t)n + 2);
}

static uint64_t padding(enum ceno_hint_format f)
{
    return f == CENO_HINTS_RKYV ? RKYV_ALIGNMENT : 4;
}

int ceno_lay_out_hints(struct machine *m, enum ceno_hint_format f, uint64_t at, uint64_t end,
                       struct error *e)
{
    size_t n = m->io.ninputs;
    uint64_t offset = table_size(f, n), size = offset;
    for (size_t i = 0; i < n; i++)
        size += round_up(m->io.inputs[i].size, padding(f));
    if (size > end - at || size > UINT32_MAX) {
        error_fail(e, ERROR_UNSUPPORTED,
                   "the --input items take %llu bytes, more than Ceno's %llu MiB of hints",
                   (unsigned long long)size, (unsigned long long)((end - at) >> 20));
        return -1;
    }
    uint64_t table = at;
    if (f == CENO_HINTS_SERDE) {
        uint32_t head[2] = {(uint32_t)offset, 4};
        mem_poke(&m->mem, at, head, 8);
        table += 8;
    }
    uint64_t data = at + offset;
    for (size_t i = 0; i < n; i++) {
        uint32_t len = (uint32_t)m->io.inputs[i].size;
        uint32_t word = f == CENO_HINTS_RKYV ? (uint32_t)(data - at) + len : len;
        mem_poke(&m->mem, table + 4 * i, &word, 4);
        mem_poke(&m->mem, data, m->io.inputs[i].data, len);
        data += round_up(len, padding(f));
    }
    return 0;
}
