/*
 * inline_chain: for a pc, the chain of inlined subroutines that hold it and
 * the source lines, read from the ELF's DWARF with libdw (Debian
 * libdw-dev), as docs/ARCHITECTURE.md ("Inline frames") describes. The
 * function frame itself is symtab's; this answers only what lies below it.
 * Nothing is read until a pc is asked, and every pc's answer is kept, so
 * asking again costs one hash lookup.
 */
#ifndef SYMTAB_INLINE_CHAIN_H
#define SYMTAB_INLINE_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* One inlined subroutine holding the pc. */
struct inline_frame {
    const char *name;      /* demangled (symtab/demangle.h); NULL when DWARF names none */
    const char *call_file; /* where it was inlined into its parent, or NULL */
    unsigned call_line;    /* 0 when unknown */
};

struct inline_chain {
    const struct inline_frame *frames; /* outermost first */
    size_t depth;                      /* 0: the pc is in no inlined code */
    const char *file;                  /* the pc's own source line, or NULL */
    unsigned line;                     /* 0 when unknown */
};

struct inline_chains;

/*
 * Prepares to answer for the ELF in `file` (copied: it need not outlive
 * the result). An ELF without DWARF answers empty chains; DWARF libdw
 * cannot open answers empty chains and sets the warning. Returns 0, or -1
 * with `e` set: ERROR_CORRUPT when the ELF cannot be parsed,
 * ERROR_NO_MEMORY.
 */
int inline_chains_open(struct inline_chains **out, const uint8_t *file, size_t size,
                       struct error *e);

/*
 * From now on, chains leave out the source lines (file NULL, line 0) and
 * the call sites: each costs a line-table lookup and a path per pc, which
 * a profile of frames alone never reads.
 */
void inline_chains_skip_lines(struct inline_chains *ic);

/*
 * The chain at `pc`, valid until inline_chains_close. Bad DWARF gives an
 * empty chain and sets the warning. NULL only when memory runs out (`e`
 * set to ERROR_NO_MEMORY).
 */
const struct inline_chain *inline_chain_at(struct inline_chains *ic, uint64_t pc, struct error *e);

/*
 * Whether the chain at some pc of [lo, hi), taken every `step` bytes,
 * has a named frame, as inline_chain_at's would: 1 or 0. Quicker than
 * asking each pc (no lines, call sites or answers kept). -1 only when
 * memory runs out (`e` set).
 */
int inline_chains_any_named(struct inline_chains *ic, uint64_t lo, uint64_t hi, unsigned step,
                            struct error *e);

/* Whether the ELF has DWARF (.debug_info) at all: without it every chain is empty. */
bool inline_chains_has_dwarf(const struct inline_chains *ic);

/* One line naming the first DWARF damage seen so far, or NULL. */
const char *inline_chains_warning(const struct inline_chains *ic);

void inline_chains_close(struct inline_chains *ic);

#endif
