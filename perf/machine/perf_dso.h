/*
 * perf_dso: the binaries the samples ran in, one per file name (a
 * library mapped by many processes is one DSO), each with its build id,
 * its functions (read the first time a sample needs them, then kept) and
 * the folded frame names already made from them, so that a frame is
 * named once, not once per sample.
 */
#ifndef PERF_PERF_DSO_H
#define PERF_PERF_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hash_table.h"
#include "perf/symbols/build_id.h"
#include "perf/symbols/symbol_rules.h"
#include "symtab/symtab.h"

enum dso_kind {
    DSO_FILE,     /* a file on disk, mapped at its pgoff */
    DSO_VDSO,     /* "[vdso]": its image is found by build id */
    DSO_PERF_MAP, /* anonymous code: "/tmp/perf-PID.map" (JIT symbols), addresses as they are */
    DSO_NONE,     /* "[heap]", "[stack]", other memory without a file: no symbols */
    DSO_KERNEL,   /* "[kernel.kallsyms]" */
};

struct perf_dso {
    char *name; /* as perf script prints it in parentheses */
    enum dso_kind kind;
    struct build_id build_id;
    bool loaded;   /* symbols looked for (found or not) */
    bool demangle; /* names as read from ELF files: frames demangle them (perf_demangle_symbol) */
    struct symtab syms;
    char *runtime_path; /* the file whose segments were mapped (for unwinding); NULL: none found */
    char *symsrc_path;  /* the file the symbols came from (for inlined frames); NULL: none */
    struct symbol_lookup lookup; /* perf's tree, when functions overlap */
    uint32_t *frames;            /* frame name id by function index, 0: not named yet */
    size_t nr_frames;            /* entries of frames */
    uint32_t unknown_frame;      /* "[basename]" for addresses no function covers; 0: not yet */
    struct elf_file *names_file; /* the ELF file whose string table the names are in; NULL */
    UT_hash_handle hh;           /* in perf_dsos, by name */
};

struct elf_file;

struct perf_dsos {
    struct perf_dso *by_name; /* uthash head */
};

void perf_dsos_init(struct perf_dsos *d);
void perf_dsos_free(struct perf_dsos *d);

/* The DSO named `name`, created with `kind` when new. NULL when memory runs out. */
struct perf_dso *perf_dsos_findnew(struct perf_dsos *d, const char *name, enum dso_kind kind);

/* Where binaries and their symbols are looked for. */
struct debug_cache_later;

struct symbol_paths {
    const char *buildid_dir; /* perf's build-id cache: $PERF_BUILDID_DIR, else ~/.debug */
    const char *debug_dir;   /* system debug files: /usr/lib/debug */
    bool offline;            /* read no binaries at all (fuzzing): every DSO is symbol-less */
    const char
        *debug_cache; /* inflated DWARF kept here (perf/dwarf/debug_cache.h); NULL: not kept */
    /* where its stores go (perf/dwarf/debug_cache.h); NULL: on threads the fold waits for */
    struct debug_cache_later *debug_cache_later;
    /*
     * Told when a file DSO's files are chosen (its symsrc_path and
     * runtime_path set), before its symbols are read: perf/fold/stack.c starts
     * inflating its DWARF there, beside that reading. NULL: not told.
     */
    void (*files_chosen)(void *arg, struct perf_dso *dso);
    void *files_chosen_arg;
};

/*
 * Reads the DSO's functions the way perf does for its kind (the first
 * time only). A DSO whose binary cannot be found keeps an empty table.
 * Returns 0, or -1 when memory runs out.
 */
int perf_dso_load(struct perf_dso *dso, const struct symbol_paths *paths);

/* Sets the frame-name cache up for the loaded table. Returns 0 or -1 (memory). */
int perf_dso_prepare_frames(struct perf_dso *dso);

/* Makes the frame-name cache cover a table that grew (a lazy one). Returns 0 or -1 (memory). */
int perf_dso_grow_frames(struct perf_dso *dso);

#endif
