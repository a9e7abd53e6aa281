/*
 * line_rows: a unit's line program run for its row addresses
 * (perf/dwarf/line_rows.h).
 */
#include "perf/dwarf/line_rows.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "perf/dwarf/dwarf_reader.h"

/* The parts of a line program's header the rows' addresses need. */
struct program {
    unsigned min_inst, opcode_base, line_range;
    size_t address_size;
};

/* libdw's lengths of the standard opcodes it knows (DW_LNS_copy .. DW_LNS_set_isa). */
static const unsigned char known_lengths[] = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};

/*
 * Reads the header at `r` (the unit's bytes), leaving `r` at the program
 * and its end at the unit's end; false: not one taken here.
 */
static bool read_header(struct dwarf_reader *r, struct program *pg, size_t cu_address_size)
{
    uint64_t length = dwarf_read(r, 4);
    size_t offset_size = 4;
    if (length == 0xffffffff)
        length = dwarf_read(r, 8), offset_size = 8;
    else if (length >= 0xfffffff0)
        return false;
    if (!r->ok || length > (uint64_t)(r->end - r->p))
        return false;
    r->end = r->p + length;
    uint64_t version = dwarf_read(r, 2);
    if (version < 2 || version > 5)
        return false;
    pg->address_size = cu_address_size;
    if (version >= 5) {
        pg->address_size = dwarf_read(r, 1);
        dwarf_read(r, 1); /* segment selector size */
    }
    uint64_t header_length = dwarf_read(r, offset_size);
    const unsigned char *program = r->p;
    pg->min_inst = (unsigned)dwarf_read(r, 1);
    if (version >= 4 && dwarf_read(r, 1) != 1)
        return false; /* VLIW operations */
    dwarf_read(r, 1); /* default_is_stmt */
    dwarf_read(r, 1); /* line_base */
    pg->line_range = (unsigned)dwarf_read(r, 1);
    pg->opcode_base = (unsigned)dwarf_read(r, 1);
    if (!r->ok || pg->line_range == 0 || pg->opcode_base == 0 ||
        (pg->address_size != 4 && pg->address_size != 8))
        return false;
    for (unsigned op = 1; op < pg->opcode_base; op++) {
        unsigned len = (unsigned)dwarf_read(r, 1);
        if (op <= sizeof(known_lengths) && len != known_lengths[op - 1])
            return false;
    }
    if (!r->ok || header_length > (uint64_t)(r->end - program))
        return false;
    r->p = program + header_length;
    return true;
}

static int add(struct line_rows *rows, size_t *cap, uint64_t addr, bool row)
{
    if (rows->count == *cap) {
        size_t more = *cap ? *cap * 2 : 256;
        struct line_row_at *list = realloc(rows->list, more * sizeof(*list));
        if (!list)
            return -1;
        rows->list = list;
        *cap = more;
    }
    rows->list[rows->count++] = (struct line_row_at){addr, row};
    return 0;
}

/* Runs the program: 1, 0 when it is not one taken here, -1 when memory runs out. */
static int run(struct line_rows *rows, struct dwarf_reader *r, const struct program *pg)
{
    size_t cap = 0;
    uint64_t addr = 0;
    while (r->p < r->end) {
        unsigned op = (unsigned)dwarf_read(r, 1);
        int emitted = -2; /* no row; else whether it ends a sequence */
        if (op >= pg->opcode_base) {
            addr += (uint64_t)((op - pg->opcode_base) / pg->line_range) * pg->min_inst;
            emitted = 0;
        } else if (op == 0) {
            uint64_t len = dwarf_read_uleb(r);
            const unsigned char *next = r->p + (len <= (uint64_t)(r->end - r->p) ? len : 0);
            if (!r->ok || len == 0 || next == r->p)
                return 0;
            unsigned sub = (unsigned)dwarf_read(r, 1);
            if (sub == DW_LNE_end_sequence) {
                emitted = 1;
            } else if (sub == DW_LNE_set_address) {
                addr = dwarf_read(r, pg->address_size);
            }
            r->p = next;
        } else if (op == DW_LNS_copy) {
            emitted = 0;
        } else if (op == DW_LNS_advance_pc) {
            addr += dwarf_read_uleb(r) * pg->min_inst;
        } else if (op == DW_LNS_const_add_pc) {
            addr += (uint64_t)((255 - pg->opcode_base) / pg->line_range) * pg->min_inst;
        } else if (op == DW_LNS_fixed_advance_pc) {
            addr += dwarf_read(r, 2);
        } else if (op == DW_LNS_advance_line) {
            dwarf_read_uleb(r); /* signed, skipped alike */
        } else if (op <= sizeof(known_lengths)) {
            for (unsigned i = 0; i < known_lengths[op - 1]; i++)
                dwarf_read_uleb(r);
        } else {
            return 0; /* an opcode libdw does not know: its lengths are not read here */
        }
        if (!r->ok)
            return 0;
        if (emitted >= 0 && add(rows, &cap, addr, emitted == 0))
            return -1;
        if (emitted == 1)
            addr = 0;
    }
    return 1;
}

/* The end of the ascending run of rows that starts at `i`. */
static size_t run_end(const struct line_row_at *list, size_t i, size_t n)
{
    while (i + 1 < n && list[i].addr <= list[i + 1].addr)
        i++;
    return i + 1;
}

/*
 * Sorts the rows by address: a line program's sequences are each mostly
 * ascending already, so runs are merged (a natural merge sort, two runs at
 * a time) rather than every row compared through qsort's callback.
 * Returns 0, or -1 when memory runs out.
 */
static int sort_rows(struct line_rows *rows)
{
    size_t n = rows->count;
    if (run_end(rows->list, 0, n) == n)
        return 0;
    struct line_row_at *tmp = malloc(n * sizeof(*tmp)), *from = rows->list, *to = tmp;
    if (!tmp)
        return -1;
    for (;;) {
        size_t runs = 0;
        for (size_t lo = 0; lo < n; runs++) {
            size_t mid = run_end(from, lo, n), hi = mid < n ? run_end(from, mid, n) : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                to[k++] = from[j].addr < from[i].addr ? from[j++] : from[i++];
            while (i < mid)
                to[k++] = from[i++];
            while (j < hi)
                to[k++] = from[j++];
            lo = hi;
        }
        struct line_row_at *swap = from;
        from = to, to = swap;
        if (runs <= 1)
            break;
    }
    if (from != rows->list)
        memcpy(rows->list, from, n * sizeof(*from));
    free(tmp);
    return 0;
}

/*
 * Sorts and keeps one entry per address: a row there that ends no
 * sequence, if any. libdw marks the last row of its sorted table as an end
 * of sequence ("some compilers forget"), so at the highest address there
 * is none.
 */
static int merge(struct line_rows *rows)
{
    if (sort_rows(rows))
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < rows->count; i++) {
        if (k > 0 && rows->list[k - 1].addr == rows->list[i].addr)
            rows->list[k - 1].row |= rows->list[i].row;
        else
            rows->list[k++] = rows->list[i];
    }
    rows->count = k;
    if (k > 0)
        rows->list[k - 1].row = false;
    return 0;
}

int line_rows_read(struct line_rows *rows, Dwarf *dw, Dwarf_Die *cu)
{
    memset(rows, 0, sizeof(*rows));
    Dwarf_Attribute attr;
    Dwarf_Word offset;
    uint8_t address_size = 0;
    Dwarf_Die unit;
    size_t size = 0;
    const unsigned char *bytes =
        dwarf_formudata(dwarf_attr(cu, DW_AT_stmt_list, &attr), &offset) == 0 &&
                dwarf_diecu(cu, &unit, &address_size, NULL)
            ? dwarf_section_bytes(dw, ".debug_line", &size)
            : NULL;
    if (!bytes || offset >= size)
        return 0;
    struct dwarf_reader r = {bytes + offset, bytes + size, true};
    struct program pg;
    if (!read_header(&r, &pg, address_size))
        return 0;
    int rc = run(rows, &r, &pg);
    if (rc == 1 && rows->count == 0)
        rc = 0; /* libdw's answer for an empty table: none */
    if (rc == 1 && merge(rows))
        rc = -1;
    if (rc != 1)
        line_rows_free(rows);
    return rc;
}

bool line_rows_has(const struct line_rows *rows, uint64_t addr)
{
    size_t lo = 0, hi = rows->count; /* the first entry above addr */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rows->list[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && rows->list[lo - 1].row;
}

void line_rows_free(struct line_rows *rows)
{
    free(rows->list);
    memset(rows, 0, sizeof(*rows));
}
