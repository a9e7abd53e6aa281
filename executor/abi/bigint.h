/*
 * bigint: big-integer precompiles on little-endian 32-bit limbs, with GMP.
 */
#ifndef EXECUTOR_ABI_BIGINT_H
#define EXECUTOR_ABI_BIGINT_H

#include <stdint.h>

/* z = x * y mod m on 8-limb (256-bit) numbers; m = 0 means mod 2^256. z may alias x or y. */
void bigint_mulmod_256(uint32_t z[8], const uint32_t x[8], const uint32_t y[8],
                       const uint32_t m[8]);

#endif
