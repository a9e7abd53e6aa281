/*
 * sp1_stdin: reads the item list of a bincode-serialized SP1Stdin.
 */
#include "executor/abi/sp1_stdin.h"

#include <string.h>

/* The u64 at *at, little-endian; false when fewer than 8 bytes are left. */
static bool read_u64(const uint8_t *data, size_t size, size_t *at, uint64_t *v)
{
    if (size - *at < 8)
        return false;
    *v = 0;
    for (int i = 7; i >= 0; i--)
        *v = *v << 8 | data[*at + (size_t)i];
    *at += 8;
    return true;
}

int sp1_stdin_parse(const uint8_t *data, size_t size, struct machine_input *items, size_t max,
                    size_t *count, uint64_t *proofs, struct error *e)
{
    size_t at = 0;
    uint64_t n, ptr;
    if (!read_u64(data, size, &at, &n)) {
        error_fail(e, ERROR_CORRUPT, "too short for an SP1Stdin (no item count)");
        return -1;
    }
    if (n > max) {
        error_fail(e, ERROR_UNSUPPORTED, "%llu items: at most %zu are taken", (unsigned long long)n,
                   max);
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t len;
        if (!read_u64(data, size, &at, &len) || len > size - at) {
            error_fail(e, ERROR_CORRUPT, "item %llu runs past the end of the file",
                       (unsigned long long)i);
            return -1;
        }
        items[i] = (struct machine_input){.data = data + at, .size = (size_t)len};
        at += (size_t)len;
    }
    if (!read_u64(data, size, &at, &ptr) || !read_u64(data, size, &at, proofs)) {
        error_fail(e, ERROR_CORRUPT, "no ptr and proof count after the %llu items",
                   (unsigned long long)n);
        return -1;
    }
    if (*proofs == 0 && at != size) {
        error_fail(e, ERROR_CORRUPT, "%zu bytes after the end of the SP1Stdin", size - at);
        return -1;
    }
    *count = (size_t)n;
    return 0;
}
