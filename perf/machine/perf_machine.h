/*
 * perf_machine: the recorded system as the records describe it at each
 * moment: its threads and their address spaces (MMAP, MMAP2, COMM, FORK),
 * the binaries mapped, and the kernel (its map from the kernel MMAP
 * record, its symbols from kallsyms). It answers the one question folding
 * asks: what did address `ip`, in thread T, in user or kernel mode, hit?
 * The answer is perf's (tools/perf/util/machine.c, map.c, event.c:
 * thread__find_map, map__new): a DSO and a function in it, or nothing.
 */
#ifndef PERF_PERF_MACHINE_H
#define PERF_PERF_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/symbols/kallsyms.h"
#include "perf/symbols/kallsyms_index.h"
#include "perf/machine/maps_snapshot.h"
#include "perf/machine/perf_dso.h"
#include "perf/data/perf_features.h"
#include "perf/data/perf_record.h"
#include "perf/machine/perf_threads.h"

struct perf_kernel {
    struct perf_dso *dso; /* "[kernel.kallsyms]"; NULL until the kernel's MMAP record */
    uint64_t start, end;  /* the kernel map: from the record, then from the symbols */
    char *reloc_name;     /* the relocation symbol ("_text") and its recorded address */
    uint64_t reloc_addr;
    struct kallsyms_text text;   /* the kallsyms file the symbols' names are in */
    struct kallsyms_index index; /* the kernel's own kallsyms, searched as frames need it */
    bool indexed;                /* symbols come from `index` (else all are in the DSO's table) */
    bool resolved;               /* symbols looked for */
    bool has_symbols;
    uint64_t generation; /* bumped when the kernel map changes, for caches of lookups */
};

struct perf_machine {
    struct perf_threads threads;
    struct perf_dsos dsos;
    struct perf_kernel kernel;
    struct symbol_paths paths;
    const char *kallsyms; /* a kallsyms file to use instead of perf's choice (tests) */
    bool x86_64;

    struct maps_snapshot *backfill; /* mappings for addresses the records map nowhere; NULL: none */
};

/* What an address hit. */
struct perf_location {
    struct perf_dso *dso;           /* NULL: no mapping holds the address */
    const struct symtab_func *func; /* NULL: no function of the DSO holds it */
    size_t func_index;
    uint64_t addr; /* as perf script prints it: offset into the DSO's file for user code */
};

int perf_machine_init(struct perf_machine *m, const struct symbol_paths *paths, const char *arch);
void perf_machine_free(struct perf_machine *m);

/* Gives the recorded build ids to their DSOs. Returns 0 or -1 (memory). */
int perf_machine_build_ids(struct perf_machine *m, const struct perf_build_ids *ids);

/* The record handlers; each returns 0, or -1 when memory runs out. */
int perf_machine_mmap(struct perf_machine *m, uint8_t cpumode, const struct perf_mmap_event *ev);
int perf_machine_comm(struct perf_machine *m, const struct perf_comm_event *ev);
int perf_machine_fork(struct perf_machine *m, const struct perf_task_event *ev, uint16_t misc);

/*
 * Resolves `ip` of `thread` in `cpumode` (PERF_RECORD_MISC_KERNEL, _USER;
 * anything else resolves to nothing). Loads symbols on first use.
 * Returns 0, or -1 when memory runs out.
 */
int perf_machine_locate(struct perf_machine *m, struct perf_thread *thread, uint8_t cpumode,
                        uint64_t ip, struct perf_location *loc);

#endif
