/*
 * dwarf_scopes: the functions whose code holds an address, outermost
 * first, the way bfd's lookup_address_in_function_table finds them for
 * addr2line (perf/dwarf/inline_frames.h): descending from a unit's DIE through
 * the DIEs that hold the address (subprograms, inlined subroutines,
 * blocks), looking into namespaces and types, which hold no code but may
 * hold functions; of several functions at one level that hold it
 * (aliases of assembly code), the last.
 *
 * A unit's DIEs above its functions (a C++ unit: every declaration of
 * every header, namespace std and its classes) are walked once, into an
 * index of what holds code there and where (dwarf_scopes_index); each
 * address then scans that index instead of the DIEs, and walks only
 * inside the function found. The answers are the walk's.
 */
#ifndef PERF_DWARF_SCOPES_H
#define PERF_DWARF_SCOPES_H

#include <elfutils/libdw.h>
#include <stdbool.h>

#define DWARF_SCOPES_MAX_DEPTH 64 /* nested functions, blocks and types followed */

/*
 * The walk itself: fills chain[*n ..] (at most DWARF_SCOPES_MAX_DEPTH in
 * all) below `parent` at `depth`; whether a function holds `addr`.
 */
bool dwarf_scopes_walk(Dwarf_Die *parent, Dwarf_Addr addr, Dwarf_Die *chain, int *n, int depth);

struct dwarf_scopes;

/* One unit's index (its DIE from dwarf_addrdie); NULL when memory runs out. */
struct dwarf_scopes *dwarf_scopes_index(Dwarf_Die *cu);
void dwarf_scopes_free(struct dwarf_scopes *s);

/* dwarf_scopes_walk(cu, addr, chain, n, 0) answered from the unit's index. */
bool dwarf_scopes_find(const struct dwarf_scopes *s, Dwarf_Addr addr, Dwarf_Die *chain, int *n);

#endif
