/*
 * jolt_advice: Jolt's advice tape, the byte queue its guests write with
 * the advice write call and read back with the advice loads. Internal to
 * the Jolt ABI.
 */
#ifndef EXECUTOR_ABI_JOLT_ADVICE_H
#define EXECUTOR_ABI_JOLT_ADVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "executor/abi/abi.h"
#include "executor/abi/abi_util.h"
#include "executor/machine.h"

struct jolt_tape {
    struct abi_buffer bytes; /* every byte written */
    uint64_t read;           /* how many of them the loads took */
};

/*
 * The advice write (a0 = 0xADBABE): appends the a2 guest bytes at a1. A
 * byte that cannot be read appends nothing, as the tracer swallows that
 * fault; a tape past 1 GiB faults.
 */
enum ecall_result jolt_tape_write(struct machine *m, struct jolt_tape *t);

/* True for a custom-2 word that is an advice load: funct3 3-7, or (HEAD's) funct3 0 funct7 0-4 rs1
 * x0. */
bool jolt_tape_is_load(uint32_t w);

/*
 * Runs the advice load w: rd = the next 1, 2, 4 or 8 tape bytes
 * (little-endian, sign-extended below 8), or the count of bytes left; a
 * fault when the tape has too few.
 */
enum ecall_result jolt_tape_load(struct machine *m, struct jolt_tape *t, uint32_t w,
                                 const char **call);

void jolt_tape_free(struct jolt_tape *t);

#endif
