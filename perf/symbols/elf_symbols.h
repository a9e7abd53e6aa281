/*
 * elf_symbols: the functions of a user-space binary as perf 6.1 reads
 * them (tools/perf/util/symbol-elf.c: dso__load_sym and
 * dso__synthesize_plt_symbols), at file offsets, which is how a sample's
 * address is looked up: its offset into the mapping plus the mapping's
 * file offset (pgoff).
 *
 *   - the table is the .symtab of `syms` (a debug file may supply it),
 *     else its .dynsym; never both;
 *   - a symbol counts when it is STT_FUNC or STT_GNU_IFUNC with a name in
 *     an allocated section, or a visible named STT_NOTYPE label in a
 *     section whose name holds "text";
 *   - its address becomes a file offset through the PT_LOAD segment of
 *     `runtime` (the binary that ran) that holds it;
 *   - names are kept as read, and demangled as perf does
 *     (perf_demangle_symbol) only where a frame or a tie needs them;
 *   - PLT entries become "name@plt" functions.
 */
#ifndef PERF_ELF_SYMBOLS_H
#define PERF_ELF_SYMBOLS_H

#include "perf/symbols/elf_file.h"
#include "perf/symbols/symbol_rules.h"

/*
 * Adds the functions of `syms` (addresses adjusted by `runtime`, which
 * may be the same file) and applies perf's fixups. With b->borrow, the
 * names stay in `syms`, which must then outlive the table. Returns the number of
 * functions added, or -1 when memory runs out.
 */
long elf_symbols_read(struct symbol_builder *b, const struct elf_file *syms,
                      const struct elf_file *runtime);

/* Adds `runtime`'s PLT entries. Returns the number added, or -1 when memory runs out. */
long elf_plt_symbols(struct symbol_builder *b, const struct elf_file *runtime);

#endif
