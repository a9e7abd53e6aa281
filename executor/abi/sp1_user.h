/*
 * sp1_user: SP1 v6's address space and its user mode, as its minimal
 * executor runs them (succinctlabs/sp1 v6.4.0 crates/core/executor,
 * docs/ZKVMS.md#sp1, "User mode"): [0x1000, 2^40) read-write, granted
 * lazily; an ELF whose SUCCINCT note names a region (v6.2 on) turns on
 * page rights, MPROTECT on that region, traps into the handler
 * __SUCCINCT_TRAP_CONTEXT names, and SIG_RETURN.
 */
#ifndef EXECUTOR_ABI_SP1_USER_H
#define EXECUTOR_ABI_SP1_USER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "executor/abi/abi.h"

struct machine;
struct elf_image;

/* The ELF's SUCCINCT note (NOTE_UNTRUSTED_PROGRAM_ENABLED, sp1-primitives consts.rs). */
enum sp1_note {
    SP1_NOTE_NONE,
    SP1_NOTE_FLAG,   /* desc "1": v6.0 and v6.1 read it, and run nothing differently */
    SP1_NOTE_REGION, /* desc '1' 0 0 0, heap start, heap end (v6.2 on): user mode */
};

struct sp1_user {
    enum sp1_note note;
    bool on;          /* user mode: the note names a region and the release is v6.2 on */
    uint64_t lo, hi;  /* the note's region, where MPROTECT works */
    bool has_context; /* the ELF has __SUCCINCT_TRAP_CONTEXT, at `context` */
    uint64_t context;
    uint64_t traps, sig_returns; /* for --stats */
};

/*
 * Reads the note and the trap context's symbol; user mode is on when
 * `release_has_traps`. Returns 0, or -1 with ERROR_UNSUPPORTED when that
 * release refuses the ELF: a note whose region is empty (elf.rs asserts
 * heap_end > heap_start from v6.2 on).
 */
int sp1_user_read(const struct elf_image *img, bool release_has_traps, struct sp1_user *u,
                  struct error *e);

/*
 * Lays out an RV64 guest's memory: [0x1000, 2^40) read-write, lazily; the
 * segments read-write with their own rights on top, or in user mode with
 * exactly their ELF rights (SP1's page_prot_image); the code decoded once.
 */
void sp1_user_map(struct machine *m, const struct elf_image *img, const struct sp1_user *u);

/* MPROTECT (a0: a page, a1: its rights) as v6.2 on runs it. */
enum ecall_result sp1_user_mprotect(struct machine *m, struct sp1_user *u);

/* SIG_RETURN (a0: the saved pc, then x1..x31): *t0 is the restored x5. */
enum ecall_result sp1_user_sig_return(struct machine *m, struct sp1_user *u, uint64_t *t0);

/*
 * In user mode, checks the pages of the precompile `code`'s operands as
 * SP1 does before it runs it; true when it may run. False when a page
 * forbids it: the ecall then enters the trap handler (*r ECALL_JUMP, t0
 * untouched) or faults without one (*r ECALL_FAULT).
 */
bool sp1_user_precompile_allowed(struct machine *m, struct sp1_user *u, uint64_t code,
                                 const char *name, enum ecall_result *r);

/* abi->fault_traps: a load, store or fetch the page rights forbid enters the trap handler. */
bool sp1_user_fault_traps(struct machine *m, struct sp1_user *u);

#endif
