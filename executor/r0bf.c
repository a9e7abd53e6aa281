/*
 * r0bf: the layout RISC Zero's binfmt crate writes (all integers u32
 * little-endian):
 *   "R0BF", format version 1, header length H, the header (H bytes: the
 *   ABI kind and version), the user ELF's length U, the user ELF (U
 *   bytes), then the kernel ELF to the end of the file.
 */
#include "executor/r0bf.h"

#include <string.h>

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool r0bf_is_container(const uint8_t *file, size_t size)
{
    return size >= 4 && memcmp(file, "R0BF", 4) == 0;
}

int r0bf_user_elf(const uint8_t *file, size_t size, size_t *offset, size_t *len, struct error *e)
{
    if (size < 12) {
        error_fail(e, ERROR_CORRUPT, "truncated R0BF container (%zu bytes)", size);
        return -1;
    }
    uint32_t version = le32(file + 4), header = le32(file + 8);
    if (version != 1) {
        error_fail(e, ERROR_CORRUPT, "R0BF container of format version %u (only 1 is known)",
                   version);
        return -1;
    }
    if (header > size - 12 || size - 12 - header < 4) {
        error_fail(e, ERROR_CORRUPT, "truncated R0BF container: header of %u bytes in %zu", header,
                   size);
        return -1;
    }
    size_t at = 12 + (size_t)header + 4;
    uint32_t user = le32(file + at - 4);
    if (user == 0 || user > size - at) {
        error_fail(e, ERROR_CORRUPT,
                   "R0BF container with a user ELF of %u bytes at offset %zu of %zu", user, at,
                   size);
        return -1;
    }
    *offset = at;
    *len = user;
    return 0;
}
