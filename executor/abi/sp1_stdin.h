/*
 * sp1_stdin: SP1's SDK stdin (SP1Stdin) as bincode serializes it
 * (bincode 1, fixed-width little-endian integers): buffer: Vec<Vec<u8>>
 * (a u64 count, then each item as a u64 length and its bytes), ptr: u64,
 * then proofs: Vec<...> (a u64 count and the proofs, which are not read).
 */
#ifndef EXECUTOR_ABI_SP1_STDIN_H
#define EXECUTOR_ABI_SP1_STDIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "executor/machine.h"

/*
 * The items of the SP1Stdin in data[0, size): up to `max` into items (each
 * pointing into data), their number in *count and the number of proofs in
 * *proofs. False with ERROR_CORRUPT in `e` when the bytes are not one,
 * ERROR_UNSUPPORTED when it holds more than `max` items.
 */
int sp1_stdin_parse(const uint8_t *data, size_t size, struct machine_input *items, size_t max,
                    size_t *count, uint64_t *proofs, struct error *e);

#endif
