/*
 * run: one guest run as a library, for `cli execute`, the fuzz target and
 * the tests: open the guest (an ELF, a RISC Zero program binary or
 * Airbender's raw image) and choose its ABI; build the machine with the
 * inline frames its profile needs; set up the tracer and the weights; run
 * it in steps that stop for the budget and the checkpoints; hand back its
 * profile (profile/profile.h) for flamegraph/profile_write.h; and tear it
 * all down in one place, run_close, whatever step failed. Messages for
 * the user are complete lines in `struct error` (common/error.h) or, for
 * warnings, run_options.warnings (common/warning.h; the machine's
 * own one-time warnings go there too); exit statuses are the caller's.
 * The one header of run/ its users include: the weights (run_weights.h),
 * the inputs (run_inputs.h) and the words for a stop (fault_text.h) come
 * with it.
 */
#ifndef RUN_RUN_H
#define RUN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/warning.h"
#include "executor/abi/jolt_layout.h"
#include "executor/elf_image.h"
#include "executor/machine.h"
#include "profile/profile.h"
#include "run/fault_text.h"
#include "run/run_inputs.h"
#include "run/run_weights.h"
#include "symtab/inline_chain.h"
#include "symtab/symtab.h"
#include "tracer/guest_profile.h"

struct run_options {
    const char *guest_path;       /* the guest's file, named in messages */
    uint8_t *image;               /* or its bytes, an ELF (malloc'd; the run takes them) */
    size_t image_size;            /* its length in bytes */
    const char *zkvm;             /* the ABI's name (abi_by_name); NULL or "auto": detected */
    const char *symbols;          /* a raw image's ELF (Airbender's app.elf), or NULL */
    uint64_t max_cycles;          /* the budget in instructions; 0: none */
    uint64_t checkpoint_cycles;   /* a checkpoint every so many instructions; 0: none */
    bool profile;                 /* follow the guest's calls into a profile */
    bool no_inline;               /* function frames only (--no-inline) */
    bool lines;                   /* leaves NAME:LINE (--lines; inline frames read for it) */
    bool raw;                     /* raw profiles wanted: with DWARF, every pc counted */
    struct warning_sink warnings; /* where warnings go (common/warning.h); none: dropped */
};

struct run {
    const struct run_options *o;
    struct elf_image img;
    bool loaded; /* img and syms hold the guest */
    struct symtab syms;
    const struct abi *abi;         /* run_open's choice */
    char abi_why[560];             /* why: "--zkvm NAME" or "auto: ..." (--stats) */
    char *code_beside; /* Airbender's app.bin run for an app.elf without code (load_guest) */
    struct inline_chains *inlines; /* NULL: function frames only */
    struct machine m;
    bool built;                 /* m is built */
    struct run_weights weights; /* the caller's models (cli: --weight), set before run_trace */
    struct guest_profile profile;
    bool profiling;           /* profile is set up and attached */
    bool ran;                 /* run_execute was called */
    uint64_t next_checkpoint; /* UINT64_MAX: none */
    uint64_t flushed_at;      /* m.retired when the profile was last flushed, +1 */
};

/*
 * Loads the guest and chooses its ABI (`o` must outlive the run): refuses
 * what is no program, fits the code span and, for an ABI whose hart has
 * no C, a guest built with it (a warning). Returns 0, or -1 with `e` set,
 * its message naming the cause without the guest's name (the caller says
 * whose). Call run_close either way.
 */
int run_open(struct run *r, const struct run_options *o, struct error *e);

/* Whether the guest is Airbender's raw image (--zkvm airbender, no ELF header). */
bool run_raw_image(const struct run_options *o);

/*
 * Jolt's I/O sizes (machine_io.jolt_memory) from `sizes`, as
 * #[jolt::provable(...)] names them ("max_input_size=N,..."), over Jolt's
 * defaults, and laid out once to refuse what Jolt refuses. False with
 * ERROR_UNSUPPORTED in `e`.
 */
int run_jolt_memory(const char *sizes, struct jolt_memory *out, struct error *e);

/*
 * Builds the machine with `io` (inputs, outputs, ABI settings, all the
 * caller's and to outlive the run) and opens the inline frames the
 * profile needs (a warning, and function frames only, where the DWARF
 * cannot be read). Returns 0, or -1 with `e` set (a whole message).
 */
int run_start(struct run *r, const struct machine_io *io, struct error *e);

/*
 * Sets up the profile with r->weights (cost models the caller chose for
 * r->abi and r->m.xlen, owned by the run from then on): per-pc counts or
 * the cost clock, the tracer attached, the page tracker. Returns 0, or -1
 * with `e` set (ERROR_NO_MEMORY, a whole message).
 */
int run_trace(struct run *r, struct error *e);

/*
 * Chooses the engine (--engine, run_start's io.engine) for the machine as
 * run_trace left it: the translation tier where it can run. Returns 0, or
 * -1 with `e` set when the tier was asked for and cannot run (a whole
 * message; ERROR_UNSUPPORTED, a usage error for the caller). run_execute
 * chooses quietly when nobody did.
 */
int run_engine(struct run *r, struct error *e);

/* How far a step of the run went. */
enum run_stop {
    RUN_GOING,      /* a pause (2^28 instructions), for progress: call again */
    RUN_CHECKPOINT, /* a checkpoint is due: write the profile, then call again */
    RUN_EXITED,     /* the guest exited: r->m.exit_status */
    RUN_FAULTED,    /* the guest faulted: r->m.fault (run_fault_text) */
    RUN_SPENT,      /* max_cycles instructions retired */
};

/* Runs the guest to its next stop. */
enum run_stop run_execute(struct run *r);

/* Ends the run's accounting once it stopped: the last paging segment. */
void run_finish(struct run *r);

/* What a profile's frames are named by. */
enum run_frames {
    RUN_FRAMES_NAMED,    /* functions and inline frames; NAME:LINE leaves with --lines */
    RUN_FRAMES_RAW,      /* 0x<target>, with DWARF 0x<target>@0x<pc> (enrich_flamegraph.py) */
    RUN_FRAMES_FUNCTION, /* as NAMED without the lines: what a report sums up */
};

/*
 * The profile of everything retired so far into `out` (initialized here;
 * profile_free it either way): the instructions, or one weight per
 * r->weights model. Returns 0, or -1 with errno set (ENOMEM also when the
 * profile ran out of memory during the run).
 */
int run_profile(struct run *r, enum run_frames frames, struct profile *out);

/* --stats with weights: the opcode classes, the cost clock, the paging (run_weights_stats). */
void run_weight_stats(struct run *r, FILE *out);

/*
 * Says what was noticed while the profile was written (damaged DWARF, a
 * rewritten branch; once, after it), then frees all the run holds and
 * leaves `r` empty, so that closing it again does nothing.
 */
void run_close(struct run *r);

#endif
