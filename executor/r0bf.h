/*
 * r0bf: the RISC Zero program binary (the "R0BF" container its build
 * writes): a header, the user ELF and the kernel ELF. The executor runs
 * the user ELF under the risc0 ABI, so loading unpacks it.
 */
#ifndef EXECUTOR_R0BF_H
#define EXECUTOR_R0BF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* True when the file starts with the container's magic. */
bool r0bf_is_container(const uint8_t *file, size_t size);

/*
 * Finds the user ELF inside a container: [*offset, *offset + *len).
 * Returns false with ERROR_CORRUPT in `e` when the container is damaged.
 */
int r0bf_user_elf(const uint8_t *file, size_t size, size_t *offset, size_t *len, struct error *e);

#endif
