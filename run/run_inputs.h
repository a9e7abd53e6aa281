/*
 * run_inputs: a zkVM guest's private input, read whole before it runs:
 * the items of an SP1Stdin file (SP1's SDK's bincode serialization) and
 * then one item per input file, as the ABIs take them (machine_io.inputs:
 * items, or one stream of them all).
 */
#ifndef RUN_RUN_INPUTS_H
#define RUN_RUN_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "executor/machine.h"

struct run_inputs {
    struct machine_input list[256]; /* each item's bytes, owned */
    size_t count;
    uint64_t proofs; /* the SP1Stdin file's proofs, counted */
};

/*
 * Reads `sp1_stdin` (NULL: none) and then the `n` files of `paths` into
 * `in` (at most 64 files and 192 SP1Stdin items). Returns 0, or -1 with
 * `e` set: ERROR_UNREADABLE for a file that cannot be read or an SP1Stdin
 * that is none, ERROR_NO_MEMORY. Free `in` with run_inputs_free either way.
 */
int run_inputs_read(struct run_inputs *in, const char *sp1_stdin, const char *const *paths,
                    size_t n, struct error *e);

void run_inputs_free(struct run_inputs *in);

#endif
