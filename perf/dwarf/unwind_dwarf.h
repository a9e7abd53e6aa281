/*
 * unwind_dwarf: the user stacks of `perf record --call-graph dwarf`
 * samples, unwound with elfutils' libdw from the sampled user registers
 * (PERF_SAMPLE_REGS_USER) and the copy of the user stack
 * (PERF_SAMPLE_STACK_USER), the way perf script unwinds them
 * (docs/PERF.md, "DWARF unwinding"):
 *
 *   - the first address is the sampled pc; each caller's is its return
 *     address minus 1 (plus 0 for a signal frame), as perf prints them;
 *   - memory is the stack copy from the sampled sp, else the mapped
 *     files' bytes; the unwinding stops where neither has the word;
 *   - at most `max` addresses (perf script's --max-stack).
 *
 * One Dwfl per process (its modules reported as the unwinding reaches
 * them, their CFI parsed once and kept), rebuilt when the process's code
 * mappings change (exec, dlopen), freed when the process exits, and at
 * most UNWIND_MAX_PROCESSES kept (the least recently used goes).
 */
#ifndef PERF_UNWIND_DWARF_H
#define PERF_UNWIND_DWARF_H

#include <stddef.h>
#include <stdint.h>

#include "perf/machine/perf_machine.h"
#include "perf/perf.h" /* enum unwind_end: how an unwinding ended */
#include "perf/data/perf_record.h"

#define UNWIND_MAX_PROCESSES 32

struct unwind_dwarf;

/* NULL when memory runs out. `arch` is HEADER_ARCH's string (NULL: unknown). */
struct unwind_dwarf *unwind_dwarf_new(struct perf_machine *m, const char *arch);
void unwind_dwarf_free(struct unwind_dwarf *u);

/* The process `pid` exited: its Dwfl goes (a later sample makes a new one). */
void unwind_dwarf_forget(struct unwind_dwarf *u, int32_t pid);

/*
 * Unwinds the user stack of `sample` (taken in `thread`) into ips[0..n),
 * leaf first; returns n (0 when the registers have no pc) and says in
 * *end why it stopped.
 */
size_t unwind_dwarf_user(struct unwind_dwarf *u, struct perf_thread *thread,
                         const struct perf_sample *sample, uint64_t *ips, size_t max,
                         enum unwind_end *end);

#endif
