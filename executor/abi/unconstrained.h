/*
 * unconstrained: the unconstrained blocks of SP1 and of Pico, which took
 * them from SP1 (ENTER_UNCONSTRAINED ... EXIT_UNCONSTRAINED): the guest
 * runs on, uncounted by the zkVM, and at the exit memory and every
 * register go back to what they were at the enter, the run going on
 * after it. Memory comes back through a snapshot (mem_snapshot_begin),
 * the profile through the tracer's mark and rewind.
 */
#ifndef EXECUTOR_ABI_UNCONSTRAINED_H
#define EXECUTOR_ABI_UNCONSTRAINED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "executor/machine.h"

struct unconstrained {
    bool running;
    union regfile saved_regs;
    uint64_t enter_pc, enter_clock;
    uint64_t blocks, instructions; /* all blocks so far: the zkVM counts none of them */
};

/*
 * ENTER_UNCONSTRAINED: keeps memory and registers. A block already
 * running faults with `nested_kind` and `nested_why` (what the zkVM does).
 */
enum ecall_result unconstrained_enter(struct machine *m, struct unconstrained *u,
                                      enum fault_kind nested_kind, const char *nested_why);

/* EXIT_UNCONSTRAINED: back to the enter (ECALL_JUMP); outside a block it only returns. */
enum ecall_result unconstrained_exit(struct machine *m, struct unconstrained *u);

/* The --stats line of the blocks run, if any: `zkvm` names whose cycle count leaves them out. */
void unconstrained_report(const struct unconstrained *u, const char *zkvm, FILE *out);

#endif
