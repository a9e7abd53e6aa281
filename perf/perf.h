/*
 * perf: host profiles from Linux perf (docs/PERF.md), the one header a
 * program includes from perf/. What it offers:
 *
 *   - `cli perf collapse`: perf script's text folded into a trie
 *     (perf_collapse), as stackcollapse-perf.pl folds it;
 *   - `cli perf fold`: a perf.data file folded into a trie
 *     (perf_recording_open, perf_recording_fold), the stacks `perf script
 *     | cli perf collapse` gives for it on the same machine;
 *   - `cli profile`: what recording needs besides perf itself: the
 *     /proc/PID/maps snapshot of a process tree (maps_snapshot,
 *     proc_watch), whether a recording holds the command's exec, and
 *     whether a program's code keeps frame pointers.
 *
 * Both folds name frames by the same rules (docs/PERF.md#folding-rules)
 * and key the trie by strtab ids of the frame names, so folded_write
 * with folded_name_of writes the result and the SVG renderer draws it.
 * The rooms behind this header (perf/data, symbols, machine, dwarf,
 * fold) are perf/'s own.
 */
#ifndef PERF_PERF_H
#define PERF_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "profile/strtab.h"
#include "profile/trie.h"

/* The flags that change frame names, the same for both folds. */
struct perf_name_opts {
    bool addrs;  /* --addrs: keep the address of frames without a symbol */
    bool pid;    /* --pid: comm-PID */
    bool tid;    /* --tid: comm-PID/TID (wins over pid) */
    bool kernel; /* --kernel: "_[k]" on frames of kernel modules */
    bool jit;    /* --jit: "_[j]" on frames of JIT modules */
};

/*
 * perf script's text: a sample header line ("comm pid/tid [cpu] time:
 * period event:"), the call chain leaf first, one frame per line, then a
 * blank line (perf/fold/collapse.c). Stacks go into the trie root first:
 * the comm frame, then the outermost caller down to the sampled leaf.
 */
struct perf_collapse_opts {
    const char *event; /* count only this event; NULL: the first one in the input */
    struct perf_name_opts names;
};

#define PERF_COLLAPSE_MAX_EVENTS 8

/* What a caller may want to warn about; free with perf_collapse_report_free. */
struct perf_collapse_report {
    uint64_t samples;         /* samples counted */
    uint64_t skipped_samples; /* samples of other events, left out */
    char *counted_event;      /* the event counted (NULL: none named or none matched) */
    char *other_events[PERF_COLLAPSE_MAX_EVENTS]; /* the first distinct events left out */
    size_t other_count;                           /* how many distinct events were left out */
    size_t unrecognized;       /* lines that are no header, frame, blank line or comment */
    size_t first_unrecognized; /* the line number of the first of them */
    char first_unrecognized_text[64];
    size_t stray_frames; /* frame lines in no sample: after a blank line or a one-line sample */
    size_t first_stray;  /* the line number of the first of them */
    size_t unterminated; /* the header line of a last sample left out: no blank line after it */
};

void perf_collapse_report_free(struct perf_collapse_report *r);

/*
 * Adds every counted sample of `in` (called `in_name` in messages) to
 * `t`, its weight (the period when the header gives one, else 1) on the
 * stack's leaf node. Returns 0, or -1 with `e` set: ERROR_CORRUPT ("NAME:
 * line N: ..."), ERROR_UNREADABLE, ERROR_NO_MEMORY; `report` is filled in
 * either way.
 */
int perf_collapse(FILE *in, const char *in_name, const struct perf_collapse_opts *o, struct trie *t,
                  struct strtab *names, struct perf_collapse_report *report, struct error *e);

/* How the unwinding of a --call-graph dwarf sample's user stack ended. */
enum unwind_end {
    UNWIND_COMPLETE,  /* at the outermost frame, or at `max` */
    UNWIND_NO_REGS,   /* no usable pc/sp among the sampled registers: nothing unwound */
    UNWIND_STACK_CUT, /* a word was in neither the stack copy nor a mapped file */
    UNWIND_NO_MODULE, /* a pc in no mapped ELF file (JIT code, a missing binary) */
    UNWIND_BAD_CFI,   /* the CFI could not take the unwinding further */
    UNWIND_NO_MEMORY,
};

struct maps_snapshot;
struct debug_cache_later_store;

/*
 * Inflated DWARF a fold leaves to be stored after the caller's output
 * (perf/dwarf/debug_cache.h): the caller, once its output is written,
 * calls debug_cache_store_detached, and a child process it does not wait
 * for writes them, so the command's time leaves out the file system's.
 */
struct debug_cache_later {
    struct debug_cache_later_store *stores;
    size_t count;
};

/*
 * Writes the list's stores from a child process (its standard streams
 * /dev/null) that exits when done, not waited for: the caller should exit
 * soon after. Without a child (fork failed) they are written here. The
 * list is then freed.
 */
void debug_cache_store_detached(struct debug_cache_later *l);

/*
 * How a perf.data file is folded: records in perf script's order, the
 * recorded system followed through them, each sample of the counted
 * event added with its weight (its period when the file records periods,
 * or the fixed period of `perf record -c N`, else 1) under its comm frame,
 * outermost caller first. The counted event is the first sample's, or
 * the one `event` names (its name as perf prints it, with or without
 * perf's modifiers).
 */
struct perf_fold_opts {
    const char *event; /* count only this event; NULL: the first sample's */
    struct perf_name_opts names;
    const char *kallsyms; /* use this kallsyms file for the kernel (NULL: perf's choice) */
    bool no_inline;       /* --no-inline: DWARF-unwound frames without their inlined functions */
    struct maps_snapshot *maps; /* mappings the recording lacks (--maps); NULL: none */

    /*
     * Where perf_recording_fold finds symbols and keeps inflated DWARF:
     * perf's build-id cache (NULL: $PERF_BUILDID_DIR, else ~/.debug), and
     * the list the stores are left to (NULL: stored on threads the fold
     * waits for). Debug files are looked for in /usr/lib/debug; inflated
     * DWARF is kept in $ZKPROF_CACHE_DIR (empty: not kept), else
     * $XDG_CACHE_HOME/zkprof, else ~/.cache/zkprof.
     */
    const char *buildid_dir;
    struct debug_cache_later *debug_cache_later;
};

/* What the caller may want to say about the run. */
struct perf_fold_report {
    uint64_t samples;       /* samples counted */
    uint64_t other_samples; /* samples of other events, left out */
    uint64_t dwarf_samples; /* counted samples whose user stack was unwound (or tried) */
    uint64_t dwarf_ends[UNWIND_NO_MEMORY + 1]; /* how those unwindings ended */
    uint64_t unknown_samples;                  /* samples of no known event (perf skips them too) */
    const char *counted_event;    /* the event counted (into the file's attributes); NULL: none */
    const char *other_event;      /* one event left out, for the message */
    bool no_callchain;            /* the counted event has no call chains: leaves only */
    bool kernel_unresolved;       /* kernel frames were hit but no kallsyms fitted */
    uint64_t compressed_records;  /* PERF_RECORD_COMPRESSED(2) records read (perf record -z) */
    bool compressed_cut;          /* the compressed data ends inside a zstd block */
    size_t compressed_leftover;   /* bytes of an unfinished record after the last one */
    size_t damaged_debug_files;   /* debug files whose compressed DWARF did not inflate */
    char damaged_debug_path[256]; /* the first of them */

    /* The file (perf_recording_fold only). */
    bool data_size_guessed;    /* the header gave no data size: records read to the file's end */
    unsigned nr_features_lost; /* feature sections the file's end cut off */
    bool build_ids_lost;       /* HEADER_BUILD_ID among them: binaries read by path */
    char events[512];          /* the file's events, "a, b", for messages */
};

/* A perf.data file opened for folding (perf/fold/recording.c). */
struct perf_recording;

/*
 * Opens `path`, checks its header and sections, and names its events.
 * Returns 0, or -1 with `e` set (*out NULL): the file is unreadable, not
 * a usable perf.data file (the error names what is wrong and its offset),
 * or memory ran out.
 */
int perf_recording_open(struct perf_recording **out, const char *path, struct error *e);
void perf_recording_close(struct perf_recording *r);

/*
 * Adds the recording's counted samples to `t`. Returns 0, or -1 with `e`
 * set (the file is corrupt at some offset, or memory ran out). The
 * report's event names live as long as the recording.
 */
int perf_recording_fold(struct perf_recording *r, const struct perf_fold_opts *o, struct trie *t,
                        struct strtab *names, struct perf_fold_report *report, struct error *e);

/* Whether the perf.data file at `path` holds an exec (a COMM record from exec). */
bool perf_recording_has_exec(const char *path);

/*
 * The executable file mappings of processes, as /proc/PID/maps showed
 * them while the processes lived (docs/FORMATS.md, "Maps snapshot";
 * perf/machine/maps_snapshot.h): `cli profile` takes one while it records
 * and `cli perf fold --maps FILE` reads one, so that samples in code whose
 * MMAP record the recording lacks are still named.
 */
struct maps_entry;
struct maps_key;
struct maps_seen;

struct maps_snapshot {
    struct maps_entry *items; /* in the order seen */
    size_t count, capacity;
    struct maps_key *by_pid; /* the items sorted by pid, then order; built by a find */
    size_t indexed;          /* how many items by_pid covers */
    struct maps_seen *seen;
};

void maps_snapshot_init(struct maps_snapshot *s);
void maps_snapshot_free(struct maps_snapshot *s);

/*
 * Reads a snapshot file into `s` (appending). Returns 0, or -1 with `e`
 * set: ERROR_UNREADABLE, ERROR_CORRUPT naming the line and what is wrong,
 * ERROR_NO_MEMORY.
 */
int maps_snapshot_read(struct maps_snapshot *s, const char *path, struct error *e);

/* Writes `s` in the file format. Returns 0, or -1 with errno set (stdio's convention). */
int maps_snapshot_write(FILE *out, const struct maps_snapshot *s);

/*
 * proc_watch: the process tree under one process (perf record, for `cli
 * profile`), polled through /proc: each poll walks the tree by
 * /proc/PID/task/TID/children and adds the executable mappings of every
 * process found to a maps snapshot while the process lives. A process's
 * maps are read when it is first seen and whenever its executable or
 * command name changes (an exec), then again after 1, 2, 4, ... up to 64
 * polls (a dlopen); the processes that run `skip_exe` (perf's child
 * before it execs the command) are walked, not snapshotted.
 *
 * A process that starts and exits between two polls is missed; so are
 * mappings made and unmapped between two reads.
 */
struct watched_proc; /* perf/machine/proc_watch.c */

struct proc_watch {
    int32_t root;
    char *skip_exe; /* processes running this (perf itself) are walked, not snapshotted */
    struct maps_snapshot *snap;
    struct watched_proc *procs; /* uthash by pid */
    uint64_t polls;
    bool no_children_files; /* the kernel lacks /proc/PID/task/TID/children */
    char *buf;              /* for reading /proc files */
    size_t buf_cap;
};

/*
 * Watches the descendants of `root`, adding to `snap`; `skip_exe` (NULL:
 * none) is a resolved executable path. Returns 0 or -1 (memory).
 */
int proc_watch_init(struct proc_watch *w, int32_t root, const char *skip_exe,
                    struct maps_snapshot *snap);
void proc_watch_free(struct proc_watch *w);

/* One walk of the tree. Returns 0, or -1 when memory runs out. */
int proc_watch_poll(struct proc_watch *w);

/*
 * Frame pointers, which `perf record --call-graph fp` needs to walk a
 * program's stacks (perf/dwarf/frame_pointers.h: a census of the unwind
 * tables). Whether the ELF file at `path` keeps them; true when it cannot
 * tell (not an ELF file, no functions found).
 */
bool frame_pointers_kept(const char *path);

/*
 * The first shared library the ELF file at `path` names (DT_NEEDED, found
 * as the loader searches RPATH, LD_LIBRARY_PATH, RUNPATH and the system
 * directories) that does not keep frame pointers, its path written to
 * `why`; the C and C++ runtime libraries are left out, their frames being
 * leaves or beside the point. False when none lacks them, or `path` is no
 * ELF file.
 */
bool frame_pointers_lacking_library(const char *path, char *why, size_t size);

#endif
