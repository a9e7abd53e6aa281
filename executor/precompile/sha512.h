/*
 * sha512: the SHA-512 compression function (FIPS 180-4, section 6.4),
 * which SHA-384 shares, as OpenVM 2's sha2 extension exposes it.
 */
#ifndef EXECUTOR_PRECOMPILE_SHA512_H
#define EXECUTOR_PRECOMPILE_SHA512_H

#include <stdint.h>

/* One compression of a 128-byte block (big-endian 64-bit words) into h. */
void sha512_block(uint64_t h[8], const uint8_t block[128]);

#endif
