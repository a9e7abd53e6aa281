/*
 * dwarf_aranges: which unit of a DWARF file holds an address, from its
 * .debug_aranges, as libdw's dwarf_addrdie answers (perf/dwarf/inline_frames.c).
 * dwarf_addrdie reads that table with dwarf_getaranges, which in elfutils
 * 0.188 looks up the unit of every range as it reads it, so libdw interns
 * every unit of the file at the first question: for libc's debug file
 * 2,083 ranges over 2,063 units, about 2 ms, though a fold asks about
 * units of a few dozen functions. Here the table is read into a sorted
 * array, and the unit of an address is found when it is asked about
 * (libdw interns only the units before it).
 *
 * A table this reader does not take as it is (other byte order, a version
 * or address size libdw refuses, cut short, a unit outside .debug_info) is
 * not read at all: the caller asks dwarf_addrdie, so libdw answers as it
 * would have.
 */
#ifndef PERF_DWARF_ARANGES_H
#define PERF_DWARF_ARANGES_H

#include <elfutils/libdw.h>
#include <stddef.h>
#include <stdint.h>

struct dwarf_arange {
    uint64_t start, length;
    uint64_t unit; /* the unit header's offset in .debug_info */
};

struct dwarf_aranges {
    struct dwarf_arange *list; /* by start (ties in the section's order) */
    size_t count;
};

/*
 * Reads the table of `dw`'s file into `a`. Returns 1, 0 when there is no
 * table to read here (see above: ask dwarf_addrdie), -1 when memory runs out.
 */
int dwarf_aranges_read(struct dwarf_aranges *a, Dwarf *dw);

/*
 * dwarf_addrdie's answer from the table: the DIE of the unit whose range
 * holds `addr` (libdw's binary search, which also takes a range of length
 * 0 that starts there), in `result`; NULL when none does.
 */
Dwarf_Die *dwarf_aranges_unit(const struct dwarf_aranges *a, Dwarf *dw, Dwarf_Addr addr,
                              Dwarf_Die *result);

void dwarf_aranges_free(struct dwarf_aranges *a);

#endif
