/*
 * line_rows: whether a unit's line table has a row for an address, as
 * libdw's dwarf_getsrc_die answers (perf/dwarf/inline_frames.c asks it of each
 * new address, as addr2line looks for a line before it names inlined
 * functions). dwarf_getsrc_die first builds libdw's whole table of the
 * unit: every row with its file, line, column and flags, allocated and
 * sorted (about a tenth of a warm DWARF fold's instructions). Here the
 * unit's line program is run once for the addresses of its rows alone.
 *
 * dwarf_getsrc_die sorts the rows by address (at one address an
 * end-of-sequence row first) and answers with the last row at or below
 * the address unless that row ends a sequence; so the answer is whether
 * a row that ends no sequence lies at the highest row address at or below
 * it (never at the table's highest address: libdw marks its last row as
 * an end of sequence), which is what is kept per address here.
 *
 * A line program this reader does not take as it is (a version other than
 * 2 to 5, VLIW operations, opcode lengths libdw refuses, cut short) is not
 * read: the caller asks dwarf_getsrc_die, so libdw answers as before.
 */
#ifndef PERF_LINE_ROWS_H
#define PERF_LINE_ROWS_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct line_row_at {
    uint64_t addr;
    bool row; /* a row that ends no sequence lies here */
};

struct line_rows {
    struct line_row_at *list; /* by address, one entry each */
    size_t count;
};

/*
 * Reads the row addresses of the line table of `cu`, a unit DIE of `dw`.
 * Returns 1, 0 when it is not read here (see above: ask dwarf_getsrc_die;
 * also a unit without a line table or with no rows), -1 when memory runs
 * out.
 */
int line_rows_read(struct line_rows *r, Dwarf *dw, Dwarf_Die *cu);

/* dwarf_getsrc_die(cu, addr) != NULL, from the rows read. */
bool line_rows_has(const struct line_rows *r, uint64_t addr);

void line_rows_free(struct line_rows *r);

#endif
